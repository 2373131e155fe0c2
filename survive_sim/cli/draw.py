"""``survive-sim draw``: the board after any event of a game, as PNG or SVG.

From a game played again (--seed, --game and the run's settings, like ``replay``) or from a
saved log (--log FILE), which never imports the engine: ``replays.draw`` reads the log alone.
Every check (the output's name and folder, the log, the event or turn) runs before anything is
written, and the picture is written to a temporary name and renamed into place.
"""
from __future__ import annotations

import click

from .group import main
from .files import atomic_file, check_extension, check_output, distinct_paths
from .options import (
    IntRange, FloatRange,
    INDEX_MAX,
    bad,
    one_line,
    players_option,
    plugin_option,
    rule_options,
    seed_option,
    settings_from,
    strategies_option,
)

PICTURES = (".png", ".svg")
ENGINE_PARAMS = ("seed", "game", "players", "strategies", "plugins", "max_turns",
                 "creatures_must_move", "lagoon_is_sea", "boats", "challenges", "dolphins",
                 "squid", "squid_only", "tiebreak")


def load_log_option(path: str) -> dict:
    """A saved log for drawing; a file that is not one is a usage error naming the problem."""
    from replays.draw.logfile import LogError
    from survive_sim.logs import read_log
    try:
        return read_log(path)
    except LogError as e:
        bad(str(e), "--log")


def played_log(settings, seed: int, game: int) -> dict:
    from survive_sim.games import replay

    from .progress import compile_note
    compile_note("run_games", False)
    try:
        return replay(seed, game, settings)
    except RuntimeError as e:
        raise click.ClickException(one_line(e))


def event_index(log: dict, event: int | None, turn: int | None) -> int:
    """The event to draw: --event E, the start of --turn T, or the last event."""
    from replays.draw.scene import turn_start
    n = len(log["events"])
    if event is not None and turn is not None:
        bad("give --event or --turn, not both")
    if turn is not None:
        try:
            return turn_start(log, turn)
        except ValueError as e:
            bad(f"--{e}", "--turn")
    if event is None:
        return n - 1
    from survive_sim.checks import ArgumentError
    from survive_sim.logs import event_index as checked          # the API's words
    try:
        return checked(event, n, "--event")
    except ArgumentError as e:
        bad(str(e), "--event")


def picture(log: dict, i: int, out: str, scale: float = 1.0):
    """``(bytes, scene)`` of the picture, signed as survive-sim's
    (``experiments.store.outputs``)."""
    from experiments.store.outputs import sign_png, sign_svg
    from replays.draw.scene import scene
    sc = scene(log, i)
    if out.lower().endswith(".svg"):
        from replays.draw.svg import document
        return sign_svg(document(sc)).encode("utf-8"), sc
    from replays.draw.raster import png
    return sign_png(png(sc, scale)), sc


def write_picture(log: dict, i: int, out: str, scale: float = 1.0,
                  source: str | None = None) -> None:
    """Draw event ``i`` of ``log`` to ``out``; a log from the file ``source`` that the drawing
    code cannot follow is a usage error naming the file."""
    if source is None:
        data, sc = picture(log, i, out, scale)
    else:
        from replays.draw.logfile import LogError, drawing
        try:
            with drawing(source):
                data, sc = picture(log, i, out, scale)
        except LogError as e:
            bad(str(e), "--log")
    try:
        with atomic_file(out, "wb") as f:
            f.write(data)
    except OSError as e:
        raise click.ClickException(f"could not write {out}: {e.strerror or e}")
    click.echo(f"wrote {out}: event {i} of {len(log['events']) - 1}: {sc.text}")


@main.command(short_help="Draw the board after any event of a game (PNG or SVG).")
@click.option("--log", "log_path", metavar="FILE", default=None,
              help="Draw from a saved JSON log (`survive-sim replay --json FILE`) without "
                   "running the engine; the game options are then not used.")
@seed_option
@click.option("--game", type=IntRange(0, INDEX_MAX), default=None,
              help="Index of the game within the seed's run (0-based); needed unless --log.")
@players_option
@strategies_option
@plugin_option
@click.option("--event", type=IntRange(-INDEX_MAX - 1, INDEX_MAX), default=None, metavar="E",
              help="Draw the position after event E (0-based, the log's `i`). Default, with "
                   "neither --event nor --turn: the final position.")
@click.option("--turn", type=IntRange(-INDEX_MAX - 1, INDEX_MAX), default=None, metavar="T",
              help="Draw the start of seat-turn T (1-based: its turn_start event).")
@click.option("--out", required=True, metavar="FILE",
              help="The picture to write: FILE.png or FILE.svg.")
@click.option("--scale", type=FloatRange(0.25, 4.0), default=1.0, show_default=True,
              help="Size factor of a PNG (1 = about 1500 x 1080 px).")
@rule_options
def draw(log_path, seed, game, players, strategies, plugins, event, turn, out, scale, **rules):
    """Draw the board after one event of a game, to PNG or SVG.

    The game is played again from --seed, --game and the run's settings (as `replay` does), or
    read from a saved log with --log FILE (no engine). With neither --event nor --turn the
    final position is drawn."""
    ctx = click.get_current_context()
    check_extension(out, "--out", PICTURES)
    distinct_paths(inputs={"--log": log_path, "--plugin": plugins}, outputs={"--out": out})
    check_output(out, "--out")
    if log_path is not None:
        given = [p for p in ENGINE_PARAMS
                 if ctx.get_parameter_source(p) not in (click.core.ParameterSource.DEFAULT, None)]
        if given:
            bad(f"--log draws a saved game; the game options "
                f"{', '.join('--' + p.replace('_', '-') for p in given)} do not apply to it",
                "--log")
        log = load_log_option(log_path)
        from replays.draw.logfile import LogError, drawing
        try:
            with drawing(log_path):
                i = event_index(log, event, turn)
        except LogError as e:
            bad(str(e), "--log")
        write_picture(log, i, out, scale, source=log_path)
        return
    else:
        if game is None:
            bad("give --game (with --seed and the run's settings) or --log FILE", "--game")
        settings = settings_from(players, strategies, plugins, **rules)
        log = played_log(settings, seed, game)
    write_picture(log, event_index(log, event, turn), out, scale)
