"""The skill trace's cases (``experiments.verdicts.claims.skill``): seat 1's excess (S5) and the
gap from the first seat to the last (S5b) growing over eight skill levels, each level a self-play
setting on the same game indices, with the truth planted at the edge (the slope exactly the
tolerance per level), just past it, with no trend and with a large one; S5b also where every
level is fair and where the gap shrinks with skill."""
from __future__ import annotations


from ..calibration import Scenario, first_seat, synthetic
from .shared import NOT_NULL, REF, SUP, direction_cases

LEVELS = ("greedy", "racer", "tuned", "lookahead", "expert", "search256:budget=16",
          "search256:budget=32", "search256:budget=64")
TREND_TOLERANCE = 0.0025                # the skill trace's tolerance: a quarter point per level
BASE_EXCESS = 0.02                      # seat 1's excess at the weakest level


def levels(players: int, excess, allocation: str = "flat"):
    """Eight self-play levels of ``players`` players; level ``l``'s seat 1 wins 1/N +
    ``excess(l)``, the other seats sharing the rest equally."""
    def make(rng, n):
        return [d for i, name in enumerate(LEVELS)
                for d in synthetic(f"p{players}-{allocation}-{i}", players, n,
                                   first_seat(players, excess(i)), rng=rng,
                                   allocation=allocation, strategies=(name,) * players)]
    return make


def trend(players: int):
    """``make(slope)``: seat 1's excess grows by ``slope`` per level from ``BASE_EXCESS``."""
    return lambda slope: levels(players, lambda i: BASE_EXCESS + slope * i)


def gap_trend(players: int):
    """``make(slope)``: seat 1's win share less the last seat's grows by ``slope`` per level.
    With seat 1 at 1/N + e and the others sharing -e equally, the gap is e N / (N - 1)."""
    k = (players - 1) / players
    return lambda slope: levels(players, lambda i: BASE_EXCESS + k * slope * i)


def first_seat_grows(scale: float) -> list[Scenario]:
    t = TREND_TOLERANCE * scale
    par = {"tolerance": t}
    return (direction_cases("S5", "seat 1's slope", trend(5), t, par)
            + direction_cases("S5", "6 players, seat 1's slope", trend(6), t, par,
                              null=None, large=None))


def spread_grows(scale: float) -> list[Scenario]:
    t = TREND_TOLERANCE * scale
    par = {"tolerance": t}
    return (direction_cases("S5b", "first-to-last gap's slope", gap_trend(5), t, par)
            + direction_cases("S5b", "6 players, first-to-last gap's slope", gap_trend(6), t,
                              par, null=None, large=None)
            + [Scenario("S5b every level fair", "S5b", "no seat gap at any level",
                        levels(5, lambda i: 0.0), NOT_NULL, REF, par),
               Scenario("S5b a gap that shrinks with skill", "S5b",
                        "seat 1's excess falls from 6 to 2 points over the levels",
                        levels(5, lambda i: 0.06 - 0.04 * i / 7), SUP, REF, par)])
