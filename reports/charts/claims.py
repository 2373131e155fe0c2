"""Charts of the tables shown beside the verdicts (``experiments.verdicts.exhibits``): what a boat
is worth per seat, turns per seat, each strategy's win share at a mixed table, the parts of a
score's variance, and the win shares with and without a leader-basher. Each takes the run
(unused: the numbers are the exhibit's table, computed in ``experiments``) and the table, and
returns ``(figure, table)`` like every chart: the table is exactly what is drawn.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import to_rgba

import reports.charts.style as style


def _styles(t: pd.DataFrame, col: str = "play") -> list[str]:
    return list(dict.fromkeys(t[col]))


def _dodge(k: int, i: int, width: float = 0.6) -> float:
    return 0.0 if k == 1 else -width / 2 + width * i / (k - 1)


@style.chart
def boat_value(run, table: pd.DataFrame):
    """Per player count (a panel each) and seat: the seat's own win share per boat (half the
    difference of a boat more and a boat fewer) with its 95% interval, one series per style;
    the seats' average as the last point."""
    t = table[table["metric"] == "share_both"].copy()
    counts = sorted(set(t["players"]))
    styles_ = _styles(t)
    c = style.Chart(4.2 * len(counts) + 1.0, 3.8)
    axes = c.body.subplots(1, len(counts), squeeze=False, sharey=True)[0]
    handles = {}
    for ax, n in zip(axes, counts):
        part = t[t["players"] == n]
        seats = [s for s in dict.fromkeys(part["seat"])]
        for i, name in enumerate(styles_):
            rows = part[part["play"] == name].set_index("seat").reindex(seats)
            x = np.arange(len(seats)) + _dodge(len(styles_), i, 0.45)
            h = ax.errorbar(x, 100 * rows["value"], yerr=100 * style.err(
                rows["value"], rows["low"], rows["high"]), fmt=style.MARKERS[i % 8], ms=5,
                capsize=2, lw=1.1, color=style.SERIES[i % 8])
            handles[name] = h
        ax.axhline(0, color="#555555", lw=0.8)
        ax.set_xticks(np.arange(len(seats)),
                      [f"seat {s}" if s != "all" else "average" for s in seats], fontsize=9)
        ax.set_title(f"{n} players (n = {int(part['n'].min()):,} game indices)", loc="left",
                     fontsize=style.LABEL_SIZE)
        ax.set_ylabel("own win share per boat (pp)")
    fig = c.finish("What one starting boat is worth to the seat that gets it",
                   "Each seat in turn given one boat more and one fewer than the rules' "
                   "allocation, on the same games: half the difference of its own win share "
                   "between the two, in percentage points, with 95% intervals over game "
                   "indices; the last point is the average over the seats (claim B2).",
                   handles)
    return fig, t


@style.chart
def turns_per_seat(run, table: pd.DataFrame):
    """Per player count (a panel each): each seat's mean turns with 95% intervals, one series
    per style."""
    t = table[table["metric"] == "turns"].copy()
    counts = sorted(set(t["players"]))
    styles_ = _styles(t)
    c = style.Chart(max(6.0, 2.6 * len(counts) + 1.0), 3.6)
    axes = c.body.subplots(1, len(counts), squeeze=False)[0]
    handles = {}
    for ax, n in zip(axes, counts):
        part = t[t["players"] == n]
        for i, name in enumerate(styles_):
            rows = part[part["play"] == name].sort_values("seat")
            x = rows["seat"].to_numpy(float) + _dodge(len(styles_), i, 0.4)
            handles[name] = ax.errorbar(x, rows["value"], yerr=style.err(
                rows["value"], rows["low"], rows["high"]), fmt=style.MARKERS[i % 8], ms=4.5,
                capsize=2, lw=1, color=style.SERIES[i % 8])
        ax.set_xticks(sorted(set(part["seat"])))
        ax.set_xlabel("seat" if n != 2 else "player (A, B)")
        ax.set_title(f"{n} players", loc="left", fontsize=style.LABEL_SIZE)
    axes[0].set_ylabel("turns per game")
    fig = c.finish("Turns each seat takes, under the rules' boats",
                   "Mean turns per game of each seat (with 2 players, of each player's two "
                   "seats together), 95% intervals over game indices (claims S2, S4).",
                   handles if len(styles_) > 1 else None)
    return fig, t


@style.chart
def strategy_shares(run, table: pd.DataFrame):
    """Per mixed table (a row each): each strategy's win share per seat it holds, with its
    95% interval, against the fair share per seat (dashed)."""
    t = table[table["metric"] == "win_share_per_seat"].copy()
    tables = list(dict.fromkeys(t["table"]))
    c = style.Chart(8.5, 0.5 + 0.42 * len(t) + 0.3 * len(tables))
    ax = c.body.subplots()
    y, labels, ticks = 0.0, [], []
    for k, name in enumerate(tables):
        part = t[t["table"] == name]
        ax.text(0.005, y + 0.6, name.split(", ")[-1], fontsize=8.5, color="#333333",
                fontweight="bold", transform=ax.get_yaxis_transform(), va="center")
        for _, r in part.iterrows():
            ax.errorbar([100 * r["value"]], [y], xerr=100 * style.err([r["value"]], [r["low"]],
                        [r["high"]]), fmt="o", ms=5, capsize=2, color=style.SERIES[k % 8])
            ax.plot([100 * r["fair"] / r["seats"]], [y], "|", ms=12, color="#555555")
            labels.append(f"{r['strategy']} ({r['seats']} seat{'s' if r['seats'] > 1 else ''})")
            ticks.append(y)
            y -= 1
        y -= 0.9
    ax.set_yticks(ticks, labels, fontsize=9)
    ax.set_ylim(y + 0.4, 1.0)
    ax.set_xlabel("win share per seat held (%), ties split; | the fair share 1/N")
    ax.grid(axis="x")
    fig = c.finish("Each strategy's win share at the mixed tables",
                   "Every table played in all its rotations on the same games (each seat "
                   "holds each strategy equally often), pooled: each strategy's share of the "
                   "wins per seat it holds, 95% intervals over game indices, against the fair "
                   "share (claims K1, K3, L).")
    return fig, t


COMPONENT_COLOURS = {"strategy": style.SERIES[0], "seat": style.SERIES[1],
                     "seed": style.SERIES[2], "rest": "#bbbbbb"}


@style.chart
def score_variance(run, table: pd.DataFrame):
    """Per mixed table (a bar each): the shares of a player's score variance the strategy,
    the seat, the game's seed and the rest explain, stacked, each labelled with its value."""
    t = table[table["component"] != "luck"].copy()
    tables = list(dict.fromkeys(t["table"]))
    c = style.Chart(9.0, 0.8 + 0.55 * len(tables))
    ax = c.body.subplots()
    handles = {}
    for k, name in enumerate(tables):
        part = t[t["table"] == name].set_index("component")
        left = 0.0
        for comp, colour in COMPONENT_COLOURS.items():
            if comp not in part.index:
                continue
            v = max(float(part.at[comp, "value"]), 0.0)
            handles[comp] = ax.barh([k], [100 * v], left=[100 * left], color=colour, height=0.6)
            if v > 0.04:
                ax.text(100 * (left + v / 2), k, f"{100 * v:.1f}%", ha="center", va="center",
                        fontsize=8.5, color=style.text_colour(to_rgba(colour)))
            left += v
    ax.set_yticks(range(len(tables)), [x.split(", ")[-1] for x in tables], fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of the variance of a player's score (%)")
    ax.grid(axis="x")
    fig = c.finish("What explains a player's score: strategy, seat, the game's seed, the rest",
                   "A decomposition over the tables' rotations: strategy and seat as fixed "
                   "effects, the seed (tiles and dice) as what two rotations of one game index "
                   "share, the rest left over; luck is seed + rest (claim K2; intervals in the "
                   "table).", handles, ncols=4)
    return fig, t


@style.chart
def leader_basher(run, table: pd.DataFrame):
    """Per pair of tables (a panel each): each strategy's win share per seat without and with
    the saboteur, 95% intervals."""
    t = table[table["metric"].isin(["with", "without"])].copy()
    pairs = list(dict.fromkeys(t["pair"]))
    c = style.Chart(4.0 * len(pairs) + 1.0, 3.6)
    axes = c.body.subplots(1, len(pairs), squeeze=False, sharey=True)[0]
    handles = {}
    for ax, name in zip(axes, pairs):
        part = t[t["pair"] == name]
        names = list(dict.fromkeys(part["strategy"]))
        for i, side in enumerate(("without", "with")):
            rows = part[part["metric"] == side].set_index("strategy").reindex(names)
            x = np.arange(len(names)) + (-0.12 if side == "without" else 0.12)
            handles[f"{side} the saboteur"] = ax.errorbar(
                x, 100 * rows["value"], yerr=100 * style.err(rows["value"], rows["low"],
                                                             rows["high"]),
                fmt=style.MARKERS[i], ms=5, capsize=2, lw=1, color=style.SERIES[i])
        ax.set_xticks(range(len(names)), names, fontsize=9)
        ax.set_title(name.split(",")[0], loc="left", fontsize=style.LABEL_SIZE)
    axes[0].set_ylabel("win share per seat held (%)")
    fig = c.finish("Win share per seat with and without a leader-basher at the table",
                   "The same mixed table with one seat held by the saboteur (it sinks tiles "
                   "under the public leader and sends creatures after it) or by another "
                   "strategy, every rotation on the same games; 95% intervals over game "
                   "indices (claims L1, L2).", handles)
    return fig, t
