"""Skill's, luck's and the leader's cases (``experiments.verdicts.claims.skill_leader``), all on
mixed tables played in every rotation: a lone stronger strategy's edge (K1) and greedy
placement's (K3), luck's share of the score variance (K2), anyone's share moved by the
leader-basher (L1) and careful's gain (L2)."""
from __future__ import annotations

import math

import numpy as np

from ...tables.rotations import rotations
from ..calibration import Scenario, scored
from .shared import AGAINST, NOT_NULL, REF, SEAT_TOLERANCE, SUP, direction_cases, rotated


# ------------------------------------------------------------------------------ K2
def variance_table(seat: float, strat: float, seed: float, rest: float, players: int = 4):
    """A 4-player table of strategies a, b, c, d in all 4 rotations, a player's score =
    seat effect + strategy effect + a seed effect per index and seat (shared by the rotations)
    + rest, with variances ``seat``, ``strat`` (fixed effects, exactly), ``seed`` and
    ``rest``: luck's true share is ``(seed + rest) / total``."""
    names = ("a", "b", "c", "d")
    alpha = np.array([1, -1, 1, -1.0]) * math.sqrt(seat)
    beta = dict(zip(names, np.array([1, 1, -1, -1.0]) * math.sqrt(strat)))

    def make(rng, n):
        gamma = rng.normal(0, math.sqrt(seed), (n, players))
        out = []
        for r, seating in enumerate(rotations(names)):
            b = np.array([beta[t] for t in seating])
            score = 10 + alpha + b + gamma + rng.normal(0, math.sqrt(rest), (n, players))
            out.append(scored(f"p4-mixed-r{r}", players, score, rng=rng, seating=seating))
        return out
    total = seat + strat + seed + rest
    return make, (seed + rest) / total



# ------------------------------------------------------------------------------ L1
def basher(w_sab: float):
    """4 players: careful, greedy, racer and a fourth seat (greedy, or the saboteur), in
    every rotation; a seat wins with chance proportional to its strategy's weight (careful
    3, greedy 1, racer 1; the saboteur ``w_sab``). Careful's win share per seat moves by
    3/W_B - 3/W_A (W the weights' sum)."""
    weights = {"careful": 3.0, "greedy": 1.0, "racer": 1.0, "saboteur": w_sab}

    def make(rng, n):
        return (rotated(rng, n, ("careful", "greedy", "racer", "greedy"), weights, "without")
                + rotated(rng, n, ("careful", "greedy", "racer", "saboteur"), weights, "with"))
    return make


def w_for(change: float) -> float:
    """The saboteur's weight that moves careful's win share per seat by ``change``."""
    return 3 / (change + 0.5) - 5


def luck_share(scale: float) -> list[Scenario]:
    par = {"threshold": 0.5}
    k2, luck = variance_table(1.0, 1.0, 1.0, 1.0)
    return [
        Scenario("K2 luck exactly half", "K2", f"luck share {luck:.2f}", k2, SUP,
                 frozenset(), par, REF),
        Scenario("K2 luck 60% (1.2 x the threshold)", "K2", "luck share 0.60",
                 variance_table(1.0, 1.0, 1.5, 1.5)[0], REF, SUP, par),
        Scenario("K2 luck 75% (1.5 x the threshold)", "K2", "luck share 0.75",
                 variance_table(0.5, 0.5, 1.5, 1.5)[0], REF, SUP, par),
        Scenario("K2 luck 80%", "K2", "luck share 0.85", variance_table(0.2, 0.3, 1.0, 2.0)[0],
                 REF, SUP, par),
    ]



def share_changes(scale: float) -> list[Scenario]:
    t = SEAT_TOLERANCE * scale
    par = {"tolerance": 2 * t}
    out = [
        Scenario("L1 nobody's share moves", "L1", "no change", basher(1.0), NOT_NULL, REF, par),
        Scenario("L1 careful moves exactly the tolerance", "L1", "largest change = tolerance",
                 basher(w_for(-2 * t)), SUP, frozenset(), par, AGAINST),
    ]
    for k in (1.2, 1.5):
        out.append(Scenario(f"L1 careful moves {k} x the tolerance", "L1",
                            f"largest change {k} x tolerance (claim true)",
                            basher(w_for(-2 * k * t)), AGAINST, SUP, par))
    return out + [Scenario("L1 careful moves 3 tolerances", "L1", "largest change 3 x tolerance",
                           basher(w_for(-6 * t)), AGAINST, SUP, par)]



# ------------------------------------------------------------------------------ K1, K3
def lone(edge: float, lone_name: str = "strong", rest: str = "weak", players: int = 4):
    """A table of one ``lone_name`` and ``players - 1`` of ``rest`` in every rotation, the lone
    strategy's win share ``1/N + edge`` (the others sharing the rest)."""
    share = 1 / players + edge
    w = share * (players - 1) / (1 - share)             # its weight against 1 for the others
    lineup = (lone_name,) + (rest,) * (players - 1)
    return lambda rng, n: rotated(rng, n, lineup, {lone_name: w, rest: 1.0}, "lone", players)


def lone_stronger(scale: float) -> list[Scenario]:
    t = 0.05 * scale
    return direction_cases("K1", "lone edge", lone, t, {"tolerance": t}, large=None) + [
        Scenario("K1 5 players, the lone edge exactly at the tolerance", "K1",
                 "edge = tolerance", lone(t, players=5), SUP, frozenset(), {"tolerance": t},
                 AGAINST)]


def greedy_placement(scale: float) -> list[Scenario]:
    """K3 on both placement tables: the rest played at random (placer among random), and as
    greedy plays it (greedy among scatter)."""
    t = 0.02 * scale
    par = {"tolerance": t}
    return direction_cases("K3", "placement edge", lambda x: lone(x, "placer", "random"), t,
                           par) + [
        Scenario("K3 greedy among scatter, the edge exactly at the tolerance", "K3",
                 "edge = tolerance", lone(t, "greedy", "scatter"), SUP, frozenset(), par,
                 AGAINST)]


# ------------------------------------------------------------------------------ L2
def careful_gains(scale: float) -> list[Scenario]:
    """L2: careful's win share per seat with the saboteur less without (``basher``)."""
    t = SEAT_TOLERANCE * scale
    return direction_cases("L2", "careful's gain", lambda x: basher(w_for(x)), t,
                           {"tolerance": t})
