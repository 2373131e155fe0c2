"""The boats' and the turns' cases (``experiments.verdicts.claims.boats_turns``): what a boat is
worth (B2) and in seats of turn order (B2r), the first seat's extra turns (S2) and player A's
with 2 players (S4), and the points a turn goes with (S2v)."""
from __future__ import annotations

import numpy as np

from ..calibration import Scenario, linear, scored, synthetic
from .shared import AGAINST, NOT_NULL, REF, SEAT_TOLERANCE, SUP, direction_cases

# ------------------------------------------------------------------------------ B2, B2r
RULES5 = (1, 1, 2, 2, 2)


def boats(value: float, flat_slope: float = -0.01):
    """5 players: the rules' boats at fair shares, flat boats with a linear slope, and each
    seat +1 and -1 boat moving that seat's win share by +-``value`` (the others sharing the
    rest): a boat is worth exactly ``value``; the exchange rate is ``value / -flat_slope``."""
    def make(rng, n):
        out = synthetic("p5-rules", 5, n, np.full(5, .2), rng=rng, allocation="rules")
        out += synthetic("p5-flat", 5, n, linear(5, flat_slope), rng=rng, allocation="flat")
        for sign in (+1, -1):
            for s in range(5):
                shares = np.full(5, .2 - sign * value / 4)
                shares[s] = .2 + sign * value
                b = list(RULES5)
                b[s] += sign
                if not 0 <= b[s] <= 3:
                    continue
                d = synthetic(f"p5-{'plus' if sign > 0 else 'minus'}{s}", 5, n, shares,
                              rng=rng, allocation="custom")[0]
                d.factors["boats"] = ("custom", tuple(b))
                out.append(d)
        return out
    return make


# ------------------------------------------------------------------------------ S2v
def turn_slope(slope: float, players: int = 5, noise: float = 3.0):
    """Each game ends after a random seat: the seats up to it take one turn more; each
    player's score is a seat effect plus ``slope`` per turn above the game's mean plus noise,
    so the within-seat slope of the centred score on the centred turns is ``slope``."""
    def make(rng, n):
        end = rng.integers(0, players, n)
        base = 5 + rng.poisson(3, n)
        turns = base[:, None] + (np.arange(players)[None, :] <= end[:, None])
        x = turns - turns.mean(axis=1, keepdims=True)
        score = 8 + 0.5 * np.arange(players)[None, :] + slope * x + \
            rng.normal(0, noise, (n, players))
        return [scored("p5-rules", players, score, rng=rng, seating=("s",) * players,
                         turns=turns.astype(np.int64))]
    return make



def boat_value(scale: float) -> list[Scenario]:
    t = SEAT_TOLERANCE * scale
    par = {"tolerance": t}
    return [
        Scenario("B2 a boat worth exactly the tolerance", "B2", "value = tolerance",
                 boats(t), SUP, frozenset(), par, AGAINST),
        Scenario("B2 a boat worth nothing", "B2", "value 0", boats(0.0), NOT_NULL, REF, par),
        Scenario("B2 a boat worth 3 tolerances", "B2", "value 3 x tolerance", boats(3 * t),
                 AGAINST, SUP, par),
    ]


def boat_in_seats(scale: float) -> list[Scenario]:
    par = {"tolerance": 1.0}
    out = [Scenario("B2r a boat worth exactly one seat", "B2r", "rate = 1 seat",
                    boats(0.05, -0.05), SUP, frozenset(), par, AGAINST)]
    for k in (1.2, 1.5):
        out.append(Scenario(f"B2r a boat worth {k} seats", "B2r", f"rate = {k} seats (true)",
                            boats(0.05 * k, -0.05), AGAINST, SUP, par))
    return out + [Scenario("B2r a boat worth three seats", "B2r", "rate = 3 seats",
                           boats(0.15, -0.05), AGAINST, SUP, par)]


def points_per_turn(scale: float) -> list[Scenario]:
    par = {"tolerance": 0.5}
    return [
        Scenario("S2v a turn worth exactly the tolerance", "S2v", "slope = tolerance",
                 turn_slope(0.5), SUP, frozenset(), par, AGAINST),
        Scenario("S2v a turn worth nothing", "S2v", "slope 0", turn_slope(0.0), NOT_NULL,
                 REF, par),
    ]



# ------------------------------------------------------------------------------ S2, S4
def extra_turns(gap: float, players: int = 5):
    """Rules' boats; each game ends after some seat, the seats up to it taking one turn more,
    and every player's turns vary by a coin besides: the game ends after the last seat (every
    seat as many turns) with chance ``1 - gap``, else after one of the others, so seat 1 takes
    ``gap`` turns more than the last seat on average. With 2 players (S4, seats A,B,A,B) the
    game ends after player A's turn with chance ``gap``, else after player B's."""
    def make(rng, n):
        early = rng.random(n) < gap
        if players == 2:
            end = np.where(early, 0, 1)
        else:
            end = np.where(early, rng.integers(0, players - 1, n), players - 1)
        base = 5 + rng.poisson(3, n)
        turns = base[:, None] + (np.arange(players)[None, :] <= end[:, None]) + \
            rng.binomial(1, .3, (n, players))
        score = rng.normal(10, 3, (n, players))
        return [scored(f"p{players}-rules", players, score, rng=rng, seating=("s",) * players,
                       turns=turns.astype(np.int64))]
    return make


def first_to_last_turns(scale: float) -> list[Scenario]:
    par = {"tolerance": 0.5}
    return direction_cases("S2", "extra turn", extra_turns, 0.5, par, large=None) + [
        Scenario("S2 6 players, the extra turn exactly at the tolerance", "S2",
                 "gap = tolerance", extra_turns(0.5, 6), SUP, frozenset(), par, AGAINST)]


def player_a_turns(scale: float) -> list[Scenario]:
    return direction_cases("S4", "extra turn", lambda x: extra_turns(x, 2), 0.25,
                           {"tolerance": 0.25})
