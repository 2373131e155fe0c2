"""``survive-sim summary``: the summary of a saved per-game table, one block per setting.

A saved table may be a concatenation of runs: its rows are grouped by setting (the ``setting``
column of a sweep's tables, else the settings columns) and each group gets its own block, headed
by the settings line ``simulate`` prints, so that different settings are never blended. A file
that is not a complete table (truncated, edited, header only), that holds a game twice, or a
value the rules do not allow (``experiments.tables.summary.check_values``: a score above the seat's
explorers' values, a negative count, a fraction, NaN, text) is bad input: one line naming the
column, the first bad row and the accepted values, exit code 2. The summaries come from the
API (``survive_sim.tables.summary``); this command prints them.
"""
from __future__ import annotations

import click

from .group import main
from .options import bad, one_line, tiebreak_option


@main.command(short_help="Print the summary of a saved results table.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, readable=True))
@tiebreak_option
def summary(file, tiebreak):
    """Print the summary of a saved per-game table (.parquet or .csv), one block per setting,
    counting wins under --tiebreak (default: each setting's own rule)."""
    from experiments.tables.summary import format_summary
    from survive_sim.tables import TableError
    from survive_sim.tables import summary as summarise
    try:
        tables = summarise(file, tiebreak)
        text = "\n\n".join(f"{t.attrs['header']}\n{format_summary(t)}" for t in tables)
    except TableError as e:
        bad(str(e))
    except Exception as e:                      # a table the checks let through: still one line
        bad(f"{file} is not a survive-sim results table ({type(e).__name__}: {one_line(e)})")
    click.echo(text)
