"""``survive-sim bench``: games per second per player count and strategy, with one thread and
with all (or ``--threads``) threads, after a description of the machine."""
from __future__ import annotations

import os
import time

import click

from .group import main
from .options import (
    FloatRange,
    IntRange,
    bad,
    challenges_label,
    checked,
    expansions_label,
    seed_option,
    settings_from,
)
from .progress import compile_note


def machine() -> str:
    """One line: CPU model, physical cores (from /proc/cpuinfo), logical and usable CPUs, numba's
    threads, Python and the OS."""
    import platform

    import numba
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


@main.command(short_help="Measure games per second (1 thread / all threads).")
@click.option("--games", type=IntRange(min=1), default=None,
              help="Games per run (default: about --seconds of play per run).")
@click.option("--seconds", type=FloatRange(min=0.1, max=600), default=2.0,
              show_default=True, help="Target time per run when --games is not given.")
@click.option("--repeat", type=IntRange(min=1, max=100), default=3, show_default=True,
              help="Runs per cell; the best is reported (other load only ever slows a run).")
@click.option("--players", "players_list", default="2,3,4,5,6", show_default=True,
              metavar="LIST", help="Player counts to measure (comma-separated, each 2-6).")
@click.option("--threads", type=IntRange(min=1), default=None,
              help="Threads of the multi-thread column (default: all).")
@click.option("--challenge", "challenges", default="", metavar="LIST",
              help="Challenges in force while timing (as for simulate; 6 only with 5-6 "
                   "players). Default: none (the base game).")
@click.option("--dolphins", is_flag=True, help="Time with X5 Dolphins & Dive Dice.")
@click.option("--squid", is_flag=True, help="Time with X7 the Giant Squid.")
@click.option("--squid-only", is_flag=True, help="X7.6: squid instead of whales (with --squid).")
@click.option("--sweep", "sweep_spec", default=None, metavar="SPEC",
              type=click.Path(dir_okay=False),
              help="Instead: time the sweep of experiment file SPEC (--games per setting) "
                   "against the raw engine on the same games, and on a Dask LocalCluster.")
@click.option("--workers", type=IntRange(min=1), default=None,
              help="With --sweep: Dask worker processes (default 2; needs dask).")
@seed_option
def bench(games, seconds, repeat, players_list, threads, challenges, dolphins, squid, squid_only,
          sweep_spec, workers, seed):
    """Games per second per player count, for `random` and `greedy` in every seat, with one
    thread and with all threads (or --threads). Each cell is the best of --repeat timed runs (as
    timeit reports), with the slowest run shown too: on a shared machine the spread is the
    noise. With --sweep, what a sweep costs beyond its games."""
    if sweep_spec is not None:
        if not sweep_spec.strip():
            bad("give an experiment file (or the name of a study that ships with survive-sim)",
                "--sweep")
        _bench_sweep(sweep_spec, games, repeat, threads, workers)
        return
    # a timed run holds its whole table (play.simulate.simulate): refuse what cannot fit
    from .simulate import GAME_BYTES, memory_available, size_text
    memory = memory_available()
    available = memory[0] if memory else None
    if games is not None and memory and games * GAME_BYTES > available:
        bad(f"--games {games:,} needs about {size_text(games * GAME_BYTES)} of memory (a timed "
            f"run holds its whole table, about {GAME_BYTES:,} bytes per game), and "
            f"{size_text(available)} is available ({memory[1]}); the largest --games that "
            f"fits is {available // GAME_BYTES:,}", "--games")
    from play.settings import parse_player_counts
    counts = checked(parse_player_counts, players_list)
    runs = {(p, s): settings_from(p, s, challenges=challenges, dolphins=dolphins, squid=squid,
                                  squid_only=squid_only)                # bad input: exit 2
            for p in counts for s in ("random", "greedy")}
    import numba

    from play.settings import Settings
    from play.simulate import numba_threads, run_records
    from play.simulate import simulate as run
    many = min(threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS)
    click.echo(machine())
    compile_note("run_games", False)
    for n in (1, many):                                       # warm up: load/compile, threads
        with numba_threads(n):
            run_records(Settings(players=4), seed, 0, 2 * n)
    mode = f"{games} games per run" if games else f"about {seconds:g} s of games per run"
    shown = runs[counts[0], "random"]
    click.echo(f"games per second (simulate(), seed {seed}, {mode}, best of {repeat} runs "
               f"[slowest]; n = games per run; challenges {challenges_label(shown)}"
               f"{expansions_label(shown)})")
    head = (f"{'players':>7}  {'strategy':<8}  {'1 thread':>18}  {'n':>7}  "
            f"{f'{many} threads':>18}  {'n':>7}  {'speed-up':>8}")
    click.echo(head)
    for players in counts:
        for strategy in ("random", "greedy"):
            settings = runs[players, strategy]
            cells = []
            for n_threads in (1, many):
                first = 1_000_000 * (1 + len(cells))
                with numba_threads(n_threads):
                    n = games
                    if n is None:                             # size the runs from a probe
                        probe = 32 * n_threads
                        t0 = time.perf_counter()
                        run_records(settings, seed, first, probe)
                        rate = probe / max(time.perf_counter() - t0, 1e-9)
                        n = max(probe, int(rate * seconds))
                        if available is not None:            # a run holds its table
                            n = max(probe, min(n, available // 2 // GAME_BYTES))
                    rates = []
                    for _ in range(repeat):                   # the same games each run
                        t0 = time.perf_counter()
                        try:
                            run(settings, n, seed, first=first, threads=n_threads)
                        except MemoryError:           # other processes took the memory
                            raise click.ClickException(
                                f"out of memory timing {n:,} games (about "
                                f"{size_text(n * GAME_BYTES)}); free some memory or lower "
                                f"--games / --seconds") from None
                        rates.append(n / max(time.perf_counter() - t0, 1e-9))
                    cells.append((n, max(rates), min(rates)))
            (n1, r1, s1), (nn, rn, sn) = cells
            click.echo(f"{players:>7}  {strategy:<8}  {r1:>9,.0f} {f'[{s1:,.0f}]':>8}  {n1:>7}  "
                       f"{rn:>9,.0f} {f'[{sn:,.0f}]':>8}  {nn:>7}  {rn / r1:>7.2f}x")


def _bench_sweep(path, games, repeat, threads, workers) -> None:
    """``bench --sweep``: experiments.overhead on the file's grid."""
    from experiments import spec as specs
    from experiments.runs import RunError
    try:
        spec = specs.load(path, games=games)
    except specs.SpecError as e:
        bad(str(e))
    if workers is None:
        import importlib.util
        workers = 2 if importlib.util.find_spec("distributed") else 0
    import numba

    from experiments.overhead import measure
    click.echo(machine())
    compile_note("run_games", False)
    n = len({p.game_key() for p in spec.points})
    click.echo(f"sweep {spec.name}: {len(spec.points)} settings ({n} distinct games) x "
               f"{spec.games:,} games, chunks of {spec.chunk:,}; "
               f"{threads or numba.config.NUMBA_NUM_THREADS} engine threads"
               + (f"; Dask LocalCluster of {workers} workers x 1 thread" if workers else ""))
    try:
        out = measure(spec, repeat=repeat, threads=threads, workers=workers or None,
                      report=click.echo)
    except RunError as e:
        bad(str(e))
    best, med = out["sweep_over_raw"]
    click.echo(f"sweep / raw engine: {best:.3f} (best runs), {med:.3f} (median of paired runs)")
    if workers:
        best, med = out["dask_over_sweep"]
        click.echo(f"Dask / threaded sweep: {best:.3f} (best runs), {med:.3f} (median of paired "
                   f"runs)")
