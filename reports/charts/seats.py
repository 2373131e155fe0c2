"""Per-seat charts: the win share against the fair share 1/N, and the mean score and rescued
fraction, one panel per player count, the settings of a panel grouped by boat allocation (or
another factor).

The numbers are the tidy rows of ``experiments.tables.stats.balance_stats`` (``win_share``,
``win_share_shared``, ``win_share_chain``, ``mean_score``, ``rescued_fraction``) with their
intervals, unchanged.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

import reports.charts.data as data
import reports.charts.style as style

WIN_METRICS = {"own": "win_share", "shared": "win_share_shared", "chain": "win_share_chain"}
RULE_TEXT = {"own": "each setting's own tie-break", "shared": "the shared win (B7.3)",
             "chain": "the X1.6 tie-break chain"}
Y_LABELS = {
    "win_share": "win share, ties split (% of games)",
    "win_share_shared": "win share, ties split (% of games)",
    "win_share_chain": "win share, ties split (% of games)",
    "mean_score": "mean score (points per game)",
    "rescued_fraction": "explorers rescued (% of own, per game)",
}
PANEL_HEIGHT = 4.4
SEAT_WIDTH = 1.05


def _group_name(row, group_by: str) -> str:
    if group_by == "allocation":
        return row["allocation"] if row["allocation"] != "custom" else \
            f"custom ({row['boats_text']})"
    if group_by in data.NAME_FACTORS:
        return data._factor_text(row, group_by)
    return f"{group_by} {row[group_by]}"


def _group_colour(name: str, group_by: str, k: int) -> str:
    if group_by == "allocation":
        return style.ALLOCATION_COLOURS.get(name.split(" ")[0], style.SERIES[k % 8])
    return style.SERIES[k % len(style.SERIES)]


def _layout(meta, labels, group_by):
    """``{players: [(group name, label)]}`` in grid order, and the group names in order.
    Refuses two settings in one (panel, group): the selection must fix every other factor."""
    panels: dict[int, list[tuple[str, str]]] = {}
    for lab in labels:
        row = meta.loc[lab]
        panels.setdefault(int(row["players"]), []).append((_group_name(row, group_by), lab))
    for players, items in panels.items():
        names = [g for g, _ in items]
        dup = sorted({g for g in names if names.count(g) > 1})
        if dup:
            clash = [lab for g, lab in items if g == dup[0]]
            other = [f for f in data.varying_factors(meta, clash)]
            raise ValueError(
                f"{players} players: several settings for {group_by} {dup[0]!r} ({clash}); "
                f"they differ in {other}: pick one with the filter arguments "
                f"(e.g. challenges=..., tiebreak=...) or settings=[...]")
    groups = list(dict.fromkeys(g for items in panels.values() for g, _ in items))
    return dict(sorted(panels.items())), groups


def _seat_rows(tidy, meta, panels, metric, group_by) -> pd.DataFrame:
    out = []
    for players, items in panels.items():
        for group, lab in items:
            rows = data.metric_rows(tidy, [lab], metric).sort_values("seat")
            for _, r in rows.iterrows():
                seat = int(r["seat"])
                out.append({"setting": lab, "players": players, "group_by": group_by,
                            "group": group, "seat": seat,
                            "seat_label": data.seat_label(seat, players), "metric": metric,
                            "value": r["value"], "low": r["low"], "high": r["high"],
                            "n": int(r["n"]), "method": r["method"]})
    return pd.DataFrame(out)


def _draw_metric(axes, table, panels, groups, group_by, metric, *, fair: bool,
                 show_x: bool):
    offsets = np.linspace(-0.3, 0.3, len(groups)) if len(groups) > 1 else np.zeros(1)
    handles = {}
    for ax, (players, items) in zip(axes, panels.items()):
        for k, group in enumerate(groups):
            rows = table[(table["players"] == players) & (table["group"] == group)]
            if not len(rows):
                continue
            x = rows["seat"].to_numpy() + offsets[k]
            y = rows["value"].to_numpy()
            err = style.err(y, rows["low"], rows["high"])
            h = ax.errorbar(x, y, yerr=err, fmt=style.MARKERS[k % 8], ms=6.5, lw=1.6,
                            capsize=3, color=_group_colour(group, group_by, k),
                            label=group, zorder=3)
            handles[group] = h
        seats = np.arange(players)
        ax.set_xticks(seats, [data.seat_tick(s) for s in data.seat_labels(players)])
        ax.set_xlim(-0.6, players - 0.4)
        if fair:
            line = ax.axhline(1 / players, color="black", ls="--", lw=1.2, zorder=2,
                              label="fair share 1/N")
            handles["fair share 1/N"] = line
        if metric in ("win_share", "win_share_shared", "win_share_chain", "rescued_fraction"):
            style.percent_axis(ax.yaxis)
        if not show_x:
            ax.tick_params(labelbottom=False)
    for ax in axes:
        if ax.get_gid() == "row-start":
            ax.set_ylabel(Y_LABELS.get(metric, metric))
    return handles


def _join_fitting(parts, width_in: float, size: float) -> str:
    """``parts`` joined by `` \u00b7 ``, starting a new line where the next part would pass
    ``width_in`` inches."""
    lines, line = [], ""
    for part in parts:
        trial = f"{line} \u00b7 {part}" if line else part
        if line and style.text_width(trial, size) > width_in:
            lines.append(line)
            line = part
        else:
            line = trial
    return "\n".join(lines + [line])


def _panel_titles(axes, meta, panels, table, group_by, fair: bool = False):
    fig_width = axes[0].get_figure(root=True).get_size_inches()[0]
    span = max(sum(max(p, 3) for p in list(panels)[i:i + 3]) for i in range(0, len(panels), 3))
    for ax, (players, items) in zip(axes, panels.items()):
        sub = table[table["players"] == players]
        parts = [f"{players} players", f"{data.n_text(sub['n'])} each"]
        if fair:
            parts.append(f"fair share 1/{players} = {100 / players:.1f}%")
        if group_by == "allocation":
            boats = [meta.loc[lab, "boats_text"] for _, lab in items]
            parts.append(f"boats per seat: {boats[0]} in every allocation"
                         if len(set(boats)) == 1 and len(boats) > 1 else
                         "boats per seat: " + ", ".join(
                             f"{meta.loc[lab, 'allocation']} {b}"
                             for (_, lab), b in zip(items, boats)))
        room = fig_width * max(players, 3) / span - 0.6
        ax.set_title(_join_fitting(parts, room, style.LABEL_SIZE), fontsize=style.LABEL_SIZE)


def _figure(panels, rows: int, per_row: int = 3):
    """The chart and, per metric row, the axes of every panel in order. More than
    ``per_row`` player counts wrap onto further rows of panels; a panel's width is
    proportional to its seats, the same in every row."""
    counts = list(panels)
    chunks = [counts[i:i + per_row] for i in range(0, len(counts), per_row)]
    widths = [[max(p, 3) for p in chunk] for chunk in chunks]
    span = max(sum(w) for w in widths)
    width = max(7.0, SEAT_WIDTH * span + 1.0 + 0.5 * max(len(w) for w in widths))
    c = style.Chart(width, PANEL_HEIGHT * rows * len(chunks))
    strips = c.body.subfigures(rows * len(chunks), 1) if rows * len(chunks) > 1 \
        else [c.body]
    strips = np.atleast_1d(strips).ravel()
    axes: list[list] = [[] for _ in range(rows)]
    for k, (chunk, w) in enumerate(zip(chunks, widths)):
        for r in range(rows):
            strip = strips[k * rows + r]
            ratios = w + ([span - sum(w)] if sum(w) < span else [])
            row_axes = strip.subplots(1, len(ratios), squeeze=False,
                                      gridspec_kw={"width_ratios": ratios})[0]
            if len(ratios) > len(w):
                row_axes[-1].set_visible(False)       # a spacer: seats keep their width
            axes[r] += list(row_axes[:len(w)])
            row_axes[0].set_gid("row-start")
    return c, axes


LEGEND_TITLES = {"allocation": "boat allocation", "tiebreak": "tie-break rule",
                 "variant": "game", "strategies": "strategies", "boats": "boats per seat"}


def _legend_title(group_by: str) -> str:
    return LEGEND_TITLES.get(group_by, group_by.replace("_", " "))


@style.chart
def seat_win_share(run, tidy: pd.DataFrame | None = None, *,
                   settings=None, group_by: str = "allocation", rule: str = "own",
                   title: str | None = None, **filters):
    """Seat win share (ties split 1/k among the k winners) with its 95% Wilson interval
    against the fair share 1/N: one panel per player count, the settings of a panel grouped
    by ``group_by`` (default the boat allocation). ``settings`` / ``filters`` (``select``)
    choose the settings, which must differ only in the player count and ``group_by``
    (e.g. ``challenges="none", tiebreak="chain"``). ``rule``: ``own`` (each setting's
    tie-break), ``shared`` or ``chain`` (recounted on the same games). ``tidy``: the
    tidy statistics (the run's when None). Returns ``(figure, table)``;
    the table has one row per point (``value, low, high, n, method``, ``fair_share``)."""
    if rule not in WIN_METRICS:
        raise ValueError(f"rule must be one of {list(WIN_METRICS)}, got {rule!r}")
    tidy = data.tidy_for(run, tidy)
    meta = data.settings_table(run)
    labels = data.select(meta, settings, **filters)
    panels, groups = _layout(meta, labels, group_by)
    metric = WIN_METRICS[rule]
    table = _seat_rows(tidy, meta, panels, metric, group_by)
    table["fair_share"] = 1 / table["players"]
    c, axes = _figure(panels, 1)
    handles = _draw_metric(axes[0], table, panels, groups, group_by, metric, fair=True,
                           show_x=True)
    _panel_titles(axes[0], meta, panels, table, group_by, fair=True)
    common = data.common_description(meta, labels, drop=("players", group_by if group_by
                                                          in data.NAME_FACTORS else "boats"))
    fig = c.finish(title or "Seat win share against the fair share 1/N"
                 + (f" ({common})" if common else ""),
                 f"Points: each seat's share of the wins, a tie split 1/k among its k winners, "
                 f"under {RULE_TEXT[rule]}. Bars: {data.interval_text(table['method'])} of "
                 f"the tie-split win count; {data.n_text(table['n'])} per point (one setting's "
                 f"games). Dashed line: the fair share 1/N. Settings of one panel play the same "
                 f"games (common random numbers).", handles, _legend_title(group_by))
    return fig, table


@style.chart
def seat_score_rescued(run, tidy: pd.DataFrame | None = None, *,
                       settings=None, group_by: str = "allocation",
                       title: str | None = None, **filters):
    """Mean score and rescued fraction per seat with their 95% intervals: two rows of panels
    (score on top, rescued fraction below), one column per player count, grouped as in
    ``seat_win_share``. Returns ``(figure, table)``: one row per point, ``metric``
    ``mean_score`` or ``rescued_fraction``."""
    tidy = data.tidy_for(run, tidy)
    meta = data.settings_table(run)
    labels = data.select(meta, settings, **filters)
    panels, groups = _layout(meta, labels, group_by)
    table = pd.concat([_seat_rows(tidy, meta, panels, m, group_by)
                       for m in ("mean_score", "rescued_fraction")], ignore_index=True)
    c, axes = _figure(panels, 2)
    handles = {}
    for r, metric in enumerate(("mean_score", "rescued_fraction")):
        handles.update(_draw_metric(axes[r], table[table["metric"] == metric], panels, groups,
                                    group_by, metric, fair=False, show_x=True))
    _panel_titles(axes[0], meta, panels, table, group_by)
    equal = any(3 in meta.loc[lab, "challenge_set"] for lab in labels)
    common = data.common_description(meta, labels, drop=("players", group_by if group_by
                                                          in data.NAME_FACTORS else "boats"))
    fig = c.finish(title or "Mean score and explorers rescued per seat"
                 + (f" ({common})" if common else ""),
                 "Top: mean score per game (the value of the seat's explorers on safe isles"
                 + ("; under Challenge 3 each explorer rescued scores 1" if equal else "")
                 + "). Bottom: the seat's explorers rescued as a share of its explorers in "
                 f"play, averaged over games. Bars: {data.interval_text(table['method'])}"
                 + (" (where the t interval would leave the metric's range)"
                    if (table["method"] == "wilson-scaled").any() else "")
                 + f"; {data.n_text(table['n'])} per point.", handles,
                   _legend_title(group_by))
    return fig, table
