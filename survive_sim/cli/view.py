"""``survive-sim view``: the viewer page of a saved replay log, without the engine
(``survive_sim.logs.view``)."""
from __future__ import annotations

import click

from .group import main
from .files import check_output, distinct_paths
from .options import bad


@main.command(short_help="Write the viewer page of a saved replay log.")
@click.argument("log_path", metavar="LOG")
@click.option("--html", "html_path", type=str, required=True, metavar="FILE",
              help="The page to write: one HTML file that opens from disk (docs/viewer.md).")
def view(log_path, html_path):
    """Write the HTML viewer page of the game in LOG (a file of `survive-sim replay --json`):
    buttons, arrow keys and a slider step through it. The engine is not needed."""
    from replays.draw.logfile import LogError
    from survive_sim.logs import view as page

    distinct_paths(inputs={"LOG": log_path}, outputs={"--html": html_path})
    check_output(html_path, "--html")
    try:
        page(log_path, out=html_path)
    except LogError as e:
        bad(str(e), "LOG")
    except OSError as e:
        raise click.ClickException(f"could not write {html_path}: {e.strerror or e}")
    click.echo(f"wrote {html_path}")
