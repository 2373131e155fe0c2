"""``play.stepper``: the game one decision at a time (docs/env.md, "How it is made").

Its paths the environment's tests never take: a turn longer than the journal, replayed from the
game's start; an arena that grows with a long script; and ``StrategyAnswers`` restarting at
every new game, even when a new stepper takes a dropped one's address.
"""
from __future__ import annotations

import numpy as np

import play.stepper as stepper_module
from play.settings import Settings
from play.simulate import run_records
from play.stepper import Stepper, StrategyAnswers


def _play_out(stepper: Stepper, answers: StrategyAnswers, root: int, game: int) -> np.ndarray:
    q = stepper.reset(root, game)
    while q is not None:
        q = stepper.answer(answers(stepper))
    return stepper.record


def test_a_turn_longer_than_the_journal_is_replayed_from_the_start(monkeypatch):
    """The fallback for a seat-turn of more than ``J_MAX`` rows (never met in play): with the
    bound lowered to 0, every answer after the first of a turn replays the game from its
    start with the whole history as the script (which outgrows the arena's first room), and
    the game is the rung's table row, byte for byte."""
    settings = Settings(players=4, strategies=("greedy",), challenges=(1, 2, 3, 4, 5),
                        squid=True)
    want = run_records(settings, 42, 3, 1)[0]
    calls = {"from start": 0}
    play = Stepper._play

    def counted(self, rows, from_start):
        calls["from start"] += from_start and len(rows) > 0
        return play(self, rows, from_start)

    monkeypatch.setattr(stepper_module, "J_MAX", 0)
    monkeypatch.setattr(stepper_module, "_SCRIPT_ROWS", 4)
    monkeypatch.setattr(Stepper, "_play", counted)
    stepper = Stepper(settings)
    got = _play_out(stepper, StrategyAnswers("greedy"), 42, 3)
    assert calls["from start"] > 20
    assert len(stepper.history) > 4
    assert np.array_equal(got, want)


def test_each_new_stepper_is_a_new_game_for_a_strategy():
    """``StrategyAnswers`` keys its memory and noise streams by the stepper's process-wide
    serial: a stepper made after another is dropped (and may take its address) still starts a
    fresh game, so each game is the ``random`` rung's table row."""
    settings = Settings(players=3, strategies=("random",))
    answers = StrategyAnswers("random")
    serials = set()
    for game in range(3):
        stepper = Stepper(settings)
        got = _play_out(stepper, answers, 9, game)
        assert stepper.serial not in serials
        serials.add(stepper.serial)
        assert np.array_equal(got, run_records(settings, 9, game, 1)[0]), game
        del stepper


def test_one_stepper_replays_its_games_in_any_order():
    """Resetting to an earlier game gives that game again (the arena and memory rows are
    reused, never carried over)."""
    settings = Settings(players=5, strategies=("careful",), dolphins=True)
    stepper, answers = Stepper(settings), StrategyAnswers("careful")
    first = [_play_out(stepper, answers, 3, g).copy() for g in (0, 1)]
    assert np.array_equal(_play_out(stepper, answers, 3, 0), first[0])
    assert np.array_equal(first, run_records(settings, 3, 0, 2))
