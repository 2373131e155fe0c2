"""``survive-sim tune``: search a strategy's parameters against a ladder with CMA-ES, on paired
games, and measure the result on held-out games. Parses, calls the API
(``survive_sim.ranking.tune``, which drives ``experiments.tune``) and prints."""
from __future__ import annotations

import click

from .group import main
from .options import IntRange, INDEX_MAX, one_line, plugin_option, usage_error


@main.command(short_help="Tune a strategy's parameters against a ladder (CMA-ES).")
@click.argument("strategy")
@click.option("--against", required=True, metavar="NAMES",
              help="The ladder it plays: comma-separated strategies filling the other seats "
                   "cyclically (e.g. greedy,careful,racer).")
@click.option("--budget", type=IntRange(min=1), required=True,
              help="Games the search may play (the held-out measurement comes on top).")
@click.option("--players", type=IntRange(3, 6), default=4, show_default=True,
              help="Players per game (the candidate sits in every seat in turn).")
@click.option("--games", type=IntRange(min=1), default=200, show_default=True,
              help="Game indices per candidate; x players = its games. Every candidate of a "
                   "generation plays the same indices.")
@click.option("--popsize", type=IntRange(2, 10_000), default=8, show_default=True,
              help="CMA-ES candidates per generation (2-10000).")
@click.option("--params", default="", metavar="NAMES",
              help="Only these parameters (comma-separated; default: all).")
@click.option("--holdout", type=IntRange(min=1), default=2000, show_default=True,
              help="Held-out game indices for the final paired measurement.")
@click.option("--seed", type=IntRange(0, INDEX_MAX), default=0, show_default=True)
@click.option("--threads", type=IntRange(min=1), default=None,
              help="Engine threads (default: all). Results do not depend on it.")
@click.option("--out", default=None, metavar="FILE",
              help="Write the result as JSON (best spec, held-out measurement, every "
                   "candidate). With --out the run is resumable: each generation, and each "
                   "chunk of 10,000 held-out indices, is saved as it ends in the hidden "
                   "folder .FILE.partial beside FILE, and the same command run again after "
                   "an interruption (Ctrl-C, kill, a crash) goes on from there with an equal "
                   "result; once FILE is written the same command plays nothing and prints "
                   "it again. FILE may replace only an earlier tune result.")
@click.option("--force-new", is_flag=True,
              help="Discard an interrupted tuning with other options saved for --out, and "
                   "start over.")
@click.option("--no-progress", is_flag=True, help="No progress bar or notes on stderr.")
@plugin_option
def tune(strategy, against, budget, players, games, popsize, params, holdout, seed, threads,
         out, force_new, no_progress, plugins):
    """Search STRATEGY's parameters (its spec, name or name:key=value,..., is the starting
    point) by self-play against --against, with CMA-ES in the unit box of the parameters'
    ranges; then play the best and the start on the same held-out games and report both win
    shares and the paired gain with 95% intervals. Memory does not grow with --games or
    --holdout (the games are played and counted 10,000 indices at a time)."""
    from experiments.tune import TuneError, summary
    from survive_sim.ranking import tune as run_tune

    from .progress import Progress, compile_note, load_engine
    bar = Progress(title="tune", quiet=no_progress)         # silent until the first phase

    def started(t, state):              # the input is checked: load or compile the engine
        compile_note("run_games", no_progress)
        load_engine(bar, t.lineups(t.spec(t.to_unit(t.start_values())))[0], threads)
        if state is not None and state.generations and not no_progress:
            click.echo(f"resuming: {len(state.generations)} generation(s) saved in "
                       f"{state.folder.name} by an interrupted run", err=True)

    try:
        with bar:
            result = run_tune(strategy, against, budget, players=players, games=games,
                              popsize=popsize, params=params, holdout=holdout, seed=seed,
                              threads=threads, out=out, force_new=force_new, plugins=plugins,
                              watch=bar, started=started)
    except RuntimeError as e:
        raise click.ClickException(one_line(e))
    except TuneError as e:
        usage_error(e)
    except OSError as e:
        raise click.ClickException(f"could not write {out}: {e.strerror or e}")
    click.echo(summary(result))
    if not result.played:
        click.echo(f"{out} already holds this tuning, complete: nothing played")
    elif out is not None:
        click.echo(f"wrote {out}")
