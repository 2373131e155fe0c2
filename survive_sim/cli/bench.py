"""``survive-sim bench``: games per second per player count and strategy, with one thread and
with all (or ``--threads``) threads, after a description of the machine. The timing is the
API's (``survive_sim.speed.bench``, ``bench_sweep``); this command checks the memory, prints
each row as it is measured, and the ratios of ``--sweep``."""
from __future__ import annotations

import click

from .group import main
from .options import (
    FloatRange,
    IntRange,
    bad,
    challenges_label,
    expansions_label,
    seed_option,
    usage_error,
)
from .progress import compile_note


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
    from survive_sim.checks import GAME_BYTES, memory_available, memory_problem, size_text
    memory = memory_available()
    available = memory[0] if memory else None
    problem = games and memory and memory_problem(games, GAME_BYTES, "--games",
                                                  "a timed run holds its whole table", memory)
    if problem:
        bad(problem, "--games")
    import numba

    from play.settings import SettingsError
    from survive_sim.speed import bench as timed, machine
    many = min(threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS)
    mode = f"{games} games per run" if games else f"about {seconds:g} s of games per run"

    def started(cells):                 # the input is checked: say what is timed, and how
        click.echo(machine())
        compile_note("run_games", False)
        shown = next(iter(cells.values()))
        click.echo(f"games per second (simulate(), seed {seed}, {mode}, best of {repeat} runs "
                   f"[slowest]; n = games per run; challenges {challenges_label(shown)}"
                   f"{expansions_label(shown)})")
        click.echo(f"{'players':>7}  {'strategy':<8}  {'1 thread':>18}  {'n':>7}  "
                   f"{f'{many} threads':>18}  {'n':>7}  {'speed-up':>8}")

    cells = {}

    def on_row(row):                    # both thread counts measured: print the cell's line
        cells.setdefault((row["players"], row["strategy"]), []).append(row)
        if row["threads"] != many:
            return
        one, all_ = cells[row["players"], row["strategy"]][0], row
        r1, s1, n1 = one["best"], one["slowest"], one["games"]
        rn, sn, nn = all_["best"], all_["slowest"], all_["games"]
        click.echo(f"{row['players']:>7}  {row['strategy']:<8}  {r1:>9,.0f} "
                   f"{f'[{s1:,.0f}]':>8}  {n1:>7}  {rn:>9,.0f} {f'[{sn:,.0f}]':>8}  {nn:>7}  "
                   f"{rn / r1:>7.2f}x")

    try:
        timed(players_list, ("random", "greedy"), (1, many), games=games, seconds=seconds,
              repeat=repeat, seed=seed, challenges=challenges, dolphins=dolphins, squid=squid,
              squid_only=squid_only, on_row=on_row, started=started,
              max_games=None if available is None else available // 2 // GAME_BYTES)
    except SettingsError as e:
        usage_error(e)
    except MemoryError as e:                        # other processes took the memory
        n = getattr(e, "games", games) or 0
        raise click.ClickException(
            f"out of memory timing {n:,} games (about {size_text(n * GAME_BYTES)}); free some "
            f"memory or lower --games / --seconds") from None


def _bench_sweep(path, games, repeat, threads, workers) -> None:
    """``bench --sweep``: ``survive_sim.speed.bench_sweep`` (experiments.sweeps.overhead) on the
    file's grid."""
    from experiments.store.runs import RunError
    from experiments.sweeps.spec import SpecError
    from survive_sim.runs import spec as load_spec
    from survive_sim.speed import bench_sweep, machine
    try:
        spec = load_spec(path, games=games)
    except SpecError as e:
        bad(str(e))
    if workers is None:
        import importlib.util
        workers = 2 if importlib.util.find_spec("distributed") else 0
    import numba
    click.echo(machine())
    compile_note("run_games", False)
    n = len({p.game_key() for p in spec.points})
    click.echo(f"sweep {spec.name}: {len(spec.points)} settings ({n} distinct games) x "
               f"{spec.games:,} games, chunks of {spec.chunk:,}; "
               f"{threads or numba.config.NUMBA_NUM_THREADS} engine threads"
               + (f"; Dask LocalCluster of {workers} workers x 1 thread" if workers else ""))
    try:
        out = bench_sweep(spec, repeat=repeat, threads=threads, workers=workers or None,
                          report=click.echo)
    except RunError as e:
        bad(str(e))
    best, med = out["sweep_over_raw"]
    click.echo(f"sweep / raw engine: {best:.3f} (best runs), {med:.3f} (median of paired runs)")
    if workers:
        best, med = out["dask_over_sweep"]
        click.echo(f"Dask / threaded sweep: {best:.3f} (best runs), {med:.3f} (median of paired "
                   f"runs)")
