"""``survive-sim tune``: search a strategy's parameters against a ladder with CMA-ES, on paired
games, and measure the result on held-out games (``experiments.tune``)."""
from __future__ import annotations

import click

from . import main
from .options import IntRange, INDEX_MAX, bad, load_plugins_option, one_line, plugin_option


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
@click.option("--popsize", type=IntRange(min=2), default=8, show_default=True,
              help="CMA-ES candidates per generation.")
@click.option("--params", default="", metavar="NAMES",
              help="Only these parameters (comma-separated; default: all).")
@click.option("--holdout", type=IntRange(min=1), default=2000, show_default=True,
              help="Held-out game indices for the final paired measurement.")
@click.option("--seed", type=IntRange(0, INDEX_MAX), default=0, show_default=True)
@click.option("--threads", type=IntRange(min=1), default=None,
              help="Engine threads (default: all). Results do not depend on it.")
@click.option("--out", default=None, metavar="FILE",
              help="Write the result as JSON (best spec, held-out measurement, every "
                   "candidate).")
@click.option("--no-progress", is_flag=True, help="No progress bar or notes on stderr.")
@plugin_option
def tune(strategy, against, budget, players, games, popsize, params, holdout, seed, threads,
         out, no_progress, plugins):
    """Search STRATEGY's parameters (its spec, name or name:key=value,..., is the starting
    point) by self-play against --against, with CMA-ES in the unit box of the parameters'
    ranges; then play the best and the start on the same held-out games and report both win
    shares and the paired gain with 95% intervals."""
    import json

    from experiments.tune import Tuning, TuneError, summary
    from experiments.tune import tune as run
    from strategies.registry import split_specs

    from .files import atomic_file, check_writable
    from .progress import Progress, compile_note, load_engine
    load_plugins_option(plugins)
    if out is not None:
        check_writable(out, "--out")
    try:
        t = Tuning(strategy=strategy, against=tuple(split_specs(against)), players=players,
                   budget=budget, games=games, popsize=popsize, seed=seed, holdout=holdout,
                   tune=tuple(p.strip() for p in params.split(",") if p.strip()))
    except TuneError as e:
        bad(str(e), e.param)
    compile_note("run_games", no_progress)
    try:
        with Progress(title="tune", quiet=no_progress) as bar:
            load_engine(bar, t.lineups(t.spec(t.to_unit(t.start_values())))[0], threads)
            result = run(t, threads, watch=bar)
    except RuntimeError as e:
        raise click.ClickException(one_line(e))
    click.echo(summary(result))
    if out is not None:
        doc = {"strategy": strategy, "against": list(t.against), "players": players,
               "budget": budget, "games": games, "popsize": popsize, "seed": seed,
               "best": result.best, "start": result.start, "holdout": result.holdout,
               "games_played": result.games_played, "seconds": result.seconds,
               "history": result.history}
        with atomic_file(out, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
        click.echo(f"wrote {out}")
