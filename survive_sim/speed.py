"""Speed: games per second of the engine (``survive-sim bench``), what a sweep costs beyond its
games (``bench --sweep``), and the machine they were measured on. Part of the Python API
(``survive_sim.api``, docs/python.md).

A timing is only ever a lower bound of what the machine can do: other load only slows a run,
so each cell reports the best of its repeats (as ``timeit``), and the slowest beside it (on a
shared machine the spread is the noise).
"""
from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

import numba
import pandas as pd

import play.simulate as PS          # module attributes: the fuzz harness patches run_records
from experiments.sweeps import overhead
from experiments.sweeps.spec import Spec, SpecError, chunk_files_problem
from play.settings import Settings, SettingsError, parse_player_counts

from . import checks
from .games import settings as make_settings
from .runs import spec

BENCH_COLUMNS = ["players", "strategy", "threads", "games", "best", "slowest"]


def machine() -> str:
    """One line: CPU model, physical cores (from /proc/cpuinfo), logical and usable CPUs,
    numba's threads, Python and the OS."""
    model, cores = "unknown CPU", set()
    try:
        phys = core = None
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition(":")
                key, value = key.strip(), value.strip()
                if key == "model name" and model == "unknown CPU":
                    model = value
                elif key == "physical id":
                    phys = value
                elif key == "core id":
                    core = value
                    cores.add((phys, core))
    except OSError:
        model = platform.processor() or model
    logical = os.cpu_count() or 1
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = logical
    physical = f"{len(cores)} physical cores, " if cores else ""
    return (f"machine: {model}; {physical}{logical} logical CPUs ({usable} usable); "
            f"numba {numba.__version__} with {numba.config.NUMBA_NUM_THREADS} threads; "
            f"Python {platform.python_version()}; {platform.system()} {platform.machine()}")


def thread_counts(threads: Sequence[int | None]) -> list[int]:
    """Each thread count as numba runs it (None: all of numba's threads; at most those),
    each once, in the given order."""
    most = numba.config.NUMBA_NUM_THREADS
    if threads is None or checks.is_whole(threads):
        threads = [threads]                     # one count
    if isinstance(threads, (str, bytes)) or not hasattr(threads, "__iter__"):
        raise SettingsError(f"threads must be a thread count or a list of them (each a whole "
                            f"number >= 1, or None for all of numba's), got {threads!r}",
                            "--threads")
    threads = list(threads)
    if not threads:
        raise SettingsError("threads must name at least one thread count (None: all of "
                            "numba's)", "--threads")
    for n in threads:
        if n is not None and (not checks.is_whole(n) or n < 1):
            raise SettingsError(f"a thread count must be a whole number >= 1 or None, got "
                                f"{n!r}", "--threads")
    return list(dict.fromkeys(min(n or most, most) for n in threads))


def bench(players: str | Sequence[int] = (2, 3, 4, 5, 6),
          strategies: Sequence[str] = ("random", "greedy"),
          threads: Sequence[int | None] = (1, None), *, games: int | None = None,
          seconds: float = 2.0, repeat: int = 3, seed: int = 0,
          challenges: str | Sequence[int] = (), max_games: int | None = None,
          on_row: Callable[[dict], None] | None = None,
          started: Callable[[dict[tuple[int, str], Settings]], None] | None = None,
          **rules) -> pd.DataFrame:
    """Games per second of ``play.simulate.simulate`` per player count, strategy (in every
    seat) and thread count, as ``survive-sim bench`` measures them: one row per cell, in that
    order, with ``players``, ``strategy``, ``threads``, ``games`` (n, the games per timed run),
    ``best`` and ``slowest`` (games per second of the fastest and the slowest of ``repeat``
    runs of the same games). ``.attrs["machine"]``: the ``machine()`` line.

    ``players``: a list or the CLI's ``"2,3,4"``; ``threads``: the thread counts (None: all
    of numba's), each measured once; ``games``: per run (default: about ``seconds`` of play,
    sized from a short probe, at most ``max_games``); ``challenges`` and ``rules``
    (``dolphins``, ``squid`` ...): the rules in force while timing. Bad input raises
    ``SettingsError`` before anything is timed. ``started(cells)`` gets every cell's
    ``Settings`` by ``(players, strategy)`` before the engine is loaded; ``on_row(row)`` each
    row as it is measured. A ``MemoryError`` of a timed run carries ``.games``, its size.

    As the CLI: ``seconds`` 0.1 to 600, ``repeat`` 1 to 100, ``games`` such that a timed run's
    table fits in the memory available (``checks.GAME_BYTES`` per game)."""
    E = SettingsError
    if isinstance(players, str):
        counts = parse_player_counts(players)
    else:
        counts = (players,) if checks.is_whole(players) else players
        if isinstance(counts, bytes) or not hasattr(counts, "__iter__"):
            raise SettingsError(f"players must be a player count, a list of them or the CLI's "
                                f"\"2,3,4\", got {players!r}", "--players")
        counts = tuple(counts)
    if isinstance(strategies, str):
        strategies = [s.strip() for s in strategies.split(",") if s.strip()]   # as the CLI's
    strategies = checks.names(strategies, "strategies", error=E)
    if not counts or not strategies:
        raise SettingsError("bench needs at least one player count and one strategy",
                            "--players" if not counts else "--strategies")
    cells = {(p, s): make_settings(p, s, challenges=challenges, **rules)
             for p in counts for s in strategies}
    repeat = checks.whole(repeat, "repeat", 1, 100, error=E)
    seconds = checks.number(seconds, "seconds", 0.1, 600, error=E)
    seed = checks.seed(seed, error=E)
    max_games = checks.optional_whole(max_games, "max_games", error=E)
    checks.callback(on_row, "on_row", error=E)
    checks.callback(started, "started", error=E)
    ns = thread_counts(threads)
    # the cells' first game indices are 1,000,000 x (1 + k): the last game must fit in int64
    games = checks.optional_whole(games, "games", 1, checks.INDEX_MAX - 1_000_000 * len(ns),
                                  error=E)
    problem = games and checks.memory_problem(games, checks.GAME_BYTES, "games",
                                              "a timed run holds its whole table")
    if problem:
        raise SettingsError(problem, "--games")
    if started is not None:
        started(cells)
    for n in ns:                                          # warm up: load/compile, threads
        with PS.numba_threads(n):
            PS.run_records(Settings(players=4), seed, 0, 2 * n)
    rows = []
    for (p, s), st in cells.items():
        for k, n_threads in enumerate(ns):
            n, best, slowest = _time(st, n_threads, 1_000_000 * (1 + k), games, seconds,
                                     repeat, seed, max_games)
            row = {"players": p, "strategy": s, "threads": n_threads, "games": n,
                   "best": best, "slowest": slowest}
            rows.append(row)
            if on_row is not None:
                on_row(row)
    table = pd.DataFrame(rows, columns=BENCH_COLUMNS)
    table.attrs["machine"] = machine()
    return table


def _time(st: Settings, threads: int, first: int, games: int | None, seconds: float,
          repeat: int, seed: int, max_games: int | None) -> tuple[int, float, float]:
    """``(n, best, slowest)`` of one cell: ``repeat`` runs of the same ``n`` games."""
    with PS.numba_threads(threads):
        n = games
        if n is None:                                     # size the runs from a probe
            probe = 32 * threads
            t0 = time.perf_counter()
            PS.run_records(st, seed, first, probe)
            rate = probe / max(time.perf_counter() - t0, 1e-9)
            n = max(probe, int(rate * seconds))
            if max_games is not None:                     # a run holds its whole table
                n = max(probe, min(n, max_games))
        rates = []
        for _ in range(repeat):                           # the same games each run
            t0 = time.perf_counter()
            try:
                PS.simulate(st, n, seed, first=first, threads=threads)
            except MemoryError as e:                      # other processes took the memory
                e.games = n
                raise
            rates.append(n / max(time.perf_counter() - t0, 1e-9))
    return n, max(rates), min(rates)


def bench_sweep(source: str | os.PathLike | dict | Spec, *, games: int | None = None,
                repeat: int = 3, threads: int | None = None, workers: int | None = None,
                report: Callable[[str], None] | None = None) -> dict:
    """What the sweep ``source`` (a ``Spec``, a study's name, an experiment file or a dict:
    ``spec``; ``games`` per setting) costs beyond its games, as ``survive-sim bench --sweep``
    measures it (``experiments.sweeps.overhead``): the raw engine on the same games, the threaded
    sweep into a fresh folder and, with ``workers``, a Dask LocalCluster of that many
    processes, interleaved ``repeat`` times. Returns ``times`` (seconds of each run, per way),
    ``sweep_over_raw`` and, with workers, ``dask_over_sweep`` (each: the ratio of the best
    runs, the median of the paired runs' ratios). ``report`` gets a line per run."""
    repeat = checks.whole(repeat, "repeat", 1, 100)
    threads, workers = checks.threads(threads), checks.threads(workers, "workers")
    checks.callback(report, "report")
    if isinstance(source, Spec):
        sp = source
        if games is not None:
            games = checks.whole(games, "games", error=SpecError)
            problem = chunk_files_problem(games, source.chunk, len(source.points))
            if problem:
                raise SpecError(f"games: {problem}")
            sp = replace(source, games=games)
    else:
        sp = spec(source) if games is None else spec(source, games=games)
    return overhead.measure(sp, repeat=repeat, threads=threads, workers=workers or None,
                            report=report or (lambda line: None))
