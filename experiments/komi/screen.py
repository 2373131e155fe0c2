"""The komi screen: what any score bonus (RULES.md C1) would have done to games already played,
read from their stored scores and tie-break keys, with no game played again.

This is how GoGoD read a komi it had never played ("komi 6.5 -> 50.7%" from games at 5.5): a
bonus changes only who wins, never the moves -- for a *komi-blind* strategy, one that never
reads the score (``greedy``, ``careful``, ``random`` and every heuristic rung: RULES.md C1.3).
For those, a game played under bonus vector ``k`` is move for move the game played without one,
so each seat's win share under ``k`` follows exactly from the run's ``score``, ``rescued``,
``rescued_value`` and ``turns`` columns (``simulator.scoring.decide`` with ``komi=k``). For a
strategy that sees the score (the search rung) the screen is only a first guess, which games
played *with* the bonus must confirm.

``KomiSums`` keeps, per bonus vector of a grid and per player, the tie-split win count times
60 (a whole number) and the games: exact sums, so a run read chunk by chunk, in any order or
on any number of workers, gives the same numbers, and memory is the grid's size, not the run's.
"""
from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pandas as pd
import pyarrow.compute as pc
import pyarrow.parquet as pq

from simulator.scoring import decide
from strategies.registry import parse_spec

from ..store.runs import finished_chunks
from ..tables.games import SettingData, block_columns, block_of, probe_of
from ..tables.moments import ALPHA, wilson

# the screen's working set: at most PAIRS game x vector pairs decided at once (a few tens of
# MB, whatever the run or the grid); ROWS games read at once from a chunk file
PAIRS = 1 << 17
ROWS = 4_096
PROBE = ("players", "seats", "tiebreak", "challenges", "seed", "allocation", "max_turns") + tuple(
    f"{f}_{s}" for f in ("player", "boats", "strategy", "komi") for s in range(6))


def komi_blind(strategies) -> bool:
    """True when every seat plays a built-in that never reads the score or the bonus (every
    rung but the search, which races on score plus bonus: RULES.md C1.3), so the screen is
    exact. A plug-in may read ``pub[KOMI]``: not known to be blind."""
    try:
        return all(not s.plugin and not s.reenters
                   for s in (parse_spec(str(x))[0] for x in strategies))
    except ValueError:                  # a name the registry does not know (an unloaded plug-in)
        return False


# ------------------------------------------------------------------------------ the grid
def komi_grid(seats: int, top: float = 3.0, step: float = 0.5, monotone: bool = True,
              first: float = 0.0) -> np.ndarray:
    """Every bonus vector (rows, in points) with seat 0 at ``first`` and each other seat at
    ``0, step, ..., top``; ``monotone``: only vectors in which a later seat never gets less
    than an earlier one (the order a seat's disadvantage runs in). Adding one constant to
    every seat changes no winner, so fixing seat 0 loses nothing."""
    if step <= 0 or float(2 * step) != int(2 * step) or top < 0 or float(2 * top) != int(2 * top):
        raise ValueError(f"the komi grid's step and top must be whole or half points, step > 0, "
                         f"got step {step!r}, top {top!r}")
    values = np.arange(0.0, top + step / 2, step)
    rows = [(first,) + combo for combo in itertools.product(values, repeat=seats - 1)
            if not monotone or all(a <= b for a, b in zip((first,) + combo, combo))]
    return np.array(rows, dtype=np.float64).reshape(len(rows), seats)


def halves_per_player(grid: np.ndarray, owners: dict) -> np.ndarray:
    """(vectors, players): each player's bonus in half points (C1.1: with 2 players the sum
    over its two colours)."""
    halves = np.rint(2 * np.asarray(grid, np.float64)).astype(np.int64)
    return np.column_stack([halves[:, seats].sum(axis=1) for seats in owners.values()])


def vector_label(row) -> str:
    """``0,0,0.5,1,1.5``: a bonus vector as the command line writes it."""
    return ",".join(f"{float(k):g}" for k in row)


# ------------------------------------------------------------------------------ the sums
class KomiSums:
    """One setting's tie-split wins under every bonus vector of ``grid`` (``add`` a chunk's
    ``SettingData``, ``merge`` another's sums). The setting's own tie-break decides ties of
    score plus bonus (C1.2); the setting's own bonus, if it had one, is replaced, not added."""

    def __init__(self, probe: SettingData, grid: np.ndarray):
        self.label, self.probe, self.players = probe.label, probe, probe.players
        self.grid = np.asarray(grid, np.float64)
        if self.grid.ndim != 2 or self.grid.shape[1] != probe.seats:
            raise ValueError(f"setting {probe.label!r} has {probe.seats} seats; the komi grid "
                             f"gives {self.grid.shape[-1]} bonuses per vector")
        self.halves = halves_per_player(self.grid, probe.owners)
        self.n = 0
        self.win60 = np.zeros((len(self.grid), self.players), np.int64)

    def add(self, d: SettingData) -> KomiSums:
        if not d.n:
            return self
        if d.value is None:
            raise ValueError(f"setting {d.label!r}: the chunk lacks rescued_value (the X1.6 "
                             f"chain's key)")
        self.n += d.n
        keys = (d.score, d.rescued, d.value, d.turns)
        equal = 3 in d.challenges
        step = max(1, PAIRS // d.n)
        for lo in range(0, len(self.grid), step):
            block = self.halves[lo:lo + step]
            k = len(block)
            tiled = [np.tile(a, (k, 1)) for a in keys]
            win, _ = decide(*tiled, rule=d.own, equal=equal,
                            komi=np.repeat(block, d.n, axis=0))
            win = win.reshape(k, d.n, self.players)
            split = np.maximum(win.sum(axis=2, keepdims=True), 1)
            self.win60[lo:lo + k] += (win * (60 // split)).sum(axis=1)
        return self

    def merge(self, other: KomiSums) -> KomiSums:
        self.n += other.n
        self.win60 += other.win60
        return self

    def empty(self) -> KomiSums:
        return KomiSums(self.probe, self.grid)

    def table(self, alpha: float = ALPHA) -> pd.DataFrame:
        """One row per bonus vector and player: the bonus, the tie-split win share with its
        Wilson interval (on tie-split counts, as every win share we print) and the games."""
        wins = self.win60 / 60.0
        lo, hi = wilson(wins, np.full(wins.shape, self.n, np.float64), alpha)
        rows = []
        owners = list(self.probe.owners.values())
        for v, row in enumerate(self.grid):
            for p in range(self.players):
                rows.append({"setting": self.label, "komi": vector_label(row), "player": p,
                             "bonus": float(sum(row[s] for s in owners[p])),
                             "share": wins[v, p] / self.n if self.n else np.nan,
                             "low": float(lo[v, p]), "high": float(hi[v, p]), "n": self.n})
        return pd.DataFrame(rows)


def screen(blocks, grid) -> dict[str, KomiSums]:
    """The sums of every setting in ``blocks`` (an iterable of ``SettingData``, a run read
    chunk by chunk or ``prepare_all`` of a table), each setting under every vector of
    ``grid`` (an array, or a function of the seat count giving one)."""
    out: dict[str, KomiSums] = {}
    for d in blocks:
        if d.label not in out:
            out[d.label] = KomiSums(replace(d, games=d.games[:0]),
                                    grid(d.seats) if callable(grid) else grid)
        out[d.label].add(d)
    return out


def run_blocks(path, games: int | None = None, labels=None):
    """A run folder's games as ``SettingData`` blocks, setting by setting, chunk file by chunk
    file, at most ``ROWS`` games at a time (only the key columns are read): what ``screen``
    needs, in memory flat in the number of games. ``games``: the first ``games`` of each;
    ``labels``: only these settings."""
    files, _ = finished_chunks(path, games)
    for label, paths in files.items():
        if labels is not None and label not in labels:
            continue
        probe = None
        for chunk in paths:
            pf = pq.ParquetFile(chunk)
            names = set(pf.schema_arrow.names)
            if probe is None:
                head = pf.read_row_group(0, columns=[c for c in PROBE if c in names]).slice(0, 1)
                probe = probe_of(label, {k: v[0] for k, v in head.to_pydict().items()})
            cols = block_columns(probe)
            for rb in pf.iter_batches(batch_size=ROWS, columns=cols):
                if games is not None:
                    rb = rb.filter(pc.less(rb.column("game"), games))
                yield block_of(probe, {c: rb.column(c).to_numpy(zero_copy_only=False)
                                       for c in cols})
