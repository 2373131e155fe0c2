"""The numbers of a tournament: standings, head-to-head shares, PlackettLuce ratings, the SPRT.

A game's *standing* orders its players by the tie-break rule's keys: under B7.3 (``shared``)
the score alone, under X1.6 (``chain``) score, then explorers rescued, then (Challenge 3 only)
value rescued, then fewer turns; players equal on every key share a standing. Its top group is
exactly ``simulator.scoring.decide``'s winners (checked in the tests), whose tie-split shares
(1/k each) are the win shares.

Intervals treat the *game index* as the unit: the games of one index share their layout and
dice (common random numbers), so they are not independent; the indices are. A strategy's value
per index is its mean over that index's games (and over its seats, when the list was repeated to
fill the table), and ``experiments.tables.moments.bounded_mean_ci`` gives the interval of the mean
of those values in their range (share [0, 1], score [0, ``score_bound``]). ``n`` is always the
games behind a number, ``indices`` the units.

Ratings: ``openskill.models.PlackettLuce`` with ``tau = 0`` (otherwise its defaults), one update
per game in game index, then line-up order, each player ranked by its standing (equal standings
tie). ``tau`` is the skill drift the model adds to every sigma at each update, for players who
change; a strategy is a fixed program, and with the default (25/300) sigma never falls below
about 1.7 however many games are played, so the ratings keep only the last few thousand games
and close strategies swap places by chance (a 560,000-game tournament of the ladder rated
``racer``, win share 27.8%, below ``greedy``, 20.7%). With ``tau = 0`` sigma shrinks as
1/sqrt(games) and the order converges. When a
strategy fills several seats of one table (K < P), each seat is rated as its own entry from the
strategy's rating and the strategy takes the mean of their new mu and sigma.

Stop rule (Wald's SPRT, checked after each batch): for each pair (A, B) adjacent in the current
rating order, the per-index share of "A finished above B" (ties half) is tested as a Bernoulli
mean, H0 p = 0.5 against H+ p = 0.5 + delta and H- p = 0.5 - delta, two one-sided tests with
alpha/2 each (Sobel and Wald's three-decision test). The log likelihood ratios of H+ and H- over
H0 use the sum of the per-index shares as the count of successes; by convexity that likelihood
ratio is a supermartingale under H0 for any outcome in [0, 1], so averaged and half-counted
outcomes keep the error rates (approximately, as Wald's bounds do). Decisions: LLR+ >= log((1 -
beta) / (alpha / 2)) accepts "A above B"; LLR- >= that bound accepts "B above A"; both LLRs <=
log(beta / (1 - alpha / 2)) accept "equal within delta". A pair is settled when the test accepts
the rating order or equality; "B above A" against the order, or no decision yet, leaves it open.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from openskill.models import PlackettLuce

from simulator.scoring import decide

from ..tables.games import player_scores, score_bound
from ..tables.moments import bounded_mean_ci

KEYS = ("score", "rescued", "rescued_value", "turns")
LINEUP_SEP = " | "                  # names may hold commas (``greedy:risk=2.0,greed=0.5``)


# ---------------------------------------------------------------------------- standings
def standing_ranks(score, rescued, value, turns, rule: str, equal: bool,
                   komi=None) -> np.ndarray:
    """Per game (rows) and player: how many players finished strictly above (0 = top; equal
    players share a rank), ordering by the keys of ``rule`` lexicographically; a score bonus
    (``komi``, half points per player, C1.2) counts in the first key."""
    keys = [np.asarray(score, np.int64)]
    if komi is not None and np.any(komi):
        keys[0] = 2 * keys[0] + np.broadcast_to(np.asarray(komi, np.int64), keys[0].shape)
    if rule == "chain":
        keys += [np.asarray(rescued, np.int64),
                 np.asarray(value, np.int64) if equal else np.zeros_like(keys[0]),
                 -np.asarray(turns, np.int64)]
    n, p = keys[0].shape
    above = np.zeros((n, p, p), bool)               # above[g, q, r]: q finished above r
    same = np.ones((n, p, p), bool)
    for k in keys:
        above |= same & (k[:, :, None] > k[:, None, :])
        same &= k[:, :, None] == k[:, None, :]
    return above.sum(axis=1).astype(np.int16)


@dataclass
class Games:
    """Per game of a tournament, in game index then line-up order: the players' keys, winners
    and standings, and the strategy index of every player."""
    strategies: tuple[str, ...]
    lineups: list[tuple[str, ...]]
    rule: str
    equal: bool
    bound: int                                  # the most a player can score
    g: np.ndarray                               # (n,) game index
    lineup: np.ndarray                          # (n,) line-up index
    score: np.ndarray                           # (n, P) per-player keys
    rescued: np.ndarray
    value: np.ndarray
    turns: np.ndarray
    win: np.ndarray                             # (n, P) bool: decide()'s winners
    rank: np.ndarray                            # (n, P) standing, 0 = top

    @classmethod
    def from_frames(cls, frames, strategies, lineups, settings) -> Games:
        """One batch: ``frames[l]`` is line-up ``l``'s ``records_frame`` of the same game
        indices; rows come out in (game index, line-up) order."""
        p = settings.players
        per = {k: [] for k in KEYS}
        for df in frames:
            ps = player_scores(df)
            for k in KEYS:
                per[k].append(np.column_stack([ps[f"{k}_{i}"].to_numpy(np.int64)
                                               for i in range(p)]))
        count, n_l = len(frames[0]), len(frames)
        stacked = {k: np.stack(v, axis=1).reshape(count * n_l, p) for k, v in per.items()}
        equal = 3 in settings.challenges
        komi = settings.player_komi_halves                      # C1: per player, half points
        win, _ = decide(*(stacked[k] for k in KEYS), rule=settings.tiebreak, equal=equal,
                        komi=komi)
        rank = standing_ranks(*(stacked[k] for k in KEYS), rule=settings.tiebreak, equal=equal,
                              komi=komi)
        games = np.repeat(frames[0]["game"].to_numpy(np.int64), n_l)
        lu = np.tile(np.arange(n_l, dtype=np.int32), count)
        return cls(tuple(strategies), list(lineups), settings.tiebreak, equal,
                   score_bound(p, settings.challenges), games, lu, stacked["score"],
                   stacked["rescued"], stacked["rescued_value"], stacked["turns"], win, rank)

    @classmethod
    def concat(cls, blocks: list[Games]) -> Games:
        """The batches' games as one (``blocks`` in order, at least one)."""
        first = blocks[0]
        cat = {name: np.concatenate([getattr(b, name) for b in blocks])
               for name in ("g", "lineup", "score", "rescued", "value", "turns", "win", "rank")}
        return cls(first.strategies, first.lineups, first.rule, first.equal, first.bound, **cat)

    @property
    def n(self) -> int:
        return len(self.g)

    @property
    def indices(self) -> int:
        return len(np.unique(self.g))

    @property
    def strat(self) -> np.ndarray:
        """(n, P) strategy index of every player."""
        index = {s: i for i, s in enumerate(self.strategies)}
        table = np.array([[index[s] for s in lu] for lu in self.lineups], np.int32)
        return table[self.lineup]

    @property
    def share(self) -> np.ndarray:
        w = self.win.astype(float)
        return w / w.sum(axis=1, keepdims=True)


def _per_index(games: Games, present: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The mean of ``values`` over the games of each game index where ``present``."""
    _, unit = np.unique(games.g[present], return_inverse=True)
    counts = np.bincount(unit)
    return np.bincount(unit, weights=values[present]) / counts


def _over_slots(mask: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(present, mean of x over the masked players)`` per game."""
    cnt = mask.sum(axis=1)
    present = cnt > 0
    return present, np.where(present, (x * mask).sum(axis=1) / np.maximum(cnt, 1), np.nan)


# ---------------------------------------------------------------------------- ratings
class Ratings:
    """PlackettLuce ratings, fed one batch at a time in the tournament's game order."""

    def __init__(self, strategies):
        self.model = PlackettLuce(tau=0.0)            # fixed programs: no skill drift
        self.strategies = tuple(strategies)
        self.current = [self.model.rating(name=s) for s in self.strategies]
        self.games = 0

    def feed(self, games: Games) -> None:
        strat, rank = games.strat.tolist(), games.rank.tolist()
        current, rate = self.current, self.model.rate
        for slots, ranks in zip(strat, rank):
            if len(set(slots)) == len(slots):          # one seat each: plain PlackettLuce
                new = rate([[current[s]] for s in slots], ranks=ranks)
                for s, team in zip(slots, new):
                    current[s] = team[0]
                continue
            teams = [[self.model.rating(mu=current[s].mu, sigma=current[s].sigma)]
                     for s in slots]
            new = rate(teams, ranks=ranks)
            for s in set(slots):                        # several seats: their mean
                at = [t[0] for t, x in zip(new, slots) if x == s]
                mean = at[0]
                mean.mu = sum(r.mu for r in at) / len(at)
                mean.sigma = sum(r.sigma for r in at) / len(at)
                current[s] = mean
        self.games += games.n

    @property
    def mu(self) -> np.ndarray:
        return np.array([r.mu for r in self.current], float)

    @property
    def sigma(self) -> np.ndarray:
        return np.array([r.sigma for r in self.current], float)

    def ordinal(self) -> np.ndarray:
        return np.array([r.ordinal() for r in self.current], float)

    def order(self) -> list[int]:
        """Strategy indices best first: ordinal, then mu, then the given order."""
        o, mu = self.ordinal(), self.mu
        return sorted(range(len(o)), key=lambda i: (-o[i], -mu[i], i))


# ---------------------------------------------------------------------------- tables
def standings(games: Games, ratings: Ratings) -> pd.DataFrame:
    """One row per strategy, best rating first (``rank`` 1..K)."""
    strat, share, score = games.strat, games.share, games.score.astype(float)
    ordinal = ratings.ordinal()
    rows = []
    for rank, i in enumerate(ratings.order(), start=1):
        mask = strat == i
        present, w = _over_slots(mask, share)
        _, sc = _over_slots(mask, score)
        ws, lo, hi, units, _ = bounded_mean_ci(_per_index(games, present, w), 0.0, 1.0)
        ms, slo, shi, _, _ = bounded_mean_ci(_per_index(games, present, sc), 0.0,
                                             float(games.bound))
        rows.append({"strategy": games.strategies[i], "games": int(present.sum()),
                     "win_share": ws, "low": lo, "high": hi, "mean_score": ms,
                     "score_low": slo, "score_high": shi, "mu": float(ratings.mu[i]),
                     "sigma": float(ratings.sigma[i]), "ordinal": float(ordinal[i]),
                     "rank": rank, "indices": units})
    return pd.DataFrame(rows)


def pair_values(games: Games, a: int, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(present, above, tied)`` per game for strategies ``a`` and ``b``: the share of their
    player pairs (one each unless the list was repeated) where ``a`` finished above, and
    level with, ``b``."""
    return pair_shares(games.strat, games.rank, a, b)


def pair_shares(strat: np.ndarray, rank: np.ndarray, a: int, b: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``pair_values`` on ``(n, P)`` arrays of every player's strategy index and standing
    (1 = first, ties equal): also for games read back from a tournament's ``games.parquet``
    (``examples/strength_curve.py``)."""
    ma, mb = strat == a, strat == b
    pairs = ma.sum(axis=1) * mb.sum(axis=1)
    present = pairs > 0
    above = (rank[:, :, None] < rank[:, None, :])
    level = (rank[:, :, None] == rank[:, None, :])
    both = ma[:, :, None] & mb[:, None, :]
    denom = np.maximum(pairs, 1)
    return (present, (above & both).sum(axis=(1, 2)) / denom,
            (level & both).sum(axis=(1, 2)) / denom)


def head_to_head(games: Games) -> pd.DataFrame:
    """One row per ordered pair (strategy, opponent) that sat at the same table: ``share`` of
    their games where ``strategy`` finished above ``opponent``, ties half."""
    rows = []
    k = len(games.strategies)
    for a in range(k):
        for b in range(k):
            if a == b:
                continue
            present, above, tied = pair_values(games, a, b)
            if not present.any():
                continue
            y = above + 0.5 * tied
            share, lo, hi, units, _ = bounded_mean_ci(_per_index(games, present, y), 0.0, 1.0)
            rows.append({"strategy": games.strategies[a], "opponent": games.strategies[b],
                         "games": int(present.sum()), "above": float(above[present].sum()),
                         "tied": float(tied[present].sum()), "share": share, "low": lo,
                         "high": hi, "indices": units})
    return pd.DataFrame(rows, columns=["strategy", "opponent", "games", "above", "tied",
                                       "share", "low", "high", "indices"])


# ---------------------------------------------------------------------------- the SPRT
def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (upper, lower) log bounds of each one-sided test at alpha / 2."""
    return math.log((1 - beta) / (alpha / 2)), math.log(beta / (1 - alpha / 2))


def sprt(successes: float, n: int, alpha: float, beta: float, delta: float
         ) -> tuple[str, float, float]:
    """``(decision, llr_plus, llr_minus)``; decision ``above``, ``below``, ``equal`` or
    ``open`` (the module's rule)."""
    up, low = sprt_bounds(alpha, beta)
    win, lose = math.log((0.5 + delta) / 0.5), math.log((0.5 - delta) / 0.5)
    plus = successes * win + (n - successes) * lose
    minus = successes * lose + (n - successes) * win
    if plus >= up:
        return "above", plus, minus
    if minus >= up:
        return "below", plus, minus
    if plus <= low and minus <= low:
        return "equal", plus, minus
    return "open", plus, minus


@dataclass
class StopCheck:
    """The SPRT on the adjacent pairs of one rating order."""
    order: tuple[str, ...]
    pairs: list[dict] = field(default_factory=list)
    alpha: float = 0.05
    beta: float = 0.05
    delta: float = 0.05

    @property
    def settled(self) -> bool:
        return all(p["settled"] for p in self.pairs)

    @property
    def unsettled(self) -> list[tuple[str, str]]:
        return [(p["upper"], p["lower"]) for p in self.pairs if not p["settled"]]

    def to_dict(self) -> dict:
        up, low = sprt_bounds(self.alpha, self.beta)
        return {"order": list(self.order), "settled": self.settled, "pairs": self.pairs,
                "bounds": {"accept_difference": up, "accept_equal": low}}

    def statement(self, indices: int, games: int, stop: bool, limit: int) -> str:
        """One line: whether the SPRT settled the order, after how many games, and each
        adjacent pair's decision (the unsettled ones named)."""
        def pair(p):
            verdict = {"above": f"{p['upper']} > {p['lower']}",
                       "equal": f"{p['upper']} = {p['lower']} within {self.delta:g}",
                       "below": f"{p['upper']} vs {p['lower']} unsettled (the SPRT puts "
                                f"{p['lower']} above, against the rating order)",
                       "open": f"{p['upper']} vs {p['lower']} unsettled"}[p["decision"]]
            return f"{verdict} (share {p['share']:.3f} over {p['indices']:,} indices)"

        played = f"{games:,} games ({indices:,} game indices)"
        if not stop:
            head = (f"played all {played} (--no-stop); at the end the SPRT "
                    + ("settles every adjacent pair" if self.settled else
                       f"leaves {len(self.unsettled)} adjacent pair(s) unsettled"))
        elif self.settled:
            head = f"ordering settled by SPRT after {played}"
        else:
            head = (f"ordering NOT settled: stopped at the --games limit ({limit:,} indices) "
                    f"after {played}, {len(self.unsettled)} adjacent pair(s) unsettled")
        return head + ": " + "; ".join(pair(p) for p in self.pairs)


class PairUnits:
    """Per game index, the share of "a finished above b" (ties half), kept batch by batch:
    a batch holds whole game indices, so each batch's values are computed once per pair."""

    def __init__(self):
        self.blocks: list[Games] = []
        self.done: dict[tuple[int, int], list[tuple[np.ndarray, int]]] = {}

    def add(self, block: Games) -> None:
        self.blocks.append(block)

    def units(self, a: int, b: int) -> tuple[np.ndarray, int]:
        """``(per-index values, games behind them)`` over every batch so far."""
        parts = self.done.setdefault((a, b), [])
        for block in self.blocks[len(parts):]:
            present, above, tied = pair_values(block, a, b)
            parts.append((_per_index(block, present, above + 0.5 * tied), int(present.sum())))
        if not parts:
            return np.zeros(0), 0
        return np.concatenate([u for u, _ in parts]), sum(n for _, n in parts)


def stop_check(pairs: PairUnits, ratings: Ratings, alpha: float, beta: float,
               delta: float) -> StopCheck:
    """The SPRT on each pair adjacent in the current rating order, on all games so far."""
    order = ratings.order()
    names = ratings.strategies
    check = StopCheck(tuple(names[i] for i in order), alpha=alpha, beta=beta, delta=delta)
    for a, b in itertools.pairwise(order):
        units, n_games = pairs.units(a, b)
        decision, plus, minus = sprt(float(units.sum()), len(units), alpha, beta, delta)
        check.pairs.append({"upper": names[a], "lower": names[b],
                            "indices": len(units), "games": n_games,
                            "share": float(units.mean()) if len(units) else math.nan,
                            "llr_plus": plus, "llr_minus": minus, "decision": decision,
                            "settled": decision in ("above", "equal")})
    return check


# ---------------------------------------------------------------------------- the games table
def games_frame(frames, block: Games, strategies, lineups) -> pd.DataFrame:
    """One batch's rows of ``games.parquet``: the game index, the line-up, per player its
    strategy, score, standing, winner flag and win share, then the engine's per-game columns
    (``records_frame``) with each seat's strategy by its exact name; game index, then line-up
    order."""
    count, n_l = len(frames[0]), len(frames)
    names = list(strategies)
    parts = []
    for lu, df in zip(lineups, frames):
        df = df.copy()
        settings_seats = len([c for c in df.columns if c.startswith("strategy_")])
        players = len(lu)
        seats = int(df["seats"].iloc[0])
        for s in range(settings_seats):
            value = lu[s % players] if s < seats else None
            df[f"strategy_{s}"] = pd.Categorical([value] * count, categories=names)
        parts.append(df)
    table = pd.concat(parts, ignore_index=True)
    order = (np.arange(count)[:, None] + np.arange(n_l)[None, :] * count).ravel()
    table = table.iloc[order].reset_index(drop=True)
    labels = [LINEUP_SEP.join(lu) for lu in lineups]
    lead: dict[str, object] = {
        "game": table.pop("game"), "seed": table.pop("seed"),
        "lineup": block.lineup.astype(np.int16),
        "lineup_label": pd.Categorical.from_codes(block.lineup, categories=labels)}
    strat, share = block.strat, block.share
    for p in range(block.score.shape[1]):
        lead[f"player_strategy_{p}"] = pd.Categorical.from_codes(strat[:, p], categories=names)
        lead[f"player_score_{p}"] = block.score[:, p].astype(np.int32)
        lead[f"standing_{p}"] = block.rank[:, p].astype(np.int8)
        lead[f"winner_{p}"] = block.win[:, p]
        lead[f"win_share_{p}"] = share[:, p]
    return pd.concat([pd.DataFrame(lead), table], axis=1)
