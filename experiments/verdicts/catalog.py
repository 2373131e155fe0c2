"""The moments the verdicts read, in memory that does not grow with the games: the settings of
a run (``Entry``), and per setting, pair or set of settings a judge asks for, the moments of
their per-index features (``experiments.verdicts.features``) on their common game indices
(``Joint``).

The games of one index share their tiles, dice and seeds across the settings of a study
(common random numbers), and across the rotations of a mixed table. So a verdict never counts
rows: each setting's per-game values are averaged within each game index first (a setting
played once per index keeps its values; a mixed table pooled over its k rotations averages
its k games of the index), and two settings are paired index by index.

Every statistic a judge computes (``experiments.verdicts.claims``) is a function of the means,
variances and covariances of a few per-index features. So the verdicts keep a ``Joint`` per key
a judge asks for: the count, means and co-moment matrix of the features (merged chunk by chunk,
Chan et al.'s pairwise update), their smallest and largest values (a sample whose values are all
equal gets the exact zero-of-n bound) and whether each is 0/1 (a rate, read with Wilson at a
fixed look). A ``Joint`` of an in-memory table holds the same numbers as one read chunk by chunk
from a run (``experiments.verdicts.analysis``), to rounding.

A ``Catalog`` lists the settings and gives each judge ``one(entry)``, ``pair(a, b)`` (the base
features) and ``joint(entries, kind)`` (a named set). A run's catalog learns which joints the
judges need in a dry run on placeholder moments (``planning``), before the run is read.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from play.settings import RULES_BOATS

from ..tables.games import SettingData, prepare_all
from ..tables.rotations import pooled_label, rotated_label, rotation_of, rotations
from . import features as F
from .inference import Estimate


# ------------------------------------------------------------------------------ moments
class Comoments:
    """Count, means, co-moment matrix, extremes and 0/1-ness of the columns of a matrix of
    per-index values, added block by block (pairwise merge: the same numbers as one pass over
    all rows, to rounding)."""

    def __init__(self, width: int):
        self.n = 0
        self.mean = np.zeros(width)
        self.m2 = np.zeros((width, width))
        self.lo = np.full(width, np.inf)
        self.hi = np.full(width, -np.inf)
        self.other = np.zeros(width, np.int64)        # values that are neither 0 nor 1

    def add(self, x: np.ndarray) -> Comoments:
        m = x.shape[0]
        if not m:
            return self
        mean = x.mean(axis=0)
        c = x - mean
        m2 = c.T @ c
        n = self.n + m
        delta = mean - self.mean
        self.mean = self.mean + delta * (m / n)
        self.m2 = self.m2 + m2 + np.outer(delta, delta) * (self.n * m / n)
        self.n = n
        self.lo = np.minimum(self.lo, x.min(axis=0))
        self.hi = np.maximum(self.hi, x.max(axis=0))
        self.other += ((x != 0) & (x != 1)).sum(axis=0)
        return self

    def merge(self, o: Comoments) -> Comoments:
        if not o.n:
            return self
        if not self.n:
            self.n, self.mean, self.m2 = o.n, o.mean.copy(), o.m2.copy()
            self.lo, self.hi, self.other = o.lo.copy(), o.hi.copy(), o.other.copy()
            return self
        n = self.n + o.n
        delta = o.mean - self.mean
        self.mean = self.mean + delta * (o.n / n)
        self.m2 = self.m2 + o.m2 + np.outer(delta, delta) * (self.n * o.n / n)
        self.n = n
        self.lo = np.minimum(self.lo, o.lo)
        self.hi = np.maximum(self.hi, o.hi)
        self.other += o.other
        return self

    def cov(self) -> np.ndarray:
        return self.m2 / max(self.n - 1, 1)


@dataclass
class Joint:
    """The moments of the features of one setting (``parts = 1``) or of two on their common
    indices (``parts = 2``: the first's features, the second's, then the differences of the
    features both have)."""
    names: list[str]
    mom: Comoments
    parts: int = 1
    own: tuple = ("shared",)                 # each part's own tie-break

    @property
    def n(self) -> int:
        return self.mom.n

    def at(self, name: str, part: int = 0) -> int:
        key = f"{part}:{name}" if part >= 0 else f"d:{name}"
        return self.names.index(key)

    def est(self, name: str, lo: float = -math.inf, hi: float = math.inf,
            part: int = 0) -> Estimate:
        """The estimate of a feature's mean (``part`` -1: the difference, first - second)."""
        j = self.at(name, part)
        m = self.mom
        if m.n == 0:
            return Estimate(math.nan, math.nan, 0, lo, hi)
        constant = bool(m.hi[j] == m.lo[j])
        sd = 0.0 if constant or m.n < 2 else math.sqrt(max(m.m2[j, j] / (m.n - 1), 0.0))
        binary = bool(lo == 0 and hi == 1 and m.other[j] == 0)
        inside = bool(math.isfinite(lo) and math.isfinite(hi) and m.lo[j] >= lo
                      and m.hi[j] <= hi)
        return Estimate(float(m.mean[j]), sd, m.n, lo, hi, binary, constant, bounded=inside)

    def diff(self, name: str, lo: float = -math.inf, hi: float = math.inf) -> Estimate:
        return self.est(name, lo, hi, part=-1)

    def shares(self, part: int = 0, rule: str | None = None) -> list[int]:
        """Positions of one part's seat shares under ``rule``."""
        rule = rule or self.rule(part)
        prefix = f"{part}:share_{rule}_"
        return [i for i, k in enumerate(self.names) if k.startswith(prefix)]

    def rule(self, part: int = 0) -> str:
        return self.own[part]


def spreads(j: Joint, tables: list[tuple[int, str | None]], weights: list[float]
            ) -> tuple[float, float, bool]:
    """``(value, sd, constant)`` of a weighted sum of squared seat spreads of share tables
    (``(part, rule)``) paired on the same indices: each is the sum over seats of (mean win
    share - 1/N)**2, less the sampling noise of the means (``sum var / n``), so that it is
    unbiased -- about 0 for a balanced table however few games it has. Delta method: index
    g's influence is ``2 (m - 1/N) . (s_g - m)``; its variance ``g' C g`` overstates the sum's,
    since the gradient carries the means' noise, which adds ``4 tr(C_kl C_lk) / n`` per pair of
    terms where the sum's own quadratic part adds only half of it (a Gaussian quadratic form):
    ``sd`` takes the difference off, so the interval is right also where a spread is near 0.
    The squared form is smooth (its root is not, near 0), so its interval holds at the n a
    study plays."""
    n = j.n
    cov = j.mom.cov()
    cols = [j.shares(p, r) for p, r in tables]
    value, grad = 0.0, []
    for w, c in zip(weights, cols):
        m = j.mom.mean[c]
        fair = 1 / len(c)
        noise = float(np.trace(cov[np.ix_(c, c)]) / n) if n > 1 else 0.0
        value += w * (float(((m - fair) ** 2).sum()) - noise)
        grad.append(w * 2 * (m - fair))
    allc = [i for c in cols for i in c]
    g = np.concatenate(grad)
    var = float(g @ cov[np.ix_(allc, allc)] @ g) if n > 1 else 0.0
    bias = 0.0
    for a, wa in enumerate(weights):
        for b, wb in enumerate(weights):
            cab = cov[np.ix_(cols[a], cols[b])]
            bias += wa * wb * float(np.trace(cab @ cab.T))
    constant = not var > 0
    var = max(var, 0.0)
    return value, math.sqrt(max(var - 2 * bias / n, 0.25 * var)) if n else 0.0, constant


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
    pooled (``seating``: the canonical seating of the line-up; ``parts``: the labels of its
    rotations in order, or the setting's own label)."""
    label: str
    meta: dict
    strategies: tuple
    parts: tuple = ()
    seating: tuple | None = None
    boats: tuple | None = None          # boats per seat (named allocations resolved)

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


class Planning(Exception):
    """A judge asked for moments nobody has read yet (a catalog being planned)."""


class Catalog:
    """The settings of a run and the moments of the features the judges ask for.

    ``values(label)``, when given, returns a setting's per-index features in memory (an
    in-memory table): joints are then computed on demand. A run's catalog is given its
    joints (``joints``) by ``experiments.verdicts.analysis`` after a dry run with ``planning`` on,
    in which every ``one``/``pair`` is recorded in ``wanted`` and answered with placeholders."""

    def __init__(self, entries: list[Entry],
                 values: Callable[[Entry], tuple[np.ndarray, np.ndarray]] | None = None,
                 data: Callable[[Entry], list[SettingData]] | None = None):
        self.entries = entries
        self.values = values
        self.data = data                # an in-memory entry's settings (its rotations)
        self.joints: dict[tuple[str, ...], Joint] = {}
        self.planning = False
        self.wanted: list[tuple[str, ...]] = []
        self._values: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._by = {e.label: e for e in entries}

    def entry(self, label: str) -> Entry:
        return self._by[label]

    def find(self, entries=None, **want) -> list[Entry]:
        """The entries whose ``meta`` match ``want`` (values or predicates)."""
        out = []
        for e in self.entries if entries is None else entries:
            if all((v(e.meta[k]) if callable(v) else e.meta[k] == v) for k, v in want.items()):
                out.append(e)
        return out

    def styles(self) -> dict[str, list[Entry]]:
        out: dict[str, list[Entry]] = {}
        for e in self.entries:
            out.setdefault(e.style, []).append(e)
        return out

    def one(self, e: Entry) -> Joint:
        return self._joint((e.label,))

    def pair(self, a: Entry, b: Entry) -> Joint:
        return self._joint((a.label, b.label))

    def joint(self, entries: list[Entry], kind: str) -> Joint:
        """The moments of the features of the set ``kind`` (``experiments.verdicts.features``) of
        ``entries`` on their common indices: part ``i``'s features are ``i:<name>``."""
        return self._joint(F.key_of(kind, [e.label for e in entries]))

    def _joint(self, key: tuple[str, ...]) -> Joint:
        if key in self.joints:
            return self.joints[key]
        if self.planning:
            if key not in self.wanted:
                self.wanted.append(key)
            if F.is_set_key(key):
                return placeholder([self._by[k] for k in key[1:]], key)
            return placeholder([self._by[k] for k in key])
        if F.is_set_key(key):
            if self.data is None:
                raise Planning(f"no moments for {' and '.join(key)}")
            kind = key[0][len(F.PREFIX):]
            values = [F.rows(kind, self.data(self._by[k]), self._by[k]) for k in key[1:]]
            j = self.joint_of(values, key)
            self.joints[key] = j
            return j
        if self.values is None:
            raise Planning(f"no moments for {' and '.join(key)}")
        j = self.joint_of([self._per_index(self._by[k]) for k in key], key)
        self.joints[key] = j
        return j

    def _per_index(self, e: Entry) -> tuple[np.ndarray, np.ndarray]:
        if e.label not in self._values:
            self._values[e.label] = self.values(e)
        return self._values[e.label]

    def joint_of(self, values: list[tuple[np.ndarray, np.ndarray]], key: tuple[str, ...],
                 mom: Comoments | None = None) -> Joint:
        """A joint of ``key``'s entries from their per-index features (or moments read
        elsewhere, ``mom``)."""
        if F.is_set_key(key):
            es = [self._by[k] for k in key[1:]]
            names = F.joint_names(key, es)
            if mom is None:
                mom = Comoments(len(names)).add(F.joint_rows(values))
            return Joint(names, mom, len(es), tuple(e.own for e in es))
        es = [self._by[k] for k in key]
        ps = [e.players for e in es]
        names = F.pair_names(*ps)
        if mom is None:
            rows = values[0][1] if len(es) == 1 else F.pair_rows(values[0], values[1], *ps)
            mom = Comoments(len(names)).add(rows)
        return Joint(names, mom, len(es), tuple(e.own for e in es))

    def per_index(self, e: Entry) -> tuple[np.ndarray, np.ndarray]:
        """An in-memory entry's per-index features (tests, calibration)."""
        return self._per_index(e)


def placeholder(es: list[Entry], key: tuple | None = None) -> Joint:
    """Plausible moments for a dry run (fair shares, some spread, 1,000 indices)."""
    names = F.joint_names(key, es) if key is not None else F.pair_names(*[e.players for e in es])
    mom = Comoments(len(names))
    mom.n = 1000
    mom.mean = np.full(len(names), 0.2)
    mom.m2 = np.eye(len(names)) * 0.01 * 999
    mom.lo, mom.hi = np.zeros(len(names)), np.ones(len(names))
    mom.other = np.ones(len(names), np.int64)
    return Joint(names, mom, len(es), tuple(e.own for e in es))


def _rotation_key(d: SettingData) -> tuple | None:
    """``(canonical seating, r, everything else)`` of a mixed seating, or None."""
    rot = rotation_of(d.factors.get("strategies") or ())
    if rot is None:
        return None
    other = tuple(sorted((k, str(v)) for k, v in d.factors.items() if k != "strategies"))
    return rot[0], rot[1], (d.players, d.seed, other)


def pooled_sets(probes: list[SettingData], same: Callable[[list[str]], bool] = lambda _: True
                ) -> dict[str, tuple[tuple, list[str]]]:
    """``{label: (canonical seating, [labels of rotation 0, 1, ...])}`` for every setting that
    belongs to a complete set of rotations of one mixed seating (agreeing in every other
    factor) whose games ``same`` says are the same."""
    sets: dict[tuple, dict[int, SettingData]] = {}
    for d in probes:
        key = _rotation_key(d)
        if key is not None:
            sets.setdefault((key[0], key[2]), {})[key[1]] = d
    out = {}
    for (seating, _), by_r in sets.items():
        if sorted(by_r) == list(range(len(rotations(seating)))):
            labels = [by_r[r].label for r in sorted(by_r)]
            if same(labels):
                for lab in labels:
                    out[lab] = (seating, labels)
    return out


def entries_of(probes: list[SettingData], same: Callable[[list[str]], bool] = lambda _: True
               ) -> list[Entry]:
    """The verdicts' entries: each setting, with every complete set of rotations of a mixed
    seating pooled into one entry (``rotations.pooled_label``)."""
    pooled_of, entries, done = pooled_sets(probes, same), [], set()
    for d in probes:
        if d.label in pooled_of:
            seating, labels = pooled_of[d.label]
            if labels[0] in done:
                continue
            done.add(labels[0])
            entries.append(Entry(pooled_label(labels[0], len(labels)), describe(d),
                                 (rotated_label(seating),) * len(seating), tuple(labels),
                                 seating, seat_boats(d)))
        else:
            entries.append(Entry(d.label, describe(d), tuple(d.factors.get("strategies") or ()),
                                 (d.label,), None, seat_boats(d)))
    return entries


def seat_boats(d: SettingData) -> tuple | None:
    """The boats each seat placed: a custom list as given, a named allocation resolved
    (``play.settings``' rules; flat two each while the 12 boats last; reversed)."""
    b = d.factors.get("boats")
    if isinstance(b, tuple) and len(b) == 2 and b[0] == "custom":
        return tuple(b[1]) if b[1] is not None else None
    if isinstance(b, tuple):
        return b
    seats = d.seats
    rules = (2,) * seats if 6 in d.challenges else tuple(RULES_BOATS.get(d.players, ()))
    if b == "rules":
        return rules or None
    if b == "flat":
        return tuple(min(2, max(0, 12 - 2 * s)) for s in range(seats))
    if b == "reversed":
        return tuple(reversed(rules)) or None
    return None


def from_data(data: list[SettingData]) -> Catalog:
    """A catalog of settings held in memory (tests, synthetic calibration data)."""
    by = {d.label: d for d in data}

    def parts(e: Entry) -> list[SettingData]:
        return [by[lab] for lab in e.parts]
    return Catalog(entries_of(data), lambda e: F.rows(F.BASE, parts(e), e), parts)


def from_frame(df: pd.DataFrame) -> Catalog:
    """A catalog of an in-memory run table (rotations of a mixed seating pooled here)."""
    return from_data(prepare_all(df))


__all__ = ["Catalog", "Comoments", "Entry", "Joint", "Planning", "entries_of", "from_data",
           "from_frame", "placeholder", "pooled_sets", "spreads"]
