"""``survive-sim tune``: search a strategy's parameters against a ladder with CMA-ES, on paired
games, and measure the result on held-out games (``experiments.tune``)."""
from __future__ import annotations

import json
import os

import click

from .group import main
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
    from experiments.atomic import write_text
    from experiments.tune import (
        FORMAT, TuneError, TuneState, Tuning, identity, result_doc, result_from, summary,
    )
    from experiments.tune import tune as run
    from strategies.registry import split_specs

    from .files import check_writable
    from .progress import Progress, compile_note, load_engine
    if out is not None:                 # paths only: before the plug-ins are compiled
        check_writable(out, "--out")
        here = os.path.realpath(out)
        for p in plugins:
            if os.path.realpath(p) == here:
                bad(f"--out {out} is the --plugin file {p}; choose another --out", "--out")
        doc = None
        if os.path.lexists(out):
            try:
                with open(out, encoding="utf-8") as f:
                    doc = json.load(f)
            except (OSError, ValueError, UnicodeDecodeError):
                doc = None
            if not isinstance(doc, dict) or doc.get("format") != FORMAT or \
                    os.path.islink(out):
                bad(f"{out} exists and is not a tune result; tune replaces only its own "
                    f"earlier result: choose another --out", "--out")
    load_plugins_option(plugins)
    try:
        t = Tuning(strategy=strategy, against=tuple(split_specs(against)), players=players,
                   budget=budget, games=games, popsize=popsize, seed=seed, holdout=holdout,
                   tune=tuple(p.strip() for p in params.split(",") if p.strip()))
    except TuneError as e:
        bad(str(e), e.param)
    state, ident = None, identity(t, plugins)
    if out is not None:
        if doc is not None and doc.get("identity") == ident:   # complete: play nothing
            try:
                click.echo(summary(result_from(t, doc)))
            except (KeyError, TypeError, ValueError):
                bad(f"{out} is a damaged tune result; remove it or choose another --out",
                    "--out")
            click.echo(f"{out} already holds this tuning, complete: nothing played")
            leftover = os.path.join(os.path.dirname(os.path.abspath(out)),
                                    f".{os.path.basename(out)}.partial")
            if os.path.isdir(leftover):     # stopped between writing FILE and tidying up
                try:
                    with TuneState(out, ident) as left:
                        left.remove()
                except (TuneError, OSError):
                    pass
            return
        try:
            state = TuneState(out, ident, force_new)
        except TuneError as e:
            bad(str(e), e.param)
    compile_note("run_games", no_progress)
    try:
        with Progress(title="tune", quiet=no_progress) as bar:
            load_engine(bar, t.lineups(t.spec(t.to_unit(t.start_values())))[0], threads)
            if state is None:
                result = run(t, threads, watch=bar)
            else:
                with state:
                    if state.generations and not no_progress:
                        click.echo(f"resuming: {len(state.generations)} generation(s) saved "
                                   f"in {state.folder.name} by an interrupted run", err=True)
                    result = run(t, threads, watch=bar, state=state)
                    write_text(out, json.dumps(result_doc(result, ident), indent=1))
                    state.remove()
    except RuntimeError as e:
        raise click.ClickException(one_line(e))
    except TuneError as e:
        bad(str(e), e.param)
    except OSError as e:
        raise click.ClickException(f"could not write {out}: {e.strerror or e}")
    click.echo(summary(result))
    if out is not None:
        click.echo(f"wrote {out}")
