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
player's numbers are the sums over their two seats, as in
``experiments.tables.games.player_scores``). ``seat`` is NA for the per-setting rows. Metrics:

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
  (turns taken, in [0, max_turns]): ``moments.bounded_interval``.
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

Intervals follow the project's rule (``experiments.tables.moments``): proportions Wilson; means of
bounded per-game quantities by ``bounded_interval``.

The table is built from sums (``experiments.tables.sums``), never from the games: ``tidy`` takes the
sums a run was read into chunk by chunk (``experiments.verdicts.analysis``), ``balance_stats`` the
sums of an in-memory table. Both give the same table for the same games.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simulator.scoring import STEPS, TIEBREAKS

from .games import FACTORS, SettingData, prepare_all
from .moments import ALPHA, Sums, t_quantile, wilson_ci, z_quantile
from .sums import PairSums, SettingSums

PRECISION = 0.01                       # one percentage point of win share
COLUMNS = ("setting", "seat", "metric", "value", "low", "high", "n", "method")
PAIR_SEP = " vs "
CHAIN_STEPS = STEPS                                   # score, rescued, value, turns, shared
SHARED_STEPS = ("score", "shared")                    # the only steps of the shared rule


# ---------------------------------------------------------------------------- helpers
def games_for_precision(p, half_width: float, alpha: float = ALPHA):
    """Games for a (1 - alpha) interval of half-width ``half_width`` on a proportion ``p``:
    the normal approximation n = z^2 p (1 - p) / h^2, rounded up
    (statsmodels' ``samplesize_confint_proportion``). Scalar or array; p = 0 or 1 needs 0."""
    from statsmodels.stats.proportion import samplesize_confint_proportion
    n = samplesize_confint_proportion(np.asarray(p, dtype=float), half_width, alpha=alpha,
                                      method="normal")
    out = np.ceil(np.asarray(n, dtype=float) - 1e-9).astype(np.int64)
    return int(out) if out.ndim == 0 else out


def share_precision(games, players: int, alpha: float = ALPHA):
    """The (1 - alpha) half-width of a seat's win share at the fair share 1/N after ``games``
    games: z sqrt(p (1 - p) / games) with p = 1/N (normal approximation; the inverse of
    ``games_for_precision``, which the Wilson interval the run reports matches to within a few
    per cent from a few hundred games on). Used before any game is played (``sweep --plan``).
    Scalar or array."""
    p = 1.0 / players
    h = z_quantile(1 - alpha / 2) * np.sqrt(p * (1 - p) / np.asarray(games, dtype=float))
    return float(h) if np.ndim(h) == 0 else h


def holm_reject(pvalues, alpha: float = ALPHA) -> np.ndarray:
    """Holm's step-down rejections at family-wise level ``alpha``: the very arithmetic of
    statsmodels' ``multipletests(..., method="holm")[0]``, written out because that function
    runs a full ``gc.collect()`` on every Holm call, which costs about a second per call in a
    large process (the calibration suite calls it per replication). tests/test_stats.py checks
    both against statsmodels."""
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p)
    notreject = p[order] > alpha / np.arange(len(p), 0, -1)
    first = np.flatnonzero(notreject)
    notreject[first[0] if first.size else len(p):] = True
    out = np.empty(len(p), dtype=bool)
    out[order] = ~notreject
    return out


def holm(pvalues, alpha: float = ALPHA) -> np.ndarray:
    """Holm-adjusted p-values, as statsmodels' ``multipletests(..., method="holm")[1]`` gives
    them (see ``holm_reject`` for why not by calling it); NaN entries are left out of the
    family and stay NaN."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        q = p[ok]
        order = np.argsort(q)
        adjusted = np.maximum.accumulate(q[order] * np.arange(len(q), 0, -1))
        adjusted[adjusted > 1] = 1
        back = np.empty_like(adjusted)
        back[order] = adjusted
        out[ok] = back
    return out


def chi_square(counts: np.ndarray, n: int) -> tuple[float, float]:
    """scipy's chi-square goodness-of-fit test of split win counts against n/N each."""
    from scipy import stats as sps
    if not n:
        return math.nan, math.nan
    chi = sps.chisquare(counts, np.full(len(counts), n / len(counts)))
    return float(chi.statistic), float(chi.pvalue)


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


def paired_from(d: Sums, sum_a: float, sum_b: float, hi: float, scale: float = 1.0,
                alpha: float = ALPHA) -> dict:
    """The mean of paired differences ``xa - xb`` from their sums (``d``: the differences,
    ``sum_a``/``sum_b``: each side's total), all divided by ``scale``.

    Paired t interval and test of the per-game differences (method ``paired-t``). When the
    differences do not vary (or n < 2): Newcombe's interval for two independent proportions on
    the sums scaled to [0, 1] (``confint_proportions_2indep(..., method="newcomb")``, mapped
    back by ``hi``), with the score test of ``test_proportions_2indep`` for p (p = 1 when both
    means are equal and the test is undefined); conservative since it ignores the pairing."""
    n, mean = d.n, d.mean / scale
    if d.varies:
        sd = d.sd / scale
        half = t_quantile(1 - alpha / 2, n - 1) * sd / math.sqrt(n)
        from scipy.special import stdtr
        p = 2 * float(stdtr(n - 1, -abs(mean) / (sd / math.sqrt(n))))
        return {"value": mean, "low": mean - half, "high": mean + half, "n": n,
                "method": "paired-t", "p": p, "p_method": "paired-t"}
    from statsmodels.stats.proportion import (
        confint_proportions_2indep,
        test_proportions_2indep,
    )
    ca, cb = float(sum_a) / scale / hi, float(sum_b) / scale / hi
    lo, up = confint_proportions_2indep(ca, n, cb, n, method="newcomb", compare="diff",
                                        alpha=alpha)
    with np.errstate(all="ignore"):
        p = float(test_proportions_2indep(ca, n, cb, n, method="score", compare="diff").pvalue)
    if math.isnan(p) and ca == cb:
        p = 1.0
    return {"value": mean, "low": hi * float(lo), "high": hi * float(up), "n": n,
            "method": "newcomb", "p": p, "p_method": "score-2indep"}


def paired_diff(xa, xb, hi: float, alpha: float = ALPHA) -> dict:
    """``paired_from`` of two arrays of per-game values in [0, hi] on the same games."""
    xa, xb = np.asarray(xa), np.asarray(xb)
    d = Sums()
    if np.issubdtype(xa.dtype, np.integer) and np.issubdtype(xb.dtype, np.integer):
        d.add(xa.astype(np.int64) - xb.astype(np.int64))
    else:
        d.add_floats(xa.astype(float) - xb.astype(float))
    return paired_from(d, float(xa.sum()), float(xb.sum()), hi, alpha=alpha)


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


def _setting_rows(s: SettingSums, alpha: float, precision: float) -> list[dict]:
    n, label = s.n, s.label
    rows = [_row(label, None, "games", n, n=n, method="count"),
            _row(label, None, "players", s.players, n=n, method="setting"),
            _row(label, None, "own_tiebreak", TIEBREAKS.index(s.own), n=n, method=s.own),
            _row(label, None, "alpha", alpha, n=n, method="setting"),
            _row(label, None, "precision", precision, n=n, method="setting")]
    rows.append(_row(label, None, "tie_rate", *wilson_ci(s.ties, n, alpha), n=n,
                     method="wilson"))
    for rule, steps in (("chain", CHAIN_STEPS), ("shared", SHARED_STEPS)):
        for step in steps:
            count = int(s.steps[rule][STEPS.index(step)])
            rows.append(_row(label, None, f"decided_{step}_{rule}", *wilson_ci(count, n, alpha),
                             n=n, method="wilson"))
    stat, p = chi_square(s.split_wins(), n)
    rows.append(_row(label, None, "chi2_stat", stat, n=n, method="chi2"))
    rows.append(_row(label, None, "chi2_p", p, n=n, method="chi2"))
    bound, max_turns = s.bound, s.probe.max_turns
    for p in range(s.players):
        seat_rows = {}
        for rule in TIEBREAKS:
            seat_rows[f"win_share_{rule}"] = _row(
                label, p, f"win_share_{rule}", *wilson_ci(s.split_wins(rule)[p], n, alpha),
                n=n, method="wilson")
            seat_rows[f"outright_{rule}"] = _row(
                label, p, f"outright_{rule}", *wilson_ci(int(s.outright[rule][p]), n, alpha),
                n=n, method="wilson")
        rows += [seat_rows[f"win_share_{r}"] for r in TIEBREAKS]
        rows.append({**seat_rows[f"win_share_{s.own}"], "metric": "win_share"})
        rows += [seat_rows[f"outright_{r}"] for r in TIEBREAKS]
        rows.append({**seat_rows[f"outright_{s.own}"], "metric": "outright"})
        rows.append(_row(label, p, "top_tie", *wilson_ci(int(s.top_tie[p]), n, alpha), n=n,
                         method="wilson"))
        for metric, sums, hi in (("mean_score", s.score[p].sums(), bound),
                                 ("rescued_fraction", s.rescued[p], 1),
                                 ("mean_turns", s.turns[p].sums(), max_turns)):
            mean, lo, high, m, method = sums.ci(0, hi, alpha)
            rows.append(_row(label, p, metric, mean, lo, high, m, method))
        share = seat_rows[f"win_share_{s.own}"]["value"]
        needed = games_for_precision(share, precision, alpha) if n else math.nan
        rows.append(_row(label, p, "games_for_precision", needed, n=n, method="normal"))
    return rows


def _seat_rows_all(sums: list[SettingSums], alpha: float, precision: float) -> list[dict]:
    per = [_setting_rows(s, alpha, precision) for s in sums]
    chi_p = [next(r["value"] for r in rows if r["metric"] == "chi2_p") for rows in per]
    adjusted = holm(chi_p, alpha)
    out = []
    for s, rows, q in zip(sums, per, adjusted):
        at = next(i for i, r in enumerate(rows) if r["metric"] == "chi2_p") + 1
        rows.insert(at, _row(s.label, None, "chi2_p_holm", q, n=s.n, method="holm"))
        out += rows
    return out


def _pair_rows(pairs: list[PairSums], alpha: float) -> list[dict]:
    rows: list[dict] = []
    family: list[tuple] = []             # (factor, metric) of each p row, in order
    for pr in pairs:
        n = pr.n
        if n == 0:
            continue
        label = pr.label
        same = pr.identical
        rows.append(_row(label, None, "paired_games", n, n=n,
                         method=f"{pr.factor} (identical games)" if same else pr.factor))
        if pr.twins and not pr.scores_equal:
            raise ValueError(f"{label}: the settings differ only in the tie-break but their "
                             f"games differ (scores of matched games are not identical)")
        for p in range(pr.players):
            parts = [("win_share", pr.share[p], pr.share_a[p], pr.share_b[p], 1.0, 60.0)]
            if not pr.twins:                # twins: the same games, the difference is 0
                parts.append(("score", pr.score[p], pr.score_a[p], pr.score_b[p], pr.bound,
                              1.0))
            for name, d, sa, sb, hi, scale in parts:
                if same:                    # no test: nothing differs (left out of Holm)
                    rows.append(_row(label, p, f"diff_{name}", 0.0, 0.0, 0.0, n, "identical"))
                    rows.append(_row(label, p, f"diff_{name}_p", math.nan, n=n,
                                     method="identical"))
                    family.append(None)
                    continue
                r = paired_from(d, sa, sb, hi, scale, alpha)
                rows.append(_row(label, p, f"diff_{name}", r["value"], r["low"], r["high"],
                                 r["n"], r["method"]))
                rows.append(_row(label, p, f"diff_{name}_p", r["p"], n=r["n"],
                                 method=r["p_method"]))
                family.append((pr.factor, name))
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


# ---------------------------------------------------------------------------- the table
def tidy(settings: list[SettingSums], pairs: list[PairSums], alpha: float = ALPHA,
         precision: float = PRECISION) -> pd.DataFrame:
    """The tidy table (module docstring) of a run's sums: ``settings`` in grid order, then
    ``pairs`` (``comparable_pairs`` of the settings, in that order). ``precision`` is the
    win-share half-width the ``games_for_precision`` rows aim at."""
    t = _tidy(_seat_rows_all(settings, alpha, precision) + _pair_rows(pairs, alpha))
    t.attrs.update(alpha=alpha, precision=precision)
    return t


def sums_of(data: list[SettingData], charts: bool = False, cols_of=None
            ) -> tuple[list[SettingSums], list[PairSums]]:
    """The sums of settings held in memory (each one block), and of their comparable pairs."""
    sums = [SettingSums(d, charts).add(d, *(cols_of(d) if cols_of else ())) for d in data]
    pairs = [PairSums(a, b, f).add(a, b) for a, b, f in comparable_pairs(data)]
    return sums, pairs


def seat_stats(df: pd.DataFrame, alpha: float = ALPHA, precision: float = PRECISION
               ) -> pd.DataFrame:
    """The per-setting and per-seat rows of the tidy table of an in-memory run table; with 2
    players ``seat`` is the player index. ``chi2_p_holm`` is adjusted across the settings of
    ``df``."""
    data = prepare_all(df)
    return _tidy(_seat_rows_all([SettingSums(d, False).add(d) for d in data], alpha,
                                precision))


def paired_stats(df: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """The paired-difference rows of the tidy table of an in-memory run table.

    For every pair of settings with the same player count and seed that differ in exactly one
    factor (``pair_factor``), matched game by game on ``game`` (only games in both), and each
    seat (player with 2 players): ``diff_win_share`` (the tie-split win share of A under A's own
    rule minus B's under B's) and ``diff_score``, each the mean of the per-game differences with
    the interval of ``paired_from``, a p-value ``*_p`` and ``*_p_holm`` (Holm within the pairs
    that differ in the same factor, per metric; identical games are left out). Pairs that
    differ only in the tie-break play byte-identical games, so their score difference is
    exactly 0 by construction: ``diff_score`` is left out for them (and a ``ValueError``
    raised if their matched scores are not identical). ``setting`` is ``"A vs B"`` (A minus
    B, A the setting that appears first)."""
    data = prepare_all(df)
    return _tidy(_pair_rows([PairSums(a, b, f).add(a, b)
                             for a, b, f in comparable_pairs(data)], alpha))


def balance_stats(df: pd.DataFrame, alpha: float = ALPHA, precision: float = PRECISION
                  ) -> pd.DataFrame:
    """Everything for an in-memory run table: ``seat_stats`` rows then ``paired_stats`` rows,
    one tidy table (module docstring)."""
    return tidy(*sums_of(prepare_all(df)), alpha, precision)
