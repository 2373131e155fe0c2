"""Komi curves: each seat's win share against its own score bonus (RULES.md C1), as Go's komi
tables read -- the chart of ``survive_sim.Run.komi``'s tables (``experiments.komi.tables``).

One panel per setting; in it one line per seat, the seat's tie-split win share with its own
bonus at every grid point (the other seats at none), its 95% interval as a band and the fair
share 1/N as a dashed line; under it a strip with each seat's fair bonus (where its share
crosses 1/N) and its interval, or "never fair" and the side it stays on.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

import reports.charts.data as data
import reports.charts.style as style

PANEL = (4.4, 3.0)             # inches per panel: the curves
STRIP = 1.2                    # inches under each panel: every seat's fair bonus


@style.chart
def komi_curves(table: pd.DataFrame, fair: pd.DataFrame, settings=None, titles=None):
    """``(figure, tidy)`` of ``Run.komi``'s ``table`` and ``fair`` (``settings``: the labels
    to draw, in order; every setting when None; ``titles``: a panel title per label)."""
    labels = list(dict.fromkeys(table["setting"])) if settings is None else list(settings)
    missing = [x for x in labels if x not in set(table["setting"])]
    if not labels or missing:
        raise ValueError(f"no komi table for {missing or 'any setting'}")
    cols = min(len(labels), 2)
    rows = -(-len(labels) // cols)
    c = style.Chart(PANEL[0] * cols, (PANEL[1] + STRIP) * rows)
    grid = c.body.subplots(2 * rows, cols, squeeze=False,
                           gridspec_kw={"height_ratios": [PANEL[1], STRIP] * rows})
    handles, tidy = {}, []
    ns = set()
    counts = {round(1 / x) for x in fair[fair["setting"].isin(labels)]["fair_share"]}
    for k, lab in enumerate(labels):
        ax, strip = grid[2 * (k // cols), k % cols], grid[2 * (k // cols) + 1, k % cols]
        strip.sharex(ax)
        t = table[table["setting"] == lab]
        f = fair[fair["setting"] == lab].set_index("seat")
        seats = sorted(t["seat"].unique())
        players = int(round(1 / f["fair_share"].iloc[0])) if len(f) else len(seats)
        n = int(t["n"].iloc[0])
        ns.add(n)
        for s in seats:
            g = t[t["seat"] == s].sort_values("bonus")
            colour = style.SERIES[s % len(style.SERIES)]
            line, = ax.plot(g["bonus"], g["share"], color=colour, lw=1.6, marker=".", ms=3)
            ax.fill_between(g["bonus"], g["low"], g["high"], color=colour, alpha=0.15, lw=0)
            # "(first)", "(last)" only where every panel has the same seats
            name = data.seat_label(s, players) if players > 2 and len(counts) == 1 \
                else f"seat {s + 1}"
            handles.setdefault(name, line)
            for r in g.itertuples():
                tidy.append({"setting": lab, "seat": s, "bonus": r.bonus, "value": r.share,
                             "low": r.low, "high": r.high, "n": r.n, "method": "wilson"})
            y = len(seats) - 1 - s                    # seat 1 on top of the strip
            if s in f.index and bool(f.at[s, "reached"]):
                b, lo, hi = f.at[s, "bonus"], f.at[s, "low"], f.at[s, "high"]
                lo, hi = (max(lo, g["bonus"].min()), min(hi, g["bonus"].max()))
                strip.errorbar([b], [y], xerr=[[b - lo], [hi - b]], fmt="o", ms=4.5,
                               color=colour, mec="white", mew=0.6, capsize=2.5, lw=1.2)
                tidy.append({"setting": lab, "seat": s, "bonus": np.nan, "value": b,
                             "low": f.at[s, "low"], "high": f.at[s, "high"], "n": n,
                             "method": "fair bonus"})
            else:
                side = f.at[s, "side"] if s in f.index else ""
                strip.text(g["bonus"].max(), y, f"never fair ({side} 1/N) ", ha="right",
                           va="center", fontsize=style.CAPTION_SIZE - 1, color=colour)
        ax.axhline(1 / players, color="#555555", ls="--", lw=1)
        for a in (ax, strip):
            a.axvline(0, color="#999999", lw=0.6)
        ax.set_ylabel("win share")
        style.percent_axis(ax.yaxis)
        ax.tick_params(labelbottom=False)
        strip.set_yticks(range(len(seats)), [f"seat {s + 1}" for s in reversed(seats)],
                         fontsize=style.CAPTION_SIZE - 1)
        strip.set_ylim(-0.7, len(seats) - 0.3)
        strip.set_xlabel("the seat's own bonus (points; the others none)")
        title = titles.get(lab, lab) if titles else lab
        ax.set_title(f"{title}\n{data.n_text([n])}", fontsize=style.CAPTION_SIZE + 1)
    for k in range(len(labels), rows * cols):
        grid[2 * (k // cols), k % cols].set_visible(False)
        grid[2 * (k // cols) + 1, k % cols].set_visible(False)
    n_note = data.n_text([ns.pop()]) if len(ns) == 1 else "n in each panel's title"
    fig = c.finish(
        "Each seat's win share against its own score bonus (komi)",
        f"Lines: a seat's tie-split win share when it alone gets the bonus on the x axis (the "
        f"other seats none), read from the stored scores of games played without a bonus (the "
        f"komi screen; exact for strategies that never read the score), {n_note} per point; "
        f"bands: 95% Wilson intervals, point by point. Dashed: the fair share 1/N. Under each "
        f"panel, each seat's fair bonus, where its share crosses 1/N, and as a bar the bonuses "
        f"the games cannot tell from fair for that seat (per seat, no correction across "
        f"seats). For these bots, not people.", handles, legend_title=None)
    return fig, pd.DataFrame(tidy)


def komi_panels(tables, settings=None, titles=None):
    """``komi_curves`` of ``tables`` = ``(table, fair)`` (``experiments.komi.tables.run_komi``):
    the form a report's chart job takes (``reports.render``: the tables first)."""
    return komi_curves(tables[0], tables[1], settings, titles)
