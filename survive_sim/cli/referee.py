"""``survive-sim referee``: check a saved JSON replay log against the rules
(``survive_sim.logs.check``: the independent referee of ``replays.referee``)."""
from __future__ import annotations

import sys

import click

from .group import main
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
    discrepancy (exit 1).

    A file that is not a replay log (not JSON, another JSON, a log with a part of the wrong
    shape or type) is bad input: one line on stderr, exit 2. A well-formed log that breaks a
    rule is a finding: the rule's id on stdout, exit 1."""
    from replays.draw.logfile import LogError
    from survive_sim.logs import check
    try:
        found = check(file)                    # the shape: settings, tiles, events, after
    except LogError as e:
        bad(f"not a JSON replay log: {e}")
    if found is not None and found.rule == "format":
        bad(f"not a JSON replay log: {file} is not a well-formed survive-sim log: "
            f"{one_line(found)}; expected the output of `survive-sim replay --json FILE`")
    report(found)
