"""The challenges' and the expansions' cases (``experiments.verdicts.claims.challenges``): each
challenge against the base game on the same indices (C1-C4, C6), Dolphins & Dive Dice and the
Giant Squid against the game without them (E1, E1d), the squid alone (E2)."""
from __future__ import annotations

import math

import numpy as np

from ...tables.games import LOSS_CAUSES
from ..calibration import Scenario, scored
from .shared import (
    AGAINST,
    NOT_NULL,
    PAST,
    REF,
    SUP,
    against_base,
    direction_cases,
    threshold_cases,
)


def expansions(more_rounds: float, value_drop: float):
    """4 players, the base game against dolphins and the squid: ``more_rounds`` rounds more
    (whole rounds, some games one more) and each player's value fraction lower by
    ``value_drop``."""
    def make(rng, n):
        out = []
        for label, extra, q, ch, squid in (("p4-base", 0.0, .3, frozenset(), False),
                                           ("p4-ch5-squid", more_rounds, .3 - value_drop,
                                            frozenset({5}), True)):
            rounds = 9 + rng.integers(0, 2, n) + math.floor(extra) + \
                (rng.random(n) < extra % 1)
            turns = np.repeat(rounds[:, None], 4, axis=1).astype(np.int64)
            score = rng.binomial(28, q, (n, 4)).astype(float)
            out.append(scored(label, 4, score, rng=rng, seating=("s",) * 4, turns=turns,
                                challenges=ch, squid=squid))
        return out
    return make



def length_and_value_at_most(scale: float) -> list[Scenario]:
    par = {"rounds": 1.0, "value": 0.02}
    out = [Scenario("E1 exactly one round longer, scores equal", "E1", "one part at its margin",
                    expansions(1.0, 0.0), SUP, frozenset(), par, REF)]
    for k in (1.2, 1.5):
        out.append(Scenario(f"E1 {k} rounds longer, scores equal", "E1",
                            f"one part {k} x its margin (claim false)",
                            expansions(k, 0.0), SUP, REF, par))
    return out + [Scenario("E1 as long, scores equal", "E1", "both parts inside",
                           expansions(0.0, 0.0), REF, SUP, par)]



# ------------------------------------------------------------------------------ C1, C2, C4, E2
def densely_populated(scale: float) -> list[Scenario]:
    t = 0.25 * scale
    return direction_cases("C1", "more losses", lambda x: against_base({1}, more_losses=x),
                           t, {"losses": t})


def leave_no_one_behind(scale: float) -> list[Scenario]:
    """C2, both parts by the direction rule (as N4): one part at its tolerance, the other far
    past its own."""
    par = {"rounds": 1.0, "value": 0.05}

    def two(rounds, value):
        return against_base({2}, more_rounds=rounds, value_change=value)
    out = [Scenario("C2 one round longer exactly, value far above", "C2",
                    "one part at the edge", two(1.0, 0.15), SUP, frozenset(), par, AGAINST),
           Scenario("C2 value exactly at its tolerance, rounds far above", "C2",
                    "one part at the edge", two(3.0, 0.05), SUP, frozenset(), par, AGAINST)]
    for k in PAST:
        out.append(Scenario(f"C2 {k} rounds longer, value far above", "C2",
                            "both parts above (claim true)", two(k, 0.15), AGAINST, SUP, par))
    return out + [Scenario("C2 as long, as much rescued", "C2", "neither part",
                           two(0.0, 0.0), NOT_NULL, REF, par)]


def atlantis_is_gone(scale: float) -> list[Scenario]:
    t = 0.05
    return direction_cases("C4", "value gain", lambda x: against_base({4}, value_change=x),
                           t, {"value": t})


def squid_losses(scale: float) -> list[Scenario]:
    t = 0.25 * scale
    return direction_cases("E2", "more losses", lambda x: against_base(squid=True, more_losses=x),
                           t, {"losses": t})


# ------------------------------------------------------------------------------ C3
def value_winner(rate: float, players: int = 4):
    """Challenge 3, 4 players: distinct scores (a count), and each player's value equal to it
    but in a share ``rate`` of games another player's value the highest: value scoring names
    other winners in exactly those games."""
    def make(rng, n):
        score = np.argsort(rng.random((n, players)), axis=1).astype(float) + 3
        d = scored(f"p{players}-ch3", players, score, rng=rng, seating=("s",) * players,
                   challenges=frozenset({3}))
        value = score.astype(np.int64) * 2
        top = np.argmax(score, axis=1)
        other = (top + rng.integers(1, players, n)) % players
        changed = np.flatnonzero(rng.random(n) < rate)
        value[changed, other[changed]] = 100
        d.value = value
        return [d]
    return make


def value_scoring(scale: float) -> list[Scenario]:
    thr = min(0.10 * scale, 0.4)
    return threshold_cases("C3", "winner change", value_winner, thr, {"threshold": thr})


# ------------------------------------------------------------------------------ C6
def overpopulated(more_lost: float, rescued_drop: float):
    """6 players under the standard rules (7 explorers each) against Overpopulated (10): each
    player's explorers rescued Binomial with chances q0 and q0 - ``rescued_drop``, q0 chosen
    so that 10 (1 - q1) - 7 (1 - q0) = ``more_lost`` explorers more are lost per player."""
    q0 = 1 - (more_lost - 10 * rescued_drop) / 3
    q1 = q0 - rescued_drop
    if not (0 <= q1 <= 1 and 0 <= q0 <= 1):
        raise ValueError(f"no chances for {more_lost}, {rescued_drop}")

    def make(rng, n):
        out = []
        for label, ch, k, q in (("p6-rules", frozenset(), 7, q0),
                                ("p6-ch6", frozenset({6}), 10, q1)):
            res = rng.binomial(k, q, (n, 6))
            out.append(scored(label, 6, res * 3.0, rng=rng, seating=("s",) * 6, rescued=res,
                              explorers=k, challenges=ch))
        return out
    return make


def overpopulated_losses(scale: float) -> list[Scenario]:
    """C6: supported when both parts are; against it when either is (at alpha/2)."""
    par = {"losses": 1.0, "rescued": 0.05}
    out = [Scenario("C6 losses exactly at their tolerance, rescued far below", "C6",
                    "one part at the edge", overpopulated(1.0, 0.08), SUP, frozenset(), par,
                    AGAINST),
           Scenario("C6 rescued exactly at its tolerance, losses far above", "C6",
                    "one part at the edge", overpopulated(2.6, 0.05), SUP, frozenset(), par,
                    AGAINST)]
    for k in PAST:
        out += [Scenario(f"C6 losses at {k} x their tolerance, rescued far below", "C6",
                         "both parts past (claim true)", overpopulated(k, 0.08), AGAINST, SUP,
                         par),
                Scenario(f"C6 rescued at {k} x its tolerance, losses far above", "C6",
                         "both parts past (claim true)", overpopulated(2.6, k * 0.05), AGAINST,
                         SUP, par)]
    return out + [Scenario("C6 as many lost, more rescued", "C6", "claim false",
                           overpopulated(0.0, -0.1), SUP, AGAINST, par)]


# ------------------------------------------------------------------------------ E1d
def dolphins(fewer: float, players: int = 4):
    """4 players with and without Dolphins & Dive Dice (Challenge 5): explorers lost to each
    cause per player Poisson, to sharks and serpents ``fewer`` fewer with the dolphins."""
    def make(rng, n):
        out = []
        for label, ch, less in (("p4-base", frozenset(), 0.0), ("p4-ch5", frozenset({5}), fewer)):
            lost = {c: rng.poisson(0.5, (n, players)) for c in LOSS_CAUSES}
            lost["shark"] = rng.poisson(2.0 - less / 2, (n, players))
            lost["serpent"] = rng.poisson(2.0 - less / 2, (n, players))
            total = sum(lost.values())
            d = scored(label, players, rng.binomial(28, .3, (n, players)).astype(float),
                       rng=rng, seating=("s",) * players, challenges=ch,
                       rescued=np.maximum(10 - total, 0), explorers=10)
            d.lost = {c: v.astype(np.int64) for c, v in lost.items()}
            out.append(d)
        return out
    return make


def dolphins_sea_losses(scale: float) -> list[Scenario]:
    t = 0.25 * scale
    return direction_cases("E1d", "fewer sea losses", dolphins, t, {"losses": t})
