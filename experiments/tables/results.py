"""Saved results tables as the ``summary`` command meets them: checked, cut into settings, and
headed by the settings line that ``simulate`` prints.

A table read back from a file may be truncated, hand-edited or a concatenation of runs of
different settings; ``check_table`` names the first problem in one line (``ValueError``), and
``setting_groups`` keeps settings apart so that their games are never blended into one summary.
Pure pandas/numpy, like ``experiments.tables.summary``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from play.settings import Settings
from simulator.scoring import STEPS, TIEBREAKS
from strategies.registry import StrategyError, canonical, listed_names

MAX_SEATS = 6
SEAT_KEYS = ("score", "rescued", "rescued_value", "lost", "turns")     # what summaries read
# the per-game columns that are never NA (the per-seat ones are NA for absent seats only)
GAME_COLUMNS = ("game", "seed", "players", "seats", "end_reason", "end_seat", "turns",
                "tiles_removed", "bonus_moves", "dolphins_placed", "squid_placed", "tiebreak",
                "decided_by", "challenges", "dolphins", "squid", "squid_only", "lagoon_is_sea",
                "creatures_must_move", "max_turns")
# what tells one setting from another when the table has no `setting` column
SETTING_COLUMNS = (("players",) + tuple(f"boats_{s}" for s in range(MAX_SEATS))
                   + tuple(f"strategy_{s}" for s in range(MAX_SEATS))
                   + ("challenges", "dolphins", "squid", "squid_only", "lagoon_is_sea",
                      "creatures_must_move", "max_turns", "tiebreak", "seed")
                   + tuple(f"komi_{s}" for s in range(MAX_SEATS))              # C1
                   + ("setup_order_explorers", "setup_order_boats"))            # C2
NAMES = {"tiebreak": TIEBREAKS, "decided_by": STEPS}
DEFAULT_MAX_TURNS = Settings.max_turns                                   # R10


def row_name(df: pd.DataFrame, i: int) -> str:
    """How a one-line error names row ``i``: ``row 3 (game 2)``."""
    game = df["game"].iloc[i] if "game" in df.columns else None
    return f"row {i + 1}" + (f" (game {game})" if game is not None and pd.notna(game) else "")


def check_table(df: pd.DataFrame) -> None:
    """Raise ``ValueError`` (one line) unless ``df`` is a complete table in the simulator's
    layout: games, a player count of 2-6 with its seats, and a value in every column a game
    has (a truncated CSV leaves its last row short)."""
    if not len(df):
        raise ValueError("the table has no games (only the header)")
    need = ["players", "end_reason", "turns"] + [f"{k}_0" for k in SEAT_KEYS]
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise ValueError(f"missing column {missing[0]!r} (of a survive-sim results table)")
    for col in [c for c in GAME_COLUMNS if c in df.columns]:
        na = df[col].isna().to_numpy()
        if na.any():
            i = int(np.flatnonzero(na)[0])
            raise ValueError(f"{row_name(df, i)} has no {col}: the file is truncated or damaged")
    players = pd.to_numeric(df["players"], errors="coerce")
    bad = ~players.isin([2, 3, 4, 5, 6]).to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{row_name(df, i)} has players {df['players'].iloc[i]}; a game has "
                         f"2-6 players")
    seats = np.where(players.to_numpy() == 2, 4, players.to_numpy()).astype(np.int64)
    if "seats" in df.columns:
        wrong = pd.to_numeric(df["seats"], errors="coerce").to_numpy() != seats
        if wrong.any():
            i = int(np.flatnonzero(wrong)[0])
            raise ValueError(f"{row_name(df, i)} has {df['seats'].iloc[i]} seats for "
                             f"{int(players.iloc[i])} players (2 players sit as 4 seats, "
                             f"otherwise one seat each)")
    for s in range(MAX_SEATS):
        present = seats > s
        for key in SEAT_KEYS + ("player", "strategy"):
            col = f"{key}_{s}"
            if col not in df.columns:
                if key in SEAT_KEYS and present.any():
                    raise ValueError(f"missing column {col!r} for seat {s}")
                continue
            na = df[col].isna().to_numpy() & present
            if na.any():
                i = int(np.flatnonzero(na)[0])
                raise ValueError(f"{row_name(df, i)} has no {col}: the file is truncated or "
                                 f"damaged")
        col = f"strategy_{s}"
        if col in df.columns:
            _known_strategies(df, col)
    for col, names in NAMES.items():
        if col in df.columns:
            _known(df, col, names)


def _known_strategies(df: pd.DataFrame, col: str) -> None:
    """Every value must be a strategy the registry knows (parameters checked too)."""
    values = df[col].astype(object)
    for value in pd.unique(values[values.notna()]):
        try:
            canonical(str(value))
        except StrategyError:
            i = int(np.flatnonzero((values == value).to_numpy())[0])
            raise ValueError(f"{row_name(df, i)} has {col} {value!r}; accepted: "
                             f"{', '.join(listed_names())} (a plug-in's name needs "
                             f"--plugin)") from None


def _known(df: pd.DataFrame, col: str, names: tuple[str, ...]) -> None:
    values = df[col].astype(object)
    bad = (values.notna() & ~values.isin(names)).to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{row_name(df, i)} has {col} {values.iloc[i]!r}; accepted: "
                         f"{', '.join(names)}")


# ---------------------------------------------------------------------------- settings
def setting_groups(df: pd.DataFrame) -> list[np.ndarray]:
    """The row positions of each setting, in order of first appearance: by the ``setting``
    column when there is one (a sweep's label per grid point), else by the settings columns."""
    keys = ["setting"] if "setting" in df.columns else \
        [c for c in SETTING_COLUMNS if c in df.columns]
    if not keys or not len(df):
        return [np.arange(len(df))]
    codes = df.groupby(keys, sort=False, dropna=False, observed=True).ngroup().to_numpy()
    order = np.argsort(codes, kind="stable")
    return np.split(order, np.flatnonzero(np.diff(codes[order])) + 1)


def check_duplicates(df: pd.DataFrame, groups: list[np.ndarray]) -> None:
    """Refuse a table in which one setting holds the same game index twice (a run
    concatenated with itself, or an overlapping extension)."""
    if "game" not in df.columns:
        return
    total, first = 0, None
    for idx in groups:
        games = df["game"].iloc[idx]
        dup = games.duplicated().to_numpy()
        if dup.any():
            total += int(dup.sum())
            if first is None:
                part = df.iloc[idx]
                first = (f"game {games.iloc[int(np.flatnonzero(dup)[0])]} of "
                         f"{setting_label(part)}")
    if total:
        raise ValueError(f"the table holds {total} duplicate game(s) (the same game index "
                         f"twice in one setting), the first: {first}; keep each game once")


def run_header(players: int, seats: int, strategies, boats, challenges: str, squid: bool,
               squid_only: bool, seed, games: str, levers: str = "") -> str:
    """The settings line ``simulate`` prints above its summary (``levers``: ``levers_text``)."""
    expansions = ", squid only" if squid_only else (", squid" if squid else "")
    return (f"{players} players ({seats} seats), strategies {','.join(strategies)}, boats "
            f"{','.join(map(str, boats))}{levers}, challenges {challenges}{expansions}, "
            f"seed {seed}, games {games}")


def levers_text(komi, setup_order) -> str:
    """``, komi 0,0,0.5,1,1.5, setup order snake/forward`` (C1, C2), or nothing for the rules'."""
    out = ""
    if komi:
        out += ", komi " + ",".join(f"{k:g}" if isinstance(k, float) else str(k) for k in komi)
    if tuple(setup_order) != ("forward", "forward"):
        out += (f", setup order {setup_order[0]}" if setup_order[0] == setup_order[1] else
                f", setup order explorers {setup_order[0]}, boats {setup_order[1]}")
    return out


def _values(df: pd.DataFrame, col: str, default=None) -> str:
    if col not in df.columns:
        return "?" if default is None else default
    out = []
    for v in pd.unique(df[col].astype(object)):
        if pd.isna(v):
            continue
        v = int(v) if isinstance(v, (float, np.floating)) and float(v).is_integer() else v
        out.append(str(v))
    return "/".join(out) or "?"


def _flag(df: pd.DataFrame, col: str) -> bool:
    return col in df.columns and bool(df[col].astype(str).isin(["True", "true", "1"]).any())


def _games_text(df: pd.DataFrame) -> str:
    games = np.unique(df["game"].astype("int64").to_numpy())
    breaks = np.flatnonzero(np.diff(games) != 1)
    starts = np.r_[games[0], games[breaks + 1]]
    ends = np.r_[games[breaks], games[-1]]
    if len(starts) > 3:
        return f"{games[0]}..{games[-1]} ({len(games)} games in {len(starts)} ranges)"
    return ", ".join(f"{a}..{b}" for a, b in zip(starts, ends))


def table_header(df: pd.DataFrame) -> str:
    """``run_header`` for a table of one setting (``setting LABEL:`` first when the table
    names it), with the rule flags that are not the default (R1, R2/R21, R10)."""
    players = int(pd.unique(df["players"].astype("int64"))[0])
    seats = 4 if players == 2 else players
    strategies = [_values(df, f"strategy_{s}") for s in range(seats)]
    boats = [_values(df, f"boats_{s}") for s in range(seats)]
    komi = [_values(df, f"komi_{s}") for s in range(seats)] \
        if all(f"komi_{s}" in df.columns for s in range(seats)) else []
    order = [_values(df, f"setup_order_{phase}", "forward") for phase in ("explorers", "boats")]
    levers = levers_text(komi, order)
    line = run_header(players, seats, strategies, boats, _values(df, "challenges", "none"),
                      _flag(df, "squid"), _flag(df, "squid_only"), _values(df, "seed"),
                      _games_text(df) if "game" in df.columns else "?", levers)
    rules = []
    if "lagoon_is_sea" in df.columns and not _flag(df, "lagoon_is_sea"):
        rules.append("lagoon not sea")
    if _flag(df, "creatures_must_move"):
        rules.append("creatures must move")
    if "max_turns" in df.columns and _values(df, "max_turns") != str(DEFAULT_MAX_TURNS):
        rules.append(f"max turns {_values(df, 'max_turns')}")
    if rules:
        line += f"; rules: {', '.join(rules)}"
    if "setting" in df.columns:
        line = f"setting {_values(df, 'setting')}: {line}"
    return line


def setting_label(df: pd.DataFrame) -> str:
    """How an error names a setting: its label, or its header line."""
    if "setting" in df.columns:
        return f"setting {_values(df, 'setting')}"
    return f"the setting '{table_header(df)}'"
