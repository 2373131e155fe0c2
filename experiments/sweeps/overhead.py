"""What a sweep costs beyond its games (``survive-sim bench --sweep SPEC``).

The same grid three ways, interleaved run by run so that the machine's slow and fast moments
fall on all of them: the raw engine playing each distinct game setting's chunks and keeping
nothing; the sweep into a fresh folder on the threaded engine (chunk bookkeeping, Parquet
writes, the manifest); the sweep on a Dask LocalCluster of ``workers`` processes. The ratios
are of the best run of each (other load only ever slows a run) and the median of the runs'
pairwise ratios. Statistics are not part of a sweep and are not timed.
"""
from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path

import play.simulate as PS          # module attributes: the fuzz harness patches run_records

from .spec import Spec
from .sweep import run_sweep


def _raw(spec: Spec, threads: int | None) -> float:
    groups = {}
    for p in spec.points:
        groups.setdefault(p.game_key(), p.settings)
    t = time.perf_counter()
    with PS.numba_threads(threads):
        for _, first, count in spec.chunks():
            for settings in groups.values():
                PS.run_records(settings, spec.seed, first, count)
    return time.perf_counter() - t


def _swept(spec: Spec, root: Path, **how) -> float:
    out = root / "run"
    shutil.rmtree(out, ignore_errors=True)
    t = time.perf_counter()
    run_sweep(spec, out, **how)
    seconds = time.perf_counter() - t
    shutil.rmtree(out, ignore_errors=True)
    return seconds


def measure(spec: Spec, repeat: int = 3, threads: int | None = None,
            workers: int | None = None, report=print) -> dict:
    """Seconds of each way per run, and the ratios; ``report`` gets a line per run."""
    PS.run_records(spec.points[0].settings, spec.seed, 10**15, 2)            # load the engine
    times: dict[str, list[float]] = {"raw": [], "sweep": []}
    if workers:
        times["dask"] = []
    with tempfile.TemporaryDirectory(prefix="survive-sim-bench-") as tmp:
        root = Path(tmp)
        for k in range(repeat):
            times["raw"].append(_raw(spec, threads))
            times["sweep"].append(_swept(spec, root, threads=threads))
            if workers:
                times["dask"].append(_swept(spec, root, scheduler="local", workers=workers))
            report(f"run {k + 1}: " + ", ".join(f"{name} {v[-1]:.2f} s"
                                                for name, v in times.items()))
    out = {"times": times}
    out["sweep_over_raw"] = (min(times["sweep"]) / min(times["raw"]),
                             statistics.median(s / r for s, r in zip(times["sweep"],
                                                                      times["raw"])))
    if workers:
        out["dask_over_sweep"] = (min(times["dask"]) / min(times["sweep"]),
                                  statistics.median(d / s for d, s in zip(times["dask"],
                                                                          times["sweep"])))
    return out
