"""``survive-sim simulate``: play a run, print its summary, optionally save the per-game table.

The games are played, written and summarised one chunk at a time (``simulator.simulate.
iter_frames``, ``files.table_writer``, ``experiments.summary.Totals``), so memory stays flat
whatever ``--games`` is.
"""
from __future__ import annotations

import contextlib
import time

import click

from . import main
from .files import check_writable, out_format, table_writer
from .options import (
    IntRange,
    INDEX_MAX,
    challenges_label,
    check_last_game,
    one_line,
    players_option,
    plugin_option,
    rule_options,
    seed_option,
    settings_from,
    strategies_option,
)
from .progress import Progress, compile_note, threads_used


@main.command(short_help="Play many games; print the summary, save the table.")
@players_option
@click.option("--games", type=IntRange(1, INDEX_MAX), required=True,
              help="Number of games to play (at least 1).")
@seed_option
@strategies_option
@plugin_option
@click.option("--out", type=str, default=None, metavar="FILE",
              help="Write the per-game table here: .parquet or .csv (default: summary only).")
@click.option("--first", type=IntRange(0, INDEX_MAX), default=0, show_default=True,
              help="Index of the first game (to extend a run: games first..first+games-1).")
@click.option("--threads", type=IntRange(min=1), default=None,
              help="Worker threads (default: all). Results do not depend on it.")
@click.option("--chunk", type=IntRange(min=1), default=10_000, show_default=True,
              help="Games per compiled batch (progress granularity). Results do not depend on it.")
@click.option("--no-progress", is_flag=True, help="No progress bar or notes on stderr.")
@rule_options
def simulate(players, games, seed, strategies, plugins, out, first, threads, chunk, no_progress,
             **rules):
    """Play GAMES games and print the summary; optionally save the per-game table."""
    settings = settings_from(players, strategies, plugins, **rules)
    check_last_game(first, games)
    if out is not None:
        out_format(out)
        check_writable(out, "--out")

    from experiments.summary import Totals, format_summary
    from experiments.tables import run_header
    from simulator.simulate import iter_frames, numba_threads, run_records

    compile_note("run_games", no_progress)
    totals = Totals()
    played = 0.0                             # seconds in the engine and building the frames
    writer = None
    try:
        with numba_threads(threads):
            run_records(settings, seed, first, 1)          # load or compile, start the threads
        with Progress(games, "game", "simulate", quiet=no_progress) as bar, \
                (table_writer(out) if out is not None else contextlib.nullcontext()) as writer:
            frames = iter_frames(settings, games, seed, first=first, threads=threads,
                                 chunk=chunk)
            while True:
                t0 = time.perf_counter()
                part = next(frames, None)
                played += time.perf_counter() - t0
                if part is None:
                    break
                totals.add(part)
                if writer is not None:
                    writer.write(part)
                bar.update(len(part))
    except RuntimeError as e:                                # engine error: name the game
        raise click.ClickException(one_line(e))
    except OSError as e:
        if out is None:
            raise
        raise click.ClickException(f"could not write {out}: {e.strerror or e}")

    click.echo(run_header(players, settings.seats, settings.strategies, settings.boats,
                          challenges_label(settings), settings.squid, settings.squid_only, seed,
                          f"{first}..{first + games - 1}"))
    click.echo(format_summary(totals.table()))
    click.echo(f"speed: {games} games in {played:.2f} s = {games / max(played, 1e-9):,.0f} "
               f"games/s on {threads_used(threads)} thread(s)")
    if writer is not None:
        click.echo(f"wrote {out} ({writer.games} games x {writer.columns} columns)")
