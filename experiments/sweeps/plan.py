"""``sweep --plan``: what a sweep will play, how long it should take, how precise it will be.

Nothing of the sweep is played: the time comes from a short timed sample of games of each kind
of setting on this machine (a few hundred games, under a second each; settings that differ only
in boats or turn cap are one kind, and a grid of many kinds times ``MAX_TIMED`` of them in about
``BUDGET_SECONDS``, so that even thousands of settings plan in seconds), and the
precision is the 95% half-width of a seat's win share at the fair share 1/N with the games
asked (``experiments.tables.stats.share_precision``).
"""
from __future__ import annotations

import time

from play.simulate import numba_threads, run_records

from ..store.watch import watching
from ..tables.stats import share_precision
from ..tables.summary import align
from .spec import Spec

SAMPLE_SECONDS = 0.4          # timed play per timed setting (less when many are timed)
BUDGET_SECONDS = 6.0          # timed play in all: a grid of thousands of settings plans in seconds
MAX_TIMED = 24                # speed classes timed at most; the others are estimated from them
FAR = 10**15                  # timing games come from far past any sweep's indices


def _groups(spec: Spec) -> dict[tuple, list]:
    out: dict[tuple, list] = {}
    for p in spec.points:
        out.setdefault(p.game_key(), []).append(p)
    return out


def _speed_key(settings) -> tuple:
    """What sets a setting's speed: all but the tie-break (games are shared), the boats and
    the turn cap (a game runs the same turns until the cap; a lower one only shortens it)."""
    d = settings.to_dict()
    for key in ("tiebreak", "boats_per_seat", "max_turns"):
        d.pop(key, None)
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in d.items()))


def _pick(classes: dict[tuple, object], n: int) -> list[tuple]:
    """Up to ``n`` speed classes to time: one of each (players, strategies) first, then
    spread evenly over the rest."""
    keys = list(classes)
    if len(keys) <= n:
        return keys
    first, seen = [], set()
    for k in keys:
        s = classes[k]
        if (s.players, s.strategies) not in seen:
            seen.add((s.players, s.strategies))
            first.append(k)
    chosen = first[:n]
    rest = [k for k in keys if k not in set(chosen)]
    step = len(rest) / max(1, n - len(chosen))
    chosen += [rest[int(i * step)] for i in range(n - len(chosen))]
    return chosen


def rates(spec: Spec, threads: int | None = None, watch=None, timed_out: list | None = None
          ) -> dict[tuple, float]:
    """Games per second of each distinct game setting on ``threads`` engine threads: settings
    that differ only in their boats or turn cap share a timing, and at most ``MAX_TIMED`` of
    those speed classes are timed (about ``BUDGET_SECONDS`` in all); the others get the mean
    rate of the timed ones with the same players and strategies (else the same players, else
    all). ``timed_out`` (a list) receives ``(timed, classes)``. ``watch``
    (``experiments.store.watch``) sees the engine load and the timings."""
    w = watching(watch)
    groups = _groups(spec)
    speed_of = {key: _speed_key(points[0].settings) for key, points in groups.items()}
    classes: dict[tuple, object] = {}
    for key, points in groups.items():
        classes.setdefault(speed_of[key], points[0].settings)
    timed_keys = _pick(classes, MAX_TIMED)
    sample = max(0.05, min(SAMPLE_SECONDS, BUDGET_SECONDS / len(timed_keys)))
    timed: dict[tuple, float] = {}
    with numba_threads(threads):
        w.begin("loading the engine")
        run_records(spec.points[0].settings, spec.seed, FAR, 2)      # load the engine
        w.begin("timing each distinct setting" if len(timed_keys) == len(classes) else
                f"timing {len(timed_keys)} of {len(classes)} kinds of setting",
                len(timed_keys), unit="setting")
        for c in timed_keys:
            n, spent = 16, 0.0
            while spent < sample:
                t = time.perf_counter()
                run_records(classes[c], spec.seed, FAR, n)
                spent = time.perf_counter() - t
                if spent < sample:
                    n *= 4
            timed[c] = n / spent
            w.update(1)
    if timed_out is not None:
        timed_out.append((len(timed_keys), len(classes)))
    by = {}
    for c, rate in timed.items():
        s = classes[c]
        for k in ((s.players, s.strategies), (s.players,), ()):
            by.setdefault(k, []).append(rate)

    def estimate(c):
        if c in timed:
            return timed[c]
        s = classes[c]
        for k in ((s.players, s.strategies), (s.players,), ()):
            if k in by:
                return sum(by[k]) / len(by[k])
    return {key: estimate(speed_of[key]) for key in groups}


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
    counted: list = []
    speed = rates(spec, threads_used, watch, counted)
    timed, kinds = counted[0]
    seconds = sum(spec.games / speed[key] for key in groups)
    if workers:
        seconds /= workers
        where = f"{workers} Dask worker(s), one engine thread each"
    else:
        import numba                # (after play.simulate, which points numba's cache first)
        where = f"{threads or numba.config.NUMBA_NUM_THREADS} engine thread(s)"
    sampled = ("a sample of each distinct setting" if timed == kinds else
               f"samples of {timed} of the {kinds} kinds of setting (the others estimated from "
               f"those of the same players and strategies)")
    lines += ["", f"estimated time: {_duration(seconds)} on {where} (timed on {sampled} on this "
                  f"machine; settings that differ only in boats or turn cap share a timing; "
                  f"writing adds a few per cent)"]
    for s in spec.skipped:
        lines.append(f"skipped: {s}")
    return "\n".join(lines)
