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
from experiments.capture import ask_seat, capture
from experiments.sweeps import overhead
from experiments.sweeps.spec import Spec, SpecError, chunk_files_problem
from play.search import M_ITERATIONS, seat_function
from play.settings import Settings, SettingsError, parse_player_counts
from play.stepper import Stepper, StrategyAnswers
from strategies import search as SR
from strategies.registry import StrategyError, canonical, param_row, parse_spec

from . import checks
from .games import env as make_env
from .games import settings as make_settings
from .runs import spec

BENCH_COLUMNS = ["players", "strategy", "threads", "games", "best", "slowest"]
SEARCH_COLUMNS = ["players", "budget", "way", "decisions", "iterations", "best", "slowest"]
GAME_COLUMNS = ["players", "budget", "seats", "games", "seconds", "slowest"]
ENV_COLUMNS = ["players", "way", "games", "steps", "best", "slowest", "games_per_s"]
# how ``bench_env`` plays the same games (``random``'s answers, seed by seed): the compiled
# engine (the limit); the stepper alone, a question at a time (``play.stepper``); PettingZoo's
# loop over the environment with a masked random agent (``last``, ``observe``, ``step``)
ENV_WAYS = ("engine", "stepper", "env")
# how ``bench_search`` runs the same iterations: the search itself; its playouts on drawn
# worlds with no tree (``search:bare=2``); its playouts from the real table with no tree and no
# worlds (``bare=1``), the engine's own game from the decision: the limit
SEARCH_WAYS = {"tree": 0, "worlds": 2, "playouts": 1}
SEARCH_CALLS = (5, 25, 45, 65)          # the questions timed, in turn over the games


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


def _search_spec(spec: str, error=SettingsError):
    """``(canonical spec, parameter row)`` of a strategy that re-enters the game (``search``)."""
    try:
        strategy = parse_spec(spec)[0]
        text = canonical(spec)
    except StrategyError as e:
        raise error(str(e), "--search") from None
    if not strategy.reenters:
        raise error(f"bench --search times a strategy that re-enters the game (search), got "
                    f"{spec!r}", "--search")
    return text, param_row(text)


def _search_counts(players) -> tuple[int, ...]:
    counts = parse_player_counts(players) if isinstance(players, str) else tuple(players)
    if not counts:
        raise SettingsError("bench --search needs at least one player count", "--players")
    return counts


def _search_table(rows: list[dict], columns: list[str], spec: str) -> pd.DataFrame:
    table = pd.DataFrame(rows, columns=columns)
    table.attrs["machine"] = machine()
    table.attrs["spec"] = spec
    return table


def bench_search(spec: str = "search:rollout=random",
                 budgets: Sequence[int] = (16, 64, 256, 1024, 4096),
                 players: str | Sequence[int] = (4, 5, 6), *, decisions: int = 8,
                 repeat: int = 3, seed: int = 0,
                 on_row: Callable[[dict], None] | None = None,
                 started: Callable[[str], None] | None = None) -> pd.DataFrame:
    """Iterations per second of one search seat, as ``survive-sim bench --search`` measures
    them: for each player count, ``decisions`` questions of real games
    (``experiments.capture``: seat 0 of game k, its ``SEARCH_CALLS[k % 4]``-th question, every
    other seat ``greedy``) are put to the search ``spec`` at each budget, in each of
    ``SEARCH_WAYS``: ``tree`` (the search), ``worlds`` (the same playouts on drawn worlds, no
    tree) and ``playouts`` (the same playouts from the real table: the engine's own game from
    the decision, the limit). One thread. A row per (players, budget, way): ``iterations``
    over the decisions, ``best`` and ``slowest`` iterations per second of ``repeat`` runs.
    The tree's overhead over bare playouts is ``best(playouts) / best(tree) - 1``. Bad input
    raises ``SettingsError`` before anything is timed; ``started(spec)`` then gets the
    canonical spec, ``on_row`` each row as it is measured."""
    E = SettingsError
    text, row = _search_spec(spec)
    counts = _search_counts(players)
    budgets = [checks.whole(b, "budget", 1, 100_000, error=E) for b in budgets]
    if not budgets:
        raise E("bench --search needs at least one budget", "--budgets")
    decisions = checks.whole(decisions, "decisions", 1, 1000, error=E)
    repeat = checks.whole(repeat, "repeat", 1, 100, error=E)
    seed = checks.seed(seed, error=E)
    checks.callback(on_row, "on_row", error=E)
    checks.callback(started, "started", error=E)
    games = {p: make_settings(p, "greedy") for p in counts}     # checks the counts
    if started is not None:
        started(text)
    fn = seat_function(text)
    rows = []
    with PS.numba_threads(1):
        for p in counts:
            game = games[p]
            asked = []
            for k in range(decisions):
                d = capture(game, seed, k, 0, SEARCH_CALLS[k % len(SEARCH_CALLS)])
                asked.append(d if d is not None else capture(game, seed, k, 0, 1))
            for budget in budgets:
                for way, bare in SEARCH_WAYS.items():
                    par = row.copy()
                    par[SR.P_BUDGET] = budget
                    par[SR.P_BARE] = bare
                    times, iterations = [], 0
                    for _ in range(repeat):
                        t, iterations = 0.0, 0
                        for d in asked:
                            t0 = time.perf_counter()
                            _, mem = ask_seat(fn, par, d)
                            t += time.perf_counter() - t0
                            iterations += int(mem[M_ITERATIONS])
                        times.append(max(t, 1e-9))
                    out = {"players": p, "budget": budget, "way": way,
                           "decisions": len(asked), "iterations": iterations,
                           "best": iterations / min(times), "slowest": iterations / max(times)}
                    rows.append(out)
                    if on_row is not None:
                        on_row(out)
    return _search_table(rows, SEARCH_COLUMNS, text)


def bench_search_games(spec: str = "search", players: str | Sequence[int] = (4, 5, 6), *,
                       games: int = 2, repeat: int = 1, seed: int = 0,
                       on_row: Callable[[dict], None] | None = None) -> pd.DataFrame:
    """Seconds per game with one search seat (``spec``, seat 0; its rollout rung in the
    others) and with ``spec`` in every seat, one thread, ``games`` games per run: a row per
    (players, seats) with ``seconds`` per game of the best and the slowest of ``repeat``
    runs."""
    E = SettingsError
    text, row = _search_spec(spec)
    counts = _search_counts(players)
    games = checks.whole(games, "games", 1, 10_000, error=E)
    repeat = checks.whole(repeat, "repeat", 1, 100, error=E)
    seed = checks.seed(seed, error=E)
    checks.callback(on_row, "on_row", error=E)
    rung = SR.ROLLOUTS[int(row[SR.P_ROLLOUT])]
    cells = {(p, seats): Settings(players=p, strategies=line) for p in counts
             for seats, line in (("one", (text,) + (rung,) * (p - 1)), ("every", (text,) * p))}
    rows = []
    for (p, seats), st in cells.items():
        st.strategy_functions                           # compile before timing
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            PS.simulate(st, games, seed, threads=1)
            times.append((time.perf_counter() - t0) / games)
        out = {"players": p, "budget": int(row[SR.P_BUDGET]), "seats": seats, "games": games,
               "seconds": min(times), "slowest": max(times)}
        rows.append(out)
        if on_row is not None:
            on_row(out)
    return _search_table(rows, GAME_COLUMNS, text)


def bench_env(players: str | Sequence[int] = (2, 3, 4, 5, 6), *, games: int = 5,
              repeat: int = 3, seed: int = 0,
              on_row: Callable[[dict], None] | None = None) -> pd.DataFrame:
    """Decisions per second of the environment (docs/env.md), one thread, ``games`` games per
    run: a row per (players, way of ``ENV_WAYS``) with ``best`` and ``slowest`` steps per
    second of ``repeat`` runs and the games per second of the best. Every way plays the same
    games with ``random``'s answers, so the steps are the questions of those games. Needs the
    ``env`` extra."""
    E = SettingsError
    counts = parse_player_counts(players if isinstance(players, str)
                                 else ",".join(map(str, players)))
    games = checks.whole(games, "games", 1, 10_000, error=E)
    repeat = checks.whole(repeat, "repeat", 1, 100, error=E)
    seed = checks.seed(seed, error=E)
    checks.callback(on_row, "on_row", error=E)
    rows = []
    for p in counts:
        settings = Settings(players=p)
        stepper, answers, e = Stepper(settings), StrategyAnswers("random"), make_env(players=p)
        steps = 0
        for g in range(games):                       # the questions; compiles before timing
            q = stepper.reset(seed, g)
            while q is not None:
                q = stepper.answer(answers(stepper))
                steps += 1
        PS.run_records(settings, seed, 0, 1)

        def engine():
            with PS.numba_threads(1):
                PS.run_records(settings, seed, 0, games)

        def stepped():
            for g in range(games):
                q = stepper.reset(seed, g)
                while q is not None:
                    q = stepper.answer(answers(stepper))

        def env_loop():
            e.reset(seed=seed)
            for g in range(games):
                if g:
                    e.reset()
                for agent in e.agent_iter():
                    obs, _, done, cut, _ = e.last()
                    e.step(None if done or cut else answers(e.unwrapped.stepper))

        for way, fn in zip(ENV_WAYS, (engine, stepped, env_loop)):
            times = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                fn()
                times.append(time.perf_counter() - t0)
            out = {"players": p, "way": way, "games": games, "steps": steps,
                   "best": steps / min(times), "slowest": steps / max(times),
                   "games_per_s": games / min(times)}
            rows.append(out)
            if on_row is not None:
                on_row(out)
    return pd.DataFrame(rows, columns=ENV_COLUMNS)
