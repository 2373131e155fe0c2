"""``survive-sim referee``: check a saved JSON replay log against the rules."""
from __future__ import annotations

import sys

import click

from . import main
from .options import bad, one_line


def report(found) -> None:
    """``referee: OK``, or the discrepancy and exit code 1."""
    if found is None:
        click.echo("referee: OK")
        return
    click.echo(f"referee: DISCREPANCY {found}")
    sys.exit(1)


@main.command(short_help="Check a saved JSON replay log against the rules.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, readable=True))
def referee(file):
    """Check a saved replay log (JSON) against the rules: prints "referee: OK" or the first
    discrepancy (exit 1)."""
    import json
    try:
        with open(file, encoding="utf-8") as f:
            log = json.load(f)
    except (ValueError, UnicodeDecodeError) as e:
        bad(f"{file} is not a JSON replay log ({one_line(e)}); expected the output of "
            f"`survive-sim replay --json FILE`")
    from replays.referee import check as referee_check
    report(referee_check(log))
