"""Ties and tie-breaks: how often the top score is shared and which step of the X1.6 chain
decides (``tie_decisions``), and where the wins of the tied games go when the chain replaces
the shared win on the same games (``tiebreak_transitions``).

Rates are the tidy rows of the statistics (``tie_rate``, ``decided_<step>_<rule>``, Wilson
intervals); the transition counts are a setting's sums (``SettingSums.transitions``: each tied
game's shared winners against the chain's pick on the same game).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

import reports.charts.data as data
import reports.charts.style as style

STEP_NAMES = {"rescued": "decided by most explorers rescued",
              "value": "decided by higher value rescued (Challenge 3)",
              "turns": "decided by fewest turns",
              "shared": "still shared after the chain"}
TIE_NAME = "top score tied (tie rate)"
SERIES_COLOURS = {TIE_NAME: "#000000", "rescued": "#0072B2", "value": "#E69F00",
                  "turns": "#009E73", "shared": "#CC79A7"}
STILL_SHARED = "still shared"


def _one_per_key(meta, labels, key: str):
    """``{(players, key value): label}``: one setting per panel point. Settings that differ
    only in the tie-break play the same games (their rows here are the same numbers): the
    first is kept. Any other difference is refused."""
    groups: dict[tuple, list[str]] = {}
    for lab in labels:
        groups.setdefault((int(meta.loc[lab, "players"]), meta.loc[lab, key]), []).append(lab)
    out = {}
    for k, labs in groups.items():
        other = [f for f in data.varying_factors(meta, labs) if f != "tiebreak"]
        if other:
            raise ValueError(f"{k[0]} players, {k[1]}: several settings ({labs}) that differ "
                             f"in {other}; pick one with the filter arguments or settings=[...]")
        out[k] = labs[0]
    return out


@style.chart
def tie_decisions(run, tidy: pd.DataFrame | None = None, *, settings=None,
                  rule: str = "chain", title: str | None = None, **filters):
    """Tie rate and the step of the tie-break chain that decided, per player count (x) and
    game variant (one panel per challenge set), each a share of all games with its 95% Wilson
    interval. ``rule``: the chain's steps (``chain``, default; counted on the same games at
    every player count) or ``shared``. The "value" step acts only under Challenge 3 and is
    drawn only there. Returns ``(figure, table)``: one row per point (``series``, ``value,
    low, high, n, method``)."""
    if rule not in ("chain", "shared"):
        raise ValueError(f"rule must be chain or shared, got {rule!r}")
    tidy = data.tidy_for(run, tidy)
    meta = data.settings_table(run)
    labels = data.select(meta, settings, **filters)
    points = _one_per_key(meta, labels, "variant")
    variants = list(dict.fromkeys(v for _, v in points))
    steps = ("rescued", "value", "turns", "shared") if rule == "chain" else ("shared",)
    rows = []
    for (players, variant), lab in points.items():
        equal = 3 in meta.loc[lab, "challenge_set"]
        wanted = [("tie_rate", TIE_NAME)] + [(f"decided_{s}_{rule}", s) for s in steps
                                             if s != "value" or equal]
        for metric, series in wanted:
            r = data.metric_rows(tidy, [lab], metric).iloc[0]
            rows.append({"setting": lab, "players": players, "variant": variant,
                         "metric": metric, "series": series, "value": r["value"],
                         "low": r["low"], "high": r["high"], "n": int(r["n"]),
                         "method": r["method"]})
    table = pd.DataFrame(rows)
    all_players = sorted({p for p, _ in points})
    series_order = [TIE_NAME] + [s for s in steps if s in set(table["series"])]
    width = max(7.5, min(18.0, 1.25 * len(all_players) * len(variants) + 2.0))
    c = style.Chart(width, 4.6)
    axes = c.body.subplots(1, len(variants), squeeze=False, sharey=True)[0]
    offsets = dict(zip(series_order, np.linspace(-0.3, 0.3, len(series_order))
                       if len(series_order) > 1 else [0.0]))
    handles = {}
    for ax, variant in zip(axes, variants):
        sub = table[table["variant"] == variant]
        for k, series in enumerate(series_order):
            s = sub[sub["series"] == series]
            if not len(s):
                continue
            x = np.array([all_players.index(p) for p in s["players"]]) + offsets[series]
            y = s["value"].to_numpy()
            err = style.err(y, s["low"], s["high"])
            h = ax.errorbar(x, y, yerr=err, fmt=style.MARKERS[k % 8], ms=6.5, lw=1.6,
                            capsize=3, color=SERIES_COLOURS[series], zorder=3)
            handles[STEP_NAMES.get(series, series)] = h
        ax.set_xticks(range(len(all_players)), [f"{p} players" for p in all_players])
        ax.set_xlim(-0.6, len(all_players) - 0.4)
        ax.set_title(f"{variant if variant != 'base' else 'base game'}\n"
                     f"{data.n_text(sub['n'])} per point", fontsize=style.LABEL_SIZE)
        ax.set_xlabel("player count")
        style.percent_axis(ax.yaxis)
    top = float(table["high"].max()) * 1.05
    axes[0].set_ylim(-0.015 * top, top)         # points at 0 drawn whole
    axes[0].set_ylabel("share of all games (%)")
    handles = {STEP_NAMES.get(k, k): handles[STEP_NAMES.get(k, k)] for k in series_order
               if STEP_NAMES.get(k, k) in handles}          # the legend in the chain's order
    rule_text = ("the X1.6 chain: most explorers rescued, then (Challenge 3 only) the higher "
                 "value rescued, then fewest turns" if rule == "chain"
                 else "the shared win (B7.3)")
    common = data.common_description(meta, list(points.values()),
                                     drop=("players", "variant", "tiebreak"))
    fig = c.finish(title or "How often first place is tied, and what breaks the tie"
                   + (f" ({common})" if common else ""),
                   f"Black: the tie rate, games whose top score is held by two or more "
                   f"players. Coloured: the share of all games decided by each later step of "
                   f"{rule_text}, and the ties still standing after it; the coloured points of "
                   f"a player count add up to its tie rate. Counted on the same games whatever "
                   f"rule the setting itself uses. Bars: 95% Wilson score interval; "
                   f"{data.n_text(table['n'])} per point.", handles)
    return fig, table


def _twin(meta, label: str) -> str:
    others = [lab for lab in meta.index if lab != label
              and data.varying_factors(meta, [label, lab]) == ["tiebreak"]]
    if not others:
        raise ValueError(f"no setting differs from {label!r} in the tie-break alone")
    return others[0]


def transition_counts(run, setting_a: str, setting_b: str | None = None) -> pd.DataFrame:
    """The transition table of ``tiebreak_transitions``: for the games whose top score is
    shared, per seat among the shared winners (``tied_seat``) and the outcome under the chain
    (``outcome``: the seat the chain makes sole winner, or ``still shared``), the ``count`` of
    (game, tied seat) pairs; every combination, zeros included. ``setting_a`` / ``setting_b``:
    the shared and the chain setting, in either order (``setting_b`` None: the setting that
    differs from ``setting_a`` only in the tie-break); they play the same games (the
    statistics check it game by game), so both rules are counted on either's games."""
    run = data.analysis_of(run)
    meta = data.settings_table(run)
    setting_b = setting_b or _twin(meta, setting_a)
    if data.varying_factors(meta, [setting_a, setting_b]) != ["tiebreak"]:
        raise ValueError(f"{setting_a!r} and {setting_b!r} must differ only in the tie-break")
    rules = {meta.loc[s, "tiebreak"]: s for s in (setting_a, setting_b)}
    shared_label, chain_label = rules["shared"], rules["chain"]
    pair = next((p for p in run.pairs if {p.a, p.b} == {shared_label, chain_label}), None)
    if pair is not None and not pair.scores_equal:
        raise ValueError(f"{shared_label!r} and {chain_label!r} are not the same games "
                         f"(matched games' scores differ)")
    sums = run.setting(chain_label)
    players = int(meta.loc[shared_label, "players"])
    games = pair.n if pair is not None else sums.n
    outcomes = [data.seat_label(q, players) for q in range(players)] + [STILL_SHARED]
    rows = []
    for p in range(players):
        for q, name in enumerate(outcomes):
            rows.append({"setting_shared": shared_label, "setting_chain": chain_label,
                         "players": players, "tied_seat": p,
                         "tied_seat_label": data.seat_label(p, players),
                         "outcome": q if q < players else -1, "outcome_label": name,
                         "count": int(sums.transitions[p, q]), "tied_games": int(sums.tied),
                         "games": int(games)})
    return pd.DataFrame(rows)


@style.chart
def tiebreak_transitions(run, setting_a: str, setting_b: str | None = None, *,
                         title: str | None = None):
    """Heatmap of ``transition_counts``: rows the seats among the shared winners of a tied
    game, columns the seat the chain picks on the same game (or still shared), each cell
    annotated with its count. Returns ``(figure, table)``."""
    run = data.analysis_of(run)
    table = transition_counts(run, setting_a, setting_b)
    meta = data.settings_table(run)
    players = int(table["players"].iloc[0])
    rows_l = list(dict.fromkeys(table["tied_seat_label"]))
    cols_l = list(dict.fromkeys(table["outcome_label"]))
    grid = table.pivot(index="tied_seat_label", columns="outcome_label",
                       values="count").loc[rows_l, cols_l].to_numpy()
    per_seat = grid.sum(axis=1)
    size = 0.95 if players <= 4 else 0.88
    c = style.Chart(max(7.0, size * (players + 1) + 3.6), max(3.6, 0.62 * players + 1.9))
    ax = c.body.subplots()
    im = ax.imshow(grid, cmap=style.SEQUENTIAL, aspect="auto", vmin=0,
                   vmax=max(1, grid.max()))
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            colour = style.text_colour(im.cmap(im.norm(grid[i, j])))
            ax.text(j, i, f"{grid[i, j]:,}", ha="center", va="center",
                    fontsize=style.ANNOTATION_SIZE + 0.5, color=colour)
    ax.set_xticks(range(len(cols_l)), [data.seat_tick(x) for x in cols_l])
    ax.set_yticks(range(len(rows_l)), [f"{lab}: in {k:,} ties" for lab, k in
                                       zip(rows_l, per_seat)])
    ax.grid(False)
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    who = "player" if players == 2 else "seat"
    ax.set_xlabel("winner under the X1.6 chain on the same game")
    ax.set_ylabel(f"{who} among the tied top scorers\n(shared win, B7.3)")
    cb = c.body.colorbar(im, ax=ax, shrink=0.9, pad=0.02)
    cb.set_label(f"count of (game, tied {who})")
    tied, games = int(table["tied_games"].iloc[0]), int(table["games"].iloc[0])
    shared_label = table["setting_shared"].iloc[0]
    common = data.common_description(meta, [shared_label, table["setting_chain"].iloc[0]],
                                     drop=("tiebreak",))
    fig = c.finish(title or f"Where the tied games' wins go under the tie-break chain "
                   f"({common})",
                   f"Of n = {games:,} games, the {tied:,} whose top score is shared, matched "
                   f"game by game between the shared-win setting and the chain setting (the "
                   f"same games). Rows: each {who} among a game's tied top scorers (a game tied "
                   f"between k {who}s counts in k rows); columns: the {who} the chain makes sole "
                   f"winner, or still shared if the chain leaves a tie. Cells are counts, not "
                   f"rates, so they carry no interval.")
    return fig, table
