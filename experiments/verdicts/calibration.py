"""Calibration: the verdict code run on synthetic per-game data whose truth is known, to
measure how often each verdict is wrong -- by simulation, not by argument. This module is the
machinery every claim's cases share (``experiments.verdicts.calibration_cases`` holds the cases,
keyed by claim id, and the long version).

``synthetic(...)`` builds the per-game data a setting's verdicts read (``stats.SettingData``:
winners under both tie-breaks, scores, rescues) from planted seat chances, with the
dependence real games have: one game's shares sum to 1, ties split a game between seats, and
the rotations of a mixed table share each index's layout (a seat-specific effect per index,
common to its rotations); ``scored(...)`` builds one from planted scores. ``Scenario`` names a
claim, a truth and the verdicts that would be wrong under it; ``run`` plays it ``reps`` times
through ``verdicts.judge`` -- at one look, or at several looks of one growing run (extended
and judged again, earlier settlements frozen, as ``experiments.verdicts.looks`` does) -- and counts
the verdicts.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..tables.games import SettingData
from .catalog import from_data
from .decisions import NEGLIGIBLE, REFUTED, SETTLED, SUPPORTED
from .features import base_names
from .inference import ALPHA, Look
from .table import judge


# ------------------------------------------------------------------------------ the data
def winners(rng, chances: np.ndarray, tie_rate: float) -> tuple[np.ndarray, np.ndarray]:
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
        top, chain = winners(rng, chances, tie_rate)
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
        x = c.per_index(entry)[1][:, base_names(5).index(f"share_{entry.own}_0")]
        est.append(x.mean())
        se_idx.append(x.std(ddof=1) / math.sqrt(len(x)))
        rows = np.concatenate([p.share()[:, 0] for p in parts])
        se_naive.append(rows.std(ddof=1) / math.sqrt(len(rows)))
    true = float(np.std(est, ddof=1))
    return float(np.mean(se_idx)) / true, float(np.mean(se_naive)) / true, true


def scored(label: str, players: int, score: np.ndarray, *, rng, seating: tuple,
           challenges=frozenset(), boats="rules", first: int = 0, turns=None,
           rescued=None, explorers: int | None = None, squid: bool = False) -> SettingData:
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


# ------------------------------------------------------------------------------ the tables
MODES = ("one look", "extended x2 x4 x8 x16", "following the advice", "until settled")


def rows(sc: Scenario, reps: int, n: int, looks: list[int] | None = None,
         seed: int = 0) -> list[dict]:
    """One scenario's rows: at one look of ``n`` game indices, and with ``looks`` (an
    extended run's sizes) also extended, following the advice (up to 5 looks) and until
    settled. Both sides' wrong rates, each against its bound."""
    out = []
    modes = [("one look", [n], False)]
    if looks:
        modes += [(MODES[1], looks, False), (MODES[2], None, False), (MODES[3], looks, True)]
    for mode, sizes, seq in modes:
        t0 = time.perf_counter()
        r = run(sc, reps, sizes, seed, sequential=seq, first=n)
        out.append({"scenario": sc.name, "claim": sc.claim, "truth": sc.truth,
                    "mode": mode, "games": r["games"], "wrong verdicts": labels(sc.wrong),
                    "wrong rate": r["wrong"], "se": r["se_wrong"],
                    "other side": labels(sc.wrong2) if sc.edge else "",
                    "other side rate": r["wrong2"] if sc.edge else math.nan,
                    "se2": r["se_wrong2"],
                    "bound": ALPHA / 2 if mode in ("one look", "until settled") else ALPHA,
                    "right rate": r["right"] if sc.right else math.nan,
                    **r["tally"], "seconds": time.perf_counter() - t0})
    return out


def labels(verdicts) -> str:
    return ",".join(sorted(verdicts)) or "-"


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
