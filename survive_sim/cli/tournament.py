"""``survive-sim tournament``: the measured strength of strategies -- every strategy in every
seat on common games, standings with intervals, head to head, ratings, and an SPRT that stops
once the order is settled. Parses, calls the API (``survive_sim.ranking.tournament``, which
drives ``experiments.tournament``) and prints."""
from __future__ import annotations

import click

from .group import main
from .options import (
    IntRange, FloatRange,
    INDEX_MAX,
    one_line,
    players_option,
    plugin_option,
    rule_options,
    seed_option,
    usage_error,
)
from .progress import Progress, compile_note, load_engine, rate_text, threads_used

OPEN01 = FloatRange(0, 1, min_open=True, max_open=True)


@main.command(short_help="Rank strategies: every strategy in every seat, stopped by an SPRT.")
@click.option("--strategies", required=True, metavar="NAMES",
              help="Comma-separated strategy names, at least 2, each once (e.g. random,greedy); "
                   "a part `key=value` continues the previous name's parameters. Each name is "
                   "written in one spelling (parameters at their defaults dropped, the rest "
                   "in declared order) that labels the results; two names of one strategy "
                   "are refused.")
@players_option
@click.option("--games", type=IntRange(1, INDEX_MAX), required=True,
              help="Game indices to play at most. Each index is played by every line-up (the "
                   "same engine game: common random numbers), so N x line-ups games in all.")
@click.option("--out", required=True, metavar="DIR",
              help="Folder to write (created whole: standings.csv, head_to_head.csv, "
                   "games.parquet, tournament.json, README.md). Must be new or empty. Each "
                   "batch played is saved in the hidden .DIR.partial beside it: the same "
                   "command run again after an interruption (Ctrl-C, kill, a crash) resumes "
                   "there with equal results; other options are refused. Once DIR is "
                   "complete the same command plays nothing.")
@seed_option
@click.option("--threads", type=IntRange(min=1), default=None,
              help="Engine threads (default: all). Results do not depend on it.")
@click.option("--batch", type=IntRange(min=1), default=500, show_default=True,
              help="Game indices per batch; the stop rule is checked after each batch.")
@click.option("--alpha", type=OPEN01, default=0.05, show_default=True,
              help="SPRT: chance of ordering two equal strategies (alpha/2 per side).")
@click.option("--beta", type=OPEN01, default=0.05, show_default=True,
              help="SPRT: chance of missing a difference of --delta.")
@click.option("--delta", type=FloatRange(0, 0.5, min_open=True, max_open=True),
              default=0.05, show_default=True,
              help="SPRT: the difference that matters, p(A above B) = 0.5 +- delta.")
@click.option("--no-stop", is_flag=True, help="Play all --games indices (report the SPRT only).")
@click.option("--force", is_flag=True,
              help="Replace an earlier tournament's folder at --out (never another folder; "
                   "one that also holds files of yours is refused, naming one, and left as "
                   "it is), or discard an interrupted tournament with other options.")
@click.option("--no-progress", is_flag=True, help="No progress bar or notes on stderr.")
@plugin_option
@rule_options
def tournament(strategies, players, games, out, seed, threads, batch, alpha, beta, delta,
               no_stop, force, no_progress, plugins, **rules):
    """Play every strategy in every seat (all combinations of --players strategies, each in
    every seat rotation, on the same games) and write the standings: win share (ties split)
    and mean score with 95% intervals and n, head to head, and openskill PlackettLuce ratings.
    Stops when an SPRT settles every pair adjacent in the rating order, or at --games."""
    from experiments.tournament import TournamentError, text
    from play.settings import SettingsError
    from survive_sim.ranking import tournament as run_tournament

    bar = Progress(title="tournament", quiet=no_progress)   # silent until the first phase

    def started(t):                     # the input is checked: load or compile the engine
        compile_note("run_games", no_progress)
        load_engine(bar, t.settings[0], threads,
                    [x for st in t.settings for x in st.strategies])

    try:
        with bar:
            result = run_tournament(strategies, games, players=players, seed=seed,
                                    batch=batch, alpha=alpha, beta=beta, delta=delta,
                                    stop=not no_stop, threads=threads, out=out, force=force,
                                    plugins=plugins, watch=bar, started=started, **rules)
    except RuntimeError as e:                                 # engine error: name the game
        raise click.ClickException(one_line(e))
    except (TournamentError, SettingsError) as e:
        usage_error(e)
    except OSError as e:
        raise click.ClickException(f"could not write {out}: {e.strerror or e}")

    if not result.played:                           # this very tournament was there: no games
        click.echo(f"{out} already holds this tournament, complete: {result.statement()}")
        click.echo(f"nothing played; its standings are in {out}/standings.csv (pass --force "
                   f"to play it again)")
        return
    if result.resumed and not no_progress:
        click.echo(f"resumed: {result.resumed} batch(es) read back from "
                   f"{result.resumed_from}, saved by an interrupted run", err=True)
    click.echo(text(result))
    played = result.games_played - result.resumed_games       # this run's own games
    click.echo(f"speed: {played:,} games in {result.seconds:.2f} s = "
               f"{rate_text(played / max(result.seconds, 1e-9))} games/s in all "
               f"({rate_text(played / max(result.seconds_playing, 1e-9))} games/s in the "
               f"engine) on {threads_used(threads)} thread(s)"
               + (f"; {result.resumed_games:,} games read back" if result.resumed else ""))
    click.echo(f"wrote {out} (standings.csv, head_to_head.csv, games.parquet, "
               f"tournament.json, README.md)")
