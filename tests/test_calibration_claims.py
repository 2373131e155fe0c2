"""The calibration of the other claims' decision rules (experiments.verdicts.calibration_cases):
each rule -- a contrast of k settings averaged over seats (B2), a Fieller ratio (B2r), a
delta-method slope (S2v), a variance decomposition's share (K2), two directions at once (N4),
two margins at once (E1), "some part changes" (L1) -- run by the verdict code itself on
synthetic per-game data with the truth planted exactly where a "supported" would be wrong:
wrong at most alpha/2 of the time at one look (three Monte Carlo standard errors of slack),
large effects found, and the variance decomposition unbiased. A tolerance three times the
studies' (what matters is the tolerance over the standard error). The claims calibrated
later are tests/test_calibration_more_claims.py's. No engine."""
from __future__ import annotations

import math

import numpy as np
import pytest

from experiments.verdicts import calibration_cases as CC
from experiments.verdicts.calibration import run
from experiments.verdicts.claims.skill_leader import variance_parts
from experiments.verdicts.inference import ALPHA
from experiments.verdicts.catalog import from_data

pytestmark = [pytest.mark.engine_free, pytest.mark.slow]

N1, SCALE = 1000, 3.0
SC = {s.name: s for s in CC.scenarios(SCALE, CC.FIRST)}
EDGE = [name for name, s in SC.items() if not s.right]
NEAR = [name for name, s in SC.items() if s.right and (" 1.2 " in name or " 1.5 " in name
                                                        or "1.2 x" in name or "1.5 x" in name)]
LARGE = [name for name, s in SC.items() if s.right and name not in NEAR]


def slack(p: float, reps: int) -> float:
    return 3 * math.sqrt(p * (1 - p) / reps)


@pytest.mark.parametrize("name", EDGE)
def test_one_look_is_wrong_at_most_half_alpha_of_the_time_on_either_side(name):
    """The truth exactly at the edge: a label on either side is wrong, each side a one-sided
    test at alpha / 2 (second review: the edges counted only "supported")."""
    reps = 300
    r = run(SC[name], reps, [N1], seed=11)
    assert r["wrong"] <= ALPHA / 2 + slack(ALPHA / 2, reps), r["tally"]
    assert r["wrong2"] <= ALPHA / 2 + slack(ALPHA / 2, reps), r["tally"]


@pytest.mark.parametrize("name", NEAR)
def test_a_truth_just_past_the_edge_is_rarely_called_the_other_way(name):
    """1.2 and 1.5 times the tolerance: the composite rules' other side (S1's "against" once
    fired 82% of the time at 1.2 x) stays within alpha / 2."""
    reps = 150
    r = run(SC[name], reps, [N1], seed=14)
    assert r["wrong"] <= ALPHA / 2 + slack(ALPHA / 2, reps), r["tally"]


@pytest.mark.parametrize("name", LARGE)
def test_large_effects_and_nulls_come_out_right(name):
    r = run(SC[name], 60, [N1], seed=12)
    assert r["wrong"] <= ALPHA / 2 + slack(ALPHA / 2, 60), r["tally"]
    assert r["right"] >= 0.8, r["tally"]


def test_the_variance_decomposition_is_unbiased():
    """Seat, strategy, seed and rest planted at 0.5, 1, 1.5 and 2: every share estimated
    within a fraction of a point of the truth, and luck = seed + rest."""
    make, luck = CC.variance_table(0.5, 1.0, 1.5, 2.0)
    est = {c: [] for c in ("seat", "strategy", "seed", "rest", "luck")}
    rng = np.random.default_rng(13)
    for _ in range(20):
        cat = from_data(make(rng, 2000))
        for c, e in variance_parts(cat, cat.entries[0]).items():
            est[c].append(e.value)
    truth = {"seat": 0.1, "strategy": 0.2, "seed": 0.3, "rest": 0.4, "luck": luck}
    for c, values in est.items():
        assert abs(np.mean(values) - truth[c]) < 0.01, (c, np.mean(values), truth[c])
    assert luck == pytest.approx(0.7)


def test_the_long_version_prints_its_table(capsys):
    CC.main(["--claims", "B2,B2r,S2v,K2,N4,E1,L1,N1", "--reps", "2", "--games", "300",
             "--scale", "3"])
    out = capsys.readouterr().out
    assert out.count("| B2 ") >= 3 and "| L1 careful moves exactly the tolerance |" in out
    assert "the other side" in out and "| N1 4 players better by 1.2 x the tolerances |" in out
