"""Seat balance against skill: the charts of a skill trace (``experiments/skill_trace.toml``),
self-play of one style per skill level on the same game indices, weakest first.

* ``skill_trace``: every seat's win share against the level (categorical, in the order the study
  lists the levels), one panel column per table (player count and boats), seat 1's excess over
  1/N in a row of its own: does the first seat's edge grow as the bots get stronger?
* ``skill_strength``: seat 1's excess against the level's measured strength, its head-to-head
  share against ``expert`` (``experiments/skill_strength.csv``, ``examples/skill_strength.py``),
  so the x axis is how strong a level plays, not its rank, as Ludii's SkillTrace plots it.

The seat shares are the tidy ``win_share`` rows (each setting's own tie-break) that every seat
chart draws, from the sums read chunk by chunk; nothing here counts games.
"""
from __future__ import annotations

import re
from importlib.resources import files

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter, MaxNLocator

import reports.charts.data as data
import reports.charts.style as style

STRENGTH_FILE = "skill_strength.csv"
STRENGTH_COLUMNS = ("players", "level", "strategy", "share", "low", "high", "indices")
REFERENCE = "expert"                   # the yardstick of the strength file
SEAT1 = "#000000"
OTHERS = tuple(c for c in style.SERIES if c != SEAT1)
PANEL_WIDTH = 4.3
TRACE_HEIGHTS = (3.6, 2.3)             # all seats, then seat 1's excess
TABLE_KEYS = ("players", "allocation", "boats_text", "tiebreak", "variant", "flags")


def level_name(strategy: str) -> str:
    """A level as people read it: ``search256:budget=16`` -> ``search 16``, ``search64`` ->
    ``search 64``; any other name as it is."""
    m = re.fullmatch(r"search(\d*)(?::budget=(\d+))?", str(strategy))
    return f"search {m[2] or m[1]}" if m and (m[1] or m[2]) else str(strategy)


def skill_tables(meta, labels=None, min_levels: int = 2) -> dict[tuple, list[str]]:
    """Per table (player count, boats, tie-break, game variant, rule flags), its self-play
    settings in grid order -- the order the study lists its levels -- where it holds at least
    ``min_levels`` of them. Mixed tables are not levels."""
    meta = data.settings_table(meta)
    out: dict[tuple, list[str]] = {}
    for lab in (meta.index if labels is None else labels):
        row = meta.loc[lab]
        if len(set(row["strategies"])) != 1:
            continue
        key = tuple(str(row[k]) for k in TABLE_KEYS)
        mine = out.setdefault(key, [])
        if row["strategies_text"] not in {meta.at[x, "strategies_text"] for x in mine}:
            mine.append(lab)
    kept = [(k, v) for k, v in out.items() if len(v) >= min_levels]
    return dict(sorted(kept, key=lambda kv: int(kv[0][0])))     # by player count, stable


def _pp(v, _=None) -> str:
    v = round(100 * v, 6)
    return "0" if v == 0 else f"{v:+g}"


def _excess_axis(ax) -> None:
    ax.yaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    ax.yaxis.set_major_formatter(FuncFormatter(_pp))


def _panel_title(meta, lab: str, n) -> str:
    row = meta.loc[lab]
    variant = "" if row["variant"] == "base" else f", {row['variant']}"
    return (f"{row['players']} players, {row['allocation']} boats ({row['boats_text']})"
            f"{variant}\n{row['tiebreak']} tie-break \u00b7 {data.n_text(n)} per level")


def _trace_rows(tidy, meta, tables) -> pd.DataFrame:
    out = []
    for k, labels in enumerate(tables.values()):
        rows = data.metric_rows(tidy, labels, "win_share")
        for lab in labels:
            row = meta.loc[lab]
            players = int(row["players"])
            for _, r in rows[rows["setting"] == lab].sort_values("seat").iterrows():
                out.append({"panel": k, "setting": lab, "players": players,
                            "allocation": row["allocation"], "boats": row["boats_text"],
                            "tiebreak": row["tiebreak"], "strategy": row["strategies_text"],
                            "level": level_name(row["strategies_text"]),
                            "seat": int(r["seat"]), "metric": "win_share",
                            "value": r["value"], "low": r["low"], "high": r["high"],
                            "n": int(r["n"]), "method": r["method"],
                            "fair_share": 1 / players})
    t = pd.DataFrame(out)
    first = t[t["seat"] == 0].copy()
    for c in ("value", "low", "high"):
        first[c] = first[c] - first["fair_share"]
    first["metric"] = "seat1_excess"
    return pd.concat([t, first], ignore_index=True)


def _traced(run, tidy, settings, filters):
    """The charts' common start: the settings table, the chosen self-play tables and their
    trace rows (``_trace_rows``)."""
    tidy = data.tidy_for(run, tidy)
    meta = data.settings_table(run)
    tables = skill_tables(meta, data.select(meta, settings, **filters))
    if not tables:
        raise ValueError("no table of two or more self-play levels to trace")
    return meta, tables, _trace_rows(tidy, meta, tables)


@style.chart
def skill_trace(run, tidy: pd.DataFrame | None = None, *, settings=None,
                title: str | None = None, **filters):
    """Every seat's win share (ties split 1/k under each setting's own tie-break) against the
    skill level, with its 95% interval and n: one panel column per table of self-play levels
    (player count and boats), the levels on the x axis in grid order (the study's, weakest
    first); below each, seat 1's share minus 1/N. ``settings`` / ``filters`` (``select``)
    choose the settings; a table needs two levels. Returns ``(figure, table)``: one row per
    point, ``metric`` ``win_share`` or ``seat1_excess``."""
    meta, tables, table = _traced(run, tidy, settings, filters)
    levels = list(dict.fromkeys(table["strategy"]))
    names = [level_name(s) for s in levels]
    width = PANEL_WIDTH * len(tables) + 1.2
    c = style.Chart(width, sum(TRACE_HEIGHTS))
    axes = c.body.subplots(2, len(tables), squeeze=False, sharex=True,
                           gridspec_kw={"height_ratios": TRACE_HEIGHTS})
    most = int(table["players"].max())
    offsets = np.linspace(-0.27, 0.27, most)
    handles = {}
    for k, labels in enumerate(tables.values()):
        top, low = axes[0, k], axes[1, k]
        mine = table[(table["panel"] == k) & (table["metric"] == "win_share")]
        players = int(mine["players"].iloc[0])
        for seat in range(players):
            r = mine[mine["seat"] == seat]
            x = np.array([levels.index(s) for s in r["strategy"]]) + offsets[seat]
            one = seat == 0
            h = top.errorbar(x, r["value"], yerr=style.err(r["value"], r["low"], r["high"]),
                             fmt=style.MARKERS[seat % 8] + "-", ms=6 if one else 4,
                             lw=2.4 if one else 0.9, elinewidth=1.6 if one else 0.9,
                             capsize=2.5, color=SEAT1 if one else OTHERS[(seat - 1) % 7],
                             alpha=1.0 if one else 0.85, zorder=4 if one else 3)
            handles.setdefault("seat 1 (first)" if one else f"seat {seat + 1}", h)
        handles["fair share 1/N"] = top.axhline(1 / players, color="#555555", ls="--", lw=1.2,
                                                zorder=2)
        style.percent_axis(top.yaxis)
        top.set_title(_panel_title(meta, labels[0], mine["n"]), fontsize=style.LABEL_SIZE)
        ex = table[(table["panel"] == k) & (table["metric"] == "seat1_excess")]
        x = np.array([levels.index(s) for s in ex["strategy"]])
        handles["seat 1's excess over 1/N"] = low.errorbar(
            x, ex["value"], yerr=style.err(ex["value"], ex["low"], ex["high"]), fmt="o-",
            ms=6, lw=2.4, elinewidth=1.6, capsize=2.5, color=SEAT1, zorder=4)
        low.axhline(0, color="#555555", ls="--", lw=1.2, zorder=2)
        _excess_axis(low)
        low.set_xticks(range(len(levels)), names, rotation=35, ha="right",
                       rotation_mode="anchor")
        low.set_xlim(-0.5, len(levels) - 0.5)
        low.set_xlabel("skill level (weakest first)")
        if k == 0:
            top.set_ylabel("win share, ties split")
            low.set_ylabel("seat 1 \u2212 1/N (pp)")
    order = ["seat 1 (first)"] + [f"seat {k}" for k in range(2, most + 1)] + \
        ["fair share 1/N", "seat 1's excess over 1/N"]
    handles = {k: handles[k] for k in order if k in handles}
    rules = sorted(set(table["tiebreak"]))
    fig = c.finish(
        title or "Seat win share against skill level, self-play",
        f"Top: each seat's share of the wins when every seat plays the level (a tie split 1/k "
        f"among its k winners under the {' or '.join(rules)} tie-break, each table's own), "
        f"with its {data.interval_text(table['method'])}; dashed: the fair share 1/N. Bottom "
        f"(bold): seat 1's share minus 1/N in percentage points, the same interval shifted; "
        f"dashed: no edge. Levels in the order the study lists them, weakest first; 'search B' "
        f"is the search rung (search256) at budget B. Every level plays the same game indices "
        f"(common random numbers), one game per index, so n games are n indices: "
        f"{data.n_text(table['n'])} per point. For these bots only, not people.",
        handles, "seat (seat 1 moves first)")
    return fig, table


# ---------------------------------------------------------------------------- strength
def strength_table(strength=None) -> pd.DataFrame:
    """The levels' measured strength: ``strength`` (a table or a csv path) or the packaged
    ``experiments/skill_strength.csv``, checked for its columns."""
    if strength is None:
        strength = files("experiments") / STRENGTH_FILE
    try:
        t = strength.copy() if isinstance(strength, pd.DataFrame) else pd.read_csv(strength)
    except FileNotFoundError:
        raise ValueError(f"no strength table at {strength}") from None
    missing = [c for c in STRENGTH_COLUMNS if c not in t.columns]
    if missing:
        raise ValueError(f"the strength table has no column {missing[0]!r}; it needs "
                         f"{', '.join(STRENGTH_COLUMNS)}")
    t["players"] = t["players"].astype(int)
    return t


def _strength_of(strength: pd.DataFrame, players: int, strategy: str):
    mine = strength[strength["players"] == players]
    hit = mine[mine["strategy"].astype(str) == strategy]
    if hit.empty:
        hit = mine[mine["level"].astype(str) == level_name(strategy)]
    return None if hit.empty else hit.iloc[0]


def _indices_text(t: pd.DataFrame) -> str:
    """``1,000 game indices (greedy, racer); 16-32 (search 16)``: the strength's n per level."""
    parts = []
    by = t[t["strategy"] != REFERENCE].groupby("level", sort=False)["strength_indices"]
    groups: dict[str, list[str]] = {}
    for level, ns in by:
        lo, hi = int(ns.min()), int(ns.max())
        groups.setdefault(f"{lo:,}" if lo == hi else f"{lo:,}\u2013{hi:,}", []).append(level)
    for k, (n, levels) in enumerate(groups.items()):
        parts.append(f"{n}{' game indices' if k == 0 else ''} ({', '.join(levels)})")
    return "; ".join(parts)


def _left_out_text(trace: pd.DataFrame, left_out: list[tuple[int, str]]) -> str:
    """The levels the strength table lacks, the player counts that lack the same ones
    together (``search 64 at 5 and 6 players``; ``every level at 5 players``)."""
    missing: dict[tuple[str, ...], list[int]] = {}
    for players in sorted({p for p, _ in left_out}):
        levels = tuple(dict.fromkeys(lv for p, lv in left_out if p == players))
        every = set(trace.loc[trace["players"] == players, "level"])
        missing.setdefault(("every level",) if set(levels) == every else levels,
                           []).append(players)
    parts = []
    for levels, counts in missing.items():
        at = " and ".join([", ".join(map(str, counts[:-1])), str(counts[-1])] if
                          len(counts) > 1 else [str(counts[0])])
        parts.append(f"{', '.join(levels)} at {at} players")
    return "; ".join(parts)


@style.chart
def skill_strength(run, tidy: pd.DataFrame | None = None, *, strength=None, settings=None,
                   title: str | None = None, **filters):
    """Seat 1's win share minus 1/N (95% interval, n games) against the level's measured
    strength: the share of games it finishes above ``expert`` head to head (ties half), with
    its 95% interval over game indices as horizontal bars (``strength``: a table or csv, by
    default the packaged ``experiments/skill_strength.csv``). One panel per player count, one
    series per boat allocation. Levels the strength table lacks are left out, and the caption
    names them. Returns ``(figure, table)``: one row per point."""
    _, _, trace = _traced(run, tidy, settings, filters)
    strength = strength_table(strength)
    rows, left_out = [], []
    for r in trace[trace["metric"] == "seat1_excess"].to_dict("records"):
        s = _strength_of(strength, r["players"], r["strategy"])
        if s is None:
            left_out.append((r["players"], r["level"]))
            continue
        rows.append({**r, "strength": float(s["share"]), "strength_low": float(s["low"]),
                     "strength_high": float(s["high"]),
                     "strength_indices": int(s["indices"]),
                     "strength_source": s.get("source", "")})
    if not rows:
        raise ValueError("the strength table has none of the run's levels")
    table = pd.DataFrame(rows).drop(columns=["panel"])
    counts = sorted(set(table["players"]))
    levels = list(dict.fromkeys(trace["strategy"]))
    allocations = list(dict.fromkeys(table["allocation"]))
    c = style.Chart(PANEL_WIDTH * len(counts) + 1.2, 4.4)
    axes = c.body.subplots(1, len(counts), squeeze=False, sharex=True, sharey=True)[0]
    handles = {}
    for ax, players in zip(axes, counts):
        part = table[table["players"] == players]
        for i, alloc in enumerate(allocations):
            r = part[part["allocation"] == alloc]
            if r.empty:
                continue
            colour = style.ALLOCATION_COLOURS.get(alloc, style.SERIES[i % 8])
            ax.plot(r["strength"], r["value"], "-", color=colour, lw=0.8, alpha=0.6,
                    zorder=2)
            for row in r.to_dict("records"):
                k = levels.index(row["strategy"])
                h = ax.errorbar(
                    [row["strength"]], [row["value"]],
                    xerr=style.err([row["strength"]], [row["strength_low"]],
                                   [row["strength_high"]]),
                    yerr=style.err([row["value"]], [row["low"]], [row["high"]]),
                    fmt=style.MARKERS[k % 8], ms=7, mfc=colour, mec="black", mew=0.6,
                    ecolor=colour, elinewidth=1.0, capsize=2, zorder=3)
                handles.setdefault(f"{alloc} boats", h)
        ax.axhline(0, color="#555555", ls="--", lw=1.2, zorder=1)
        ax.axvline(0.5, color="#555555", ls=":", lw=1.2, zorder=1)
        ns = data.n_text(part["n"])
        ax.set_title(f"{players} players \u00b7 {ns} per point", fontsize=style.LABEL_SIZE)
        ax.set_xlabel(f"strength: games above {REFERENCE} (ties half)")
        style.percent_axis(ax.xaxis)
        _excess_axis(ax)
    axes[0].set_ylabel("seat 1 \u2212 1/N (pp)")
    for k, strategy in enumerate(levels):          # the markers: which level is which
        if strategy in set(table["strategy"]):
            handles[level_name(strategy)] = axes[0].plot(
                [], [], style.MARKERS[k % 8], ms=7, mfc="white", mec="black")[0]
    note = (f" Not in the strength table, so left out: {_left_out_text(trace, left_out)}."
            if left_out else "")
    fig = c.finish(
        title or "Seat 1's edge against how strongly the level plays",
        f"Points: seat 1's share of the wins minus 1/N in self-play at each level (ties split "
        f"under each table's own tie-break), in percentage points, with its "
        f"{data.interval_text(table['method'])} (vertical bars; n games per point as titled). "
        f"x: the level's strength, the share of games it finishes above {REFERENCE} head to "
        f"head, ties half, in one tournament per level and player count under the rules' "
        f"boats (experiments/skill_strength.csv), with its 95% interval over game indices "
        f"(horizontal bars; n = {_indices_text(table)}); {REFERENCE} is the yardstick, 50% by "
        f"definition (dotted). Dashed: no edge. Marker: the level; colour: the boats. For "
        f"these bots only, not people.{note}", handles, "boats, and level (marker)")
    return fig, table
