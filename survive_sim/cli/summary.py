"""``survive-sim summary``: the summary of a saved per-game table, one block per setting.

A saved table may be a concatenation of runs: its rows are grouped by setting (the ``setting``
column of a sweep's tables, else the settings columns) and each group gets its own block, headed
by the settings line ``simulate`` prints, so that different settings are never blended. A file
that is not a complete table (truncated, edited, header only), that holds a game twice, or a
value the rules do not allow (``experiments.summary.check_values``: a score above the seat's
explorers' values, a negative count, a fraction, NaN, text) is bad input: one line naming the
column, the first bad row and the accepted values, exit code 2.
"""
from __future__ import annotations

import click

from .group import main
from .files import out_format, read_table
from .options import bad, one_line, tiebreak_option


@main.command(short_help="Print the summary of a saved results table.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, readable=True))
@tiebreak_option
def summary(file, tiebreak):
    """Print the summary of a saved per-game table (.parquet or .csv), one block per setting,
    counting wins under --tiebreak (default: each setting's own rule)."""
    out_format(file, None)
    from experiments.summary import check_values, format_summary, summary_table
    from experiments.tables import check_duplicates, check_table, setting_groups, table_header
    try:
        df = read_table(file)
    except Exception as e:                      # whatever the parser met: not a table
        bad(f"{file} is not a readable results table ({type(e).__name__}: {one_line(e)})")
    try:
        check_table(df)
        check_values(df)
        groups = setting_groups(df)
        check_duplicates(df, groups)
    except ValueError as e:
        bad(f"{file}: {one_line(e)}")
    except Exception as e:                      # a column of an unexpected type
        bad(f"{file} is not a survive-sim results table ({type(e).__name__}: {one_line(e)})")
    blocks = []
    try:
        for idx in groups:
            part = df if len(groups) == 1 else df.iloc[idx]
            blocks.append(f"{table_header(part)}\n{format_summary(summary_table(part, tiebreak))}")
    except Exception as e:                      # a table the checks let through: still one line
        bad(f"{file} is not a survive-sim results table ({type(e).__name__}: {one_line(e)})")
    click.echo("\n\n".join(blocks))
