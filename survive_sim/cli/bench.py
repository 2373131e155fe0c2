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
@click.option("--search", "search_spec", default=None, metavar="SPEC",
              help="Instead: iterations per second of the search rung SPEC (e.g. "
                   "search:rollout=random) at each of --budgets on real decisions, as a "
                   "search, as bare playouts on drawn worlds and as bare playouts from the "
                   "real table (the limit), with the tree's overhead; then seconds per game "
                   "with one search seat and with search in every seat (--games games, "
                   "default 2). Players default to 4,5,6. One thread.")
@click.option("--budgets", default="16,64,256,1024,4096", show_default=True, metavar="LIST",
              help="With --search: the budgets timed (comma-separated, each 1-100000).")
@click.option("--decisions", type=IntRange(min=1, max=1000), default=8, show_default=True,
              help="With --search: decisions timed per player count.")
@click.option("--env", "env", is_flag=True,
              help="Time the PettingZoo environment (docs/env.md): decisions per second of "
                   "the engine, the stepper and the environment's loop on the same games "
                   "(--games per run, default 5; needs the env extra).")
@seed_option
@click.pass_context
def bench(ctx, games, seconds, repeat, players_list, threads, challenges, dolphins, squid,
          squid_only, sweep_spec, workers, search_spec, budgets, decisions, env, seed):
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
    if env:
        if challenges or dolphins or squid or squid_only or threads or workers or \
                search_spec is not None or sweep_spec is not None:
            bad("--env times the base game on one thread: leave out --challenge, --dolphins, "
                "--squid, --squid-only, --threads, --workers, --search and --sweep", "--env")
        _bench_env(players_list, games or 5, repeat, seed)
        return
    if search_spec is not None:
        if challenges or dolphins or squid or squid_only or threads or workers:
            bad("--search times the base game on one thread: leave out --challenge, "
                "--dolphins, --squid, --squid-only, --threads and --workers", "--search")
        given = ctx.get_parameter_source("players_list") != click.core.ParameterSource.DEFAULT
        _bench_search(search_spec, budgets, players_list if given else "4,5,6", decisions,
                      repeat, games or 2, seed)
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


def _bench_search(spec, budgets, players, decisions, repeat, games, seed) -> None:
    """``bench --search``: ``survive_sim.speed.bench_search`` then ``bench_search_games``, a
    line per budget as it is measured."""
    from play.settings import SettingsError
    from survive_sim.speed import bench_search, bench_search_games, machine
    try:
        values = [int(b) for b in budgets.split(",") if b.strip()]
    except ValueError:
        bad(f"budgets must be whole numbers 1-100000, comma-separated, got {budgets!r}",
            "--budgets")
    lines = {}

    def started(text):                  # the input is checked: say what is timed, and how
        click.echo(machine())
        click.echo(f"{text}: iterations per second, one thread, {decisions} decisions of real "
                   f"games per player count, best of {repeat} runs; overhead = the tree's time "
                   f"over bare playouts' (from the real table: the limit; on drawn worlds)")
        click.echo(f"{'players':>7}  {'budget':>6}  {'search':>9}  {'worlds':>9}  "
                   f"{'playouts':>9}  {'overhead':>8}  {'vs worlds':>9}")

    def on_row(row):                    # the three ways measured: the budget's line
        ways = lines.setdefault((row["players"], row["budget"]), {})
        ways[row["way"]] = row["best"]
        if len(ways) == 3:
            tree, worlds, bare = ways["tree"], ways["worlds"], ways["playouts"]
            click.echo(f"{row['players']:>7}  {row['budget']:>6}  {tree:>9,.0f}  "
                       f"{worlds:>9,.0f}  {bare:>9,.0f}  {bare / tree - 1:>+8.1%}  "
                       f"{worlds / tree - 1:>+9.1%}")

    def on_game(row):
        if row["seats"] == "one":
            click.echo(f"{row['players']:>7}  {row['budget']:>6}  "
                       f"{row['seconds']:>9.2f}  ", nl=False)
        else:
            click.echo(f"{row['seconds']:>9.2f}  {row['games']:>5}")

    try:
        bench_search(spec, values, players, decisions=decisions, repeat=repeat, seed=seed,
                     on_row=on_row, started=started)
        click.echo(f"seconds per game, one thread, seed {seed} (best of {repeat} runs): one "
                   f"search seat (the others its rollout rung), search in every seat")
        click.echo(f"{'players':>7}  {'budget':>6}  {'one seat':>9}  {'every':>9}  "
                   f"{'games':>5}")
        bench_search_games(spec, players, games=games, repeat=repeat, seed=seed,
                           on_row=on_game)
    except SettingsError as e:
        usage_error(e)


def _bench_env(players, games, repeat, seed) -> None:
    """``bench --env``: ``survive_sim.speed.bench_env``, a line per player count."""
    from play.settings import SettingsError
    from survive_sim.speed import bench_env, machine
    click.echo(machine())
    click.echo(f"decisions per second, one thread, seed {seed}, {games} games per run, best of "
               f"{repeat} runs [slowest]; random's answers in every seat")
    click.echo(f"{'players':>7}  {'engine':>18}  {'stepper':>16}  {'environment':>16}  "
               f"{'env games/s':>11}")
    line = {}

    def cell(row, width):
        slowest = f"[{row['slowest']:,.0f}]"
        return f"{row['best']:>{width},.0f} {slowest:>8}"

    def on_row(row):
        line[row["way"]] = row
        if row["way"] == "env":
            click.echo(f"{row['players']:>7}  {cell(line['engine'], 9)}  "
                       f"{cell(line['stepper'], 7)}  {cell(row, 7)}  "
                       f"{row['games_per_s']:>11.1f}")

    try:
        bench_env(players, games=games, repeat=repeat, seed=seed, on_row=on_row)
    except SettingsError as e:
        usage_error(e)
    except ImportError as e:
        bad(str(e), "--env")
