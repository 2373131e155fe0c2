"""The referee (plain Python, written from RULES.md) agrees with the engine on hundreds of logged
games per player count, and catches a deliberately corrupted log."""
import copy

import pytest

from simulator import referee
from simulator.replay import game_log
from simulator.settings import Settings

GAMES = 200
MIXES = [("greedy",), ("random",), ("greedy", "random"), ("random", "greedy")]


def _settings(players, i):
    mix = MIXES[i % len(MIXES)]
    seats = 4 if players == 2 else players
    strategies = tuple(mix[s % len(mix)] for s in range(seats))
    return Settings(players=players, strategies=strategies)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_referee_agrees_with_engine(players):
    """Every decision legal and every consequence equal, B2-B8 and R1-R21, on 200 games."""
    for game in range(GAMES):
        log = game_log(_settings(players, game), 2024, game)
        found = referee.check(log)
        assert found is None, f"game {game}: {found}"


def _corrupt_first(log, event_type, mutate):
    bad = copy.deepcopy(log)
    for ev in bad["events"]:
        if ev["type"] == event_type and mutate(ev):
            return bad, ev["i"]
    raise AssertionError(f"no {event_type} event to corrupt")


def test_referee_catches_corrupted_decision():
    """A creature die move made longer than the die allows (B6.9/B6.10, R12) is reported at
    that event with a rule id."""
    log = game_log(Settings(players=4, strategies=("greedy",)), 5, 1)

    def stretch(ev):
        if ev["kind"] == "serpent" and ev["path"]:
            ev["path"] = ev["path"] + ev["path"][:1]
            return True
        return False
    bad, i = _corrupt_first(log, "creature", stretch)
    found = referee.check(bad)
    assert found is not None and found.event == i and found.rule.startswith(("B6", "R12"))


def test_referee_catches_corrupted_consequence():
    """A snapshot claiming an explorer rescued who is really elsewhere is reported as the first
    discrepancy, at that event."""
    log = game_log(Settings(players=4, strategies=("greedy",)), 5, 2)

    def teleport(ev):
        row = next(x for x in ev["after"]["explorers"] if x[1] == "land")
        row[1], row[2] = "safe", 133
        return True
    bad, i = _corrupt_first(log, "turn_start", teleport)
    found = referee.check(bad)
    assert found is not None and found.event == i


def test_referee_catches_corrupted_record():
    """A record whose score disagrees with the final position is caught (B7.2)."""
    log = game_log(Settings(players=3, strategies=("greedy",)), 5, 3)
    bad = copy.deepcopy(log)
    bad["record"]["score_0"] = bad["record"]["score_0"] + 1
    found = referee.check(bad)
    assert found is not None and "score_0" in found.message
