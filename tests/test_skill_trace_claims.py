"""The skill trace's claims (experiments.verdicts.claims.skill): S5 and S5b are judged once across
the self-play levels of a table, in the order the run lists them, and their effects are the
least-squares slopes they say they are; every per-style row says whether it holds for strong
play (the search rung's levels). No engine."""
from __future__ import annotations

import math

import numpy as np
import pytest

from experiments.verdicts.calibration import first_seat, synthetic
from experiments.verdicts.calibration_cases.skill import LEVELS, levels
from experiments.verdicts.catalog import from_data
from experiments.verdicts.claims.skill import (
    ACROSS_PLAY,
    search_budget,
    skill_tables,
)
from experiments.verdicts.table import NONE_ACROSS, judge, strong_summary

pytestmark = pytest.mark.engine_free

CLAIMS = {"S5": {"tolerance": 0.0025}, "S5b": {"tolerance": 0.0025}}


def _levels(n=500, players=5, excess=lambda i: 0.02 + 0.01 * i, seed=1):
    return levels(players, excess)(np.random.default_rng(seed), n)


def test_the_slope_is_the_least_squares_slope_of_the_levels_means():
    data = _levels()
    cat = from_data(data)
    t = judge(cat, CLAIMS)
    s5 = t[t["claim"] == "S5"].iloc[0]
    assert s5["play"] == ACROSS_PLAY and s5["n"] == 500
    means = [float(d.win["chain"][:, 0].mean()) for d in data]    # no ties: the share is 0/1
    slope = float(np.polyfit(np.arange(len(means)), means, 1)[0])
    assert s5["effect"] == pytest.approx(slope, abs=1e-12)
    assert s5["low"] < slope < s5["high"]
    assert all(name in s5["scope"] for name in LEVELS)


def test_the_gap_slope_is_the_slope_of_seat_1_less_the_last_seat():
    data = _levels()
    t = judge(from_data(data), CLAIMS)
    s5b = t[t["claim"] == "S5b"].iloc[0]
    gaps = [float(d.win["chain"][:, 0].mean() - d.win["chain"][:, 4].mean()) for d in data]
    slope = float(np.polyfit(np.arange(len(gaps)), gaps, 1)[0])
    assert s5b["effect"] == pytest.approx(slope, abs=1e-12)
    assert "largest seat 1" in s5b["detail"] and "rms" in s5b["detail"]


def test_a_clear_trend_is_supported_and_none_is_refuted():
    up = judge(from_data(_levels(3000)), CLAIMS)
    assert set(up["verdict"]) == {"supported"}
    flat = judge(from_data(_levels(3000, excess=lambda i: 0.03)), CLAIMS)
    assert flat.set_index("claim").loc["S5", "verdict"] == "refuted"


def test_levels_are_taken_in_run_order_and_only_from_self_play():
    rng = np.random.default_rng(2)
    data = _levels(200)[::-1]                        # the run lists the strongest first
    data += synthetic("p5-mixed", 5, 200, first_seat(5, 0.02), rng=rng,
                      strategies=("greedy", "racer", "greedy", "racer", "greedy"))
    tables = skill_tables(from_data(data), from_data(data).entries, {})
    assert len(tables) == 1
    assert [e.strategies[0] for e in tables[0]] == list(LEVELS)[::-1]


def test_a_table_with_fewer_than_three_levels_is_not_judged():
    data = _levels(100)
    few = [d for d in data if d.factors["strategies"][0] in ("greedy", "racer")]
    t = judge(from_data(few), CLAIMS)
    assert set(t["scope"]) == {NONE_ACROSS} and (t["n"] == 0).all()
    # another player count or allocation is another table
    rng = np.random.default_rng(4)
    other = [d for i, name in enumerate(LEVELS[:3])
             for d in synthetic(f"p5-rules-{i}", 5, 100, first_seat(5, 0.02), rng=rng,
                                allocation="rules", strategies=(name,) * 5)]
    t = judge(from_data(data + other), CLAIMS)
    assert len(t[t["claim"] == "S5"]) == 2


def test_search_levels_make_strong_play():
    data = _levels(2000)
    cat = from_data(data)
    budgets = {e.strategies[0]: search_budget(e) for e in cat.entries}
    assert budgets == {"greedy": None, "racer": None, "tuned": None, "lookahead": None,
                       "expert": None, "search256:budget=16": 16, "search256:budget=32": 32,
                       "search256:budget=64": 64}
    t = judge(cat, {"S1": {"tolerance": 0.01}, **CLAIMS})
    s1 = t[t["claim"] == "S1"]
    assert set(s1["strong_play"]) == {"holds for strong play (search, budget 16 and up)"}
    assert (t[t["claim"] == "S5"]["strong_play"] == "").all()    # judged across, not per style
    heuristic = [d for d in data if "search" not in d.factors["strategies"][0]]
    assert set(judge(from_data(heuristic), {"S1": {"tolerance": 0.01}})["strong_play"]) == {""}


def test_strong_summary_words():
    s, r, n, i = "supported", "refuted", "negligible", "inconclusive"
    assert strong_summary([s, s], [s, s], 16).startswith("holds for strong play")
    assert strong_summary([r, r], [r, r], 16).startswith("refuted for strong play")
    assert strong_summary([r, n], [r, n], 16).startswith("refuted or negligible")
    assert strong_summary([s, r], [s, r], 16).startswith("depends on the budget")
    assert strong_summary([s, i], [s, i], 16).startswith("holds at some budgets")
    assert strong_summary([s, r], [i, i], 16).startswith("inconclusive")
    assert "budget 16 and up" in strong_summary([s], [s], 16)


def test_the_effects_read_in_their_units():
    from reports.report import _effect
    t = judge(from_data(_levels(500)), CLAIMS).reset_index(drop=True)
    for r in t.itertuples():
        assert " pp [" in _effect(r) and not math.isnan(r.effect)


def test_s1c_settles_nothing_below_the_minimum_sample():
    """At 4 games a study's S1c was "supported" (150% [90, 210] of flat boats' spread
    removed) on a Fieller interval far too narrow: below ``MIN_SPREAD_INDICES`` game indices it
    stays inconclusive, advising at least that many."""
    from experiments.verdicts.calibration import linear
    from experiments.verdicts.claims.shared import MIN_SPREAD_INDICES
    rng = np.random.default_rng(5)

    def pair(n):
        return (synthetic("p5-flat", 5, n, linear(5, -0.06), rng=rng, allocation="flat")
                + synthetic("p5-rules", 5, n, [0.2] * 5, rng=rng, allocation="rules"))
    few = judge(from_data(pair(40)), {"S1b": {"tolerance": 0.01}, "S1c": {"tolerance": 0.25}})
    row = few.set_index("claim").loc["S1c"]
    assert row["verdict"] == "inconclusive" and row["games_needed"] >= MIN_SPREAD_INDICES
    enough = judge(from_data(pair(2000)), {"S1b": {"tolerance": 0.01},
                                           "S1c": {"tolerance": 0.25}})
    assert enough.set_index("claim").loc["S1c", "verdict"] == "supported"
