"""The calibration of the claims whose rules were first calibrated on other claims' judges
(experiments.verdicts.calibration_cases): the tie-breaks (T1, T2, T3), the turns (S2, S4), a
player's task at 5-6 players (N3), the challenges and expansions (C1-C4, C6, E1d, E2) and the
mixed tables' skill and leader claims (K1, K3, L2), the skill trace's slopes (S5, S5b) and
a listed allocation's balance (B3a) -- each rule shape (direction, threshold,
balance, both parts, either part refuting) run through the claim's own judge on synthetic
settings its scopes select, with the truth planted exactly at the edge: wrong at most alpha/2
of the time on either side at one look (three Monte Carlo standard errors of slack), and just
past the edge (1.2 and 1.5 x) rarely called the other way. A short run: a few hundred games
per setting (small samples) and a tolerance three times the studies'. The long version and
its table: docs/calibration.md. No engine."""
from __future__ import annotations

import math

import pytest

from experiments.verdicts import calibration_cases as CC
from experiments.verdicts.calibration import run
from experiments.verdicts.inference import ALPHA

pytestmark = pytest.mark.engine_free

N1, SCALE = 400, 3.0
LATER = [c for c in CC.CASES if c not in CC.SEATS and c not in CC.FIRST]
SC = {s.name: s for s in CC.scenarios(SCALE, LATER)}
EDGE = [name for name, s in SC.items() if s.edge]
NEAR = [name for name, s in SC.items() if s.right and (" 1.2 " in name or " 1.5 " in name)]


def slack(p: float, reps: int) -> float:
    return 3 * math.sqrt(p * (1 - p) / reps)


def test_every_claim_is_here_or_in_the_first_calibrations():
    assert set(LATER) | set(CC.SEATS) | set(CC.FIRST) == set(CC.CASES)
    assert len(LATER) == 19 and all(any(SC[n].claim == c for n in EDGE) for c in LATER)


# A finding, not a tolerance: T1's shift is nonzero only in tied games (a skewed per-index
# value), and its t interval errs on the "against" side more often than alpha / 2 -- 4.7-5.0% at
# 400 games, 3.4-3.8% at 3,000 (2,000 replications; "supported" 0.7-1.7%). The judge is left as
# it is (docs/calibration.md); this bound guards that it gets no worse.
KNOWN_OTHER_SIDE = {"T1 chain's shift exactly at the tolerance": 0.05,
                    "T1 6 players, the shift exactly at the tolerance": 0.05}


@pytest.mark.parametrize("name", EDGE)
def test_at_the_edge_either_side_is_wrong_at_most_half_alpha_of_the_time(name):
    reps = 120
    r = run(SC[name], reps, [N1], seed=31)
    other = KNOWN_OTHER_SIDE.get(name, ALPHA / 2)
    assert r["wrong"] <= ALPHA / 2 + slack(ALPHA / 2, reps), r["tally"]
    assert r["wrong2"] <= other + slack(other, reps), r["tally"]


@pytest.mark.parametrize("name", NEAR)
def test_just_past_the_edge_the_claim_is_rarely_called_the_other_way(name):
    reps = 50
    r = run(SC[name], reps, [N1], seed=32)
    assert r["wrong"] <= ALPHA / 2 + slack(ALPHA / 2, reps), r["tally"]
