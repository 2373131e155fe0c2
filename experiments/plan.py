"""``sweep --plan``: what a sweep will play, how long it should take, how precise it will be.

Nothing of the sweep is played: the time comes from a short timed sample of games of each
distinct game setting on this machine (a few hundred games, under a second each), and the
precision is the 95% half-width of a seat's win share at the fair share 1/N with the games
asked (``experiments.stats.share_precision``).
"""
from __future__ import annotations

import time

from .spec import Spec

SAMPLE_SECONDS = 0.4          # timed play per distinct game setting
FAR = 10**15                  # timing games come from far past any sweep's indices


def _groups(spec: Spec) -> dict[tuple, list]:
    out: dict[tuple, list] = {}
    for p in spec.points:
        out.setdefault(p.game_key(), []).append(p)
    return out


def rates(spec: Spec, threads: int | None = None, watch=None) -> dict[tuple, float]:
    """Games per second of each distinct game setting on ``threads`` engine threads;
    ``watch`` (``experiments.watch``) sees the engine load and the timings."""
    from simulator.simulate import numba_threads, run_records

    from .watch import watching
    w = watching(watch)
    out = {}
    groups = _groups(spec)
    with numba_threads(threads):
        w.begin("loading the engine")
        run_records(spec.points[0].settings, spec.seed, FAR, 2)      # load the engine
        w.begin("timing each distinct setting", len(groups), unit="setting")
        for key, points in groups.items():
            n, spent = 16, 0.0
            while spent < SAMPLE_SECONDS:
                t = time.perf_counter()
                run_records(points[0].settings, spec.seed, FAR, n)
                spent = time.perf_counter() - t
                if spent < SAMPLE_SECONDS:
                    n *= 4
            out[key] = n / spent
            w.update(1)
    return out


def _duration(seconds: float) -> str:
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def describe(spec: Spec, threads: int | None = None, workers: int | None = None,
             watch=None) -> str:
    """The plan as text: one line per setting, then the totals and the estimated time
    (``watch`` sees the timing, ``rates``)."""
    from .stats import share_precision
    from .summary import align
    groups = _groups(spec)
    play = len(groups) * spec.games
    lines = [f"sweep {spec.name} ({spec.source}): seed {spec.seed}, {spec.games:,} games per "
             f"setting in chunks of {spec.chunk:,}",
             f"{len(spec.points)} settings, {len(groups)} distinct games (settings that differ "
             f"only in the tie-break, or whose named boats are equal, are played once): "
             f"{play:,} games to play, {spec.games * len(spec.points):,} rows to write", ""]
    rows = []
    for p in spec.points:
        s = p.settings
        half = share_precision(spec.games, s.players)
        rows.append([p.label, str(s.players), ",".join(map(str, s.boats)), f"{spec.games:,}",
                     f"1/{s.players} = {100 / s.players:.1f}%", f"+-{100 * half:.2f} pp"])
    lines += align(["setting", "players", "boats", "games", "fair share",
                    "seat share 95% half-width"], rows, right={3})
    threads_used = 1 if workers else threads
    speed = rates(spec, threads_used, watch)
    seconds = sum(spec.games / speed[key] for key in groups)
    if workers:
        seconds /= workers
        where = f"{workers} Dask worker(s), one engine thread each"
    else:
        import numba
        where = f"{threads or numba.config.NUMBA_NUM_THREADS} engine thread(s)"
    lines += ["", f"estimated time: {_duration(seconds)} on {where} (timed on a sample of each "
                  f"distinct setting on this machine; writing adds a few per cent)"]
    for s in spec.skipped:
        lines.append(f"skipped: {s}")
    return "\n".join(lines)
