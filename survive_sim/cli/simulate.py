"""``survive-sim simulate``: play a run, print its summary, optionally save the per-game table.

The games are played, written and summarised one chunk at a time (``survive_sim.api.
simulate_chunks``, ``files.table_writer``, ``experiments.tables.summary.Totals``), so memory stays
flat whatever ``--games`` is: the whole table is never held, with or without ``--out``. A chunk
costs about ``GAME_BYTES`` per game while it is in memory, so the chunk played at a time is
``effective_chunk``: ``--chunk``, but at most ``MAX_CHUNK`` games and at most what fits in half
the memory available. A game's result does not depend on the chunking (game i is a function of
seed, i and the settings; the summary's sums are exact), so neither does any output.
"""
from __future__ import annotations

import contextlib
import time

import click

from survive_sim.checks import GAME_BYTES, memory_available, size_text  # noqa: F401 (bench)

from .group import main
from .files import check_output, distinct_paths, out_format, table_writer
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
from .progress import Progress, compile_note, rate_text, threads_used

MAX_CHUNK = 200_000                  # games per chunk at most (~400 MB): progress stays lively


def effective_chunk(chunk: int, games: int, available: int | None = None) -> int:
    """The games played and held at a time: ``--chunk``, at most ``MAX_CHUNK`` and at most
    what fits in half the ``available`` memory (default ``memory_available()``), at least 1000
    (2 MB) whatever the machine says, and never more than the run's games."""
    if available is None:
        available = (memory_available() or (None,))[0]
    cap = MAX_CHUNK
    if available is not None:
        cap = min(cap, max(1000, available // 2 // GAME_BYTES))
    return max(1, min(chunk, games, cap))


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
              help="Games per compiled batch (progress granularity), at most 200,000 at a "
                   "time (or what fits in half the free memory) so that memory stays flat. "
                   "Results do not depend on it.")
@click.option("--no-progress", is_flag=True, help="No progress bar or notes on stderr.")
@rule_options
def simulate(players, games, seed, strategies, plugins, out, first, threads, chunk, no_progress,
             **rules):
    """Play GAMES games and print the summary; optionally save the per-game table."""
    if out is not None:
        out_format(out)
        distinct_paths(inputs={"--plugin": plugins}, outputs={"--out": out})
        check_output(out, "--out")
    settings = settings_from(players, strategies, plugins, **rules)
    check_last_game(first, games)
    chunk = effective_chunk(chunk, games)

    from experiments.tables.summary import Totals, format_summary
    from experiments.tables.results import levers_text, run_header
    from play.simulate import numba_threads, run_records
    from survive_sim.games import simulate_chunks

    compile_note("run_games", no_progress)
    totals = Totals()
    played = 0.0                             # seconds in the engine and building the frames
    writer = None
    try:
        with numba_threads(threads):
            run_records(settings, seed, first, 1)          # load or compile, start the threads
        with Progress(games, "game", "simulate", quiet=no_progress) as bar, \
                (table_writer(out) if out is not None else contextlib.nullcontext()) as writer:
            frames = simulate_chunks(games, seed=seed, settings=settings, first=first,
                                     threads=threads, chunk=chunk)
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
    except MemoryError:                  # other processes took the memory: say so, in one line
        raise click.ClickException(
            f"out of memory after {totals.games:,} games (chunks of {chunk:,} games, about "
            f"{size_text(chunk * GAME_BYTES)} each); free some memory or lower --chunk"
            + ("" if out is None else f"; {out} was not written")) from None

    click.echo(run_header(players, settings.seats, settings.strategies, settings.boats,
                          challenges_label(settings), settings.squid, settings.squid_only, seed,
                          f"{first}..{first + games - 1}",
                          levers_text(settings.komi, settings.setup_order)))
    click.echo(format_summary(totals.table()))
    click.echo(f"speed: {games} games in {played:.2f} s = {rate_text(games / max(played, 1e-9))} "
               f"games/s on {threads_used(threads)} thread(s)")
    if writer is not None:
        click.echo(f"wrote {out} ({writer.games} games x {writer.columns} columns)")
