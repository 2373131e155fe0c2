"""What the charts need to know about the settings of a run table, and how they name them.

``settings_table(df)`` reads, per setting, the factors stored in the run table's columns
(players, allocation, boats, challenges, tie-break, expansions, strategies, rule flags) into one
small table indexed by the setting label, in grid order. The charts accept that table or the
run table itself wherever they need metadata. ``describe_setting`` gives a setting's full human
title; ``setting_names`` names each of several settings by the factors that differ between them
(so a chart of challenges says "base", "Challenge 1 Densely Populated", "Giant Squid"...).
``seat_label`` names seats for people: "seat 1 (first)", "seat 2", ..., "seat N (last)".

No statistics here: every chart takes a run's ``experiments.verdicts.analysis.Analysis`` (the sums
of each setting and its tidy statistics, read chunk by chunk) or, for a small table in memory, the
run table itself (summed here by ``experiments.verdicts.analysis.of_frame``), and draws the numbers.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from experiments.verdicts.analysis import Analysis, of_frame
from experiments.tables.games import LOSS_CAUSES, parse_challenges
from experiments.tables.settings_table import settings_table as _settings_table
from experiments.tables.sums import END_REASONS, SettingSums

__all__ = ["END_REASONS", "END_REASON_NAMES", "LOSS_CAUSES", "analysis_of", "settings_table",
           "sums_for"]

END_REASON_NAMES = {"volcano": "volcano erupted", "island_gone": "island gone (Challenge 4)",
                    "no_explorers": "no explorer left (Challenge 2)",
                    "turn_cap": "turn cap reached (R10)", "none": "none"}
# the factors that tell settings apart, in the order names are built from
NAME_FACTORS = ("players", "boats", "variant", "tiebreak", "strategies", "flags")


# ---------------------------------------------------------------------------- seats
def seat_label(seat: int, players: int) -> str:
    """A seat (0-based) for people: ``seat 1 (first)``, ``seat 2``, ..., ``seat N (last)``.
    With 2 players the statistics' "seat" is the player, who holds seats p and p + 2 (B4.5):
    ``player 1 (seats 1 & 3)``."""
    seat, players = int(seat), int(players)
    if players == 2:
        return f"player {seat + 1} (seats {seat + 1} & {seat + 3})"
    if seat == 0:
        return "seat 1 (first)"
    if seat == players - 1:
        return f"seat {players} (last)"
    return f"seat {seat + 1}"


def seat_labels(players: int) -> list[str]:
    return [seat_label(s, players) for s in range(int(players))]


def seat_tick(label: str) -> str:
    """A seat label as a two-line tick (``seat 1`` over ``(first)``), so six of them fit."""
    return label.replace(" (", "\n(", 1)


# ---------------------------------------------------------------------------- settings
def analysis_of(run) -> Analysis:
    """A run's ``Analysis``, or the sums of an in-memory run table."""
    return run if isinstance(run, Analysis) else of_frame(run)


def settings_table(run) -> pd.DataFrame:
    """One row per setting (``experiments.tables.settings_table``): of an ``Analysis``, of a run
    table, or a settings table itself."""
    if isinstance(run, Analysis):
        return run.meta
    return _settings_table(run)


def sums_for(run, label: str) -> SettingSums:
    """One setting's sums (``experiments.tables.sums.SettingSums``)."""
    return analysis_of(run).setting(label)


def _factor_text(row, factor: str) -> str:
    if factor == "players":
        return f"{row['players']} players"
    if factor == "boats":
        return f"{row['allocation']} boats ({row['boats_text']})"
    if factor == "variant":
        return row["variant"] if row["variant"] != "base" else "base game"
    if factor == "tiebreak":
        return f"{row['tiebreak']} tie-break"
    if factor == "strategies":
        return row["strategies_text"]
    return row["flags"]


def _factor_key(row, factor: str) -> str:
    """What tells two settings apart in ``factor``: as ``_factor_text``, except that a named
    boat allocation is one level whatever its boats (``rules`` is 2 each under Challenge 6),
    as in ``experiments.tables.stats.pair_factor``."""
    if factor == "boats" and row["allocation"] != "custom":
        return row["allocation"]
    return _factor_text(row, factor)


def describe_setting(meta, label: str) -> str:
    """A setting's full human title, e.g. ``5 players, rules boats (1,1,2,2,2), base game,
    chain tie-break, greedy``. ``meta``: a run table or ``settings_table``."""
    row = settings_table(meta).loc[label]
    parts = [_factor_text(row, f) for f in NAME_FACTORS]
    return ", ".join(p for p in parts if p)


def setting_titles(meta) -> dict[str, str]:
    """``{label: describe_setting(label)}`` for every setting."""
    meta = settings_table(meta)
    return {label: describe_setting(meta, label) for label in meta.index}


def varying_factors(meta, labels: Iterable[str]) -> list[str]:
    """The naming factors (``NAME_FACTORS``) whose text differs between ``labels``."""
    meta = settings_table(meta)
    rows = [meta.loc[lab] for lab in labels]
    return [f for f in NAME_FACTORS if len({_factor_key(r, f) for r in rows}) > 1]


def setting_names(meta, labels: Iterable[str] | None = None, *,
                  drop: Iterable[str] = ()) -> dict[str, str]:
    """Short names of ``labels`` (default: every setting) from the factors that differ between
    them; ``drop``: factors not to name (already shown another way, e.g. the panel's player
    count). The base game is ``base`` in a name of the game variant alone. A single setting, or
    settings that differ only in dropped factors, get their full title."""
    meta = settings_table(meta)
    labels = list(meta.index if labels is None else labels)
    factors = [f for f in varying_factors(meta, labels) if f not in set(drop)]
    if not factors:
        return {lab: describe_setting(meta, lab) for lab in labels}
    out = {}
    for lab in labels:
        row = meta.loc[lab]
        parts = [_factor_text(row, f) for f in factors]
        if factors == ["variant"]:
            parts = [row["variant"]]
        out[lab] = ", ".join(p for p in parts if p) or "base"
    return out


def common_description(meta, labels: Iterable[str], *, drop: Iterable[str] = ()) -> str:
    """What ``labels`` have in common, as text (the factors that do not vary, less ``drop``)."""
    meta = settings_table(meta)
    labels = list(labels)
    varying = set(varying_factors(meta, labels)) | set(drop)
    row = meta.loc[labels[0]]
    parts = [_factor_text(row, f) for f in NAME_FACTORS if f not in varying]
    if "boats" not in varying and len({meta.at[lab, "boats_text"] for lab in labels}) > 1:
        parts[parts.index(_factor_text(row, "boats"))] = f"{row['allocation']} boats"
    return ", ".join(p for p in parts if p)


def _normalise_challenges(value) -> str:
    if isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(str(c) for c in sorted(int(c) for c in value)) or "none"
    text = str(value).strip()
    if text in ("base", "", "[]", "none"):
        return "none"
    return ",".join(str(c) for c in sorted(parse_challenges(text)))


def select(meta, settings: Iterable[str] | None = None, **filters) -> list[str]:
    """The labels of the settings to draw, in grid order: ``settings`` if given (checked),
    else every setting; then kept where every filter matches. A filter is a column of
    ``settings_table`` (``players``, ``allocation``, ``challenges``, ``tiebreak``,
    ``dolphins``, ``squid``, ``squid_only``, ``strategies_text``, ``variant``...) and a value or
    a list of alternatives. ``challenges`` takes one set as ``"none"``/``"base"``, ``"1,3"``,
    ``3`` or ``[1, 3]``, and alternatives as a list of those (``["none", "3"]``)."""
    meta = settings_table(meta)
    if settings is None:
        labels = list(meta.index)
    else:
        labels = [str(s) for s in ([settings] if isinstance(settings, str) else settings)]
        unknown = [s for s in labels if s not in meta.index]
        if unknown:
            raise ValueError(f"unknown settings {unknown}; the table has {list(meta.index)}")
    for key, want in filters.items():
        if want is None:
            continue
        if key == "strategy":
            key = "strategies_text"
        if key not in meta.columns:
            raise ValueError(f"unknown filter {key!r}; accepted: {', '.join(meta.columns)}")
        if key == "challenges":
            # one set: "1,3", 3 or [1, 3]; alternatives: a list of those ("none", [1, 3], ...)
            alternatives = want if isinstance(want, list) and want and not all(
                isinstance(v, (int, np.integer)) for v in want) else [want]
            values = {_normalise_challenges(v) for v in alternatives}
        else:
            values = set(want) if isinstance(want, (list, tuple, set, frozenset)) else {want}
        labels = [lab for lab in labels if meta.at[lab, key] in values]
    if not labels:
        raise ValueError(f"no setting matches {filters}; the table has {list(meta.index)}")
    return labels


# ---------------------------------------------------------------------------- tidy rows
def tidy_for(run, tidy: pd.DataFrame | None) -> pd.DataFrame:
    """``tidy`` or, when None, the run's tidy statistics."""
    return analysis_of(run).tidy() if tidy is None else tidy


def metric_rows(tidy: pd.DataFrame, labels: Iterable[str], metric: str) -> pd.DataFrame:
    """The tidy rows of ``metric`` for ``labels`` (all of them present, else ValueError)."""
    labels = list(labels)
    rows = tidy[(tidy["metric"] == metric) & tidy["setting"].isin(labels)].copy()
    missing = sorted(set(labels) - set(rows["setting"]))
    if missing:
        raise ValueError(f"the statistics have no {metric!r} rows for {missing}")
    return rows


def n_text(ns) -> str:
    """``n = 3,000 games`` or ``n = 2,000-3,000 games`` (per plotted value)."""
    ns = [int(v) for v in ns if pd.notna(v)]
    if not ns:
        return "n = 0 games"
    lo, hi = min(ns), max(ns)
    return f"n = {lo:,} games" if lo == hi else f"n = {lo:,}\u2013{hi:,} games"


INTERVAL_TEXT = {
    "wilson": "95% Wilson score interval",
    "t": "95% t interval of the mean",
    "wilson-scaled": "95% Wilson interval of the mean scaled to its range",
    "paired-t": "95% paired-t interval of the per-game differences",
    "newcomb": "95% Newcombe interval (differences that do not vary)",
}


def interval_text(methods) -> str:
    """The intervals behind ``methods`` (the tidy table's ``method`` values), in words."""
    seen = [m for m in dict.fromkeys(str(m) for m in methods) if m in INTERVAL_TEXT]
    if not seen:
        return "95% interval"
    return "; ".join(INTERVAL_TEXT[m] for m in seen)


def interval_text_by(table: pd.DataFrame, name_col: str = "name") -> str:
    """As ``interval_text``, saying which rows (by ``name_col``) took a less common method,
    e.g. ``95% t interval of the mean (Challenge 4 Atlantis is Gone: 95% Wilson interval of
    the mean scaled to its range, where the t interval does not apply...)``; rows of a count
    that never happened (value 0) are summed up as such instead of named."""
    methods = table["method"].astype(str)
    if methods.nunique() <= 1 or name_col not in table.columns:
        return interval_text(methods)
    main = methods.value_counts().index[0]
    others = []
    for m in dict.fromkeys(methods):
        if m == main:
            continue
        rows = table[methods == m]
        never = rows["value"] == 0
        names = list(dict.fromkeys(rows.loc[~never, name_col].astype(str)))
        text = INTERVAL_TEXT.get(m, m)
        if names:
            why = (", as its games do not vary or the t interval leaves the range"
                   if m == "wilson-scaled" else "")
            others.append(f"{'; '.join(names)}: {text}{why}")
        if never.any():
            others.append(f"where it never happened: {text}")
    return f"{INTERVAL_TEXT.get(main, main)} ({'; '.join(others)})"
