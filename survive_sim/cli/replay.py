"""``survive-sim replay``: play one game again with its full event log, print it turn by turn,
optionally save the JSON log, animate it (GIF, MP4) and check it with the referee."""
from __future__ import annotations

import click

from .group import main
from .files import (
    atomic_file, atomic_path, check_extension, check_output, distinct_paths, write_text,
)
from .options import (
    IntRange,
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
from .progress import Progress, compile_note
from .referee import report


@main.command(short_help="Print one game turn by turn (and its JSON log).")
@seed_option
@click.option("--game", type=IntRange(0, INDEX_MAX), required=True,
              help="Index of the game within the seed's run (0-based, the table's `game`).")
@players_option
@strategies_option
@plugin_option
@click.option("--json", "json_path", type=str, default=None, metavar="FILE",
              help="Also write the machine-readable log (docs/replay-log.md) to FILE.")
@click.option("--html", "html_path", type=str, default=None, metavar="FILE",
              help="Also write the game's viewer page to FILE: one HTML file that opens from disk "
                   "(buttons, arrow keys and a slider step through the game; docs/viewer.md).")
@click.option("--check", is_flag=True,
              help="Re-check the log with the independent referee (exit 1 on a discrepancy).")
@click.option("--gif", "gif_path", type=str, default=None, metavar="FILE.gif",
              help="Also write the game as an animated GIF (docs/pictures.md).")
@click.option("--mp4", "mp4_path", type=str, default=None, metavar="FILE.mp4",
              help="Also write the game as an MP4 video (needs ffmpeg on PATH).")
@click.option("--frames", type=click.Choice(["events", "turns"]), default="events",
              show_default=True,
              help="Animation frames: one per event, or one per seat-turn (its end position, "
                   "after a frame of the end of the setup).")
@rule_options
def replay(seed, game, players, strategies, plugins, json_path, html_path, check, gif_path,
           mp4_path, frames, **rules):
    """Replay one game and print it turn by turn.

    Use the same --players, --strategies and rule flags as the run that produced the game."""
    import json

    outputs = {"--json": json_path, "--html": html_path, "--gif": gif_path, "--mp4": mp4_path}
    distinct_paths(inputs={"--plugin": plugins}, outputs=outputs)
    settings = settings_from(players, strategies, plugins, **rules)
    for path, param, ext in ((gif_path, "--gif", ".gif"), (mp4_path, "--mp4", ".mp4")):
        if path is not None:
            check_extension(path, param, (ext,))
    for param, path in outputs.items():
        if path is not None:
            check_output(path, param)
    if mp4_path is not None:
        from replays.draw.animate import ffmpeg
        if ffmpeg() is None:
            bad("ffmpeg is not on PATH; --mp4 needs it (install ffmpeg, or write a --gif)",
                "--mp4")

    from replays.text import format_log
    from survive_sim.games import replay as replay_log

    compile_note("run_games", False)          # a replay plays the same compiled game
    try:
        log = replay_log(seed, game, settings)
    except RuntimeError as e:
        raise click.ClickException(one_line(e))
    click.echo(format_log(log))
    text = json.dumps(log, separators=(",", ":"))
    if json_path is not None:
        try:
            write_text(json_path, text + "\n")
        except OSError as e:
            raise click.ClickException(f"could not write {json_path}: {e.strerror or e}")
        click.echo(f"wrote {json_path}")
    if html_path is not None:
        from survive_sim.logs import view
        try:
            write_text(html_path, view(json.loads(text)))
        except OSError as e:
            raise click.ClickException(f"could not write {html_path}: {e.strerror or e}")
        click.echo(f"wrote {html_path}")
    if gif_path is not None:
        animation(log, gif_path, frames, "gif")
    if mp4_path is not None:
        animation(log, mp4_path, frames, "mp4")
    if check:
        from survive_sim.logs import check as referee_check
        report(referee_check(json.loads(text)))      # exactly what the file holds


def animation(log: dict, path: str, frames: str, kind: str) -> None:
    """Write the game's GIF or MP4 (atomically), with a progress line per frame drawn."""
    import os

    from replays.draw import animate
    total = len(animate.frame_events(log, frames))
    with Progress(total, unit="frame", phase=kind) as bar:
        def step(done, _total):
            bar.update(1)
        try:
            if kind == "gif":
                from experiments.store.outputs import SignedGif
                with atomic_file(path, "wb") as f:
                    signed = SignedGif(f)
                    n = animate.gif(log, signed, frames, progress=step)
                    signed.flush()
            else:
                from experiments.store.outputs import generator
                with atomic_path(path) as tmp:
                    n = animate.mp4(log, tmp, frames, progress=step, comment=generator())
        except (OSError, RuntimeError) as e:
            raise click.ClickException(f"could not write {path}: {one_line(getattr(e, 'strerror', None) or e)}")
    click.echo(f"wrote {path} ({n} frames, one per {frames[:-1]}; "
               f"{os.path.getsize(path) / 1e6:.1f} MB)")
