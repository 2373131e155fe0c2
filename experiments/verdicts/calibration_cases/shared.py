"""What every subject's calibration cases share: the labels a case counts as wrong or right,
the studies' seat tolerance, and the generators of more than one subject's settings -- a mixed
table played in every rotation whose seats win by their strategies' weights (``rotated``), and
a setting against the base game on the same indices (``against_base``)."""
from __future__ import annotations

import math

import numpy as np

from ...tables.rotations import rotations
from ..calibration import Scenario, scored, winners
from ..decisions import NEGLIGIBLE, REFUTED, SUPPORTED

SUP = frozenset({SUPPORTED})
NEG = frozenset({NEGLIGIBLE})
REF = frozenset({REFUTED})
AGAINST = frozenset({REFUTED, NEGLIGIBLE})
NOT_NULL = frozenset({SUPPORTED, NEGLIGIBLE})      # with no effect at all, "real" is wrong too
SEAT_TOLERANCE = 0.01                              # the studies' tolerance in win share per seat
PAST = (1.2, 1.5)                                  # just past an edge: the claim true by a little


def rotated(rng, n: int, lineup: tuple, weights: dict, tag: str, players: int = 4) -> list:
    """A mixed table of ``lineup`` in every rotation, ``n`` games each; a seat wins with
    chance proportional to its strategy's weight (no ties): a strategy's win share per seat is
    its weight over the weights' sum."""
    out = []
    for r, seating in enumerate(rotations(lineup)):
        w = np.array([weights[t] for t in seating])
        chances = np.broadcast_to(w / w.sum(), (n, players))
        top, _ = winners(rng, np.ascontiguousarray(chances), 0.0)
        out.append(scored(f"p{players}-{tag}-r{r}", players, top * 5.0, rng=rng,
                          seating=seating))
    return out


def against_base(challenges=frozenset(), squid: bool = False, *, players: int = 4,
                 more_rounds: float = 0.0, value_change: float = 0.0,
                 more_losses: float = 0.0, rescued: float = 0.5):
    """``players`` players' base game against a setting with ``challenges`` (and the squid):
    ``more_rounds`` rounds more (whole rounds, some games one more), each player's value
    fraction higher by ``value_change`` and ``more_losses`` explorers more lost per player
    (a player's explorers rescued Binomial, with chance ``rescued`` in the base game)."""
    k = 8 if players == 5 else 7 if players == 6 else 10
    value = 24 if players == 5 else 22 if players == 6 else 28

    def make(rng, n):
        out = []
        for label, extra, q, ch, sq, lost in (
                (f"p{players}-base", 0.0, .3, frozenset(), False, 0.0),
                (f"p{players}-other", more_rounds, .3 + value_change, frozenset(challenges),
                 squid, more_losses)):
            rounds = 9 + rng.integers(0, 2, n) + math.floor(extra) + \
                (rng.random(n) < extra % 1)
            turns = np.repeat(rounds[:, None], players, axis=1).astype(np.int64)
            score = rng.binomial(value, q, (n, players)).astype(float)
            res = rng.binomial(k, rescued - lost / k, (n, players))
            out.append(scored(label, players, score, rng=rng, seating=("s",) * players,
                              turns=turns, challenges=ch, squid=sq, rescued=res,
                              explorers=k))
        return out
    return make


def direction_cases(cid: str, what: str, make, tol: float, par: dict, *, null: float = 0.0,
                    large: float | None = 3.0, unit: str = "") -> list:
    """A direction rule's cases, ``make(effect)`` planting the effect on the claimed side:
    exactly at the tolerance (a "supported" wrong, and on the other side "negligible" or
    "refuted"), 1.2 and 1.5 times it (the claim true by a little: "negligible" or "refuted"
    wrong), no effect (``null``: "supported" or "negligible" wrong) and ``large`` times it."""
    out = [Scenario(f"{cid} {what} exactly at the tolerance", cid, f"{what} = tolerance",
                    make(tol), SUP, frozenset(), par, AGAINST)]
    for k in PAST:
        out.append(Scenario(f"{cid} {what} at {k} x the tolerance", cid,
                            f"{what} {k} x tolerance (claim true)", make(k * tol), AGAINST,
                            SUP, par))
    if null is not None:
        out.append(Scenario(f"{cid} no {what}", cid, f"{what} 0{unit}", make(null), NOT_NULL,
                            REF, par))
    if large is not None:
        out.append(Scenario(f"{cid} {what} {large:g} x the tolerance", cid,
                            f"{what} {large:g} x tolerance", make(large * tol), AGAINST, SUP,
                            par))
    return out


def threshold_cases(cid: str, what: str, make, thr: float, par: dict) -> list:
    """A threshold rule's cases (as K2's): the rate exactly at the threshold ("supported" wrong,
    and on the other side "refuted"), 1.2 and 1.5 times it (claim true: "refuted" wrong) and
    half of it (claim false: "supported" wrong)."""
    out = [Scenario(f"{cid} {what} exactly at the threshold", cid, f"{what} = threshold",
                    make(thr), SUP, frozenset(), par, REF)]
    for k in PAST:
        out.append(Scenario(f"{cid} {what} at {k} x the threshold", cid,
                            f"{what} {k} x threshold (claim true)", make(k * thr), REF, SUP,
                            par))
    return out + [Scenario(f"{cid} {what} at half the threshold", cid,
                           f"{what} 0.5 x threshold (claim false)", make(thr / 2), SUP, REF,
                           par)]
