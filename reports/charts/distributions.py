"""Score distributions per seat for one setting (``score_distributions``), and the paired
differences between settings that share their games, per seat, as a forest plot
(``paired_differences``: the ``diff_win_share`` / ``diff_score`` rows of
``experiments.tables.stats.balance_stats``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from experiments.tables.games import score_bound
from experiments.tables.moments import wilson_ci
from experiments.tables.stats import PAIR_SEP
import reports.charts.data as data
import reports.charts.style as style

DIFF_METRICS = {"win_share": "diff_win_share", "score": "diff_score"}
DIFF_LABELS = {"win_share": "difference in win share, ties split (percentage points)",
               "score": "difference in mean score (points per game)"}
PANEL_HEIGHT = 1.3


@style.chart
def score_distributions(run, setting: str | None = None,
                        tidy: pd.DataFrame | None = None, *, title: str | None = None):
    """The distribution of each seat's score (player's, with 2 players) in one setting: one
    panel per seat, a bar per score with the share of games that gave it and its 95% Wilson
    interval (``wilson_ci``), and the seat's mean score with its interval (the tidy
    ``mean_score`` row) as a line and band. ``setting``: a label (may be omitted when the table
    has one setting). Returns ``(figure, table)``: ``metric`` ``score_share`` (one row per
    seat and score, with ``count``) and ``mean_score`` (one row per seat)."""
    run = data.analysis_of(run)
    meta = data.settings_table(run)
    if setting is None:
        if len(meta) != 1:
            raise ValueError(f"name the setting: the table has {list(meta.index)}")
        setting = meta.index[0]
    data.select(meta, [setting])
    sums = data.sums_for(run, setting)
    tidy = data.tidy_for(run, tidy)
    row = meta.loc[setting]
    players = int(row["players"])
    bound = score_bound(players, row["challenge_set"])
    n = sums.n
    rows = []
    means = data.metric_rows(tidy, [setting], "mean_score").set_index("seat")
    for p in range(players):
        counts = sums.score[p].counts
        for v in range(bound + 1):
            k = int(counts[v]) if v < len(counts) else 0
            share, lo, hi = wilson_ci(k, n)
            rows.append({"setting": setting, "seat": p, "seat_label": data.seat_label(p, players),
                         "metric": "score_share", "score": v, "count": k, "value": share,
                         "low": lo, "high": hi, "n": n, "method": "wilson"})
        m = means.loc[p]
        rows.append({"setting": setting, "seat": p, "seat_label": data.seat_label(p, players),
                     "metric": "mean_score", "score": np.nan, "count": np.nan,
                     "value": m["value"], "low": m["low"], "high": m["high"], "n": int(m["n"]),
                     "method": m["method"]})
    table = pd.DataFrame(rows)
    shares = table[table["metric"] == "score_share"]
    top = shares.loc[shares["count"] > 0, "score"].max()
    shown = shares[shares["score"] <= top + 1]
    c = style.Chart(9.5, PANEL_HEIGHT * players + 0.9)
    axes = c.body.subplots(players, 1, sharex=True, sharey=True, squeeze=False)[:, 0]
    handles = {}
    for p, ax in enumerate(axes):
        s = shown[shown["seat"] == p]
        x, y = s["score"].to_numpy(), s["value"].to_numpy()
        bars = ax.bar(x, y, width=0.8, color="#56B4E9", edgecolor="#0072B2", lw=0.6, zorder=2)
        err = ax.errorbar(x, y, yerr=style.err(y, s["low"], s["high"]),
                          fmt="none", ecolor="#333333", elinewidth=0.9, capsize=1.8, zorder=3)
        m = table[(table["metric"] == "mean_score") & (table["seat"] == p)].iloc[0]
        band = ax.axvspan(m["low"], m["high"], color="#D55E00", alpha=0.25, lw=0, zorder=1)
        line = ax.axvline(m["value"], color="#D55E00", lw=1.8, zorder=4)
        ax.text(0.995, 0.93, f"mean {m['value']:.2f} (95% interval "
                f"{m['low']:.2f}\u2013{m['high']:.2f})", transform=ax.transAxes, ha="right",
                va="top", fontsize=style.ANNOTATION_SIZE + 0.5,
                bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85, "pad": 1.5})
        style.percent_axis(ax.yaxis)
        ax.set_ylabel(data.seat_tick(m["seat_label"]), rotation=0, ha="right", va="center",
                      fontsize=style.TICK_SIZE)
        handles = {"share of games with that score": bars,
                   "its 95% Wilson interval": err, "mean score": line,
                   "95% interval of the mean": band}
    axes[0].set_ylim(0, float(shown["high"].max()) * 1.3)
    axes[-1].set_xlim(-0.7, top + 1.7)
    axes[-1].xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    axes[-1].set_xlabel("score (explorers rescued, Challenge 3)" if 3 in row["challenge_set"]
                        else "score (points: value of the explorers on safe isles)")
    c.body.supylabel("share of games (%)", fontsize=style.LABEL_SIZE)
    means_t = table[table["metric"] == "mean_score"]
    who = "player" if players == 2 else "seat"
    fig = c.finish(title or f"Score distribution per {who} "
                   f"({data.describe_setting(meta, setting)})",
                   f"Bars: the share of the setting's games in which the {who} scored each "
                   f"value, whiskers its 95% Wilson score interval. Orange line and band: the "
                   f"{who}'s mean score and its {data.interval_text(means_t['method'])}. "
                   + ("A player's score is the sum of their two colours' (B4.5). "
                      if players == 2 else "") +
                   f"n = {n:,} games.", handles, ncols=4)
    return fig, table


# ---------------------------------------------------------------------------- differences
def _pair_labels(tidy) -> list[str]:
    rows = tidy[tidy["metric"] == "paired_games"]
    return list(dict.fromkeys(rows["setting"]))


def _resolve_pairs(tidy, pairs, a, b, reference) -> list[tuple[str, bool]]:
    """``[(tidy pair label, flip)]``: ``flip`` when the difference is to be read the other
    way round (``reference`` first in the tidy label: shown as other minus reference)."""
    known = _pair_labels(tidy)
    if a is not None or b is not None:
        if a is None or b is None:
            raise ValueError("give both a and b")
        pairs = [(a, b)]
    if reference is not None:
        out = []
        for lab in known:
            first, second = lab.split(PAIR_SEP)
            if reference in (first, second):
                out.append((lab, first == reference))
        if not out:
            raise ValueError(f"no paired differences involve {reference!r}")
        return out
    if pairs is None:
        raise ValueError("choose the differences: pairs=[...], a= and b=, or reference=")
    out = []
    for pair in pairs:
        x, y = pair.split(PAIR_SEP) if isinstance(pair, str) else pair
        if f"{x}{PAIR_SEP}{y}" in known:
            out.append((f"{x}{PAIR_SEP}{y}", False))
        elif f"{y}{PAIR_SEP}{x}" in known:
            out.append((f"{y}{PAIR_SEP}{x}", True))
        else:
            raise ValueError(f"no paired difference between {x!r} and {y!r} (they must share "
                             f"their games and differ in one factor); known: {known}")
    return out


@style.chart
def paired_differences(run, tidy: pd.DataFrame | None = None, *, pairs=None,
                       a: str | None = None, b: str | None = None, reference: str | None = None,
                       metrics=("win_share", "score"), title: str | None = None):
    """Forest plot of paired differences per seat, "A minus B" on the same games, with their
    95% intervals (paired t; Newcombe where the differences do not vary), from the tidy
    ``diff_win_share`` / ``diff_score`` rows. Choose the differences by ``a`` and ``b`` (A minus
    B), ``pairs`` (a list of ``"A vs B"`` labels or ``(A, B)``), or ``reference`` (every
    difference with that setting, shown as other minus reference). One panel per metric
    (``win_share``, ``score``; settings that differ only in the tie-break have no score
    difference). A difference asked the other way round from the table's is the same row with
    its sign flipped (``flipped`` in the table). Returns ``(figure, table)``: one row per
    (pair, seat, metric) with ``value, low, high, n, method, p_holm``."""
    tidy = data.tidy_for(run, tidy)
    meta = data.settings_table(run)
    table = _difference_rows(tidy, meta, _resolve_pairs(tidy, pairs, a, b, reference), metrics)
    drawn = [m for m in metrics if (table["metric"] == DIFF_METRICS[m]).any()]
    _name_in_context(table, meta)
    pair_names = list(dict.fromkeys(table["pair_name"]))
    seats, seat_names = _seat_names(table)
    k = len(pair_names)
    row_h = max(0.55, 0.24 * k + 0.2)
    c = style.Chart(max(8.5, 5.2 * len(drawn) + 1.5), row_h * seats + 1.2)
    axes = c.body.subplots(1, len(drawn), squeeze=False, sharey=True)[0]
    offsets = np.linspace(-0.3, 0.3, k) if k > 1 else np.zeros(1)
    handles = {}
    for ax, metric in zip(axes, drawn):
        _difference_panel(ax, table, metric, pair_names, offsets, seats, handles)
    axes[0].set_yticks(range(seats), seat_names)
    axes[0].set_ylim(seats - 0.5, -0.5)
    common = data.common_description(meta, list(dict.fromkeys(table["a"].tolist()
                                                              + table["b"].tolist())))
    if reference is not None:
        default = (f"Paired differences per seat against "
                   f"{data.describe_setting(meta, reference)}")
    else:
        default = "Paired differences per seat" + (f" ({common})" if common else "")
    fig = c.finish(title or default, _differences_caption(table, meta, metrics, drawn), handles)
    return fig, table


def _difference_rows(tidy: pd.DataFrame, meta: pd.DataFrame, chosen: list[tuple[str, bool]],
                     metrics) -> pd.DataFrame:
    """One row per (pair, seat, metric) of the chosen differences, "A minus B" (a pair asked
    the other way round has its sign flipped), with the seat's Holm-adjusted p-value."""
    rows = []
    for label, flip in chosen:
        first, second = label.split(PAIR_SEP)
        minuend, subtrahend = (second, first) if flip else (first, second)
        names = data.setting_names(meta, [minuend, subtrahend])
        pair_name = f"{names[minuend]} \u2212 {names[subtrahend]}"
        players = int(meta.loc[first, "players"])
        for metric in metrics:
            sub = tidy[(tidy["setting"] == label) & (tidy["metric"] == DIFF_METRICS[metric])]
            holm = tidy[(tidy["setting"] == label)
                        & (tidy["metric"] == f"{DIFF_METRICS[metric]}_p_holm")].set_index("seat")
            for _, r in sub.sort_values("seat").iterrows():
                v, lo, hi = float(r["value"]), float(r["low"]), float(r["high"])
                if flip:
                    v, lo, hi = -v, -hi, -lo
                seat = int(r["seat"])
                rows.append({"pair": label, "a": minuend, "b": subtrahend,
                             "pair_name": pair_name, "flipped": flip, "players": players,
                             "seat": seat, "seat_label": data.seat_label(seat, players),
                             "metric": DIFF_METRICS[metric], "value": v, "low": lo, "high": hi,
                             "n": int(r["n"]), "method": r["method"],
                             "p_holm": float(holm.loc[seat, "value"])
                             if seat in holm.index else np.nan})
    table = pd.DataFrame(rows)
    if not len(table):
        raise ValueError("the chosen pairs have none of the differences asked for")
    return table


def _name_in_context(table: pd.DataFrame, meta: pd.DataFrame) -> None:
    """The same contrast in several contexts (e.g. flat minus rules' boats at 5 and at 6
    players): each pair's name is prefixed with its A setting's name."""
    by_pair = table.drop_duplicates("pair")
    if by_pair["pair_name"].duplicated().any():
        context = data.setting_names(meta, list(dict.fromkeys(by_pair["a"])))
        table["pair_name"] = [f"{context[a]}: {name}" for a, name in
                              zip(table["a"], table["pair_name"])]


def _seat_names(table: pd.DataFrame) -> tuple[int, list[str]]:
    """``(seats, their names)`` on the shared axis: with several player counts, each count's
    last seat is named as such."""
    counts = sorted(set(table["players"]))
    if 2 in counts and len(counts) > 1:
        raise ValueError("2-player differences are per player, not per seat: draw them apart "
                         "from other player counts")
    seats = int(table["players"].max())
    if len(counts) == 1:
        return seats, data.seat_labels(seats)
    seat_names = ["seat 1 (first)"] + [f"seat {k + 1}" for k in range(1, seats)]
    for m in counts:
        seat_names[m - 1] = f"seat {m} (last of {m})"
    return seats, seat_names


def _difference_panel(ax, table: pd.DataFrame, metric: str, pair_names: list[str],
                      offsets: np.ndarray, seats: int, handles: dict) -> None:
    """One metric's panel: each pair's points and intervals per seat (``handles`` gets each
    pair's legend entry)."""
    scale = 100.0 if metric == "win_share" else 1.0
    sub = table[table["metric"] == DIFF_METRICS[metric]]
    for j, name in enumerate(pair_names):
        s = sub[sub["pair_name"] == name]
        if not len(s):
            continue
        y = s["seat"].to_numpy() + offsets[j]
        v = s["value"].to_numpy() * scale
        err = style.err(v, s["low"].to_numpy() * scale, s["high"].to_numpy() * scale)
        handles[name] = ax.errorbar(v, y, xerr=err, fmt=style.MARKERS[j % 8], ms=6,
                                    capsize=3, lw=1.5, color=style.SERIES[j % 8], zorder=3)
    ax.axvline(0, color="black", lw=1, ls="--", zorder=2)
    for seat in range(1, seats, 2):          # bands tell the seats' groups apart
        ax.axhspan(seat - 0.5, seat + 0.5, color="#f2f2f2", lw=0, zorder=0)
    ax.set_xlabel(DIFF_LABELS[metric])
    ax.grid(axis="x", color="#d9d9d9", lw=0.7)
    ax.grid(axis="y", visible=False)
    ax.set_title({"win_share": "win share", "score": "mean score"}[metric],
                 fontsize=style.LABEL_SIZE)


def _differences_caption(table: pd.DataFrame, meta: pd.DataFrame, metrics, drawn) -> str:
    units = any((3 in meta.loc[r.a, "challenge_set"]) != (3 in meta.loc[r.b, "challenge_set"])
                for r in table[table["metric"] == "diff_score"].itertuples())
    return (f"Each point: A minus B, the mean over the same games (common random numbers) "
            f"of the per-game difference of the seat's tie-split win share (each "
            f"setting's own tie-break) or score. Bars: "
            f"{data.interval_text(table['method'])}, not adjusted for multiplicity "
            f"(Holm-adjusted p-values in the table); {data.n_text(table['n'])} matched "
            f"per point. Dashed line: no difference."
            + (" No score difference is drawn for settings that differ only in the "
               "tie-break: they play the same games, with the same scores."
               if "score" in metrics and "score" not in drawn else "")
            + (" Under Challenge 3 a score counts explorers, not their values: its "
               "score differences against other games compare different units."
               if units else ""))
