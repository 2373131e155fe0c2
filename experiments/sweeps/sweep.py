"""Play a sweep into a run folder: every grid point's games, in chunks, resumable, exact.

Game ``i`` of every setting is seeded from ``(seed, i)`` alone, so settings compared in one
sweep share tile layouts, dice and noise streams game by game (common random numbers). Points
with the same ``Point.game_key`` -- settings that differ only in the tie-break, or named
allocations that resolve to the same boats -- play byte-identical games, so each chunk of them
is played once and written once per point, recounted under its own rule.

Jobs are (chunk, group of identical points); they run chunk-major, so a sweep stopped early holds
some games of every setting. A job's records come from the threaded engine here, or from Dask
workers (one numba thread each) that send them back: this process writes and commits every file,
so no shared file system is needed, and the table is the same either way.
"""
from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

import play.simulate as PS          # module attributes: the tests and the fuzz harness patch them
from strategies.plugins import load_plugins

from ..store.cluster import Cluster
from ..store.runs import (
    FORMAT,
    TABLE_VERSION,
    RunError,
    RunFolder,
    chunk_ok,
    clear,
    engine_hash,
    existing_ancestor,
    prepare,
    run_id,
    versions,
    write_chunk,
)
from ..store.watch import Watch, watching
from .spec import Point, Spec

# A chunk that took this many seconds to play is committed and counted at once; cheaper ones
# are written while the next plays (a write costs milliseconds). Without it a search study's
# progress and "done" lines lag a whole chunk -- ten minutes or more.
PROMPT_AFTER = 1.0


@dataclass
class Job:
    k: int                          # chunk index
    first: int
    count: int
    points: list[Point]             # identical games: played once, written once per point

    @property
    def settings(self):
        return self.points[0].settings


@dataclass
class Outcome:
    """What a sweep call did."""
    games_played: int = 0           # engine games played now (a group's chunk counts once)
    games_written: int = 0          # rows written now (once per point)
    games_done: int = 0             # rows finished in the folder, before and now
    games_total: int = 0
    seconds_playing: float = 0.0    # inside the engine (or waiting for workers)
    seconds: float = 0.0
    stopped: bool = False           # a stop request ended it early
    settings_done: list[str] = field(default_factory=list)


class Stop(Exception):
    """Raised by the stop check: leave after the chunk in flight."""


def _meta(run: str, label: str, k: int, first: int, count: int, seed: int) -> dict:
    return {"run": run, "setting": label, "chunk": k, "first": first, "count": count,
            "seed": seed}


def plan(spec: Spec, folder: RunFolder | None, run: str,
         checked: Callable[[int], None] | None = None) -> tuple[list[Job], dict[str, int]]:
    """The jobs still to play (chunk-major) and the games already finished per point;
    ``checked(1)`` after each chunk file of ``folder`` is looked at (a resume reads them all)."""
    groups: dict[tuple, list[Point]] = {}
    for p in spec.points:           # identical games, as many of them (a limit: fewer)
        groups.setdefault((p.game_key(), spec.games_of(p.label)), []).append(p)
    done = {p.label: 0 for p in spec.points}
    jobs = []
    for k, first, count in spec.chunks():
        for (_, games), points in groups.items():
            if first >= games:
                continue
            n = min(count, games - first)
            missing = []
            for p in points:
                path = folder.chunk_path(p.label, k) if folder else None
                if path is not None and path.exists() and \
                        chunk_ok(path, _meta(run, p.label, k, first, n, spec.seed)):
                    done[p.label] += n
                else:
                    missing.append(p)
                if checked is not None and folder is not None:
                    checked(1)
            if missing:
                jobs.append(Job(k, first, n, missing))
    return jobs, done


def manifest(spec: Spec, run: str, created: str | None = None) -> dict:
    return {"format": FORMAT, "run": run, "name": spec.name, "description": spec.description,
            "source": spec.source, "games": spec.games, "identity": spec.identity(),
            "limits": dict(spec.limits),
            "grid": spec.grid, "skipped": list(spec.skipped), "claims": spec.claims,
            "engine": engine_hash(),
            "table": TABLE_VERSION, "versions": versions(),
            "created": created or time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "updated": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def frames(records: np.ndarray, points: list[Point], seed: int, first: int):
    """``(point, table)`` of one chunk for each point of a group, as Arrow tables: today's
    per-game columns led by ``setting`` and ``allocation``. The points play the same games, so
    the table is built and converted once; only what differs -- the labels and the tie-break
    columns -- is replaced per point."""
    df = PS.records_frame(records, points[0].settings, seed, first)
    n = len(df)
    df.insert(0, "allocation", pd.Categorical.from_codes(np.zeros(n, np.int8),
                                                        categories=[points[0].allocation]))
    df.insert(0, "setting", pd.Categorical.from_codes(np.zeros(n, np.int8),
                                                     categories=[points[0].label]))
    base = pa.Table.from_pandas(df, preserve_index=False)

    def constant(value: str) -> pa.Array:
        return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int8)),
                                              pa.array([value]))

    for p in points:
        table = base
        if p is not points[0]:
            table = table.set_column(0, "setting", constant(p.label))
            table = table.set_column(1, "allocation", constant(p.allocation))
            if p.settings.tiebreak != points[0].settings.tiebreak:
                for name, col in PS.tiebreak_columns(records, p.settings).items():
                    i = table.schema.get_field_index(name)
                    table = table.set_column(i, name, pa.array(col))
        yield p, table


def run_sweep(spec: Spec, out, *, force_new: bool = False, threads: int | None = None,
              scheduler: str | None = None, workers: int | None = None,
              progress: Callable[[int], None] | None = None,
              setting_done: Callable[[str, int], None] | None = None,
              started: Callable[[int, int], None] | None = None,
              stop: Callable[[], bool] = lambda: False,
              watch: Watch | None = None) -> Outcome:
    """Play what ``out`` still lacks of ``spec``. ``started(done, total)`` is called once the
    folder is checked, ``progress(rows)`` after each chunk is committed, ``setting_done(label,
    games)`` when a point's last chunk is; ``stop()`` is asked after each chunk (True: leave,
    the folder stays resumable). ``watch`` (``experiments.store.watch``) is told the phases:
    starting the Dask cluster, checking the chunk files of a resumed folder, and playing (rows
    written of all rows, those already there as done). Raises ``RunError`` (one line) before
    writing anything when the folder cannot be used."""
    t0 = time.perf_counter()
    identity = spec.identity()
    run = run_id(identity)
    folder, old = prepare(out, identity, force_new)
    if old is not None and old.get("games", 0) > spec.games:
        raise RunError(f"{out} already holds {old['games']} games per setting, more than the "
                       f"{spec.games} asked; ask for {old['games']} or more, or use --force-new")
    w = watching(watch, progress)
    cluster = Cluster(scheduler, workers, w) if scheduler else None   # reachable, or RunError
    created: list[Path] = []
    held: list[bool] = []                       # the lock was ours (not another sweep's)
    try:
        created = _make_folder(folder.path)
        return _play(spec, folder, old, run, force_new, threads, cluster, w,
                     setting_done, started, stop, t0, held)
    except BaseException:
        # nothing of this sweep is left where it wrote no chunk: a folder it made goes
        if created and not _chunks_in(folder.path):
            if held:
                _unmake(folder, created)
            else:
                _rmdirs(created)                # only if empty: another sweep's stays
        raise
    finally:
        if cluster is not None:
            cluster.close()


def _make_folder(path: Path) -> list[Path]:
    """Make the run folder and its missing parents; the ones made, deepest first."""
    top = existing_ancestor(path)
    made = []
    at = path
    while at != top and at != at.parent:
        made.append(at)
        at = at.parent
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        _rmdirs(made)                            # what was made before the error: gone
        raise RunError(f"cannot make the run folder {path} ({e.strerror or e}); choose "
                       f"another --out") from None
    return made


def _rmdirs(dirs: list[Path]) -> None:
    for d in dirs:                               # deepest first; only empty ones
        try:
            d.rmdir()
        except OSError:
            break


def _chunks_in(path: Path) -> bool:
    try:
        return any(p.suffix == ".parquet" and not p.name.startswith(".")
                   for p in path.iterdir())
    except OSError:
        return True


def _unmake(folder: RunFolder, created: list[Path]) -> None:
    """Remove a folder this sweep made and wrote no chunk into: its manifest, temporaries
    and lock (all of them this sweep's: nobody else knew the folder), then the folders."""
    for p in folder.ours():
        with contextlib.suppress(OSError):
            p.unlink()
    _rmdirs(created)


def _play(spec, folder, old, run, force_new, threads, cluster, w, setting_done, started,
          stop, t0, held: list) -> Outcome:
    """Under the lock: stale temporaries go at once; the folder itself is changed (cleared
    with ``force_new``, the manifest written) only once the first chunk has been played, so a
    sweep that fails before that -- a plug-in that raises, an engine that will not load --
    leaves the folder as it was."""
    outcome = Outcome()
    labels = [p.label for p in spec.points]
    begun = False

    def begin():                                # the first change to the folder
        nonlocal begun
        if begun:
            return
        try:
            if force_new:
                clear(folder, labels)
            folder.write_manifest(manifest(spec, run, old.get("created") if old else None))
        except OSError as e:
            raise RunError(f"cannot write in {folder.path} ({e.strerror or e}); choose "
                           f"another --out") from None
        begun = True

    with folder.locked():
        held.append(True)
        folder.remove_temporaries()
        if old is not None:
            w.begin("checking the chunk files already there",
                    sum(len(spec.chunks(spec.games_of(p.label))) for p in spec.points),
                    unit="chunk file")
        jobs, done = plan(spec, folder if old is not None else None, run, checked=w.update)
        outcome.games_total = sum(spec.games_of(p.label) for p in spec.points)
        outcome.games_done = sum(done.values())
        if not jobs:
            begin()
        if started:
            started(outcome.games_done, outcome.games_total)
        w.begin("playing", outcome.games_total, outcome.games_done)
        left = {p.label: 0 for p in spec.points}
        for job in jobs:
            for p in job.points:
                left[p.label] += 1
        for label, n in left.items():
            if n == 0:
                outcome.settings_done.append(label)
        results = _remote(cluster, jobs, spec) if cluster else _local(jobs, spec, threads)

        def commit(job, records):                   # in the writer thread
            begin()
            for p, df in frames(records, job.points, spec.seed, job.first):
                path = folder.chunk_path(p.label, job.k)
                try:
                    write_chunk(path, df,
                                _meta(run, p.label, job.k, job.first, job.count, spec.seed))
                except OSError as e:
                    raise RunError(f"cannot write {path} ({e.strerror or e}); the chunks "
                                   f"written so far stay, and the same command resumes") \
                        from None

        def committed(job):                         # back in this thread: count it
            outcome.games_written += job.count * len(job.points)
            outcome.games_done += job.count * len(job.points)
            for p in job.points:
                left[p.label] -= 1
                w.update(job.count)
                if left[p.label] == 0:
                    outcome.settings_done.append(p.label)
                    if setting_done:
                        setting_done(p.label, spec.games_of(p.label))

        # chunk j is written while chunk j+1 plays (the engine releases the GIL); at most one
        # write is pending, so memory stays at two chunks' records
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="sweep-writer") as writer:
            pending = None
            try:
                for job, records, seconds in results:
                    outcome.seconds_playing += seconds
                    outcome.games_played += job.count
                    if pending is not None:
                        pending[0].result()
                        committed(pending[1])
                    pending = (writer.submit(commit, job, records), job)
                    if seconds >= PROMPT_AFTER:     # a dear chunk: count it now, not after
                        pending[0].result()         # the next one has played (minutes)
                        committed(job)
                        pending = None
                    if stop():
                        outcome.stopped = True
                        break
                if pending is not None:
                    pending[0].result()
                    committed(pending[1])
                    pending = None
            finally:
                results.close()
                if pending is not None:          # an error or a second Ctrl-C: let the file
                    pending[0].exception()       # land or vanish whole before leaving
    outcome.seconds = time.perf_counter() - t0
    return outcome


# ------------------------------------------------------------------------------ executors
def _local(jobs: list[Job], spec: Spec, threads: int | None) -> Iterator:
    """Jobs on the threaded engine in this process (results identical for any thread count)."""
    with PS.numba_threads(threads):
        for job in jobs:
            t = time.perf_counter()
            records = PS.run_records(job.settings, spec.seed, job.first, job.count)
            yield job, records, time.perf_counter() - t


def play_chunk(settings, seed: int, first: int, count: int,
               plugins: tuple[str, ...] = ()) -> tuple[str, np.ndarray]:
    """A Dask task: one chunk's raw records on one numba thread, with the worker's engine hash
    (the client refuses records from other engine sources). The spec's plug-in files are
    loaded first (each worker needs them at the same path)."""
    load_plugins(plugins)
    with PS.numba_threads(1):
        return engine_hash(), PS.run_records(settings, seed, first, count)


def _remote(cluster: Cluster, jobs: list[Job], spec: Spec) -> Iterator:
    """Jobs as Dask tasks (``Cluster.window``); a worker whose engine sources differ from
    this process's is refused: its records would not be this engine's games."""
    tasks = ((job, play_chunk, (job.settings, spec.seed, job.first, job.count, spec.plugins))
             for job in jobs)
    for job, (worker_hash, records), seconds in cluster.window(tasks):
        if worker_hash != engine_hash():
            raise RunError(f"a Dask worker runs other engine sources ({worker_hash}; here "
                           f"{engine_hash()}); install the same survive-sim on every "
                           f"worker")
        yield job, records, seconds
