"""What the charts need to know about the settings of a run table, and how they name them.

``settings_table(df)`` reads, per setting, the factors stored in the run table's columns
(players, allocation, boats, challenges, tie-break, expansions, strategies, rule flags) into one
small table indexed by the setting label, in grid order. The charts accept that table or the
run table itself wherever they need metadata. ``describe_setting`` gives a setting's full human
title; ``setting_names`` names each of several settings by the factors that differ between them
(so a chart of challenges says "base", "Challenge 1 Densely Populated", "Giant Squid"...).
``seat_label`` names seats for people: "seat 1 (first)", "seat 2", ..., "seat N (last)".

No statistics here: the numbers come from ``experiments.stats`` (``balance_stats``,
``wilson_ci``, ``bounded_mean_ci``) and ``reports.summary``.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from experiments.stats import balance_stats, parse_challenges
from reports.summary import n_players

CHALLENGE_NAMES = {1: "Densely Populated", 2: "Leave No One Behind", 3: "Everyone is Equal",
                   4: "Atlantis is Gone", 5: "Dolphins & Dive Dice", 6: "Overpopulated"}
LOSS_CAUSES = ("serpent", "shark", "whale", "whirlpool", "squid", "stranded")
END_REASONS = ("volcano", "island_gone", "no_explorers", "turn_cap", "none")
END_REASON_NAMES = {"volcano": "volcano erupted", "island_gone": "island gone (Challenge 4)",
                    "no_explorers": "no explorer left (Challenge 2)",
                    "turn_cap": "turn cap reached (R10)", "none": "none"}
MARK = "charts_settings"               # attrs flag of a settings table
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
def _scalar(v):
    if v is pd.NA or (isinstance(v, float) and np.isnan(v)):
        return None
    return v.item() if hasattr(v, "item") else v


def variant_name(challenges, dolphins: bool = False, squid: bool = False,
                 squid_only: bool = False) -> str:
    """The game played: ``base``, or the challenges and expansions joined by `` + ``
    (``Challenge 1 Densely Populated``, ``Dolphins & Dive Dice``, ``Giant Squid``,
    ``squid only``)."""
    chosen = set(parse_challenges(challenges) if not isinstance(challenges, (set, frozenset))
                 else challenges)
    if dolphins:
        chosen.add(5)
    parts = [CHALLENGE_NAMES[5] if c == 5 else f"Challenge {c} {CHALLENGE_NAMES[c]}"
             for c in sorted(chosen)]
    if squid_only:
        parts.append("squid only")
    elif squid:
        parts.append("Giant Squid")
    return " + ".join(parts) if parts else "base"


def _strategies_text(strategies: tuple) -> str:
    return strategies[0] if len(set(strategies)) == 1 else ",".join(strategies)


def _flags_text(row) -> str:
    flags = []
    if not row.get("lagoon_is_sea", True):         # the default (R1) is sea
        flags.append("lagoon is land (R1)")
    if row.get("creatures_must_move"):
        flags.append("creatures must move (R2)")
    if row.get("max_turns") not in (None, 400):
        flags.append(f"turn cap {row['max_turns']}")
    return ", ".join(flags)


def settings_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per setting (index: the label, in the order of the run table), with columns
    ``players, seats, games, allocation, boats (tuple), boats_text, challenges (str),
    challenge_set (frozenset), tiebreak, dolphins, squid, squid_only, strategies (tuple),
    strategies_text, lagoon_is_sea, creatures_must_move, max_turns, variant`` (the game's name,
    ``variant_name``). A table without a ``setting`` column is one setting ``run``. Given a
    settings table, returns it unchanged."""
    if df.attrs.get(MARK):
        return df
    if not len(df):
        raise ValueError("the table has no games")
    labels = df["setting"].astype(str) if "setting" in df.columns else \
        pd.Series("run", index=df.index)
    rows = []
    for label, g in df.groupby(labels.to_numpy(), sort=False):
        first = g.iloc[0]
        players = n_players(g)
        seats = int(first["seats"]) if "seats" in g else (4 if players == 2 else players)

        def get(col, default=None, first=first):
            return _scalar(first[col]) if col in first.index else default

        boats = tuple(int(first[f"boats_{s}"]) for s in range(seats)
                      if f"boats_{s}" in g.columns)
        strategies = tuple(str(first[f"strategy_{s}"]) for s in range(seats)
                           if f"strategy_{s}" in g.columns)
        challenges = str(get("challenges", "none"))
        row = {"setting": str(label), "players": players, "seats": seats, "games": len(g),
               "allocation": str(get("allocation", "custom")), "boats": boats,
               "boats_text": ",".join(map(str, boats)), "challenges": challenges,
               "challenge_set": parse_challenges(challenges),
               "tiebreak": str(get("tiebreak", "chain" if players >= 5 else "shared")),
               "dolphins": bool(get("dolphins", False)), "squid": bool(get("squid", False)),
               "squid_only": bool(get("squid_only", False)), "strategies": strategies,
               "strategies_text": _strategies_text(strategies) if strategies else "",
               "lagoon_is_sea": bool(get("lagoon_is_sea", True)),
               "creatures_must_move": bool(get("creatures_must_move", False)),
               "max_turns": int(get("max_turns", 400))}
        row["variant"] = variant_name(row["challenge_set"], row["dolphins"], row["squid"],
                                      row["squid_only"])
        row["flags"] = _flags_text(row)
        rows.append(row)
    out = pd.DataFrame(rows).set_index("setting")
    out.attrs[MARK] = True
    return out


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
    as in ``experiments.stats.pair_factor``."""
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
def tidy_for(df: pd.DataFrame, tidy: pd.DataFrame | None) -> pd.DataFrame:
    """``tidy`` or, when None, ``experiments.stats.balance_stats(df)``."""
    return balance_stats(df) if tidy is None else tidy


def metric_rows(tidy: pd.DataFrame, labels: Iterable[str], metric: str) -> pd.DataFrame:
    """The tidy rows of ``metric`` for ``labels`` (all of them present, else ValueError)."""
    labels = list(labels)
    rows = tidy[(tidy["metric"] == metric) & tidy["setting"].isin(labels)].copy()
    missing = sorted(set(labels) - set(rows["setting"]))
    if missing:
        raise ValueError(f"the statistics have no {metric!r} rows for {missing}")
    return rows


def rows_for(df: pd.DataFrame, label: str) -> pd.DataFrame:
    """The run table's games of one setting."""
    if "setting" not in df.columns:
        return df
    return df[df["setting"].astype(str) == label]


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
