"""Calibration: the verdict code run on synthetic per-game data whose truth is known, to
measure how often each verdict is wrong -- by simulation, not by argument.

``synthetic(...)`` builds the per-game data a setting's verdicts read (``stats.SettingData``:
winners under both tie-breaks, scores, rescues) from planted seat chances, with the
dependence real games have: one game's shares sum to 1, ties split a game between seats, and
the rotations of a mixed table share each index's layout (a seat-specific effect per index,
common to its rotations). ``Scenario`` names a claim, a truth and the verdicts that would be
wrong under it; ``run`` plays it ``reps`` times through ``verdicts.judge`` -- at one look, or
at several looks of one growing run (extended and judged again, earlier settlements frozen, as
``experiments.looks`` does) -- and counts the verdicts.

``python -m experiments.calibration --reps 4000 --out docs/calibration.md`` is the long
version (its table is in ``docs/calibration.md``); ``tests/test_calibration.py`` runs a short
one in CI.
"""
from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .decisions import NEGLIGIBLE, REFUTED, SETTLED, SUPPORTED
from .games import SettingData
from .inference import ALPHA, Look
from .units import feature_names, from_data
from .verdicts import judge


# ------------------------------------------------------------------------------ the data
def _winners(rng, chances: np.ndarray, tie_rate: float) -> tuple[np.ndarray, np.ndarray]:
    """Per game (rows of ``chances``, each a seat distribution): a winner drawn from the
    chances, and for a share ``tie_rate`` of games a second seat level with it (the top shared)
    -- drawn from the rest by the same chances. Returns ``(shared top, chain winner)`` as
    boolean (games, seats); the chain breaks a tie for the later seat of the two."""
    games, seats = chances.shape
    cum = np.cumsum(chances, axis=1)
    first = (rng.random(games)[:, None] > cum).sum(axis=1).clip(0, seats - 1)
    top = np.zeros((games, seats), bool)
    top[np.arange(games), first] = True
    tied = rng.random(games) < tie_rate
    if tied.any():
        rest = chances[tied].copy()
        rest[np.arange(int(tied.sum())), first[tied]] = 0
        rest /= rest.sum(axis=1, keepdims=True)
        cum2 = np.cumsum(rest, axis=1)
        second = (rng.random(int(tied.sum()))[:, None] > cum2).sum(axis=1).clip(0, seats - 1)
        top[np.flatnonzero(tied), second] = True
    chain = np.zeros_like(top)
    last = seats - 1 - np.argmax(top[:, ::-1], axis=1)
    chain[np.arange(games), last] = True
    return top, chain


def synthetic(label: str, players: int, n: int, shares, *, rng, allocation: str = "flat",
              tiebreak: str | None = None, tie_rate: float = 0.0, rotations: int = 1,
              layout_sd: float = 0.0, strength: float = 0.0, challenges=frozenset(),
              rescued: float = 0.5, seed: int = 1, first: int = 0,
              strategies: tuple | None = None) -> list[SettingData]:
    """``rotations`` settings (one per rotation of a mixed table when more than 1) of ``n``
    games each, indices ``first..first+n-1``, whose seats win with chances ``shares`` on
    average. ``layout_sd``: a seat-specific effect on the log chances drawn once per index and
    shared by its rotations (the same tiles and dice). ``strength``: the log-chance edge of
    the line-up's first strategy, which moves one seat on per rotation (so that, pooled, every
    seat holds it equally often). Rescues are Binomial(explorers, ``rescued``) per player."""
    shares = np.asarray(shares, float)
    own = tiebreak or ("chain" if players >= 5 else "shared")
    explorers = 8 if players == 5 else 7 if players == 6 else 10
    layout = rng.normal(0.0, layout_sd, (n, players)) if layout_sd > 0 else 0.0
    base = np.broadcast_to(np.log(shares)[None, :] + layout, (n, players))
    names = strategies or (("synthetic",) * players if rotations == 1 else
                           tuple("strong" if s == 0 else "plain" for s in range(players)))
    out = []
    for r in range(rotations):
        edge = np.zeros(players)
        if rotations > 1:
            edge[r % players] = strength
        logits = base + edge[None, :]
        chances = np.exp(logits - logits.max(axis=1, keepdims=True))
        chances /= chances.sum(axis=1, keepdims=True)
        top, chain = _winners(rng, chances, tie_rate)
        score = np.where(top, 5, 0).astype(np.int64)
        res = rng.binomial(explorers, rescued, (n, players)).astype(np.int64)
        seating = tuple(names[(s + r) % players] for s in range(players))
        d = SettingData(label=f"{label}-r{r}" if rotations > 1 else label, players=players,
                        seed=seed, factors={"boats": allocation, "challenges": challenges,
                                            "tiebreak": own, "strategies": seating,
                                            "squid": False, "squid_only": False,
                                            "lagoon_is_sea": False,
                                            "creatures_must_move": False, "max_turns": 400},
                        games=np.arange(first, first + n), own=own, challenges=challenges,
                        max_turns=400, score=score, rescued=res,
                        explorers=np.full((n, players), explorers, np.int64),
                        turns=np.full((n, players), 10, np.int64))
        d.win = {"shared": top, "chain": chain}
        d.step = {"shared": np.zeros(n, np.int64), "chain": np.zeros(n, np.int64)}
        out.append(d)
    return out


def linear(players: int, slope: float) -> np.ndarray:
    """Seat chances 1/N + slope * (seat - middle): a linear trend of ``slope`` per seat."""
    c = np.arange(players) - (players - 1) / 2
    return 1 / players + slope * c


def first_seat(players: int, excess: float) -> np.ndarray:
    """Seat 1 at 1/N + ``excess``, the others sharing the rest equally."""
    out = np.full(players, (1 - 1 / players - excess) / (players - 1))
    out[0] = 1 / players + excess
    return out


def first_only(players: int, excess: float) -> np.ndarray:
    """Seat 1 at 1/N + ``excess`` and seat 2 at 1/N - ``excess``, the others at 1/N: seat 1's
    criterion alone at ``excess`` (the slope over seats stays far inside its tolerance; with
    the rest shared equally, 4 players' slope would pass its own tolerance first)."""
    out = np.full(players, 1 / players)
    out[0] += excess
    out[1] -= excess
    return out


# ------------------------------------------------------------------------------ scenarios
@dataclass
class Scenario:
    """A claim judged on synthetic settings built by ``make(rng, n)``, with the verdicts that
    would be wrong under the planted truth (``wrong``), the ones that are right (``right``,
    for power) and, at an edge -- the truth exactly at a tolerance, where a label on *either*
    side is wrong -- the other side's wrong labels (``wrong2``), counted on their own: each
    side is a one-sided test with its own bound."""
    name: str
    claim: str
    truth: str
    make: object                        # (rng, n) -> list[SettingData]
    wrong: frozenset = frozenset()
    right: frozenset = frozenset()
    params: dict = field(default_factory=dict)
    wrong2: frozenset = frozenset()

    @property
    def edge(self) -> bool:
        return bool(self.wrong2)


def _tally(verdicts: list[str]) -> dict:
    out = {v: 0 for v in (SUPPORTED, NEGLIGIBLE, REFUTED, "inconclusive")}
    for v in verdicts:
        out[v] += 1
    return out


def run(sc: Scenario, reps: int, looks: list[int] | None, seed: int = 0,
        sequential: bool = False, first: int = 0, most: int = 5, cap: int = 16,
        naive: bool = False) -> dict:
    """Judge ``sc`` ``reps`` times. ``looks``: the games per setting at each look of one
    growing run (one entry: a single look); None: follow the advice -- start at ``first``,
    and while the verdict is open extend to the games it says would settle it (at most
    ``cap`` times the first look), for at most ``most`` looks. The first look is fixed unless
    ``sequential`` (``study --until-settled``); later looks are anytime-valid, with rows
    settled earlier frozen (the first settlement is the final verdict). ``naive``: every look
    fixed, as if each were the first (what looking again without a correction does). Returns
    the final verdicts' tally, the wrong and right rates, their Monte Carlo standard errors,
    and the mean games of the last look."""
    rng = np.random.default_rng(seed)
    final, games = [], []
    n1 = looks[0] if looks else first
    t_opt = 4 * n1
    for _ in range(reps):
        data = sc.make(rng, looks[-1] if looks else cap * n1)
        verdict, n, k = "inconclusive", n1, 0
        while True:
            k += 1
            cut = [_head(d, n) for d in data]
            later = (sequential or k > 1) and not naive
            look = Look(later, t_opt if later else 0, k)
            table = judge(from_data(cut), {sc.claim: sc.params}, look)
            row = table[table["claim"] == sc.claim].iloc[0]
            verdict = row["verdict"]
            if verdict in SETTLED:
                break
            if looks is not None:
                if k == len(looks):
                    break
                n = looks[k]
            else:
                need = row["games_needed"]
                if k == most or need is pd.NA or need is None or n >= cap * n1:
                    break
                n = int(min(max(int(need), n + 1), cap * n1))
        games.append(n)
        final.append(verdict)
    tally = _tally(final)
    wrong = sum(tally[v] for v in sc.wrong) / reps
    wrong2 = sum(tally[v] for v in sc.wrong2) / reps
    right = sum(tally[v] for v in sc.right) / reps
    return {"tally": tally, "wrong": wrong, "wrong2": wrong2, "right": right, "reps": reps,
            "se_wrong": math.sqrt(max(wrong * (1 - wrong), 1e-12) / reps),
            "se_wrong2": math.sqrt(max(wrong2 * (1 - wrong2), 1e-12) / reps),
            "games": float(np.mean(games))}


def advised(sc: Scenario, n1: int, probe: int = 1_000_000, seed: int = 99) -> int | None:
    """The games the rule advises for the scenario's next look after a first look of ``n1``,
    with the truth plugged in: the advice computed on a probe of ``probe`` games, whose
    estimates are the truth to within a few per cent."""
    data = sc.make(np.random.default_rng(seed), probe)
    table = judge(from_data(data), {sc.claim: sc.params}, Look(True, 4 * n1, 1))
    need = table[table["claim"] == sc.claim].iloc[0]["to_settle"]
    return None if need is pd.NA else int(need)


def power(sc: Scenario, n1: int, reps: int, seed: int = 0) -> tuple[int | None, float]:
    """``(advised n, share of runs settled rightly by it)``: a first look at ``n1`` (fixed),
    then, if open, a second at the advised n (anytime-valid)."""
    n = advised(sc, n1)
    if n is None:
        return None, math.nan
    r = run(sc, reps, [n1, max(n, n1 + 1)], seed)
    return n, r["right"]


def _head(d: SettingData, n: int) -> SettingData:
    """The first ``n`` game indices of a setting (a run at an earlier look)."""
    return d.head((d.games % (1 << 44)) < (d.games.min() % (1 << 44)) + n)


def se_of_pooled(reps: int, n: int, k: int, layout_sd: float, strength: float, seed: int = 0
                 ) -> tuple[float, float, float]:
    """How well the pooled per-index standard error of seat 1's win share matches its true
    spread over replications, against the naive one that counts k * n rows as independent:
    ``(per-index SE / true SE, naive SE / true SE, true SE)``."""
    rng = np.random.default_rng(seed)
    est, se_idx, se_naive = [], [], []
    for _ in range(reps):
        parts = synthetic("p5-mixed", 5, n, np.full(5, 0.2), rng=rng, rotations=k,
                          layout_sd=layout_sd, strength=strength)
        c = from_data(parts)
        entry = c.entries[0]
        x = c.per_index(entry)[1][:, feature_names(5).index(f"share_{entry.own}_0")]
        est.append(x.mean())
        se_idx.append(x.std(ddof=1) / math.sqrt(len(x)))
        rows = np.concatenate([p.share()[:, 0] for p in parts])
        se_naive.append(rows.std(ddof=1) / math.sqrt(len(rows)))
    true = float(np.std(est, ddof=1))
    return float(np.mean(se_idx)) / true, float(np.mean(se_naive)) / true, true


# ------------------------------------------------------------------------------ the suite
def scenarios(t: float = 0.03) -> list[Scenario]:
    """The calibration scenarios: each claim shape under a null, an equivalence inside the
    tolerance ``t`` (win share per seat), a truth exactly at it (an edge: a label on either
    side is wrong, each side counted on its own), at 1.2 and 1.5 times it (the claim true by a
    little: the composite rules' "against" side must not fire) and a large effect, with the
    dependence of real games (ties, a layout shared by rotations). Effects are in units of the
    tolerance, so a short run at a wide tolerance tells what a long run at a narrow one would
    (what matters is the tolerance over the standard error)."""
    par = {"tolerance": t}
    flat = lambda shares, **kw: (lambda rng, n: synthetic(  # noqa: E731
        "p5-flat", 5, n, shares, rng=rng, allocation="flat", **kw))
    rules = lambda shares, **kw: (lambda rng, n: synthetic(  # noqa: E731
        "p5-rules", 5, n, shares, rng=rng, allocation="rules", **kw))
    four = lambda shares, **kw: (lambda rng, n: synthetic(  # noqa: E731
        "p4-rules", 4, n, shares, rng=rng, allocation="rules", **kw))

    def pair(rules_shares, flat_shares, **kw):
        def make(rng, n):
            s = np.random.SeedSequence(int(rng.integers(2**32)))
            a, b = (np.random.default_rng(x) for x in s.spawn(2))
            return (synthetic("p5-rules", 5, n, rules_shares, rng=a, allocation="rules", **kw)
                    + synthetic("p5-flat", 5, n, flat_shares, rng=b, allocation="flat", **kw))
        return make

    sup = frozenset({SUPPORTED})
    neg = frozenset({NEGLIGIBLE})
    ref = frozenset({REFUTED})
    against = frozenset({REFUTED, NEGLIGIBLE})
    c = {"tolerance": 0.25}                         # S1c: a quarter of the squared spread
    steep = -t / 4                                  # flat boats' slope in the S1c scenarios
    out = []
    # S1 (5 players, flat boats) and S3 (4 players, the rules' boats): two criteria
    for cid, make, players, where in (("S1", flat, 5, ""), ("S3", four, 4, "")):
        slope_tol = t / (players - 1)
        out += [
            Scenario(f"{cid} null: every seat 1/N", cid, "no seat effect",
                     make(np.full(players, 1 / players)), sup, ref, par, neg),
            Scenario(f"{cid} seat 1 at the tolerance", cid, "seat 1 exactly +tolerance",
                     make(first_only(players, t)), sup, frozenset(), par, against),
            Scenario(f"{cid} slope at the tolerance", cid,
                     "slope exactly -tolerance/(N-1)", make(linear(players, -slope_tol)), sup,
                     frozenset(), par, against),
        ]
        for k in (1.2, 1.5):
            out += [
                Scenario(f"{cid} seat 1 at {k} x the tolerance", cid,
                         f"seat 1 +{k} tolerances (claim true)",
                         make(first_only(players, k * t)), against, sup, par),
                Scenario(f"{cid} slope at {k} x the tolerance", cid,
                         f"slope {k} x -tolerance/(N-1) (claim true)",
                         make(linear(players, -k * slope_tol)), against, sup, par),
            ]
    out += [
        Scenario("S1 real slope, 60% of the tolerance", "S1", "real, below tolerance",
                 flat(linear(5, -0.6 * t / 4)), sup, against, par),
        Scenario("S1 large: seat 1 +2 tolerances", "S1", "large effect",
                 flat(first_seat(5, 2 * t)), against, sup, par),
        Scenario("S1 null with ties (15%) and a layout effect", "S1", "no seat effect",
                 flat(np.full(5, .2), tie_rate=0.15, layout_sd=0.5), sup, frozenset(), par,
                 neg),
        # S1b: balance over the seats
        Scenario("S1b balanced", "S1b", "every seat 1/N", rules(np.full(5, .2)), ref, sup, par),
        Scenario("S1b inside: seat 1 +tolerance/2", "S1b", "equivalent within tolerance",
                 rules(first_seat(5, t / 2)), ref, sup, par),
        Scenario("S1b at the margin: seat 1 +tolerance", "S1b", "at the margin",
                 rules(first_seat(5, t)), sup, frozenset(), par, ref),
        Scenario("S1b seat 1 at 1.2 x the tolerance", "S1b", "just outside (not balanced)",
                 rules(first_seat(5, 1.2 * t)), sup, ref, par),
        Scenario("S1b seat 1 at 1.5 x the tolerance", "S1b", "outside (not balanced)",
                 rules(first_seat(5, 1.5 * t)), sup, ref, par),
        Scenario("S1b outside: seat 1 +2 tolerances", "S1b", "large imbalance",
                 rules(first_seat(5, 2 * t)), sup, ref, par),
        Scenario("S1b pooled rotations sharing a layout, a strong strategy", "S1b",
                 "every seat 1/N (pooled)",
                 lambda rng, n: synthetic("p5-rules-mixed", 5, n, np.full(5, .2), rng=rng,
                                          allocation="rules", rotations=5, layout_sd=0.6,
                                          strength=1.0), ref, sup, par),
        # S1c: a ratio of spreads (Fieller)
        Scenario("S1c equal spreads", "S1c", "rules as unbalanced as flat",
                 pair(linear(5, steep), linear(5, steep)), sup, ref, c, neg),
        Scenario("S1c at the tolerance", "S1c", "rules remove exactly a quarter",
                 pair(linear(5, steep * math.sqrt(0.75)), linear(5, steep)), sup, frozenset(),
                 c, against),
        Scenario("S1c at 1.2 x the tolerance", "S1c", "rules remove 30% (claim true)",
                 pair(linear(5, steep * math.sqrt(0.70)), linear(5, steep)), against, sup, c),
        Scenario("S1c at 1.5 x the tolerance", "S1c", "rules remove 37.5% (claim true)",
                 pair(linear(5, steep * math.sqrt(0.625)), linear(5, steep)), against, sup,
                 c),
        Scenario("S1c overcompensated (steeper the other way)", "S1c",
                 "rules' spread larger", pair(linear(5, -1.2 * steep), linear(5, steep)),
                 sup, ref, c),
        Scenario("S1c much flatter", "S1c", "rules remove 96%",
                 pair(linear(5, 0.2 * steep), linear(5, steep)), against, sup, c),
    ]
    return out


def table(reps: int, n: int, looks: list[int], seed: int = 0, tolerance: float = 0.03,
          names=None) -> list[dict]:
    """Every scenario (or those ``names``) at one look of ``n`` games, at the looks ``looks``
    of an extended run, following the advice (up to 5 looks), and until settled over
    ``looks``."""
    out = []
    for sc in scenarios(tolerance):
        if names is not None and sc.name not in names:
            continue
        for mode, sizes, seq in (("one look", [n], False), ("extended x2 x4 x8 x16", looks, False),
                                 ("following the advice", None, False),
                                 ("until settled", looks, True)):
            t0 = time.perf_counter()
            r = run(sc, reps, sizes, seed, sequential=seq, first=n)
            out.append({"scenario": sc.name, "claim": sc.claim, "truth": sc.truth,
                        "mode": mode, "games": r["games"],
                        "wrong verdicts": _labels(sc.wrong),
                        "wrong rate": r["wrong"], "se": r["se_wrong"],
                        "other side": _labels(sc.wrong2) if sc.edge else "",
                        "other side rate": r["wrong2"] if sc.edge else math.nan,
                        "se2": r["se_wrong2"],
                        "bound": ALPHA / 2 if mode in ("one look", "until settled") else ALPHA,
                        "right rate": r["right"] if sc.right else math.nan,
                        **r["tally"], "seconds": time.perf_counter() - t0})
    return out


def _labels(labels) -> str:
    return ",".join(sorted(labels)) or "-"


def markdown(rows: list[dict]) -> list[str]:
    """The table's rows as Markdown: both sides' wrong rates, each against its bound."""
    lines = ["| scenario | mode | wrong verdicts: rate (± MC se) | at an edge, the other side: "
             "rate (± MC se) | bound each | right rate | supported / negligible / refuted / "
             "inconclusive |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        right = "" if math.isnan(r["right rate"]) else f"{100 * r['right rate']:.1f}%"
        other = "" if not r["other side"] else \
            f"{r['other side']}: {100 * r['other side rate']:.2f}% ± {100 * r['se2']:.2f}"
        lines.append(f"| {r['scenario']} | {r['mode']} | {r['wrong verdicts']}: "
                     f"{100 * r['wrong rate']:.2f}% ± {100 * r['se']:.2f} | {other} | "
                     f"{100 * r['bound']:g}% | {right} | {r[SUPPORTED]} / {r[NEGLIGIBLE]} / "
                     f"{r[REFUTED]} / {r['inconclusive']} |")
    return lines


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=2000)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tolerance", type=float, default=0.03)
    ap.add_argument("--out", default=None, help="a Markdown file for the table")
    args = ap.parse_args(argv)
    looks = [args.games, 2 * args.games, 4 * args.games, 8 * args.games, 16 * args.games]
    lines = markdown(table(args.reps, args.games, looks, args.seed, args.tolerance))
    sc = {x.name: x for x in scenarios(args.tolerance)}
    lines += ["", "| scenario | advised games | settled rightly |", "|---|---|---|"]
    for name in ("S1 large: seat 1 +2 tolerances", "S1b inside: seat 1 +tolerance/2",
                 "S1c much flatter", "S1 real slope, 60% of the tolerance"):
        n, right = power(sc[name], args.games, args.reps, seed=args.seed + 11)
        lines.append(f"| {name} | {n:,} | {100 * right:.1f}% |")
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
