"""The calibration cases, keyed by claim id: each claim's decision rule run by the verdict code
itself (``experiments.verdicts.calibration``) on synthetic per-game data whose truth is known, with
the truth planted exactly at the edge where a label on either side would be wrong, just past it
(1.2 and 1.5 times the tolerance, where the claim is true by a little), and at nulls and large
effects for power. Every case is stated in units of the studies' tolerances times ``scale``:
what matters is the tolerance over the standard error, so a short run at a wide tolerance
tells what a long one at a narrow tolerance would.

``python -m experiments.verdicts.calibration_cases --claims S1,S3,S1b,S1c --looks --scale 3 --reps
2000`` is the long version of the seat claims' cases at one look and at several looks of a growing
run; ``--claims B2,B2r,S2v,K2,N4,E1,L1,N1 --scale 1`` the other claims' at one look (both
tables are in docs/calibration.md). ``tests/test_calibration.py`` and
``tests/test_calibration_claims.py`` run short versions.
"""
from __future__ import annotations

import argparse
import math
from collections.abc import Callable

import numpy as np

from ..tables.rotations import rotations
from .calibration import (
    Scenario,
    first_only,
    first_seat,
    linear,
    markdown,
    power,
    rows,
    scored,
    se_of_pooled,
    synthetic,
    winners,
)
from .decisions import NEGLIGIBLE, REFUTED, SUPPORTED

SUP = frozenset({SUPPORTED})
NEG = frozenset({NEGLIGIBLE})
REF = frozenset({REFUTED})
AGAINST = frozenset({REFUTED, NEGLIGIBLE})
NOT_NULL = frozenset({SUPPORTED, NEGLIGIBLE})      # with no effect at all, "real" is wrong too
SEAT_TOLERANCE = 0.01                              # the studies' tolerance in win share per seat


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


# ------------------------------------------------------------------------------ N4, E1
def two_counts(lost_gap: float, rounds6: float):
    """6 players against 4: each player's explorers lost with chances 0.75 (4 players) and
    0.75 + ``lost_gap`` (6); 9 rounds at 4 players, ``rounds6`` at 6 (so the losses per
    player and round differ by a known, large amount when ``rounds6`` is small)."""
    def make(rng, n):
        out = []
        for players, p_lost, rounds in ((4, .75, 9), (6, .75 + lost_gap, rounds6)):
            k = 10 if players == 4 else 7
            res = rng.binomial(k, 1 - p_lost, (n, players))
            turns = np.full((n, players), int(rounds), np.int64) + \
                (rng.random((n, players)) < rounds % 1)
            out.append(scored(f"p{players}-rules", players, res * 3.0, rng=rng,
                                seating=("s",) * players, rescued=res, turns=turns,
                                explorers=k))
        return out
    return make


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


# ------------------------------------------------------------------------------ L1
def basher(w_sab: float):
    """4 players: careful, greedy, racer and a fourth seat (greedy, or the saboteur), in
    every rotation; a seat wins with chance proportional to its strategy's weight (careful
    3, greedy 1, racer 1; the saboteur ``w_sab``). Careful's win share per seat moves by
    3/W_B - 3/W_A (W the weights' sum)."""
    weights = {"careful": 3.0, "greedy": 1.0, "racer": 1.0, "saboteur": w_sab}

    def table(rng, n, lineup, tag):
        out = []
        for r, seating in enumerate(rotations(lineup)):
            w = np.array([weights[t] for t in seating])
            chances = np.broadcast_to(w / w.sum(), (n, 4))
            top, _ = winners(rng, np.ascontiguousarray(chances), 0.0)
            out.append(scored(f"p4-{tag}-r{r}", 4, top * 5.0, rng=rng, seating=seating))
        return out

    def make(rng, n):
        return (table(rng, n, ("careful", "greedy", "racer", "greedy"), "without")
                + table(rng, n, ("careful", "greedy", "racer", "saboteur"), "with"))
    return make


def w_for(change: float) -> float:
    """The saboteur's weight that moves careful's win share per seat by ``change``."""
    return 3 / (change + 0.5) - 5


# ------------------------------------------------------------------------------ N1
def counts(gap_edge: float, tie_edge: float, gap: float = 0.15, ties: float = 0.10):
    """4, 5 and 6 players, every seat equally likely to win (fairness equal): 4 players' mean
    winning gap (top two scores over a player's value) ``gap_edge`` below the others' ``gap``,
    and its share of shared tops ``tie_edge`` below their ``ties``. 4 players is then better
    than each other count on closeness and decisiveness by exactly those margins."""
    def make(rng, n):
        out = []
        for players in (4, 5, 6):
            t = ties - (tie_edge if players == 4 else 0.0)
            g = gap - (gap_edge if players == 4 else 0.0)
            value = {4: 28, 5: 24, 6: 22}[players]
            winner = rng.integers(0, players, n)
            second = (winner + rng.integers(1, players, n)) % players
            tied = rng.random(n) < t
            margin = np.where(tied, 0.0, rng.exponential(g / (1 - t), n))
            score = rng.uniform(0, 10, (n, players))
            rows = np.arange(n)
            score[rows, second] = 12.0
            score[rows, winner] = 12.0 + margin * value
            out.append(scored(f"p{players}-rules", players, score, rng=rng,
                                seating=("s",) * players))
        return out
    return make




# ------------------------------------------------------------------------------ the seats
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


# ------------------------------------------------------------------------------ the others
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


def losses_against_four_players(scale: float) -> list[Scenario]:
    par = {"lost": 0.05, "per_round": 0.1}
    out = [Scenario("N4 share lost exactly at its tolerance, per round far above", "N4",
                    "one part at the edge", two_counts(0.05, 5.0), SUP, frozenset(), par,
                    AGAINST)]
    for k in (1.2, 1.5):
        out.append(Scenario(f"N4 share lost at {k} x its tolerance, per round far above",
                            "N4", "both parts above (claim true)", two_counts(0.05 * k, 5.0),
                            AGAINST, SUP, par))
    return out + [Scenario("N4 both far above", "N4", "both parts large",
                           two_counts(0.15, 5.0), AGAINST, SUP, par)]


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


def four_players_best(scale: float) -> list[Scenario]:
    t = SEAT_TOLERANCE * scale
    par = {"gap": t, "ties": t, "fairness": 0.0025 * scale}
    out = [
        Scenario("N1 every count alike", "N1", "4 players no better", counts(0.0, 0.0),
                 SUP, REF, par),
        Scenario("N1 4 players better by exactly the tolerances", "N1",
                 "closeness and decisiveness at the edge", counts(t, t), SUP, frozenset(),
                 par, REF),
    ]
    for k in (1.2, 1.5):
        out.append(Scenario(f"N1 4 players better by {k} x the tolerances", "N1",
                            f"closeness and decisiveness {k} x (claim true)",
                            counts(k * t, k * t), REF, SUP, par))
    return out


CASES: dict[str, Callable[[float], list[Scenario]]] = {
    "S1": first_seats_flat_boats, "S3": first_seat_at_two_to_four, "S1b": seat_balance,
    "S1c": spread_removed, "B2": boat_value, "B2r": boat_in_seats, "S2v": points_per_turn,
    "K2": luck_share, "N4": losses_against_four_players, "E1": length_and_value_at_most,
    "L1": share_changes, "N1": four_players_best}
"""Each claim's cases, by claim id: a function of ``scale`` (the studies' tolerances times it)."""
SEATS = ("S1", "S3", "S1b", "S1c")


def scenarios(scale: float = 3.0, claims=None) -> list[Scenario]:
    """The cases of ``claims`` (every claim with cases when None), in ``CASES``' order."""
    return [sc for cid, cases in CASES.items() if claims is None or cid in claims
            for sc in cases(scale)]


# ------------------------------------------------------------------------------ the long version
POWER = ("S1 large: seat 1 +2 tolerances", "S1b inside: seat 1 +tolerance/2", "S1c much flatter",
         "S1 real slope, 60% of the tolerance")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--claims", default=",".join(CASES),
                    help="the claims whose cases run, comma-separated (default: every one)")
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--scale", type=float, default=3.0,
                    help="the studies' tolerances times this (1: as shipped)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--looks", action="store_true",
                    help="also extended, following the advice and until settled; with the "
                    "advised games' power and the pooled standard errors")
    ap.add_argument("--out", default=None, help="a Markdown file for the table")
    args = ap.parse_args(argv)
    n = args.games
    looks = [n, 2 * n, 4 * n, 8 * n, 16 * n] if args.looks else None
    chosen = scenarios(args.scale, args.claims.split(","))
    lines = markdown([r for sc in chosen for r in rows(sc, args.reps, n, looks, args.seed)])
    if args.looks:
        by = {sc.name: sc for sc in chosen}
        lines += ["", "| scenario | advised games | settled rightly |", "|---|---|---|"]
        for name in (x for x in POWER if x in by):
            need, right = power(by[name], n, args.reps, seed=args.seed + 11)
            lines.append(f"| {name} | {need:,} | {100 * right:.1f}% |")
        lines += ["", "| rotations, layout effect | per game index (ours) | naive, k x n rows |",
                  "|---|---|---|"]
        for k, sd in ((5, 1.0), (5, 0.0), (3, 0.5)):
            ours, naive, _ = se_of_pooled(400, 400, k, sd, 1.0, seed=args.seed + 3)
            lines.append(f"| {k} rotations, layout sd {sd} | {ours:.2f} | {naive:.2f} |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
