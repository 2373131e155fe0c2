"""Balance statistics of a run table: per setting and seat, with 95% intervals, and paired
differences between settings that share their games.

A *run table* is the per-game table of the README ("The per-game table") for one or more
settings concatenated, with a ``setting`` column (a short stable label of the grid point) and an
``allocation`` column (``rules``, ``flat``, ``reversed`` or ``custom``). A table without a
``setting`` column is one setting labelled ``run``. Every setting must hold one player count, one
seed, one tie-break rule and one value of every factor, and each game index at most once.

``balance_stats(df)`` returns everything as one **tidy** DataFrame, one row per
(setting, seat, metric), with columns ``setting, seat, metric, value, low, high, n, method``:
``low``/``high`` are the interval (NaN where a row has none), ``n`` the games behind the row and
``method`` the interval or test (``wilson``, ``t``, ``wilson-scaled``, ``chi2``, ``holm``,
``paired-t``, ``newcomb``, ``score-2indep``, ``normal``; for the descriptive rows ``count``,
``setting``, or a name: the rule of ``own_tiebreak``, the factor of ``paired_games``). ``seat`` is
the seat index;
**with 2 players it is the player index** (seats A,B,A,B belong to players 0,1,0,1 and a
player's numbers are the sums over their two seats, as in ``reports.summary.player_scores``).
``seat`` is NA for the per-setting rows. Metrics:

per setting and seat (``seat`` = seat, or player with 2 players)
  ``win_share_shared``, ``win_share_chain``: the win share with ties split 1/k among the k
  winners, under B7.3's shared win and under X1.6's chain, both counted on the same games
  (``simulator.scoring.decide``; the chain's step (b) acts only under Challenge 3). Wilson
  interval of the tie-split count (the sum of the per-game shares) over n games: conservative,
  because a share in [0, 1] varies less than a 0/1 outcome with the same mean.
  ``win_share``: the same row as the one of the setting's own rule (its ``tiebreak`` column).
  ``outright_shared``, ``outright_chain``, ``outright`` (own rule): the seat is the only winner.
  ``top_tie``: the seat shared the top score with at least one other player (before any
  tie-break).
  ``mean_score`` (in [0, the player's explorer value in play], or the explorer count under
  Challenge 3), ``rescued_fraction`` (explorers rescued / in play, per game, averaged over games:
  the unit is the game, as one game's explorers share its fate; in [0, 1]) and ``mean_turns``
  (turns taken, in [0, max_turns]): ``bounded_mean_ci``.
  ``games_for_precision``: the games a half-width of ``precision`` (a ``precision`` row) would
  need at the observed own-rule share (``games_for_precision``); ``n`` is the games played.
per setting (``seat`` NA)
  ``games`` (value = n), ``players``, ``alpha``, ``precision`` (method ``setting``);
  ``own_tiebreak``: value = the rule's index in ``simulator.scoring.TIEBREAKS`` (0 shared,
  1 chain) and ``method`` = the rule's name;
  ``tie_rate``: games whose top score is shared (Wilson);
  ``decided_<step>_<rule>``: the games each step decided (``score``, ``rescued``, ``value``,
  ``turns``, ``shared``) under ``chain`` and under ``shared`` (where only ``score`` and
  ``shared`` occur); Wilson;
  ``chi2_stat``, ``chi2_p``: scipy's chi-square goodness-of-fit test of the own-rule tie-split
  win counts against the fair share n/N each. Split counts vary less than the multinomial counts
  the test assumes, so its p-values are conservative (too large); ``chi2_p_holm``: adjusted
  by Holm across the settings of the run.
paired differences (``setting`` = ``"A vs B"``, A minus B; ``seat`` as above)
  ``paired_games``: value = matched games, ``method`` = the factor the two settings differ in;
  ``diff_win_share`` and ``diff_score`` with ``*_p`` and ``*_p_holm`` (Holm within one
  family: the pairs that differ in the same factor, for one metric -- e.g. every boats pair's
  win-share p-values); pairs that played identical games by the same rule (named
  allocations that give the same boats) get 0 with method ``identical`` and no p, and stay out
  of every family: see ``paired_stats``.

Intervals follow the project's rule: proportions Wilson (``proportion_confint(...,
method="wilson")``); means of bounded per-game quantities by ``bounded_mean_ci``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    samplesize_confint_proportion,
    test_proportions_2indep,
)
from statsmodels.stats.weightstats import DescrStatsW

from reports.summary import n_players, player_scores
from simulator.scoring import STEPS, TIEBREAKS, decide
from simulator.state import SLOT_REMOVED, SLOT_VALUES

ALPHA = 0.05
PRECISION = 0.01                       # one percentage point of win share
COLUMNS = ("setting", "seat", "metric", "value", "low", "high", "n", "method")
PAIR_SEP = " vs "
R10_MAX_TURNS = 400                    # the Settings default, for tables without the column
# the factors a pair of settings may differ in (Challenge 5 / dolphins is in ``challenges``)
FACTORS = ("boats", "challenges", "tiebreak", "strategies", "squid", "squid_only",
           "lagoon_is_sea", "creatures_must_move", "max_turns")
NAMED_ALLOCATIONS = ("rules", "flat", "reversed")
CHAIN_STEPS = STEPS                                   # score, rescued, value, turns, shared
SHARED_STEPS = ("score", "shared")                    # the only steps of the shared rule


# ---------------------------------------------------------------------------- intervals
def wilson_ci(count, nobs, alpha: float = ALPHA) -> tuple[float, float, float]:
    """``(count / nobs, low, high)`` with statsmodels' Wilson score interval; NaN for nobs 0.
    ``count`` may be fractional (a tie-split win count)."""
    if nobs <= 0:
        return (math.nan, math.nan, math.nan)
    lo, hi = proportion_confint(float(count), int(nobs), alpha=alpha, method="wilson")
    return (float(count) / nobs, float(lo), float(hi))


def bounded_mean_ci(x, lo: float, hi: float,
                    alpha: float = ALPHA) -> tuple[float, float, float, int, str]:
    """The mean of a per-game quantity known to lie in ``[lo, hi]`` with its interval:
    ``(mean, low, high, n, method)``.

    The rule: the normal-theory (t) interval of the mean (``DescrStatsW(x).tconfint_mean``,
    method ``t``) when the sample varies (sd > 0) and that interval lies inside ``[lo, hi]``;
    otherwise the Wilson interval of the mean scaled to [0, 1] (count = sum((x - lo) / (hi -
    lo)), nobs = n) mapped back to ``[lo, hi]`` (method ``wilson-scaled``). The fallback is
    conservative: a [0, 1] variable with mean p has variance at most p(1 - p). It keeps a width
    when every game gave the same value (an all-zero sample gives [lo, lo + 3.7% of the range]
    at n = 100). An empty sample gives NaN and method ``none``; a value outside the bounds
    raises ``ValueError``.
    """
    x = np.asarray(x, dtype=float)
    n = int(x.size)
    if not hi > lo:
        raise ValueError(f"bounded_mean_ci needs lo < hi, got [{lo}, {hi}]")
    if n == 0:
        return (math.nan, math.nan, math.nan, 0, "none")
    if x.min() < lo or x.max() > hi:
        raise ValueError(f"values outside their bounds [{lo}, {hi}]: "
                         f"min {x.min()}, max {x.max()}")
    mean = float(x.mean())
    if n > 1 and np.ptp(x) > 0:
        t_lo, t_hi = DescrStatsW(x).tconfint_mean(alpha)
        if lo <= t_lo and t_hi <= hi:
            return (mean, float(t_lo), float(t_hi), n, "t")
    width = hi - lo
    p_lo, p_hi = proportion_confint(float(((x - lo) / width).sum()), n, alpha=alpha,
                                    method="wilson")
    return (mean, max(lo, lo + width * float(p_lo)), min(hi, lo + width * float(p_hi)), n,
            "wilson-scaled")


def games_for_precision(p, half_width: float, alpha: float = ALPHA):
    """Games for a (1 - alpha) interval of half-width ``half_width`` on a proportion ``p``:
    the normal approximation n = z^2 p (1 - p) / h^2, rounded up
    (statsmodels' ``samplesize_confint_proportion``). Scalar or array; p = 0 or 1 needs 0."""
    n = samplesize_confint_proportion(np.asarray(p, dtype=float), half_width, alpha=alpha,
                                      method="normal")
    out = np.ceil(np.asarray(n, dtype=float) - 1e-9).astype(np.int64)
    return int(out) if out.ndim == 0 else out


def share_precision(games, players: int, alpha: float = ALPHA):
    """The (1 - alpha) half-width of a seat's win share at the fair share 1/N after ``games``
    games: z sqrt(p (1 - p) / games) with p = 1/N (normal approximation, z from
    ``scipy.stats.norm.ppf``; the inverse of ``games_for_precision``, which the Wilson
    interval the run reports matches to within a few per cent from a few hundred games on).
    Used before any game is played (``sweep --plan``). Scalar or array."""
    p = 1.0 / players
    z = float(sps.norm.ppf(1 - alpha / 2))
    h = z * np.sqrt(p * (1 - p) / np.asarray(games, dtype=float))
    return float(h) if np.ndim(h) == 0 else h


def holm(pvalues, alpha: float = ALPHA) -> np.ndarray:
    """Holm-adjusted p-values (``multipletests(..., method="holm")``); NaN entries are left out
    of the family and stay NaN."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], alpha=alpha, method="holm")[1]
    return out


# ---------------------------------------------------------------------------- the rules' bounds
def explorers_per_colour(players: int, challenges) -> tuple[int, int]:
    """``(count, value)`` of one colour's explorers in play (B1.2, X1.1, X1.2, X6.1): values
    1,1,1,2,2,3,3,4,5,6 (10 explorers, 28) with 2-4 players, 8 / 24 with 5, 7 / 22 with 6, all
    10 / 28 under Challenge 6. From ``simulator.state``'s slot tables."""
    keep = np.ones(len(SLOT_VALUES), bool) if 6 in challenges else SLOT_REMOVED[players] == 0
    return int(keep.sum()), int(SLOT_VALUES[keep].sum())


def score_bound(players: int, challenges) -> int:
    """The most a player can score: the value of their explorers in play, or their count under
    Challenge 3 (X2.3); doubled with 2 players (two colours each, B4.5)."""
    count, value = explorers_per_colour(players, challenges)
    return (2 if players == 2 else 1) * (count if 3 in challenges else value)


def parse_challenges(label) -> frozenset[int]:
    """``"2,3"`` -> {2, 3}; ``"none"`` -> {} (the table's ``challenges`` column)."""
    text = str(label)
    return frozenset() if text in ("none", "", "nan") else frozenset(
        int(c) for c in text.split(","))


# ---------------------------------------------------------------------------- settings
@dataclass
class SettingData:
    """What the statistics need of one setting: its games and per-game, per-player arrays."""
    label: str
    players: int
    seed: int | None
    factors: dict
    games: np.ndarray                    # game indices, unique
    own: str                             # the setting's tie-break rule
    challenges: frozenset
    max_turns: int
    score: np.ndarray                    # (n, players) per-player keys
    rescued: np.ndarray
    explorers: np.ndarray
    turns: np.ndarray
    win: dict = field(default_factory=dict)      # rule -> bool (n, players)
    step: dict = field(default_factory=dict)     # rule -> int (n,) into STEPS

    @property
    def n(self) -> int:
        return len(self.games)

    def share(self, rule: str | None = None) -> np.ndarray:
        """Tie-split win shares (n, players): 1/k for each of a game's k winners."""
        w = self.win[rule or self.own].astype(float)
        return w / w.sum(axis=1, keepdims=True)


def _one_value(g: pd.DataFrame, col: str, label: str):
    values = pd.unique(g[col].astype(object))
    if len(values) != 1:
        raise ValueError(f"setting {label!r} mixes values of {col!r}: "
                         f"{sorted(map(str, values))}")
    v = values[0]
    return v.item() if hasattr(v, "item") else v


def _factors(g: pd.DataFrame, label: str, seats: int) -> dict:
    def get(col):
        return _one_value(g, col, label) if col in g.columns else None

    boats = tuple(int(get(f"boats_{s}")) for s in range(seats)) \
        if all(f"boats_{s}" in g.columns for s in range(seats)) else None
    allocation = get("allocation")
    out = {"boats": (str(allocation) if allocation in NAMED_ALLOCATIONS
                     else ("custom", boats) if allocation is not None else boats),
           "challenges": parse_challenges(get("challenges")) if "challenges" in g else None,
           "tiebreak": str(get("tiebreak")) if "tiebreak" in g else None,
           "strategies": tuple(str(get(f"strategy_{s}")) for s in range(seats)
                               if f"strategy_{s}" in g.columns)}
    for col in FACTORS[4:]:
        out[col] = get(col)
    return out


def setting_groups(df: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """``[(label, rows)]`` in order of first appearance of the ``setting`` column (one group
    ``run`` without it)."""
    if "setting" not in df.columns:
        return [("run", df)]
    labels = df["setting"].astype(str)
    return [(str(k), g) for k, g in df.groupby(labels.to_numpy(), sort=False)]


def prepare(label: str, g: pd.DataFrame) -> SettingData:
    """Validate one setting's rows and compute its per-player keys and winners under both
    rules (``decide`` on ``player_scores``' sums, Challenge 3 from ``challenges``)."""
    players = n_players(g)
    seats = 4 if players == 2 else players
    games = g["game"].astype("int64").to_numpy() if "game" in g else np.arange(len(g))
    if len(np.unique(games)) != len(games):
        raise ValueError(f"setting {label!r} holds some game indices more than once")
    factors = _factors(g, label, seats)
    own = factors["tiebreak"] or ("chain" if players >= 5 else "shared")
    if own not in TIEBREAKS:
        raise ValueError(f"setting {label!r}: unknown tie-break {own!r}")
    challenges = factors["challenges"] or frozenset()
    ps = player_scores(g)

    def keys(name):
        return np.column_stack([ps[f"{name}_{p}"].to_numpy(np.int64) for p in range(players)]) \
            if len(g) else np.zeros((0, players), np.int64)

    d = SettingData(label=label, players=players,
                    seed=int(_one_value(g, "seed", label)) if "seed" in g else None,
                    factors=factors, games=games, own=own, challenges=challenges,
                    max_turns=int(factors["max_turns"] or R10_MAX_TURNS),
                    score=keys("score"), rescued=keys("rescued"), explorers=keys("explorers"),
                    turns=keys("turns"))
    chain_keys = (d.score, d.rescued, keys("rescued_value"), d.turns)
    for rule in TIEBREAKS:
        d.win[rule], d.step[rule] = decide(*chain_keys, rule=rule, equal=3 in challenges)
    return d


def prepare_all(df: pd.DataFrame) -> list[SettingData]:
    return [prepare(label, g) for label, g in setting_groups(df)]


# ---------------------------------------------------------------------------- rows
def _row(setting, seat, metric, value, low=math.nan, high=math.nan, n=None, method=""):
    return {"setting": setting, "seat": seat, "metric": metric, "value": float(value),
            "low": float(low), "high": float(high), "n": n, "method": method}


def _tidy(rows: list[dict]) -> pd.DataFrame:
    t = pd.DataFrame(rows, columns=list(COLUMNS))
    t["seat"] = pd.array(t["seat"], dtype="Int64")
    t["n"] = pd.array(t["n"], dtype="Int64")
    for c in ("setting", "metric", "method"):
        t[c] = t[c].astype(str)
    return t


def _setting_rows(d: SettingData, alpha: float, precision: float) -> list[dict]:
    n, label = d.n, d.label
    rows = [_row(label, None, "games", n, n=n, method="count"),
            _row(label, None, "players", d.players, n=n, method="setting"),
            _row(label, None, "own_tiebreak", TIEBREAKS.index(d.own), n=n, method=d.own),
            _row(label, None, "alpha", alpha, n=n, method="setting"),
            _row(label, None, "precision", precision, n=n, method="setting")]
    shared_win = d.win["shared"]
    tie = shared_win.sum(axis=1) > 1
    rows.append(_row(label, None, "tie_rate", *wilson_ci(tie.sum(), n, alpha), n=n,
                     method="wilson"))
    for rule, steps in (("chain", CHAIN_STEPS), ("shared", SHARED_STEPS)):
        for step in steps:
            count = int((d.step[rule] == STEPS.index(step)).sum())
            rows.append(_row(label, None, f"decided_{step}_{rule}", *wilson_ci(count, n, alpha),
                             n=n, method="wilson"))
    if n:
        split = d.share().sum(axis=0)
        chi = sps.chisquare(split, np.full(d.players, n / d.players))
        stat, p = float(chi.statistic), float(chi.pvalue)
    else:
        stat = p = math.nan
    rows.append(_row(label, None, "chi2_stat", stat, n=n, method="chi2"))
    rows.append(_row(label, None, "chi2_p", p, n=n, method="chi2"))

    bound = score_bound(d.players, d.challenges)
    outright = {r: d.win[r] & (d.win[r].sum(axis=1) == 1)[:, None] for r in TIEBREAKS}
    shares = {r: d.share(r) for r in TIEBREAKS}
    for p in range(d.players):
        seat_rows = {}
        for rule in TIEBREAKS:
            seat_rows[f"win_share_{rule}"] = _row(label, p, f"win_share_{rule}",
                                                  *wilson_ci(shares[rule][:, p].sum(), n, alpha),
                                                  n=n, method="wilson")
            seat_rows[f"outright_{rule}"] = _row(label, p, f"outright_{rule}",
                                                 *wilson_ci(outright[rule][:, p].sum(), n, alpha),
                                                 n=n, method="wilson")
        rows += [seat_rows[f"win_share_{r}"] for r in TIEBREAKS]
        rows.append({**seat_rows[f"win_share_{d.own}"], "metric": "win_share"})
        rows += [seat_rows[f"outright_{r}"] for r in TIEBREAKS]
        rows.append({**seat_rows[f"outright_{d.own}"], "metric": "outright"})
        rows.append(_row(label, p, "top_tie", *wilson_ci((shared_win[:, p] & tie).sum(), n, alpha),
                         n=n, method="wilson"))
        mean, lo, hi, m, method = bounded_mean_ci(d.score[:, p], 0, bound, alpha)
        rows.append(_row(label, p, "mean_score", mean, lo, hi, m, method))
        played = d.explorers[:, p] > 0
        frac = d.rescued[played, p] / d.explorers[played, p]
        mean, lo, hi, m, method = bounded_mean_ci(frac, 0, 1, alpha)
        rows.append(_row(label, p, "rescued_fraction", mean, lo, hi, m, method))
        mean, lo, hi, m, method = bounded_mean_ci(d.turns[:, p], 0, d.max_turns, alpha)
        rows.append(_row(label, p, "mean_turns", mean, lo, hi, m, method))
        share = seat_rows[f"win_share_{d.own}"]["value"]
        needed = games_for_precision(share, precision, alpha) if n else math.nan
        rows.append(_row(label, p, "games_for_precision", needed, n=n, method="normal"))
    return rows


def _seat_rows_all(data: list[SettingData], alpha: float, precision: float) -> list[dict]:
    per = [_setting_rows(d, alpha, precision) for d in data]
    chi_p = [next(r["value"] for r in rows if r["metric"] == "chi2_p") for rows in per]
    adjusted = holm(chi_p, alpha)
    out = []
    for d, rows, q in zip(data, per, adjusted):
        at = next(i for i, r in enumerate(rows) if r["metric"] == "chi2_p") + 1
        rows.insert(at, _row(d.label, None, "chi2_p_holm", q, n=d.n, method="holm"))
        out += rows
    return out


def seat_stats(df: pd.DataFrame, alpha: float = ALPHA, precision: float = PRECISION
               ) -> pd.DataFrame:
    """The per-setting and per-seat rows of the tidy table (see the module docstring); with 2
    players ``seat`` is the player index. ``chi2_p_holm`` is adjusted across the settings of
    ``df``."""
    return _tidy(_seat_rows_all(prepare_all(df), alpha, precision))


# ---------------------------------------------------------------------------- pairs
def pair_factor(a: SettingData, b: SettingData) -> str | None:
    """The one factor two settings differ in, or None when they cannot be paired (another
    player count or seed, no factor or more than one differing). The boats factor is the
    allocation's name (``rules``, ``flat``, ``reversed``: so ``rules`` under Challenge 6 and
    without it is one level) or, for ``custom`` or tables without the column, the per-seat
    list."""
    if a.players != b.players or a.seed != b.seed:
        return None
    differ = [f for f in FACTORS if a.factors.get(f) != b.factors.get(f)]
    return differ[0] if len(differ) == 1 else None


def comparable_pairs(data: list[SettingData]) -> list[tuple[SettingData, SettingData, str]]:
    """Every pair ``(A, B, factor)`` in order of appearance (A before B) that shares its games
    and differs in exactly one factor."""
    return [(a, b, f) for i, a in enumerate(data) for b in data[i + 1:]
            if (f := pair_factor(a, b)) is not None]


def paired_diff(xa, xb, hi: float, alpha: float = ALPHA) -> dict:
    """Mean of ``xa - xb`` (per-game values in [0, hi] of two settings on the same games).

    Paired t interval and test of the per-game differences (``DescrStatsW(d).tconfint_mean`` and
    ``.ttest_mean``, method ``paired-t``). When the differences do not vary (or n < 2): Newcombe's
    interval for two independent proportions on the sums scaled to [0, 1]
    (``confint_proportions_2indep(..., method="newcomb")``, mapped back by ``hi``), with the
    score test of ``test_proportions_2indep`` for p (p = 1 when both means are equal and the test
    is undefined); conservative since it ignores the pairing."""
    xa, xb = np.asarray(xa, float), np.asarray(xb, float)
    d = xa - xb
    n = int(d.size)
    mean = float(d.mean())
    if n > 1 and np.ptp(d) > 0:
        ds = DescrStatsW(d)
        lo, up = ds.tconfint_mean(alpha)
        p = float(ds.ttest_mean(0.0)[1])
        return {"value": mean, "low": float(lo), "high": float(up), "n": n,
                "method": "paired-t", "p": p, "p_method": "paired-t"}
    ca, cb = float(xa.sum()) / hi, float(xb.sum()) / hi
    lo, up = confint_proportions_2indep(ca, n, cb, n, method="newcomb", compare="diff",
                                        alpha=alpha)
    with np.errstate(all="ignore"):
        p = float(test_proportions_2indep(ca, n, cb, n, method="score", compare="diff").pvalue)
    if math.isnan(p) and ca == cb:
        p = 1.0
    return {"value": mean, "low": hi * float(lo), "high": hi * float(up), "n": n,
            "method": "newcomb", "p": p, "p_method": "score-2indep"}


def _identical(a: SettingData, b: SettingData, ia, ib) -> bool:
    """The two settings played the same games and counted them by the same rule (e.g. named
    allocations that give the same boats): every paired difference is exactly 0."""
    return a.own == b.own and all(np.array_equal(getattr(a, k)[ia], getattr(b, k)[ib])
                                  for k in ("score", "rescued", "explorers", "turns"))


def _pair_rows(data: list[SettingData], alpha: float) -> list[dict]:
    rows: list[dict] = []
    family: list[tuple] = []             # (factor, metric) of each p row, in order
    for a, b, factor in comparable_pairs(data):
        _, ia, ib = np.intersect1d(a.games, b.games, assume_unique=True, return_indices=True)
        n = len(ia)
        if n == 0:
            continue
        label = f"{a.label}{PAIR_SEP}{b.label}"
        same = _identical(a, b, ia, ib)
        rows.append(_row(label, None, "paired_games", n, n=n,
                         method=f"{factor} (identical games)" if same else factor))
        twins = factor == "tiebreak"
        if twins and not np.array_equal(a.score[ia], b.score[ib]):
            raise ValueError(f"{label}: the settings differ only in the tie-break but their "
                             f"games differ (scores of matched games are not identical)")
        share_a, share_b = a.share()[ia], b.share()[ib]
        bound = max(score_bound(a.players, a.challenges), score_bound(b.players, b.challenges))
        for p in range(a.players):
            parts = [("win_share", share_a[:, p], share_b[:, p], 1.0)]
            if not twins:                   # twins: the same games, the difference is 0
                parts.append(("score", a.score[ia, p], b.score[ib, p], bound))
            for name, xa, xb, hi in parts:
                if same:                    # no test: nothing differs (left out of Holm)
                    rows.append(_row(label, p, f"diff_{name}", 0.0, 0.0, 0.0, n, "identical"))
                    rows.append(_row(label, p, f"diff_{name}_p", math.nan, n=n,
                                     method="identical"))
                    family.append(None)
                    continue
                r = paired_diff(xa, xb, hi, alpha)
                rows.append(_row(label, p, f"diff_{name}", r["value"], r["low"], r["high"],
                                 r["n"], r["method"]))
                rows.append(_row(label, p, f"diff_{name}_p", r["p"], n=r["n"],
                                 method=r["p_method"]))
                family.append((factor, name))
    p_rows = [r for r in rows if r["metric"].endswith("_p")]
    adjusted = np.full(len(p_rows), math.nan)
    for key in dict.fromkeys(f for f in family if f is not None):
        at = [i for i, f in enumerate(family) if f == key]
        adjusted[at] = holm([p_rows[i]["value"] for i in at], alpha)
    out, it = [], iter(adjusted)
    for r in rows:
        out.append(r)
        if r["metric"].endswith("_p"):
            out.append({**r, "metric": r["metric"] + "_holm", "value": float(next(it)),
                        "method": "holm" if r["method"] != "identical" else "identical"})
    return out


def paired_stats(df: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """The paired-difference rows of the tidy table.

    For every pair of settings with the same player count and seed that differ in exactly one
    factor (``pair_factor``), matched game by game on ``game`` (only games in both), and each
    seat (player with 2 players): ``diff_win_share`` (the tie-split win share of A under A's own
    rule minus B's under B's) and ``diff_score``, each the mean of the per-game differences with
    the interval of ``paired_diff``, a p-value ``*_p`` and ``*_p_holm`` (Holm within the pairs
    that differ in the same factor, per metric; identical games are left out). Pairs that differ only in the tie-break play byte-identical games,
    so their score difference is exactly 0 by construction: ``diff_score`` is left out for them
    (and a ``ValueError`` raised if their matched scores are not identical). ``setting`` is
    ``"A vs B"`` (A minus B, A the setting that appears first)."""
    return _tidy(_pair_rows(prepare_all(df), alpha))


def balance_stats(df: pd.DataFrame, alpha: float = ALPHA, precision: float = PRECISION
                  ) -> pd.DataFrame:
    """Everything: ``seat_stats`` rows then ``paired_stats`` rows, one tidy table (module
    docstring). ``precision`` is the win-share half-width the ``games_for_precision`` rows aim
    at (0.01 = one percentage point)."""
    data = prepare_all(df)
    t = _tidy(_seat_rows_all(data, alpha, precision) + _pair_rows(data, alpha))
    t.attrs.update(alpha=alpha, precision=precision)
    return t


from experiments.stats_text import format_stats
