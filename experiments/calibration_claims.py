"""Calibration of the later claims' decision rules (issue 27): each new rule -- a contrast of k
settings averaged over seats (B2), a Fieller ratio of two such contrasts (B2r), a delta-method
slope (S2v), a variance decomposition's share against a threshold (K2), two directions at once
(N4, C2), two margins at once (E1) and "some part changes" (L1) -- run by the verdict code
itself on synthetic per-game data whose truth is known, with the game index as the unit, and
the truth planted exactly at the edge where a "supported" would be wrong.

``python -m experiments.calibration_claims --reps 2000`` is the long version (its table is in
docs/calibration.md); ``tests/test_calibration_claims.py`` runs a short one.
"""
from __future__ import annotations

import argparse
import math

import numpy as np

from .calibration import Scenario, _labels, _winners, linear, markdown, run, synthetic
from .decisions import NEGLIGIBLE, REFUTED, SUPPORTED
from .inference import ALPHA
from .games import SettingData
from .rotations import rotations

SUP = frozenset({SUPPORTED})
NOT_NULL = frozenset({SUPPORTED, NEGLIGIBLE})      # with no effect at all, "real" is wrong too


def _setting(label: str, players: int, score: np.ndarray, *, rng, seating: tuple,
             challenges=frozenset(), boats="rules", first: int = 0, turns=None,
             rescued=None, explorers: int | None = None, squid: bool = False
             ) -> SettingData:
    """A setting whose players score ``score`` (games, players); the top score wins (ties
    shared); rescues Binomial unless given; turns 9 each unless given."""
    n = score.shape[0]
    own = "chain" if players >= 5 else "shared"
    explorers = explorers or (8 if players == 5 else 7 if players == 6 else 10)
    top = score == score.max(axis=1, keepdims=True)
    res = rescued if rescued is not None else rng.binomial(explorers, 0.3, (n, players))
    d = SettingData(label=label, players=players, seed=1,
                    factors={"boats": boats, "challenges": challenges, "tiebreak": own,
                             "strategies": seating, "squid": squid, "squid_only": False,
                             "lagoon_is_sea": False, "creatures_must_move": False,
                             "max_turns": 400},
                    games=np.arange(first, first + n), own=own, challenges=challenges,
                    max_turns=400, score=score, rescued=np.asarray(res, np.int64),
                    explorers=np.full((n, players), explorers, np.int64),
                    turns=np.full((n, players), 9, np.int64) if turns is None else turns)
    d.win = {"shared": top, "chain": top}
    d.step = {"shared": np.zeros(n, np.int64), "chain": np.zeros(n, np.int64)}
    d.value = np.round(score).astype(np.int64)
    return d


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
        return [_setting("p5-rules", players, score, rng=rng, seating=("s",) * players,
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
            out.append(_setting(f"p4-mixed-r{r}", players, score, rng=rng, seating=seating))
        return out
    total = seat + strat + seed + rest
    return make, (seed + rest) / total


# ------------------------------------------------------------------------------ N4, C2, E1
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
            out.append(_setting(f"p{players}-rules", players, res * 3.0, rng=rng,
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
            out.append(_setting(label, 4, score, rng=rng, seating=("s",) * 4, turns=turns,
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
            top, _ = _winners(rng, np.ascontiguousarray(chances), 0.0)
            out.append(_setting(f"p4-{tag}-r{r}", 4, top * 5.0, rng=rng, seating=seating))
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
            out.append(_setting(f"p{players}-rules", players, score, rng=rng,
                                seating=("s",) * players))
        return out
    return make


# ------------------------------------------------------------------------------ the suite
def scenarios(scale: float = 1.0) -> list[Scenario]:
    """Each rule with its truth at the edge of a wrong "supported" (and a few nulls and large
    effects for power). ``scale`` multiplies the tolerances (a short run at a wide tolerance
    tells what a long one at a narrow tolerance would)."""
    t = 0.01 * scale
    k2, luck = variance_table(1.0, 1.0, 1.0, 1.0)
    k2_big, _ = variance_table(0.2, 0.3, 1.0, 2.0)
    against = frozenset({REFUTED, NEGLIGIBLE})
    ref = frozenset({REFUTED})
    n1 = {"gap": t, "ties": t, "fairness": 0.0025 * scale}
    out = [
        Scenario("B2 a boat worth exactly the tolerance", "B2", "value = tolerance",
                 boats(t), SUP, frozenset(), {"tolerance": t}, against),
        Scenario("B2 a boat worth nothing", "B2", "value 0", boats(0.0), NOT_NULL,
                 ref, {"tolerance": t}),
        Scenario("B2 a boat worth 3 tolerances", "B2", "value 3 x tolerance", boats(3 * t),
                 against, SUP, {"tolerance": t}),
        Scenario("B2r a boat worth exactly one seat", "B2r", "rate = 1 seat",
                 boats(0.05, -0.05), SUP, frozenset(), {"tolerance": 1.0}, against),
    ]
    for k in (1.2, 1.5):
        out.append(Scenario(f"B2r a boat worth {k} seats", "B2r", f"rate = {k} seats (true)",
                            boats(0.05 * k, -0.05), against, SUP, {"tolerance": 1.0}))
    out += [
        Scenario("B2r a boat worth three seats", "B2r", "rate = 3 seats",
                 boats(0.15, -0.05), against, SUP, {"tolerance": 1.0}),
        Scenario("S2v a turn worth exactly the tolerance", "S2v", "slope = tolerance",
                 turn_slope(0.5), SUP, frozenset(), {"tolerance": 0.5}, against),
        Scenario("S2v a turn worth nothing", "S2v", "slope 0", turn_slope(0.0), NOT_NULL,
                 ref, {"tolerance": 0.5}),
        Scenario("K2 luck exactly half", "K2", f"luck share {luck:.2f}", k2, SUP,
                 frozenset(), {"threshold": 0.5}, ref),
        Scenario("K2 luck 60% (1.2 x the threshold)", "K2", "luck share 0.60",
                 variance_table(1.0, 1.0, 1.5, 1.5)[0], ref, SUP, {"threshold": 0.5}),
        Scenario("K2 luck 75% (1.5 x the threshold)", "K2", "luck share 0.75",
                 variance_table(0.5, 0.5, 1.5, 1.5)[0], ref, SUP, {"threshold": 0.5}),
        Scenario("K2 luck 80%", "K2", "luck share 0.85", k2_big, ref, SUP,
                 {"threshold": 0.5}),
        Scenario("N4 share lost exactly at its tolerance, per round far above", "N4",
                 "one part at the edge", two_counts(0.05, 5.0), SUP, frozenset(),
                 {"lost": 0.05, "per_round": 0.1}, against),
    ]
    for k in (1.2, 1.5):
        out.append(Scenario(f"N4 share lost at {k} x its tolerance, per round far above",
                            "N4", "both parts above (claim true)", two_counts(0.05 * k, 5.0),
                            against, SUP, {"lost": 0.05, "per_round": 0.1}))
    out += [
        Scenario("N4 both far above", "N4", "both parts large", two_counts(0.15, 5.0),
                 against, SUP, {"lost": 0.05, "per_round": 0.1}),
        Scenario("E1 exactly one round longer, scores equal", "E1", "one part at its margin",
                 expansions(1.0, 0.0), SUP, frozenset(), {"rounds": 1.0, "value": 0.02}, ref),
    ]
    for k in (1.2, 1.5):
        out.append(Scenario(f"E1 {k} rounds longer, scores equal", "E1",
                            f"one part {k} x its margin (claim false)",
                            expansions(k, 0.0), SUP, ref, {"rounds": 1.0, "value": 0.02}))
    out += [
        Scenario("E1 as long, scores equal", "E1", "both parts inside",
                 expansions(0.0, 0.0), ref, SUP, {"rounds": 1.0, "value": 0.02}),
        Scenario("L1 nobody's share moves", "L1", "no change", basher(1.0), NOT_NULL,
                 ref, {"tolerance": 2 * t}),
        Scenario("L1 careful moves exactly the tolerance", "L1", "largest change = tolerance",
                 basher(w_for(-2 * t)), SUP, frozenset(), {"tolerance": 2 * t}, against),
    ]
    for k in (1.2, 1.5):
        out.append(Scenario(f"L1 careful moves {k} x the tolerance", "L1",
                            f"largest change {k} x tolerance (claim true)",
                            basher(w_for(-2 * k * t)), against, SUP, {"tolerance": 2 * t}))
    out += [
        Scenario("L1 careful moves 3 tolerances", "L1", "largest change 3 x tolerance",
                 basher(w_for(-6 * t)), against, SUP, {"tolerance": 2 * t}),
        Scenario("N1 every count alike", "N1", "4 players no better", counts(0.0, 0.0),
                 SUP, ref, n1),
        Scenario("N1 4 players better by exactly the tolerances", "N1",
                 "closeness and decisiveness at the edge", counts(t, t), SUP, frozenset(),
                 n1, ref),
    ]
    for k in (1.2, 1.5):
        out.append(Scenario(f"N1 4 players better by {k} x the tolerances", "N1",
                            f"closeness and decisiveness {k} x (claim true)",
                            counts(k * t, k * t), ref, SUP, n1))
    return out


def table(reps: int, n: int, scale: float, seed: int = 0, names=None) -> list[dict]:
    """Every scenario (or those ``names``) at one fixed look of ``n`` game indices: both
    sides' wrong rates, each against its bound of alpha / 2."""
    out = []
    for sc in scenarios(scale):
        if names is not None and sc.name not in names:
            continue
        r = run(sc, reps, [n], seed)
        out.append({"scenario": sc.name, "claim": sc.claim, "truth": sc.truth,
                    "mode": "one look", "wrong verdicts": _labels(sc.wrong),
                    "wrong rate": r["wrong"], "se": r["se_wrong"],
                    "other side": _labels(sc.wrong2) if sc.edge else "",
                    "other side rate": r["wrong2"] if sc.edge else math.nan,
                    "se2": r["se_wrong2"], "bound": ALPHA / 2,
                    "right rate": r["right"] if sc.right else math.nan, **r["tally"]})
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    print("\n".join(markdown(table(args.reps, args.games, args.scale, args.seed))))


if __name__ == "__main__":
    main()
