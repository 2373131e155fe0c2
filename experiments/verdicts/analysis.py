"""One pass over a run folder, chunk by chunk, for everything that reads it: the statistics,
the charts' numbers and the verdicts' moments, in memory that does not grow with the games.

A sweep writes every setting in chunks of the same game indices (chunk k of every setting
holds games ``k * chunk ...``), so chunk k of all settings together is a complete, aligned
slice of the study: paired differences, per-index means of a mixed table's rotations and the
moments of two settings on common indices all close within it. ``chunk_sums`` reads one such
slice (only the columns it needs, in blocks of at most ``BLOCK`` games per setting) and returns
its sums (``experiments.tables.sums``: exact counts; ``experiments.verdicts.catalog``: the verdicts'
moments); the sums of the slices are merged in chunk order. The slices are independent, so they can
be read by worker processes or on a Dask cluster (``scheduler``): only their sums travel, and the
result is the same wherever a slice was read.

``analyse(run)`` plans the pass from each setting's first row and the manifest (which settings
pool into a mixed table, which pairs the statistics compare, and -- from a dry run of the
judges -- which pairs the verdicts need), runs it, and returns an ``Analysis``: the tidy
statistics (``tidy()``), the sums behind every chart (``settings``, ``meta``) and a catalog the
verdicts judge (``catalog``).
"""
from __future__ import annotations

import contextlib
import functools
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..store.cluster import Cluster
from ..store.runs import ROW_GROUP, RunError, RunFolder, finished_chunks
from ..store.watch import watching
from ..store.workers import Pool, cores, in_order, share, shared
from ..tables.games import (
    LOSS_CAUSES,
    SettingData,
    block_columns,
    block_of,
    cause_columns,
    pool,
    prepare,
    probe_of,
    setting_groups,
)
from ..tables.rotations import ROTATION_STRIDE, pooled_label, rotated_label
from ..tables.settings_table import settings_table
from ..tables.stats import ALPHA, PRECISION, comparable_pairs
from ..tables.stats import tidy as tidy_stats
from ..tables.sums import PairSums, SettingSums
from . import exhibits
from . import features as F
from .catalog import Catalog, Comoments, entries_of, pooled_sets
from .inference import FIXED
from .table import judge

BLOCK = ROW_GROUP               # games per setting held at once while a chunk is read
PARALLEL_ROWS = 1_500_000       # below this many rows, one process reads faster than two
SETTING_FIELDS = ("setting", "allocation", "game", "seed", "players", "seats", "tiebreak",
                  "challenges", "dolphins", "squid", "squid_only", "lagoon_is_sea",
                  "creatures_must_move", "max_turns", "setup_order_explorers",
                  "setup_order_boats")
SEAT_FIELDS = ("strategy", "boats", "player", "score", "rescued", "rescued_value", "turns",
               "lost", "komi")


# ------------------------------------------------------------------------------ the plan
@dataclass
class Group:
    """A setting as the statistics and charts show it: one played setting, or every rotation
    of a mixed seating pooled (``parts``: the played labels, rotation 0 first)."""
    label: str
    parts: tuple[str, ...]
    probe: SettingData


@dataclass
class Work:
    """What a worker needs to read one chunk (picklable, small)."""
    files: dict[str, dict[int, str]]            # label -> chunk -> path
    probes: dict[str, SettingData]
    columns: dict[str, list[str]]
    groups: list[Group]
    pairs: list[tuple[int, int, str]]           # indices into groups, the factor
    entries: list[tuple[str, tuple[str, ...], bool, int]]   # label, parts, pooled, players
    joints: list[tuple[str, ...]]               # the verdicts' joints (entry labels)
    games: int | None                           # only the first ``games`` of each setting
    charts: bool
    sets: dict = field(default_factory=dict)    # entry label -> Entry, of the feature sets'


def _head(path: str, columns: list[str]) -> dict:
    """The first row of a chunk file (the setting-level columns a probe reads), as a dict."""
    import pyarrow.parquet as pq
    pf = pq.ParquetFile(path)
    names = set(pf.schema_arrow.names)
    batch = next(pf.iter_batches(batch_size=1, columns=[c for c in columns if c in names]))
    return {k: v[0] for k, v in batch.to_pydict().items()}


def _probe_columns() -> list[str]:
    return list(SETTING_FIELDS) + [f"{f}_{s}" for f in SEAT_FIELDS for s in range(6)]


def _chart_columns(probe: SettingData) -> list[str]:
    return ["turns", "end_reason"] + [f"lost_{c}_{s}" for c in LOSS_CAUSES
                                      for s in range(probe.seats)]


def _pooled_head(heads: list[dict], label: str, seating: tuple) -> dict:
    h = dict(heads[0], setting=label)
    style = rotated_label(seating)
    for s in range(len(seating)):
        if f"strategy_{s}" in h:
            h[f"strategy_{s}"] = style
    return h


def plan(run, *, games: int | None = None, pool_rotations: bool = True,
         charts=True, claims: dict | None = None
         ) -> tuple[Work, Catalog | None, pd.DataFrame, dict, dict]:
    """``(work, catalog, meta, account, manifest)`` for a pass over the run folder ``run``:
    ``meta`` is the settings table of the shown settings (``settings_table``). ``charts``:
    which shown settings need the per-game columns of the charts of game length, losses and
    end reasons (True: all; a function of ``meta`` giving their labels)."""
    path = Path(run)
    manifest = RunFolder(path).read_manifest()
    files_list, account = finished_chunks(path, games)
    if manifest is None:
        raise RunError(f"{run} is not a run folder")
    files: dict[str, dict[int, str]] = {}
    for label, paths in files_list.items():
        files[label] = {int(Path(p).name.rsplit(".c", 1)[1].split(".")[0]): p for p in paths}
    probes, heads = {}, {}
    for label, by_k in files.items():
        if not by_k:
            continue
        head = _head(by_k[min(by_k)], _probe_columns())
        head["setting"] = label
        probes[label] = probe_of(label, head)
        heads[label] = head
    labels = list(probes)

    def same(parts: list[str]) -> bool:            # rotations pool only on the same games
        return all(sorted(files[p]) == sorted(files[parts[0]]) and
                   account[p][0] == account[parts[0]][0] for p in parts)

    sets = pooled_sets([probes[lab] for lab in labels], same) if pool_rotations else {}
    groups, shown, done = [], [], set()
    for label in labels:
        if label in sets:
            seating, parts = sets[label]
            if parts[0] in done:
                continue
            done.add(parts[0])
            name = pooled_label(parts[0], len(parts))
            d = pool([probes[p] for p in parts], seating, name, ROTATION_STRIDE,
                     rotated_label(seating))
            groups.append(Group(name, tuple(parts), d))
            shown.append(_pooled_head([heads[p] for p in parts], name, seating))
        else:
            groups.append(Group(label, (label,), probes[label]))
            shown.append(heads[label])
    pairs = [(groups.index(next(g for g in groups if g.probe is a)),
              groups.index(next(g for g in groups if g.probe is b)), f)
             for a, b, f in comparable_pairs([g.probe for g in groups])]
    catalog, joints, entries, sets, causes = None, [], [], {}, set()
    if claims:
        catalog = Catalog(entries_of([probes[lab] for lab in labels], same))
        catalog.planning = True
        judge(catalog, claims, FIXED)                # a dry run: which moments are wanted
        exhibits.tables(catalog, claims)             # (and the report's tables of them)
        catalog.planning = False
        joints = list(catalog.wanted)
        used = {k for key in joints if not F.is_set_key(key) for k in key}
        entries = [(e.label, e.parts, e.seating is not None, e.players)
                   for e in catalog.entries if e.label in used]
        for key in joints:
            if F.is_set_key(key):
                for lab in key[1:]:
                    sets[lab] = catalog.entry(lab)
                    if key[0] == F.PREFIX + "causes":
                        causes.update(sets[lab].parts)
    meta = settings_table(pd.DataFrame(shown)) if shown else pd.DataFrame()
    drawn = (set() if not len(meta) or not charts else set(meta.index) if charts is True
             else set(charts(meta)))
    extra = {p for g in groups if g.label in drawn for p in g.parts}
    columns = {lab: block_columns(probes[lab]) + (_chart_columns(probes[lab])
                                                  if lab in extra else [])
               for lab in labels}
    for lab in causes:                               # losses by cause, for the verdicts
        columns[lab] += [c for c in cause_columns(probes[lab]) if c not in columns[lab]]
    work = Work({lab: files[lab] for lab in labels}, probes, columns, groups, pairs, entries,
                joints, games, bool(charts), sets)
    return work, catalog, meta, account, manifest


# ------------------------------------------------------------------------------ one chunk
@dataclass
class Partial:
    """The sums of one chunk of every setting."""
    k: int
    groups: list[SettingSums]
    pairs: list[PairSums]
    joints: dict[tuple[str, ...], Comoments] = field(default_factory=dict)
    rows: int = 0

    def merge(self, other: Partial) -> Partial:
        for a, b in zip(self.groups, other.groups):
            a.merge(b)
        for a, b in zip(self.pairs, other.pairs):
            a.merge(b)
        for key, m in other.joints.items():
            self.joints[key].merge(m)
        self.rows += other.rows
        return self


def _batches(path: str, columns: list[str], games: int | None):
    """A chunk file's columns in blocks of at most ``BLOCK`` rows, as numpy arrays (and the
    end reasons as counts), in the file's (game) order. A file is opened only when its first
    block is asked for, and nothing of it is held between blocks but the reader's place (and,
    for a chunk larger than a block, its current row group: ``runs.ROW_GROUP`` games)."""
    import pyarrow.parquet as pq
    pf = pq.ParquetFile(path)
    names = set(pf.schema_arrow.names)
    cols = [c for c in columns if c in names]
    if pf.metadata.num_rows <= BLOCK:       # (no local name holds a block while suspended)
        yield _arrays(pf.read(columns=cols), games)
        return
    for rb in pf.iter_batches(batch_size=BLOCK, columns=cols):
        yield _arrays(rb, games)


def _arrays(table, games: int | None) -> dict:
    import pyarrow as pa
    import pyarrow.compute as pc
    if games is not None:
        table = table.filter(pc.less(table.column("game"), games))
    out: dict = {}
    for name in table.schema.names:
        arr = table.column(name)
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        if pa.types.is_dictionary(arr.type):
            counts = pc.value_counts(arr.dictionary_decode())
            out[name] = {str(v["values"]): int(v["counts"]) for v in counts.to_pylist()}
        else:
            out[name] = arr.to_numpy(zero_copy_only=False)
    return out


def _empty(work: Work) -> Partial:
    groups = [SettingSums(g.probe, work.charts) for g in work.groups]
    pairs = [PairSums(work.groups[i].probe, work.groups[j].probe, f) for i, j, f in work.pairs]
    joints = {}
    players = {lab: p for lab, _, _, p in work.entries}
    for key in work.joints:
        if F.is_set_key(key):
            width = len(F.joint_names(key, [work.sets[k] for k in key[1:]]))
        else:
            width = len(F.pair_names(*[players[k] for k in key]))
        joints[key] = Comoments(width)
    return Partial(-1, groups, pairs, joints)


def chunk_sums(work: Work, k: int) -> Partial:
    """The sums of chunk ``k`` of every setting that has it, read block by block: each
    setting's block is summed as soon as it is read and kept only as the small arrays the
    pairs and the verdicts' moments need, until every setting's block is in."""
    out = _empty(work)
    out.k = k
    group_of = {p: gi for gi, g in enumerate(work.groups) for p in g.parts}
    readers = {lab: _batches(by_k[k], work.columns[lab], work.games)
               for lab, by_k in work.files.items() if k in by_k}
    while readers:
        blocks = {}
        for lab in list(readers):
            cols = next(readers[lab], None)
            if cols is None:
                del readers[lab]
                continue
            d = block_of(work.probes[lab], cols)
            out.groups[group_of[lab]].add(d, cols, cols.get("end_reason"))
            blocks[lab] = _compact(d)
            out.rows += d.n
            del cols
        if blocks:
            _pairs_and_moments(work, out, blocks)
    return out


def _compact(d: SettingData) -> SettingData:
    """A block's arrays in the smallest types that hold them (scores, explorers and turns
    fit in 16 bits), for the time the other settings' blocks are read."""
    for name in ("score", "rescued", "explorers", "turns", "value"):
        setattr(d, name, getattr(d, name).astype(np.int16))
    d.step = {r: v.astype(np.int8) for r, v in d.step.items()}
    d.lost = {c: v.astype(np.int16) for c, v in d.lost.items()}
    return d


def _pairs_and_moments(work: Work, out: Partial, blocks: dict[str, SettingData]) -> None:
    """Add one aligned block of every setting to the pairs and the verdicts' moments."""
    first = {(int(b.games[0]) if b.n else None, b.n) for b in blocks.values()}
    if len(first) > 1:
        raise RunError("the chunks of the run's settings do not hold the same games in the "
                       "same order; the run folder was not written by this version's sweep")
    pooled: dict[int, SettingData] = {}
    for (i, j, _), ps in zip(work.pairs, out.pairs):
        a, b = (_group_block(work.groups[x], blocks, pooled, x) for x in (i, j))
        if a is not None and b is not None:
            ps.add(a, b)
    if not work.joints:
        return
    values = {}
    for lab, parts, is_pooled, _ in work.entries:
        if all(p in blocks for p in parts):
            values[lab] = (F.per_index_pooled([blocks[p] for p in parts], lab) if is_pooled
                           else F.per_index(blocks[parts[0]]))
    players = {lab: p for lab, _, _, p in work.entries}
    rows: dict[tuple[str, str], tuple] = {}
    for key, mom in out.joints.items():
        if F.is_set_key(key):
            es = [work.sets[k] for k in key[1:]]
            if not all(p in blocks for e in es for p in e.parts):
                continue
            for e in es:
                if (key[0], e.label) not in rows:
                    rows[(key[0], e.label)] = F.rows(key[0][len(F.PREFIX):],
                                                     [blocks[p] for p in e.parts], e)
            mom.add(F.joint_rows([rows[(key[0], e.label)] for e in es]))
            continue
        if not all(k in values for k in key):
            continue
        if len(key) == 1:
            mom.add(values[key[0]][1])
        else:
            mom.add(F.pair_rows(values[key[0]], values[key[1]], players[key[0]],
                              players[key[1]]))


def _group_block(g: Group, blocks: dict, cache: dict, gi: int) -> SettingData | None:
    if not all(p in blocks for p in g.parts):
        return None
    if len(g.parts) == 1:
        return blocks[g.parts[0]]
    if gi not in cache:
        cache[gi] = pool([blocks[p] for p in g.parts], g.probe.factors["strategies"],
                         g.label, ROTATION_STRIDE, g.probe.factors["strategies"][0])
    return cache[gi]


# ------------------------------------------------------------------------------ the pass
@dataclass
class Analysis:
    """A run read once: the sums of every shown setting (``settings``, grid order) and of the
    pairs the statistics compare, the charts' settings table (``meta``), the verdicts'
    catalog (None without claims), the account ``{label: (games present, games asked)}`` and
    the manifest."""
    run: Path
    manifest: dict
    account: dict
    settings: list[SettingSums]
    pairs: list[PairSums]
    meta: pd.DataFrame
    catalog: Catalog | None
    seconds: float = 0.0
    rows: int = 0
    _tidy: dict = field(default_factory=dict, repr=False)

    def tidy(self, alpha: float | None = None, precision: float | None = None) -> pd.DataFrame:
        """The tidy statistics (``experiments.tables.stats``), computed once per level."""
        key = (alpha or ALPHA, precision or PRECISION)
        if key not in self._tidy:
            self._tidy[key] = tidy_stats(self.settings, self.pairs, *key)
        return self._tidy[key]

    def setting(self, label: str) -> SettingSums:
        for s in self.settings:
            if s.label == label:
                return s
        raise KeyError(label)

    @property
    def games(self) -> int:
        return sum(h for h, _ in self.account.values())


def analyse(run, *, games: int | None = None, pool_rotations: bool = True,
            charts=True, claims: dict | None = None, scheduler=None,
            workers: int | None = None, watch=None, pool: Pool | None = None) -> Analysis:
    """Read the run folder ``run`` once (its first ``games`` games per setting when given)
    and return its ``Analysis``. ``pool_rotations``: show every complete set of rotations of a
    mixed seating as one setting (the report; ``stats`` shows each rotation). ``charts``: as
    for ``plan``. ``claims``:
    also the moments their verdicts need. ``scheduler``: a Dask address (``local`` starts a
    cluster of ``workers`` processes) on which the chunks are read; without it, chunks are
    read here, by ``workers`` processes (default: one per core for a large run; ``pool``: the
    caller's processes, ``experiments.store.workers``). ``watch``
    (``experiments.store.watch``) sees the chunks read; nothing is said before the run is known to
    be one (a bad folder is one line)."""
    w = watching(watch)
    t0 = time.perf_counter()
    work, catalog, meta, account, manifest = plan(run, games=games,
                                                  pool_rotations=pool_rotations,
                                                  charts=charts, claims=claims)
    if not work.probes:
        raise RunError(f"{run} holds no finished games yet; run its sweep (the same command "
                       f"resumes it)")
    ks = sorted({k for by_k in work.files.values() for k in by_k})
    total = _empty(work)
    rows = sum(h for h, _ in account.values())
    w.begin(f"reading {rows:,} games of {len(work.probes)} settings", total=len(ks),
            unit="chunk")
    with contextlib.closing(_run(work, ks, scheduler, workers, rows, pool)) as parts:
        for part in parts:                       # (closed at once on an interrupt: its
            total.merge(part)                    # processes stop then, not at exit)
            w.update(1)
    if catalog is not None:
        for key, mom in total.joints.items():
            catalog.joints[key] = catalog.joint_of([], key, mom)
    if len(meta):
        meta["games"] = [g.n for g in total.groups]
    return Analysis(Path(run), manifest, account, total.groups, total.pairs, meta, catalog,
                    time.perf_counter() - t0, total.rows)


def _run(work: Work, ks: list[int], scheduler, workers: int | None, rows: int, pool=None):
    """The partial sums of every chunk, in chunk order: on Dask, on a pool of processes
    (``pool``, or one started here for a run of ``PARALLEL_ROWS`` rows or more), or here."""
    if scheduler is not None:
        yield from _on_dask(work, ks, scheduler, workers)
        return
    n = pool.n if pool is not None else cores(workers)
    if n <= 1 or len(ks) < 2 or (workers is None and rows < PARALLEL_ROWS):
        for k in ks:
            yield chunk_sums(work, k)
        return
    read = functools.partial(_chunk_of, share(work))
    if pool is not None:
        yield from pool.ordered(read, ks)
        return
    with Pool(n) as own:
        yield from own.ordered(read, ks)


def _chunk_of(packed, k: int) -> Partial:
    return chunk_sums(shared(packed), k)


def _on_dask(work: Work, ks: list[int], scheduler, workers: int | None):
    """Each chunk read on a Dask worker (which needs the run folder at the same path: a
    shared file system, or the local cluster); only its sums come back."""
    cluster = Cluster(scheduler, workers)
    try:
        client = cluster.client
        [remote] = client.scatter([work], broadcast=True)
        n = max(1, len(client.scheduler_info().get("workers", {})) or 1)
        yield from in_order(lambda k: client.submit(chunk_sums, remote, k, pure=False,
                                                    retries=2), ks, 2 * n + 2)
    finally:
        cluster.close()


# ------------------------------------------------------------------------------ in memory
def of_frame(df: pd.DataFrame, charts: bool = True) -> Analysis:
    """The ``Analysis`` of an in-memory run table (each setting one block; pool a mixed
    table's rotations first with ``rotations.pool_table`` to show them as one setting)."""
    groups = setting_groups(df)
    data = [prepare(label, g) for label, g in groups]
    sums = []
    for d, (_, g) in zip(data, groups):
        end = g["end_reason"].astype(str).value_counts().to_dict() \
            if charts and "end_reason" in g.columns else None
        sums.append(SettingSums(d, charts).add(d, g if charts else None, end))
    pairs = [PairSums(a, b, f).add(a, b) for a, b, f in comparable_pairs(data)]
    meta = settings_table(df)
    meta["games"] = [s.n for s in sums]
    account = {s.label: (s.n, s.n) for s in sums}
    return Analysis(Path("."), {}, account, sums, pairs, meta, None, 0.0, len(df))
