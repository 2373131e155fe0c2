"""The contract every registered strategy must pass (RULES R11): the built-ins, the worked
example plug-in, and any plug-in named in ``SURVIVE_SIM_PLUGINS`` (paths separated by the
system's path separator), so a user can run this file on their own bot.

1. Legal answers at every decision of 2-6 player games under every challenge and expansion (the
   engine checks each answer and stops the run on a bad one).
2. Identical tables for the same seed, whatever the threads and chunks.
3. Decisions unchanged when hidden information -- unrevealed tile backs, explorer values, other
   seats' hands and values -- is re-randomised: the position's public part and the seat's own
   secrets are all a strategy may use, and the test fills every other cell of the state with
   noise (so even a read past the end of ``pub`` or ``mine`` is caught).
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from simulator import rules as R
from play.record import play_logged
from play.settings import Settings
from play.simulate import numba_threads, run_records
from simulator.state import (
    D_MOVE,
    D_MOVE_PIECE,
    D_PLAY_TILE,
    D_SINK,
    MAX_OPTS,
    OPT_W,
    PRIV,
    PRIV_W,
    PUB_SIZE,
    STATE_SIZE,
)
from strategies.api import SCRATCH_W
from strategies.plugins import load_plugins
from strategies.registry import all_strategies, param_row

ROOT = Path(__file__).resolve().parents[1]
load_plugins([ROOT / "examples" / "homing_bot.py"]
             + [p for p in os.environ.get("SURVIVE_SIM_PLUGINS", "").split(os.pathsep) if p])
NAMES = [n for n, s in all_strategies().items() if s.listed]

# every challenge and expansion at least once, at every player count
CASES = [
    dict(players=2), dict(players=3, challenges=(1, 2)), dict(players=4, challenges=(3, 4)),
    dict(players=4, dolphins=True, squid=True), dict(players=5, challenges=(1, 6)),
    dict(players=5, squid=True, squid_only=True, creatures_must_move=True),
    dict(players=6, challenges=(2, 3, 4, 6), dolphins=True),
    dict(players=6, challenges=(1,), squid=True, lagoon_is_sea=False),
]


@pytest.mark.parametrize("name", NAMES)
def test_legal_answers_under_every_rule(name):
    for case in CASES:
        for mix in ((name,), (name, "random")):
            seats = 4 if case["players"] == 2 else case["players"]
            strategies = mix if len(mix) == 1 else tuple(mix[s % 2] for s in range(seats))
            run_records(Settings(strategies=strategies, **case), 11, 0, 12)   # raises if not


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_table(name):
    settings = Settings(players=4, strategies=(name, "greedy", name, "random"), dolphins=True)
    with numba_threads(1):
        one = run_records(settings, 5, 0, 40)
    with numba_threads(2):
        two = np.concatenate([run_records(settings, 5, 0, 17), run_records(settings, 5, 17, 23)])
    np.testing.assert_array_equal(one, two)


def _decisions(S, seat):
    """Decisions of several kinds in the position ``S`` as the engine would ask them."""
    opts = np.zeros((MAX_OPTS, OPT_W), np.int32)
    W = np.zeros(R.W_SIZE, np.int32)
    mine = np.ascontiguousarray(S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W])
    out = []
    n = R.options_move_pieces(S, np.int32(seat), opts)
    if n > 1:
        out.append((D_MOVE_PIECE, opts[:].copy(), n))
        what, i = int(opts[1, 0]), int(opts[1, 1])
        m = R.piece_moves(S, np.int32(seat), np.int32(what), np.int32(i), opts)
        if m > 1:
            out.append((D_MOVE, opts[:].copy(), m))
    n = R.options_sink(S, opts)
    if n > 1:
        out.append((D_SINK, opts[:].copy(), n))
    n = R.options_play_tile(S, W, np.int32(seat), mine, opts)
    if n > 1:
        out.append((D_PLAY_TILE, opts[:].copy(), n))
    return out


def _answer(s, spec, S, seat, kind, opts, n):
    pub = S[:PUB_SIZE]                 # views into S: what lies past them is S's hidden part
    mine = S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W]
    rng = np.array([12345 + seat], np.uint64)
    mem = np.zeros(SCRATCH_W, np.float64)
    work = np.zeros(R.W_SIZE, np.int32)
    return int(s.choose(pub, mine, np.int64(seat), np.int64(kind), opts.copy(), np.int64(n), rng,
                        mem, work, param_row(spec)))


def _rerandomised(S, seat, noise):
    """The same public table and own secrets; everything else replaced by noise."""
    T = noise.integers(-5, 60, STATE_SIZE).astype(np.int32)
    T[:PUB_SIZE] = S[:PUB_SIZE]
    own = slice(PRIV + seat * PRIV_W, PRIV + (seat + 1) * PRIV_W)
    T[own] = S[own]
    return T


@pytest.mark.parametrize("name", NAMES)
def test_decisions_ignore_hidden_information(name):
    spec, s = name, all_strategies()[name]
    noise = np.random.default_rng(7)
    asked = 0
    for case in (dict(players=4), dict(players=6, dolphins=True, squid=True)):
        settings = Settings(strategies=("greedy",), **case)
        _, snaps, _ = play_logged(settings, 3, 1)
        for snap in snaps[::9]:
            S = np.ascontiguousarray(snap)
            for seat in range(settings.seats):
                for kind, opts, n in _decisions(S, seat):
                    want = _answer(s, spec, S, seat, kind, opts, n)
                    assert 0 <= want < n
                    for _ in range(2):
                        T = _rerandomised(S, seat, noise)
                        assert _answer(s, spec, T, seat, kind, opts, n) == want, (
                            f"{name} changed its {kind} answer when hidden information changed")
                    asked += 1
    assert asked > 200
