"""The seats' and the tie-breaks' cases (``experiments.verdicts.claims.seats``): the first seats
(S1, S3), the rules' boats' balance (S1b) and the spread they remove (S1c), the chain's shift
to the late seats (T1), the share of shared tops (T2) and of games a house rule would give
other winners (T3)."""
from __future__ import annotations

import math

import numpy as np

from ..calibration import Scenario, first_only, first_seat, linear, scored, synthetic
from .shared import AGAINST, NEG, REF, SEAT_TOLERANCE, SUP, direction_cases, threshold_cases


def _five(label: str, allocation: str, players: int = 5):
    def make(shares, **kw):
        return lambda rng, n: synthetic(label, players, n, shares, rng=rng,
                                        allocation=allocation, **kw)
    return make


flat, rules, four = _five("p5-flat", "flat"), _five("p5-rules", "rules"), \
    _five("p4-rules", "rules", 4)


def _first_seat_cases(cid: str, make, players: int, t: float) -> list[Scenario]:
    """S1 and S3: two criteria (seat 1's excess, the slope over seats), each at its edge and
    just past it."""
    par = {"tolerance": t}
    slope_tol = t / (players - 1)
    out = [
        Scenario(f"{cid} null: every seat 1/N", cid, "no seat effect",
                 make(np.full(players, 1 / players)), SUP, REF, par, NEG),
        Scenario(f"{cid} seat 1 at the tolerance", cid, "seat 1 exactly +tolerance",
                 make(first_only(players, t)), SUP, frozenset(), par, AGAINST),
        Scenario(f"{cid} slope at the tolerance", cid, "slope exactly -tolerance/(N-1)",
                 make(linear(players, -slope_tol)), SUP, frozenset(), par, AGAINST),
    ]
    for k in (1.2, 1.5):
        out += [
            Scenario(f"{cid} seat 1 at {k} x the tolerance", cid,
                     f"seat 1 +{k} tolerances (claim true)",
                     make(first_only(players, k * t)), AGAINST, SUP, par),
            Scenario(f"{cid} slope at {k} x the tolerance", cid,
                     f"slope {k} x -tolerance/(N-1) (claim true)",
                     make(linear(players, -k * slope_tol)), AGAINST, SUP, par),
        ]
    return out


def first_seats_flat_boats(scale: float) -> list[Scenario]:
    t = SEAT_TOLERANCE * scale
    par = {"tolerance": t}
    return _first_seat_cases("S1", flat, 5, t) + [
        Scenario("S1 real slope, 60% of the tolerance", "S1", "real, below tolerance",
                 flat(linear(5, -0.6 * t / 4)), SUP, AGAINST, par),
        Scenario("S1 large: seat 1 +2 tolerances", "S1", "large effect",
                 flat(first_seat(5, 2 * t)), AGAINST, SUP, par),
        Scenario("S1 null with ties (15%) and a layout effect", "S1", "no seat effect",
                 flat(np.full(5, .2), tie_rate=0.15, layout_sd=0.5), SUP, frozenset(), par,
                 NEG),
    ]


def first_seat_at_two_to_four(scale: float) -> list[Scenario]:
    return _first_seat_cases("S3", four, 4, SEAT_TOLERANCE * scale)


def seat_balance(scale: float) -> list[Scenario]:
    t = SEAT_TOLERANCE * scale
    par = {"tolerance": t}
    return [
        Scenario("S1b balanced", "S1b", "every seat 1/N", rules(np.full(5, .2)), REF, SUP, par),
        Scenario("S1b inside: seat 1 +tolerance/2", "S1b", "equivalent within tolerance",
                 rules(first_seat(5, t / 2)), REF, SUP, par),
        Scenario("S1b at the margin: seat 1 +tolerance", "S1b", "at the margin",
                 rules(first_seat(5, t)), SUP, frozenset(), par, REF),
        Scenario("S1b seat 1 at 1.2 x the tolerance", "S1b", "just outside (not balanced)",
                 rules(first_seat(5, 1.2 * t)), SUP, REF, par),
        Scenario("S1b seat 1 at 1.5 x the tolerance", "S1b", "outside (not balanced)",
                 rules(first_seat(5, 1.5 * t)), SUP, REF, par),
        Scenario("S1b outside: seat 1 +2 tolerances", "S1b", "large imbalance",
                 rules(first_seat(5, 2 * t)), SUP, REF, par),
        Scenario("S1b pooled rotations sharing a layout, a strong strategy", "S1b",
                 "every seat 1/N (pooled)",
                 lambda rng, n: synthetic("p5-rules-mixed", 5, n, np.full(5, .2), rng=rng,
                                          allocation="rules", rotations=5, layout_sd=0.6,
                                          strength=1.0), REF, SUP, par),
    ]


def listed_balance(scale: float) -> list[Scenario]:
    """B3a: S1b's rule on a listed allocation, at 6 players (seat 6 the one off)."""
    t = SEAT_TOLERANCE * scale
    par = {"tolerance": t}

    def listed(shares):
        return lambda rng, n: synthetic("p6-listed", 6, n, shares, rng=rng,
                                        allocation="custom")

    def last_off(d):
        return np.r_[np.full(5, 1 / 6 + d / 5), 1 / 6 - d]

    return [
        Scenario("B3a balanced", "B3a", "every seat 1/N", listed(np.full(6, 1 / 6)), REF, SUP,
                 par),
        Scenario("B3a at the margin: seat 6 -tolerance", "B3a", "at the margin",
                 listed(last_off(t)), SUP, frozenset(), par, REF),
        Scenario("B3a seat 6 at 1.2 x the tolerance", "B3a", "just outside (not balanced)",
                 listed(last_off(1.2 * t)), SUP, REF, par),
        Scenario("B3a seat 6 at 1.5 x the tolerance", "B3a", "outside (not balanced)",
                 listed(last_off(1.5 * t)), SUP, REF, par),
    ]


def _rules_and_flat(rules_shares, flat_shares, **kw):
    def make(rng, n):
        s = np.random.SeedSequence(int(rng.integers(2**32)))
        a, b = (np.random.default_rng(x) for x in s.spawn(2))
        return (synthetic("p5-rules", 5, n, rules_shares, rng=a, allocation="rules", **kw)
                + synthetic("p5-flat", 5, n, flat_shares, rng=b, allocation="flat", **kw))
    return make


def spread_removed(scale: float) -> list[Scenario]:
    """S1c: a ratio of spreads (Fieller), flat boats' slope a quarter of the tolerance."""
    c = {"tolerance": 0.25}                         # a quarter of the squared spread
    steep = -SEAT_TOLERANCE * scale / 4
    pair = _rules_and_flat
    return [
        Scenario("S1c equal spreads", "S1c", "rules as unbalanced as flat",
                 pair(linear(5, steep), linear(5, steep)), SUP, REF, c, NEG),
        Scenario("S1c at the tolerance", "S1c", "rules remove exactly a quarter",
                 pair(linear(5, steep * math.sqrt(0.75)), linear(5, steep)), SUP, frozenset(),
                 c, AGAINST),
        Scenario("S1c at 1.2 x the tolerance", "S1c", "rules remove 30% (claim true)",
                 pair(linear(5, steep * math.sqrt(0.70)), linear(5, steep)), AGAINST, SUP, c),
        Scenario("S1c at 1.5 x the tolerance", "S1c", "rules remove 37.5% (claim true)",
                 pair(linear(5, steep * math.sqrt(0.625)), linear(5, steep)), AGAINST, SUP,
                 c),
        Scenario("S1c overcompensated (steeper the other way)", "S1c",
                 "rules' spread larger", pair(linear(5, -1.2 * steep), linear(5, steep)),
                 SUP, REF, c),
        Scenario("S1c much flatter", "S1c", "rules remove 96%",
                 pair(linear(5, 0.2 * steep), linear(5, steep)), AGAINST, SUP, c),
    ]



# ------------------------------------------------------------------------------ tie-breaks
def chain_ties(shift: float, players: int = 5):
    """``players`` players under the rules' boats, every seat equally likely to win, a share
    of games tied between two seats drawn at random, which the chain gives to the later one:
    counted by the chain instead of as shared wins, the slope of win share over seats moves by
    ``tie_rate * E[later - earlier] / (2 * sum of the centred seats squared)``; the tie rate
    that moves it by ``shift`` per seat."""
    c = np.arange(players) - (players - 1) / 2
    pairs = [(i, j) for i in range(players) for j in range(i + 1, players)]
    apart = np.mean([j - i for i, j in pairs])
    rate = shift * 2 * float(c @ c) / apart
    return lambda rng, n: synthetic(f"p{players}-rules", players, n,
                                    np.full(players, 1 / players), rng=rng,
                                    allocation="rules", tie_rate=rate)


def chain_shift(scale: float) -> list[Scenario]:
    """T1: the direction rule on the slope of win share over seats, chain less shared, at
    ``tolerance / (N - 1)`` per seat."""
    t = SEAT_TOLERANCE * scale
    par = {"tolerance": t, "counts": [5, 6]}
    return direction_cases("T1", "chain's shift", lambda x: chain_ties(x / 4), t, par,
                           large=None) + [
        Scenario("T1 6 players, the shift exactly at the tolerance", "T1",
                 "shift = tolerance / 5 per seat", lambda rng, n: chain_ties(t / 5, 6)(rng, n),
                 SUP, frozenset(), par, AGAINST)]


def shared_tops(rate: float, players: int = 4):
    """``players`` players (their own tie-break: shared), a share ``rate`` of games with the
    top score shared by two seats."""
    return lambda rng, n: synthetic(f"p{players}-rules", players, n,
                                    np.full(players, 1 / players), rng=rng,
                                    allocation="rules", tie_rate=rate)


def tie_rate(scale: float) -> list[Scenario]:
    thr = 0.05 * scale
    return threshold_cases("T2", "tie rate", shared_tops, thr, {"threshold": thr})


def house_rule(rate: float, players: int = 4):
    """Distinct scores (no ties) and every player rescuing as many explorers, but in a share
    ``rate`` of games one player other than the top scorer rescues one more: the house rule
    (most rescued wins) names another winner in exactly those games."""
    def make(rng, n):
        score = np.argsort(rng.random((n, players)), axis=1).astype(float) * 3 + 4
        res = np.full((n, players), 4, np.int64)
        top = np.argmax(score, axis=1)
        other = (top + rng.integers(1, players, n)) % players
        changed = rng.random(n) < rate
        res[np.flatnonzero(changed), other[changed]] += 1
        return [scored(f"p{players}-rules", players, score, rng=rng, seating=("s",) * players,
                       rescued=res)]
    return make


def house_rule_changes(scale: float) -> list[Scenario]:
    thr = min(0.10 * scale, 0.4)
    return threshold_cases("T3", "winner change", house_rule, thr, {"threshold": thr})
