"""The fair-boats search's closest lists played again for the search rung (study
``fair-boats-search``, claim B3a): the shipped file plays each style's closest list of
docs/fairest.md with the rules' and flat boats, for the heuristic styles and the search rung,
and B3a judges a listed allocation as S1b judges the rules' boats, its scope naming the list.
B3a's error rates are the calibration's (tests/test_calibration_more_claims.py). No engine."""
from __future__ import annotations

import numpy as np
import pytest

from experiments.sweeps import spec as S
from experiments.verdicts.calibration import synthetic
from experiments.verdicts.catalog import from_data
from experiments.verdicts.inference import FIXED
from experiments.verdicts.table import judge
from reports.report import verdict_view

pytestmark = pytest.mark.engine_free

CLOSEST = {5: {(0, 2, 3, 3, 3), (0, 1, 1, 3, 3), (0, 2, 2, 2, 3), (0, 1, 2, 3, 3)},
           6: {(0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 1), (0, 1, 1, 1, 3, 3), (0, 0, 1, 1, 3, 3)}}
STYLES = ["greedy", "careful", "racer", "expert", "search256:budget=16"]


def test_the_shipped_study_plays_the_closest_lists_for_every_style():
    s = S.load("fair_boats_search")
    assert s.name == "fair-boats-search" and len(s.points) == 60
    assert {"B3a", "S1", "S1b", "S1c"} == set(s.claims)
    assert s.claims["B3a"]["tolerance"] == 0.01
    for players in (5, 6):
        mine = [p for p in s.points if p.settings.players == players]
        assert list(dict.fromkeys(p.settings.strategies[0] for p in mine)) == STYLES
        lists = {p.settings.boats for p in mine if p.allocation == "custom"}
        assert lists == CLOSEST[players]
        assert {p.allocation for p in mine} == {"rules", "flat", "custom"}


def _listed(shares, boats, n=20000, seed=3):
    rng = np.random.default_rng(seed)
    data = synthetic("p6-listed", 6, n, shares, rng=rng, allocation="custom")
    for d in data:
        d.factors["boats"] = ("custom", boats)
    return data


def test_b3a_names_the_list_and_refutes_a_seat_far_from_its_share():
    far = np.r_[np.full(5, 1 / 6 + 0.03 / 5), 1 / 6 - 0.03]
    v = judge(from_data(_listed(far, (0, 0, 1, 1, 3, 3))), {"B3a": {"tolerance": 0.01}}, FIXED)
    row = v[v["claim"] == "B3a"].iloc[0]
    assert row["scope"].startswith("6 players, boats 0,0,1,1,3,3, base game")
    assert row["verdict"] == "refuted"
    assert "farthest from 1/N: seat 6" in row["detail"]
    assert " pp [" in verdict_view(v)["effect [95% CI]"].iloc[0]


def test_b3a_supports_an_allocation_whose_seats_are_all_near_their_share():
    v = judge(from_data(_listed(np.full(6, 1 / 6), (0, 1, 1, 1, 3, 3), n=60000)),
              {"B3a": {"tolerance": 0.01}}, FIXED)
    assert v[v["claim"] == "B3a"]["verdict"].tolist() == ["supported"]


def test_b3a_leaves_the_named_allocations_to_s1_and_s1b():
    rng = np.random.default_rng(1)
    data = synthetic("p6-rules", 6, 2000, np.full(6, 1 / 6), rng=rng, allocation="rules")
    v = judge(from_data(data), {"B3a": {"tolerance": 0.01}}, FIXED)
    row = v[v["claim"] == "B3a"].iloc[0]
    assert row["scope"] == "the run holds none of the settings this claim needs"
    assert row["n"] == 0 and row["verdict"] == "inconclusive"
