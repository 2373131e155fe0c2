"""Mixed tables judged fairly: every seat of a mixed table in every strategy's hands, pooled.

A table of different strategies confounds the seat with who sits in it: if ``racer`` sits in
seat 0, seat 0's win share is mostly ``racer``'s strength. So a study plays a mixed seating in
every *rotation* -- rotation ``r`` moves every strategy ``r`` seats on, seat ``s`` taking the
strategy of seat ``(s + r) mod N`` -- on the same game indices (common random numbers), and the
claims judge the rotations *pooled*: every table has the same strategies, and over the
rotations each seat holds each of them equally often, so what remains of a seat effect is the
seat's (the design of TAG's tournament runner). An experiment file asks for it with an inline
table in the strategies list: ``{rotate = ["greedy", "careful", "racer"]}`` repeats the line-up
round the table (5 players: greedy, careful, racer, greedy, careful) and plays every distinct
rotation of that seating.

The pooled setting is rebuilt from the table alone (``pool_table``: the strategy columns), so
a report needs nothing but the run: settings whose seatings are rotations of each other, that
agree in every other factor and hold every distinct rotation, pool into one setting whose
strategy columns name the mixed style, with game ``g`` of rotation ``r`` renumbered
``r * ROTATION_STRIDE + g`` so that two pooled settings still pair game by game.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

ROTATION_STRIDE = 1 << 44              # game indices of one rotation stay below this


def base_seating(lineup: tuple[str, ...], seats: int) -> tuple[str, ...]:
    """The line-up repeated round a table of ``seats`` seats."""
    return tuple(lineup[s % len(lineup)] for s in range(seats))


def rotate(seating: tuple[str, ...], r: int) -> tuple[str, ...]:
    """Rotation ``r``: seat ``s`` takes the strategy of seat ``(s + r) mod N``."""
    n = len(seating)
    return tuple(seating[(s + r) % n] for s in range(n))


def rotations(seating: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The distinct rotations of a seating, rotation 0 (the seating itself) first."""
    out = []
    for r in range(len(seating)):
        t = rotate(seating, r)
        if t in out:
            break                           # the rotations repeat with the seating's period
        out.append(t)
    return out


def rotation_problem(lineup, players: int, seats: int) -> str | None:
    """Why ``lineup`` cannot be rotated round ``seats`` seats, or None. With 2 players (seats
    A,B,A,B) the line-up is the two players'."""
    if not (isinstance(lineup, (list, tuple)) and all(isinstance(x, str) and x for x in lineup)):
        return "a rotation is a list of strategy names"
    if players == 2 and len(lineup) != 2:
        return f"with 2 players a rotation names the two players' strategies, got {len(lineup)}"
    if not 2 <= len(lineup) <= seats:
        return f"a rotation needs 2 to {seats} strategies (one per seat at most), got {len(lineup)}"
    if len(set(base_seating(tuple(lineup), seats))) < 2:
        return "a rotation needs at least two different strategies"
    return None


def rotation_of(names: tuple[str, ...]) -> tuple[tuple[str, ...], int] | None:
    """``(canonical seating, r)`` when ``names`` mixes strategies: the seating is rotation
    ``r`` of the canonical one (the smallest of its rotations), else None (self-play)."""
    names = tuple(names)
    if len(set(names)) < 2:
        return None
    canonical = min(rotations(names))
    r = next(r for r in range(len(names)) if rotate(canonical, r) == names)
    return canonical, r


def rotated_label(seating: tuple[str, ...]) -> str:
    """How verdicts name a pooled mixed table (the ``play`` column): its strategies, sorted, so
    that one line-up is one style at every table size (how many seats each holds at a given
    size is in the setting's label)."""
    return "mixed, every seat in turn: " + ", ".join(sorted(set(seating)))


def pooled_label(first: str, k: int) -> str:
    """The setting a complete set of ``k`` rotations pools into, named by rotation 0's label."""
    return f"{first} (all {k} rotations)"


SEATING_FIELDS = ("seed", "players", "seats", "allocation", "challenges", "tiebreak", "dolphins",
                  "squid", "squid_only", "lagoon_is_sea", "creatures_must_move", "max_turns")


def _strategy_columns(df: pd.DataFrame, seats: int) -> list[str]:
    return [f"strategy_{s}" for s in range(seats) if f"strategy_{s}" in df.columns]


def _describe(df: pd.DataFrame, rows: np.ndarray):
    """``(seating, everything else that makes the setting)`` of one setting's rows."""
    first = df.iloc[int(rows[0])]
    seats = int(first["seats"]) if "seats" in df.columns else int(first["players"])
    seating = tuple(str(first[c]) for c in _strategy_columns(df, seats))
    other = tuple(str(first[c]) for c in SEATING_FIELDS if c in df.columns) + tuple(
        str(first[f"boats_{s}"]) for s in range(seats) if f"boats_{s}" in df.columns)
    return seating, other


def pool_table(df: pd.DataFrame, inplace: bool = False) -> pd.DataFrame:
    """A run table with every complete set of rotations of one mixed seating pooled into one
    setting: the sets agree in every other factor, the seed and the game indices. The pooled
    rows keep their games, renumbered ``r * ROTATION_STRIDE + g`` for rotation ``r``; their
    ``setting`` is ``<rotation 0's label> (all k rotations)`` and every seat's ``strategy``
    column reads ``rotated_label`` (one style, so statistics, charts and verdicts treat it as
    one). Incomplete sets stay as they were (a fixed mixed seating). Without anything to pool
    the table is returned as it is; ``inplace`` rewrites ``df`` itself (a report's only copy)."""
    if "setting" not in df.columns or "strategy_0" not in df.columns or not len(df):
        return df
    groups: dict[tuple, dict[int, str]] = {}
    rows_of = {}
    for label, rows in df.groupby(df["setting"].astype(str).to_numpy(), sort=False).indices.items():
        seating, other = _describe(df, rows)
        rot = rotation_of(seating)
        if rot is None:
            continue
        canonical, r = rot
        groups.setdefault((canonical, other), {})[r] = label
        rows_of[label] = rows
    plan = []
    for (seating, _), by_r in groups.items():
        k = len(rotations(seating))
        if sorted(by_r) != list(range(k)):
            continue
        games = [np.sort(df["game"].to_numpy()[rows_of[by_r[r]]]) for r in range(k)]
        if any(not np.array_equal(g, games[0]) for g in games[1:]):
            continue                        # not on common game indices: nothing to pool
        if len(games[0]) and int(games[0][-1]) >= ROTATION_STRIDE:
            raise ValueError(f"game indices of {by_r[0]} reach 2**44; its rotations cannot be "
                             f"pooled")
        plan.append((seating, by_r))
    if not plan:
        return df
    out = df if inplace else df.copy()
    for seating, by_r in plan:
        pooled, style = pooled_label(by_r[0], len(by_r)), rotated_label(seating)
        for r, label in by_r.items():
            at = out.index[rows_of[label]]
            out.loc[at, "game"] = out.loc[at, "game"].to_numpy() + r * ROTATION_STRIDE
            _assign(out, "setting", at, pooled)
            for c in _strategy_columns(out, len(seating)):
                _assign(out, c, at, style)
    if isinstance(out["setting"].dtype, pd.CategoricalDtype):
        out["setting"] = out["setting"].cat.remove_unused_categories()
    return out


def _assign(df: pd.DataFrame, col: str, at, value: str) -> None:
    """``df.loc[at, col] = value``, adding the category first for a categorical column."""
    if isinstance(df[col].dtype, pd.CategoricalDtype) and value not in df[col].cat.categories:
        df[col] = df[col].cat.add_categories([value])
    df.loc[at, col] = value
