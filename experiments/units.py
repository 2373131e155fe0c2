"""What the verdicts measure, one value per game index: the unit every interval and test uses.

The games of one index share their tiles, dice and seeds across the settings of a study
(common random numbers), and across the rotations of a mixed table. So a verdict never counts
rows: it averages each setting's per-game values within each game index first (a setting
played once per index keeps its values; a mixed table pooled over its k rotations averages
its k games of the index, as ``tournament_stats._per_index`` does), and pairs two settings
index by index.

A ``Catalog`` lists the settings a run holds (``Entry``: label, what the claims select on, the
style of play) and gives each one's ``Units`` on demand, keeping only a few in memory: from an
in-memory table (``from_frame``) or read setting by setting from a run folder (``from_run``,
only the columns and the games asked for).
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from .rotations import ROTATION_STRIDE, rotated_label, rotation_of, rotations
from .stats import SettingData, explorers_per_colour, prepare

CACHE = 12                     # Units kept in memory at once


# ------------------------------------------------------------------------------ per index
class _Grouping:
    """The game indices of a setting's rows, and how to average rows within each index (a
    setting played once per index in index order needs no averaging)."""

    def __init__(self, games: np.ndarray):
        base = games % ROTATION_STRIDE
        self.plain = len(base) == 0 or bool(np.all(np.diff(base) > 0))
        if self.plain:
            self.idx = base
        else:
            self.idx, self.inverse, self.counts = np.unique(base, return_inverse=True,
                                                            return_counts=True)

    def mean(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.plain:
            return self.idx, values
        if values.ndim == 1:
            return self.idx, np.bincount(self.inverse, weights=values) / self.counts
        out = np.column_stack([np.bincount(self.inverse, weights=values[:, j])
                               for j in range(values.shape[1])])
        return self.idx, out / self.counts[:, None]


@dataclass
class Units:
    """One setting's per-index values (rotations averaged within the index)."""
    label: str
    players: int
    idx: np.ndarray                          # game indices, sorted
    share: dict                              # rule -> (n, players) tie-split win shares
    own: str                                 # the setting's tie-break rule
    rescued: np.ndarray                      # mean over players of rescued / in play
    value: np.ndarray                        # mean over players of score / value in play
    losses: np.ndarray                       # mean over players of explorers lost
    tie: np.ndarray                          # share of the index's games with a shared top
    gap: np.ndarray                          # (top - second score) / a player's value
    explorers: int                           # explorers one player has in play

    @property
    def n(self) -> int:
        return len(self.idx)

    def shares(self, rule: str | None = None) -> np.ndarray:
        return self.share[rule or self.own]


def units_of(d: SettingData) -> Units:
    """The per-index values of one setting (or one pooled set of rotations)."""
    count, value = explorers_per_colour(d.players, d.challenges)
    per = 2 if d.players == 2 else 1
    rescued = (d.rescued / np.maximum(d.explorers, 1)).mean(axis=1)
    valued = (d.score / (per * value)).mean(axis=1)
    losses = (d.explorers - d.rescued).mean(axis=1)
    tie = (d.win["shared"].sum(axis=1) > 1).astype(float)
    top = np.sort(d.score, axis=1)
    gap = (top[:, -1] - top[:, -2]) / (per * value) if d.players > 1 else np.zeros(d.n)
    shares = {rule: d.share(rule) for rule in d.win}
    group = _Grouping(d.games)
    idx, rescued = group.mean(rescued)
    out = {name: group.mean(x)[1] for name, x in
           (("value", valued), ("losses", losses), ("tie", tie), ("gap", gap))}
    return Units(d.label, d.players, idx, {r: group.mean(s)[1] for r, s in shares.items()},
                 d.own, rescued, out["value"], out["losses"], out["tie"], out["gap"],
                 per * count)


def mean_of_rotations(parts: list[Units], label: str) -> Units:
    """One pooled setting's per-index values from its rotations' (each plays every index once,
    so the index's mean is the mean of the rotations' values): the rotations are read one at
    a time instead of all at once."""
    first = parts[0]
    if any(not np.array_equal(p.idx, first.idx) for p in parts[1:]):
        raise ValueError(f"the rotations of {first.label} hold different games")
    avg = lambda get: sum(get(p) for p in parts) / len(parts)      # noqa: E731
    return Units(label, first.players, first.idx,
                 {r: avg(lambda p, r=r: p.share[r]) for r in first.share}, first.own,
                 avg(lambda p: p.rescued), avg(lambda p: p.value), avg(lambda p: p.losses),
                 avg(lambda p: p.tie), avg(lambda p: p.gap), first.explorers)


def paired(a: Units, b: Units) -> tuple[np.ndarray, np.ndarray]:
    """Positions in ``a`` and ``b`` of the game indices both hold."""
    _, ia, ib = np.intersect1d(a.idx, b.idx, assume_unique=True, return_indices=True)
    return ia, ib


# ------------------------------------------------------------------------------ the catalog
def describe(d: SettingData) -> dict:
    """What the claims select a setting by."""
    f = d.factors
    return {"players": d.players, "allocation": f["boats"] if isinstance(f["boats"], str)
            else "custom", "challenges": d.challenges, "tiebreak": d.own,
            "squid": bool(f.get("squid")), "squid_only": bool(f.get("squid_only")),
            "lagoon": f.get("lagoon_is_sea"), "must_move": f.get("creatures_must_move"),
            "max_turns": d.max_turns, "seed": d.seed}


@dataclass
class Entry:
    """One setting as the verdicts see it: a played setting, or a mixed table's rotations
    pooled (``seating``: the canonical seating of the line-up). ``load`` gives its per-game
    data (rotations concatenated), ``units`` its per-index values (rotation by rotation)."""
    label: str
    meta: dict
    strategies: tuple
    load: Callable[[], SettingData] = field(repr=False)
    seating: tuple | None = None
    per_index: Callable[[], Units] | None = field(default=None, repr=False)

    @property
    def players(self) -> int:
        return self.meta["players"]

    @property
    def own(self) -> str:
        return self.meta["tiebreak"]

    @cached_property
    def style(self) -> str:
        """How its tables were played: ``greedy self-play``, ``mixed, every seat in turn: a, b,
        c`` (rotations pooled) or ``mixed: a, b, ...`` (one fixed seating, where seat and
        strategy are confounded)."""
        if self.seating is not None:
            return rotated_label(self.seating)
        names = list(dict.fromkeys(self.strategies))
        if names and names[0].startswith(rotated_label(())):
            return names[0]                     # a table pooled before it came here
        return f"{names[0]} self-play" if len(names) == 1 else "mixed: " + ", ".join(names)

    def mix(self) -> dict | None:
        """Each strategy's share of the seats, where known (None: a table pooled elsewhere)."""
        names = self.seating if self.seating is not None else self.strategies
        if any(str(x).startswith(rotated_label(())) for x in names):
            return None
        return {s: names.count(s) / len(names) for s in sorted(set(names))}


class Catalog:
    """The settings of a run, with their per-index values loaded on demand (a few at once)."""

    def __init__(self, entries: list[Entry]):
        self.entries = entries
        self._cache: OrderedDict[str, Units] = OrderedDict()

    def find(self, entries=None, **want) -> list[Entry]:
        """The entries whose ``meta`` match ``want`` (values or predicates)."""
        out = []
        for e in self.entries if entries is None else entries:
            if all((v(e.meta[k]) if callable(v) else e.meta[k] == v) for k, v in want.items()):
                out.append(e)
        return out

    def units(self, e: Entry) -> Units:
        if e.label in self._cache:
            self._cache.move_to_end(e.label)
            return self._cache[e.label]
        u = e.per_index() if e.per_index is not None else units_of(e.load())
        self._cache[e.label] = u
        while len(self._cache) > CACHE:
            self._cache.popitem(last=False)
        return u

    def styles(self) -> dict[str, list[Entry]]:
        out: dict[str, list[Entry]] = {}
        for e in self.entries:
            out.setdefault(e.style, []).append(e)
        return out


def _pool(parts: list[SettingData], seating: tuple) -> SettingData:
    """One setting from every rotation of a mixed seating: rotation r's game g becomes
    ``r * ROTATION_STRIDE + g``, so that the unit stays the game index."""
    first = parts[0]
    cat = lambda name: np.concatenate([getattr(p, name) for p in parts])     # noqa: E731
    games = np.concatenate([p.games + r * ROTATION_STRIDE for r, p in enumerate(parts)])
    d = SettingData(label=first.label, players=first.players, seed=first.seed,
                    factors={**first.factors, "strategies": (rotated_label(seating),) *
                             len(seating)}, games=games, own=first.own,
                    challenges=first.challenges, max_turns=first.max_turns,
                    score=cat("score"), rescued=cat("rescued"), explorers=cat("explorers"),
                    turns=cat("turns"))
    for rule in first.win:
        d.win[rule] = np.concatenate([p.win[rule] for p in parts])
        d.step[rule] = np.concatenate([p.step[rule] for p in parts])
    return d


def _rotation_key(d: SettingData) -> tuple | None:
    """``(canonical seating, r, everything else)`` of a mixed seating, or None."""
    rot = rotation_of(d.factors.get("strategies") or ())
    if rot is None:
        return None
    other = tuple(sorted((k, str(v)) for k, v in d.factors.items() if k != "strategies"))
    return rot[0], rot[1], (d.players, d.seed, other)


def _catalog(probes: list[SettingData], loader: Callable[[str], SettingData]) -> Catalog:
    """Entries from one small ``SettingData`` per setting (its factors), pooling every complete
    set of rotations of one mixed seating (``rotations.pool_table``'s rule; games are checked
    when loaded)."""
    from .rotations import pooled_label
    sets: dict[tuple, dict[int, SettingData]] = {}
    for d in probes:
        key = _rotation_key(d)
        if key is not None:
            sets.setdefault((key[0], key[2]), {})[key[1]] = d
    pooled_of, entries = {}, []
    for (seating, _), by_r in sets.items():
        if sorted(by_r) == list(range(len(rotations(seating)))):
            for d in by_r.values():
                pooled_of[d.label] = (seating, [by_r[r].label for r in sorted(by_r)])
    done = set()
    for d in probes:
        if d.label in pooled_of:
            seating, labels = pooled_of[d.label]
            if labels[0] in done:
                continue
            done.add(labels[0])
            name = pooled_label(labels[0], len(labels))

            def load(labels=labels, seating=seating, name=name):
                parts = [loader(lab) for lab in labels]
                games = [np.sort(p.games) for p in parts]
                if any(not np.array_equal(g, games[0]) for g in games[1:]):
                    raise ValueError(f"the rotations of {labels[0]} hold different games")
                out = _pool(parts, seating)
                out.label = name
                return out

            def per_index(labels=labels, name=name):
                return mean_of_rotations([units_of(loader(lab)) for lab in labels], name)
            entries.append(Entry(name, describe(d), (rotated_label(seating),) * len(seating),
                                 load, seating, per_index))
        else:
            entries.append(Entry(d.label, describe(d), tuple(d.factors.get("strategies") or ()),
                                 lambda lab=d.label: loader(lab)))
    return Catalog(entries)


def from_data(data: list[SettingData]) -> Catalog:
    """A catalog of settings already in memory (tests, synthetic calibration data)."""
    by = {d.label: d for d in data}
    return _catalog(data, by.__getitem__)


def from_frame(df: pd.DataFrame) -> Catalog:
    """A catalog of an in-memory run table (rotations of a mixed seating pooled here)."""
    from .stats import prepare_all
    return from_data(prepare_all(df))


READ = ("setting", "allocation", "game", "seed", "players", "seats", "tiebreak", "challenges",
        "squid", "squid_only", "lagoon_is_sea", "creatures_must_move", "max_turns")
PER_SEAT = ("strategy", "boats", "player", "score", "rescued", "rescued_value", "turns", "lost")


def from_run(path, games: int | None = None) -> tuple[Catalog, dict]:
    """A catalog of a run folder, read one setting at a time: each setting's finished chunks
    holding its first ``games`` games (all finished games when None), only the columns the
    verdicts need. Also returns ``{label: games read}``."""
    import pyarrow.dataset as ds

    from .runs import finished_chunks
    files, account = finished_chunks(Path(path), games)
    columns = list(READ) + [f"{f}_{s}" for f in PER_SEAT for s in range(6)]

    def read(label: str, first_only: bool = False) -> SettingData:
        paths = files[label][:1] if first_only else files[label]
        dataset = ds.dataset(paths, format="parquet")
        cols = [c for c in columns if c in dataset.schema.names]
        df = dataset.to_table(columns=cols).to_pandas()
        if games is not None:
            df = df[df["game"] < games]
        df = df.sort_values("game", kind="stable").reset_index(drop=True)
        return prepare(label, df)

    probes = [read(label, first_only=True) for label in files if files[label]]
    return _catalog(probes, read), account
