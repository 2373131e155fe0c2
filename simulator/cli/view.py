"""``survive-sim view``: the viewer page of a saved replay log, without the engine."""
from __future__ import annotations

import click

from . import main
from .files import check_writable, write_text
from .options import bad


@main.command(short_help="Write the viewer page of a saved replay log.")
@click.argument("log_path", metavar="LOG")
@click.option("--html", "html_path", type=str, required=True, metavar="FILE",
              help="The page to write: one HTML file that opens from disk (docs/viewer.md).")
def view(log_path, html_path):
    """Write the HTML viewer page of the game in LOG (a file of `survive-sim replay --json`):
    buttons, arrow keys and a slider step through it. The engine is not needed."""
    from replays.draw.logfile import LogError, read_log
    from replays.viewer.page import build_page

    check_writable(html_path, "--html")
    try:
        log = read_log(log_path)
    except LogError as e:
        bad(str(e), "LOG")
    try:
        page = build_page(log)
    except (KeyError, IndexError, TypeError, ValueError) as e:
        bad(f"{log_path} is not a complete survive-sim log ({type(e).__name__}: {e}); "
            f"expected a log written by `survive-sim replay --json FILE`", "LOG")
    try:
        write_text(html_path, page)
    except OSError as e:
        raise click.ClickException(f"could not write {html_path}: {e.strerror or e}")
    click.echo(f"wrote {html_path}")
