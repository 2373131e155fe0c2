"""Saved per-game tables: read one, and its summary, one per setting (``survive-sim
summary``). Part of the Python API (``survive_sim.api``, docs/python.md). pandas and the
statistics of ``experiments`` only: the engine is not loaded.
"""
from __future__ import annotations

import os

import pandas as pd

from experiments.tables.summary import check_values, summary_table
from experiments.tables.results import check_duplicates, check_table, setting_groups, table_header

from . import checks

FORMATS = {".parquet": "parquet", ".csv": "csv"}
TIEBREAKS = ("shared", "chain")


class TableError(ValueError):
    """Not a complete, valid per-game table: one line naming the file (or "the table"), and
    where it can tell, the column, the first bad row and the accepted values."""


def _one_line(text) -> str:
    return " ".join(str(text).split())


def read_table(path: str | os.PathLike) -> pd.DataFrame:
    """A saved per-game table (``.parquet`` or ``.csv``, by its name), as written by
    ``simulate --out`` or a sweep's chunks; ``TableError`` when it cannot be read as one."""
    path = checks.path(path, "path", error=TableError)
    ext = os.path.splitext(path)[1].lower()
    if os.path.isdir(path):
        raise TableError(f"{path} is a directory; give a file name ending in "
                         f"{' or '.join(FORMATS)}")
    if ext not in FORMATS:
        raise TableError(f"unknown table extension {ext or '(none)'!r} in {path}; accepted: "
                         f"{', '.join(FORMATS)}")
    try:
        return pd.read_parquet(path) if FORMATS[ext] == "parquet" else pd.read_csv(path)
    except Exception as e:                      # whatever the parser met: not a table
        raise TableError(f"{path} is not a readable results table ({type(e).__name__}: "
                         f"{_one_line(e)})") from None


def summary(table: pd.DataFrame | str | os.PathLike, tiebreak: str | None = None
            ) -> list[pd.DataFrame]:
    """The summary of a per-game table (a DataFrame, or the path of a saved one:
    ``read_table``), as ``survive-sim summary`` prints it: one DataFrame per setting (a table
    may join several runs; its rows are grouped by the ``setting`` column of a sweep, else by
    the settings columns, so settings are never blended), in the table's order.

    Each has one row per seat (per player with 2 players): ``seats``/``label``, ``strategy``,
    ``games``, ``wins`` and ``shared_wins`` under ``tiebreak`` (``"shared"``, ``"chain"``;
    default each setting's own rule), ``win_rate`` with its Wilson 95% interval
    (``win_lo``, ``win_hi``), ``mean_score`` (``score_lo``, ``score_hi``), ``rescued``,
    ``explorers`` and ``rescue_rate`` (``rescue_lo``, ``rescue_hi``). ``.attrs["header"]`` is
    the settings line printed above it, ``.attrs["run"]`` the setting's run-level figures
    (top-score ties, the tie-break's decisions, scoreless games).

    A table that is not complete (truncated, header only), holds a game twice, or a value the
    rules do not allow raises ``TableError``: one line naming the column, the first bad row
    and the accepted values."""
    if tiebreak not in (None, *TIEBREAKS):
        raise checks.ArgumentError(f"tiebreak must be one of {', '.join(TIEBREAKS)} or None, "
                                   f"got {tiebreak!r}", "tiebreak")
    if isinstance(table, pd.DataFrame):
        df, name = table, "the table"
    elif isinstance(table, (str, os.PathLike)):
        name = os.fspath(table)
        df = read_table(name)
    else:
        raise TableError(f"table must be a per-game table (a DataFrame) or the path of a saved "
                         f"one (.parquet or .csv), got {table!r}")
    try:
        check_table(df)
        check_values(df)
        groups = setting_groups(df)
        check_duplicates(df, groups)
    except ValueError as e:
        raise TableError(f"{name}: {_one_line(e)}") from None
    except Exception as e:                      # a column of an unexpected type
        raise TableError(_not_a_table(name, e)) from None
    out = []
    try:
        for idx in groups:
            part = df if len(groups) == 1 else df.iloc[idx]
            t = summary_table(part, tiebreak)
            t.attrs["header"] = table_header(part)
            out.append(t)
    except Exception as e:                      # a table the checks let through: still one line
        raise TableError(_not_a_table(name, e)) from None
    return out


def _not_a_table(name: str, e: Exception) -> str:
    return f"{name} is not a survive-sim results table ({type(e).__name__}: {_one_line(e)})"
