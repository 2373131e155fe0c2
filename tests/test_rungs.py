"""The ladder's rungs (``careful``, ``racer``, ``saboteur``): registered with a description and
parameters, clearly stronger than ``random``, and each with the style its docstring claims,
visible in the table.

Every comparison is made on the same games: the strategy under test sits in seat k (rotated
0..3) against three ``greedy``s, with the same seeds for every strategy, so a rung's numbers are
paired with those of ``greedy`` (or ``random``) in the same seat of the same deal. Each margin
below was measured at this test's n with room of at least 3 standard errors (SE in the
comments; the games are seeded, so the test is deterministic).
"""
import ast
from functools import lru_cache

import numpy as np
import pytest

from experiments.tables.games import winners
from play.settings import Settings
from play.simulate import simulate
from strategies.api import SCRATCH_W
from strategies.registry import builtins, canonical, param_row

RUNGS = {"careful": 2, "racer": 3, "saboteur": 4}
GAMES = 150                      # per seat: 600 seat-games per strategy
SEED = 4242
CREATURES = ("serpent", "shark", "whale", "squid")


@lru_cache(maxsize=None)
def _seat_games(name):
    """Per seat-game (the strategy's seat, rotated): win share (ties split), explorers lost to
    creatures, explorers rescued, and the three greedys' mean losses to creatures."""
    cols = {"share": [], "eaten": [], "rescued": [], "opp_eaten": []}
    for k in range(4):
        st = tuple(name if s == k else "greedy" for s in range(4))
        df = simulate(Settings(players=4, strategies=st), GAMES, SEED + k, threads=1)
        w = winners(df, "shared").to_numpy(float)
        eaten = [sum(df[f"lost_{c}_{s}"].to_numpy() for c in CREATURES) for s in range(4)]
        cols["share"].append(w[:, k] / w.sum(axis=1))
        cols["eaten"].append(eaten[k])
        cols["rescued"].append(df[f"rescued_{k}"].to_numpy())
        cols["opp_eaten"].append(np.mean([eaten[s] for s in range(4) if s != k], axis=0))
    return {key: np.concatenate(v).astype(float) for key, v in cols.items()}


def _paired(a, b, key):
    """Mean and standard error of ``a - b`` in ``key`` over the same seat-games."""
    d = _seat_games(a)[key] - _seat_games(b)[key]
    return d.mean(), d.std(ddof=1) / np.sqrt(len(d))


def test_rungs_are_registered_with_descriptions_and_parameters():
    found = builtins()
    for name, code in RUNGS.items():
        s = found[name]
        assert s.code == code and s.listed and len(s.description) > 20
        assert 1 <= len(s.params) <= 4 and 0 < s.mem_w <= SCRATCH_W
        doc = ast.get_docstring(ast.parse(s.source.read_text(encoding="utf-8")))
        assert "Why it plays differently" in doc             # its style, documented
        for p in s.params:                            # every parameter settable by name
            assert canonical(f"{name}:{p.name}={p.high:g}") == f"{name}:{p.name}={p.high:g}"
            assert param_row(f"{name}:{p.name}={p.low:g}")[s.params.index(p)] == p.low
        assert canonical(name) == name
    assert [s.name for s in found.values()][:5] == ["random", "greedy", "careful", "racer",
                                                     "saboteur"]


@pytest.mark.parametrize("name", list(RUNGS))
def test_each_rung_beats_random_clearly(name):
    """Against three greedys, random wins almost never; each rung at least 8 points of the
    win share more, in the same seats of the same deals (measured: careful +0.150 SE 0.014,
    racer +0.331 SE 0.019, saboteur +0.175 SE 0.015)."""
    gain, se = _paired(name, "random", "share")
    assert gain > 0.08, (gain, se)


def test_careful_loses_fewer_explorers_to_creatures_than_greedy_and_racer():
    """careful's price on danger shows: fewer of its explorers eaten or capsized than greedy's
    in its seat (measured -0.353 a game, SE 0.074) and than racer's (-0.793, SE 0.075)."""
    fewer, se = _paired("careful", "greedy", "eaten")
    assert fewer < -0.1, (fewer, se)
    fewer, se = _paired("careful", "racer", "eaten")
    assert fewer < -0.4, (fewer, se)


def test_racer_gets_more_explorers_home_and_braves_creatures():
    """racer's value-first race shows: more explorers rescued than greedy in its seat
    (measured +0.517 a game, SE 0.063), and more lost to creatures than careful (+0.793, SE
    0.075)."""
    more, se = _paired("racer", "greedy", "rescued")
    assert more > 0.2, (more, se)
    braver, se = _paired("racer", "careful", "eaten")
    assert braver > 0.4, (braver, se)


def test_saboteurs_opponents_lose_more_to_creatures():
    """saboteur's creatures go after the others: its three opponents lose more explorers to
    creatures than greedy's opponents in the same seat (measured +0.322 a game, SE 0.049), and
    far more than random's (+1.153, SE 0.055; random moves creatures aimlessly)."""
    more, se = _paired("saboteur", "greedy", "opp_eaten")
    assert more > 0.15, (more, se)
    more, se = _paired("saboteur", "random", "opp_eaten")
    assert more > 0.8, (more, se)
