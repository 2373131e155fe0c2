"""What a challenge or expansion does to the game, setting by setting (usually one player
count: the base game and each variant): game length, explorers rescued, explorers lost by
cause, how games end, and how often they hit the turn cap.

These numbers are per game, not per seat, so they are not rows of the tidy statistics; they
come from each setting's sums (``experiments.tables.sums.SettingSums``: a tally of each per-game
count, and the end reasons' counts) with the project's interval rule
(``experiments.tables.moments``).
"""
from __future__ import annotations

import matplotlib.colors
import numpy as np
import pandas as pd
from matplotlib.ticker import FixedLocator, NullFormatter, NullLocator, ScalarFormatter

from experiments.tables.games import explorers_per_colour
from experiments.tables.moments import wilson_ci
import reports.charts.data as data
import reports.charts.style as style

CAUSE_COLOURS = {"serpent": "#009E73", "shark": "#0072B2", "whale": "#56B4E9",
                 "whirlpool": "#CC79A7", "squid": "#D55E00", "stranded": "#F0E442"}
REASON_COLOURS = {"volcano": "#D55E00", "island_gone": "#0072B2", "no_explorers": "#009E73",
                  "turn_cap": "#000000", "none": "#CC79A7"}
ROW_HEIGHT = 0.48


def _selection(run, settings, filters):
    meta = data.settings_table(run)
    labels = data.select(meta, settings, **filters)
    return meta, labels, data.setting_names(meta, labels)


def explorers_in_play(meta, label: str) -> int:
    """Explorers of every colour in play in one game of the setting (the upper bound of the
    per-game counts): explorers per colour (B1.2, X1.1, X1.2, X6.1) times the seats."""
    row = meta.loc[label]
    count, _ = explorers_per_colour(int(row["players"]), row["challenge_set"])
    return count * int(row["seats"])


def _figure(labels, width=9.5):
    c = style.Chart(width, max(2.6, ROW_HEIGHT * len(labels) + 1.3))
    ax = c.body.subplots()
    ax.grid(axis="x", color="#d9d9d9", lw=0.7)
    ax.grid(axis="y", visible=False)
    return c, ax


def _setting_axis(ax, names):
    ax.set_yticks(range(len(names)), names)
    ax.set_ylim(len(names) - 0.5, -0.5)          # grid order, top to bottom


def _side_column(ax, y, texts, header: str) -> None:
    """A column of text right of the axes, one line per setting (outside the data, so never
    over a point; the layout makes room for it)."""
    for yi, text in zip(y, texts):
        ax.annotate(text, (1.0, yi), xycoords=("axes fraction", "data"), xytext=(10, 0),
                    textcoords="offset points", va="center", fontsize=style.ANNOTATION_SIZE,
                    annotation_clip=False)
    ax.annotate(header, (1.0, 1.0), xycoords="axes fraction", xytext=(10, 2),
                textcoords="offset points", va="bottom", fontsize=style.ANNOTATION_SIZE,
                fontweight="bold", annotation_clip=False)


def _common(meta, labels) -> str:
    text = data.common_description(meta, labels, drop=("variant",))
    return f" ({text})" if text else ""


# ---------------------------------------------------------------------------- length
@style.chart
def game_length(run, *, settings=None, title: str | None = None, **filters):
    """Game length (seat-turns, the ``turns`` column) per setting: a box plot (quartiles,
    whiskers at 1.5 IQR, each distinct outlying length as a dot) with the mean and its 95%
    interval (in [0, max_turns]), from the tally of lengths. Returns ``(figure, table)``: per
    setting the box's numbers (``stat``: ``whisker_low, q1, median, q3, whisker_high``), the
    ``mean`` with ``low, high``, and one ``outlier`` row per distinct outlying length with its
    ``count``."""
    meta, labels, names = _selection(run, settings, filters)
    rows, boxes = [], []
    for lab in labels:
        tally = data.sums_for(run, lab).length
        st = tally.boxplot(whis=1.5)
        st["label"] = names[lab]
        boxes.append(st)
        n = tally.n
        base = {"setting": lab, "name": names[lab], "n": n}
        for key, stat in (("whislo", "whisker_low"), ("q1", "q1"), ("med", "median"),
                          ("q3", "q3"), ("whishi", "whisker_high")):
            rows.append({**base, "stat": stat, "value": float(st[key]), "low": np.nan,
                         "high": np.nan, "method": "", "count": np.nan})
        mean, lo, hi, _, method = tally.ci(0, int(meta.loc[lab, "max_turns"]))
        rows.append({**base, "stat": "mean", "value": mean, "low": lo, "high": hi,
                     "method": method, "count": np.nan})
        for v, k in zip(st["fliers"], st["flier_counts"]):
            rows.append({**base, "stat": "outlier", "value": float(v), "low": np.nan,
                         "high": np.nan, "method": "", "count": int(k)})
    table = pd.DataFrame(rows)
    c, ax = _figure(labels)
    ax.bxp([{k: v for k, v in b.items() if k != "flier_counts"} for b in boxes],
           positions=range(len(boxes)), orientation="horizontal", widths=0.55,
           patch_artist=True, showfliers=True,
           boxprops={"facecolor": "#56B4E9", "edgecolor": "#333333", "alpha": 0.9},
           medianprops={"color": "#000000", "lw": 2},
           flierprops={"marker": "o", "ms": 3, "mfc": "#999999", "mec": "none", "alpha": 0.6})
    means = table[table["stat"] == "mean"]
    y = np.arange(len(labels))
    mean_h = ax.errorbar(means["value"], y, xerr=style.err(means["value"], means["low"],
                                                        means["high"]),
                         fmt="D", ms=6, color="#D55E00", mec="black", mew=0.6, capsize=3,
                         lw=1.5, zorder=4)
    _setting_axis(ax, [names[lab] for lab in labels])
    lo, hi = float(table["value"].min()), float(table["value"].max())
    if hi / max(lo, 1) > 4:                       # long tails (Challenge 2): log scale
        ax.set_xscale("log")
        ticks = [t for t in (10, 20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 400, 600, 800)
                 if lo * 0.8 <= t <= hi * 1.25]
        ax.xaxis.set_major_locator(FixedLocator(ticks))
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("game length (seat-turns per game, log scale)")
    else:
        ax.set_xlabel("game length (seat-turns per game)")
    import matplotlib.patches as mpatches
    from matplotlib.lines import Line2D
    handles = {"middle half of the games (box), median (line)":
               mpatches.Patch(facecolor="#56B4E9", edgecolor="#333333"),
               "mean with its 95% interval": mean_h,
               "outlying lengths (beyond 1.5 IQR; one dot each)":
               Line2D([], [], marker="o", ls="none", ms=4, mfc="#999999", mec="none")}
    fig = c.finish(title or f"Game length by challenge and expansion{_common(meta, labels)}",
                   f"Seat-turns played per game. Boxes: quartiles, whiskers to the last game "
                   f"within 1.5 IQR of the box. Diamonds: the mean with its "
                   f"{data.interval_text_by(means)}; {data.n_text(table['n'])} per "
                   f"setting.", handles)
    return fig, table


# ---------------------------------------------------------------------------- rescued
@style.chart
def rescued_per_game(run, *, settings=None, title: str | None = None, **filters):
    """Explorers rescued per game (all seats together), mean with its 95% interval (in [0,
    explorers in play]), per setting. Returns ``(figure, table)``: one row per setting
    (``value, low, high, n, method, in_play``)."""
    meta, labels, names = _selection(run, settings, filters)
    rows = []
    for lab in labels:
        bound = explorers_in_play(meta, lab)
        mean, lo, hi, n, method = data.sums_for(run, lab).rescued_total.ci(0, bound)
        rows.append({"setting": lab, "name": names[lab], "metric": "rescued_per_game",
                     "value": mean, "low": lo, "high": hi, "n": n, "method": method,
                     "in_play": bound})
    table = pd.DataFrame(rows)
    c, ax = _figure(labels)
    y = np.arange(len(labels))
    v = table["value"].to_numpy()
    ax.errorbar(v, y, xerr=style.err(v, table["low"], table["high"]), fmt="o", ms=7,
                color="#0072B2", capsize=4, lw=1.8, zorder=3)
    _side_column(ax, y, [f"{r['value']:.2f} ({r['low']:.2f}\u2013{r['high']:.2f}) of "
                         f"{r['in_play']} in play" for _, r in table.iterrows()],
                 "mean (95% interval)")
    _setting_axis(ax, [names[lab] for lab in labels])
    span = float(table["high"].max() - table["low"].min()) or 1.0
    ax.set_xlim(table["low"].min() - 0.08 * span, table["high"].max() + 0.08 * span)
    ax.set_xlabel("explorers rescued per game (all seats)")
    fig = c.finish(title or f"Explorers rescued per game{_common(meta, labels)}",
                   f"Mean over games of the explorers brought to safe isles by all seats "
                   f"together. Bars: {data.interval_text_by(table)}; "
                   f"{data.n_text(table['n'])} per setting.")
    return fig, table


# ---------------------------------------------------------------------------- stacked
def _stacked(ax, table, labels, parts, colours, names_of):
    """Horizontal stacked bars of ``table`` (``setting, part, value, low, high``), with each
    part's interval drawn at its segment's end, staggered so the whiskers do not overlap."""
    offsets = dict(zip(parts, np.linspace(-0.22, 0.22, len(parts)) if len(parts) > 1
                       else [0.0]))
    handles = {}
    left = np.zeros(len(labels))
    table["left"] = np.nan
    for part in parts:
        sub = table[table["part"] == part].set_index("setting").loc[labels]
        v = sub["value"].to_numpy()
        table.loc[sub["row"].to_numpy(), "left"] = left
        h = ax.barh(np.arange(len(labels)), v, left=left, height=0.7, color=colours[part],
                    edgecolor="white", lw=0.8, zorder=2)
        handles[names_of(part)] = h
        end = left + v
        ax.errorbar(end, np.arange(len(labels)) + offsets[part],
                    xerr=style.err(v, sub["low"], sub["high"]), fmt="none",
                    ecolor="black", elinewidth=1.1, capsize=2.5, zorder=3)
        left = end
    return handles


@style.chart
def losses_by_cause(run, *, settings=None, title: str | None = None, **filters):
    """Explorers lost per game by cause (serpent, shark, whale, whirlpool, squid, stranded:
    ``lost_<cause>_<seat>`` summed over the seats), mean per game, as stacked bars per
    setting; each cause's 95% interval (in [0, explorers in play]) is drawn at the end of its
    segment. Causes that never occur in the selection are left out. Returns ``(figure,
    table)``: one row per (setting, cause)."""
    meta, labels, names = _selection(run, settings, filters)
    rows = []
    for lab in labels:
        bound = explorers_in_play(meta, lab)
        for cause in data.LOSS_CAUSES:
            tally = data.sums_for(run, lab).lost[cause]
            mean, lo, hi, n, method = tally.ci(0, bound)
            rows.append({"setting": lab, "name": names[lab], "part": cause,
                         "metric": f"lost_{cause}_per_game", "value": mean, "low": lo,
                         "high": hi, "n": n, "method": method,
                         "total": int(tally.sums().s1)})
    table = pd.DataFrame(rows)
    seen = table.groupby("part")["total"].sum()
    parts = [c for c in data.LOSS_CAUSES if seen[c] > 0]
    table = table[table["part"].isin(parts)].reset_index(drop=True)
    table["row"] = table.index
    c, ax = _figure(labels, width=10.5)
    handles = _stacked(ax, table, labels, parts, CAUSE_COLOURS, lambda p: p)
    _setting_axis(ax, [names[lab] for lab in labels])
    ax.set_xlabel("explorers lost per game (all seats)")
    ax.set_xlim(0, None)
    table = table.drop(columns=["row", "total"])
    fig = c.finish(title or f"Explorers lost per game, by cause{_common(meta, labels)}",
                   "Mean over games of the explorers lost by all seats together, by what took "
                   "them (stranded: still on the island or in the sea at the end). Whiskers at "
                   f"each segment's end: that cause's {data.interval_text_by(table)}; "
                   f"{data.n_text(table['n'])} per setting.", handles, "lost to",
                   ncols=len(parts))
    return fig, table


def _pct(v: float) -> str:
    if v in (0.0, 1.0):
        return f"{100 * v:.0f}%"
    return f"{100 * v:.1f}%" if 0.01 <= v <= 0.99 else f"{100 * v:.2f}%"


def _label_shares(ax, table, labels):
    """Each wide segment's share and its interval written inside it; the narrow ones (under
    12%) listed to the right of the bar."""
    for j, lab in enumerate(labels):
        narrow = []
        for _, r in table[table["setting"] == lab].iterrows():
            if r["value"] >= 0.12:
                colour = style.text_colour(matplotlib.colors.to_rgba(REASON_COLOURS[r["part"]]))
                ax.text(r["left"] + r["value"] / 2, j, f"{_pct(r['value'])} "
                        f"({_pct(r['low'])}\u2013{_pct(r['high'])})", ha="center",
                        va="center", color=colour, fontsize=style.ANNOTATION_SIZE)
            elif r["value"] > 0:
                narrow.append(f"{data.END_REASON_NAMES[r['part']]} {_pct(r['value'])} "
                              f"({_pct(r['low'])}\u2013{_pct(r['high'])})")
        if narrow:
            ax.annotate("; ".join(narrow), (1.0, j), xycoords=("axes fraction", "data"),
                        xytext=(8, 0), textcoords="offset points", va="center",
                        fontsize=style.ANNOTATION_SIZE, annotation_clip=False)


@style.chart
def end_reasons(run, *, settings=None, title: str | None = None, **filters):
    """How the games end (the ``end_reason`` column): each reason's share of the setting's
    games with its 95% Wilson interval (``wilson_ci``), as 100% stacked bars; reasons that
    never occur in the selection are left out. Returns ``(figure, table)``: one row per
    (setting, reason)."""
    meta, labels, names = _selection(run, settings, filters)
    rows = []
    for lab in labels:
        s = data.sums_for(run, lab)
        n = s.n
        for reason in data.END_REASONS:
            count = int(s.end.get(reason, 0))
            value, lo, hi = wilson_ci(count, n)
            rows.append({"setting": lab, "name": names[lab], "part": reason,
                         "metric": f"end_{reason}", "value": value, "low": lo, "high": hi,
                         "n": n, "method": "wilson", "count": count})
    table = pd.DataFrame(rows)
    seen = table.groupby("part")["count"].sum()
    parts = [r for r in data.END_REASONS if seen[r] > 0]
    table = table[table["part"].isin(parts)].reset_index(drop=True)
    table["row"] = table.index
    c, ax = _figure(labels, width=10.5)
    handles = _stacked(ax, table, labels, parts, REASON_COLOURS,
                       lambda p: data.END_REASON_NAMES[p])
    _setting_axis(ax, [names[lab] for lab in labels])
    _label_shares(ax, table, labels)
    ax.set_xlim(0, 1.0)
    style.percent_axis(ax.xaxis)
    ax.set_xlabel("share of games (%)")
    table = table.drop(columns=["row"])
    fig = c.finish(title or f"How the games end{_common(meta, labels)}",
                   "Each end reason's share of the setting's games (the first end rule met "
                   "ends the game), written with its interval in the bar, or beside it when "
                   "under 12%. Whiskers at each segment's end: 95% Wilson score interval of "
                   f"that share; {data.n_text(table['n'])} per setting.", handles,
                   "the game ended because")
    return fig, table


@style.chart
def turn_capped(run, *, settings=None, title: str | None = None, **filters):
    """The share of games stopped by the turn cap (R10, ``end_reason == "turn_cap"``) per
    setting, with its 95% Wilson interval (``wilson_ci``). Returns ``(figure, table)``: one
    row per setting (``value, low, high, n, count``)."""
    meta, labels, names = _selection(run, settings, filters)
    rows = []
    for lab in labels:
        s = data.sums_for(run, lab)
        count, n = int(s.end.get("turn_cap", 0)), s.n
        value, lo, hi = wilson_ci(count, n)
        rows.append({"setting": lab, "name": names[lab], "metric": "turn_capped",
                     "value": value, "low": lo, "high": hi, "n": n, "method": "wilson",
                     "count": count, "max_turns": int(meta.loc[lab, "max_turns"])})
    table = pd.DataFrame(rows)
    c, ax = _figure(labels)
    y = np.arange(len(labels))
    v = table["value"].to_numpy()
    ax.errorbar(v, y, xerr=style.err(v, table["low"], table["high"]), fmt="o", ms=7,
                color="#000000", capsize=4, lw=1.8, zorder=3)
    _side_column(ax, y, [f"{r['count']:,} of {r['n']:,}: {_pct(r['value'])} "
                         f"({_pct(r['low'])}\u2013{_pct(r['high'])})"
                         for _, r in table.iterrows()], "games capped (95% interval)")
    _setting_axis(ax, [names[lab] for lab in labels])
    top = float(table["high"].max()) * 1.08
    ax.set_xlim(-0.015 * top, top)                # points at 0 drawn whole
    style.percent_axis(ax.xaxis)
    caps = sorted(set(table["max_turns"]))
    ax.set_xlabel("games stopped at the turn cap (% of games)")
    fig = c.finish(title or f"Games that hit the turn cap{_common(meta, labels)}",
                   f"Share of games stopped by the turn cap (R10: "
                   f"{', '.join(map(str, caps))} seat-turns) instead of an end rule. Bars: 95% "
                   f"Wilson score interval; {data.n_text(table['n'])} per setting.")
    return fig, table
