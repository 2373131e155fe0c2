"""Games with a Python policy at the table: played one decision at a time through
``play.stepper``, every other seat answered as its strategy answers in the engine
(``StrategyAnswers``), so the record is the one the engine would write for the same answers.

``run_records`` sends here any settings with a policy seat (``Settings.policy_seats``), so a
tournament, a sweep and a study seat a policy like any strategy: slowly (a few hundred
decisions per game, each a re-entry of the engine and a Python call; docs/performance.md).

Reproducible like every game: game ``g`` of root seed ``r`` depends only on (r, g, settings),
and a policy draws its randomness from the generator it is handed, seeded by (r, g, seat).
"""
from __future__ import annotations

import numpy as np

from simulator.state import DECISION_NAMES
from strategies.registry import parse_spec

from simulator.state import MAX_SEATS
from strategies.registry import PLUGIN_CODE

from .layout import REC_W, ST_SIDS
from .observation import colours_of, observe
from .settings import Settings, settings_vector
from .stepper import Stepper, StrategyAnswers, script_seat


class PolicyError(ValueError):
    """A policy's answer was not a legal row, or the policy raised (one line)."""


def stepped_records(settings: Settings, seed: int, first: int, count: int) -> np.ndarray:
    """Raw int32 records of games ``first .. first+count-1``, as ``run_records``."""
    stepper = Stepper(settings)
    policies, answers = _seats(settings)
    out = np.empty((count, REC_W), np.int32)
    for j in range(count):
        _play(stepper, policies, answers, seed, first + j)
        out[j] = stepper.record
    return out


def _play(stepper: Stepper, policies: dict, answers: dict, seed: int, game: int) -> None:
    settings = stepper.settings
    players, seats = settings.players, settings.seats
    q = stepper.reset(seed, game)
    rngs = {seat: np.random.default_rng([seed, game, seat]) for seat in policies}
    while q is not None:
        s = policies.get(q.seat)
        if s is None:
            k = answers[settings.strategies[q.seat]](stepper)
        else:
            player = q.seat % players
            obs, mask = observe(q.state, player, colours_of(player, players, seats), q)
            k = _ask(s, q, obs, mask, rngs[q.seat], game, seed)
        q = stepper.answer(k)


def scripted_engine_args(settings: Settings, seed: int, game: int) -> tuple:
    """What the engine's entry points take (``simulate.engine_args``) to play game ``game``
    again as the stepper played it: every seat answering the rows the game's questions were
    answered with, in order. The replay log of a game with a policy seat is written so
    (``play.record``), by the engine's own logging code."""
    stepper = Stepper(settings)
    _play(stepper, *_seats(settings), seed, game)
    st = settings_vector(settings)
    st[ST_SIDS:ST_SIDS + MAX_SEATS] = PLUGIN_CODE
    fn = script_seat(stepper.history)
    return st, np.zeros_like(settings.strategy_params), (fn,) * MAX_SEATS


def _seats(settings: Settings) -> tuple[dict, dict]:
    """The policy of each policy seat, and what answers for every other seat's spec."""
    policies = {seat: parse_spec(settings.strategies[seat])[0]
                for seat in settings.policy_seats}
    answers = {}
    for seat, spec in enumerate(settings.strategies):
        if seat not in policies and spec not in answers:
            try:
                answers[spec] = StrategyAnswers(spec)
            except ValueError as e:
                raise PolicyError(f"seat {seat}: {e}, beside a Python policy") from None
    return policies, answers


def _ask(s, q, obs, mask, rng, game: int, seed: int) -> int:
    where = (f"plug-in {s.source}: policy {s.name} (seat {q.seat}) at a "
             f"{DECISION_NAMES[q.kind]} decision (game {game}, seed {seed})")
    try:
        k = s.policy(obs, mask, rng)
    except Exception as e:
        raise PolicyError(f"{where} raised {type(e).__name__}: "
                          f"{' '.join(str(e).split())}") from None
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or not 0 <= k < q.n:
        raise PolicyError(f"{where} answered {k!r}; it must return a row 0 <= k < {q.n} "
                          f"(the action mask's ones)")
    return int(k)
