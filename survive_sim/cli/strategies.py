"""``survive-sim strategies``: every strategy there is, its parameters and what it does (the
table of ``survive_sim.ranking.strategies``, printed)."""
from __future__ import annotations

import click

from .group import main
from .options import bad, plugin_option


@main.command(short_help="List the strategies, their parameters and descriptions.")
@plugin_option
def strategies(plugins):
    """List every strategy (built in, and those of --plugin files) with its parameters:
    default and range. A seat's strategy is written name or name:key=value,..."""
    from strategies.registry import StrategyError
    from survive_sim.ranking import strategies as listing
    try:
        table = listing(plugins)
    except StrategyError as e:
        bad(str(e), "--plugin")
    shown = None
    for r in table.itertuples(index=False):
        if r.strategy != shown:
            shown = r.strategy
            where = f"  (plug-in {r.plugin})" if isinstance(r.plugin, str) else ""
            click.echo(f"{r.strategy}{where}")
            click.echo(f"    {r.description}")
        if isinstance(r.param, str):
            click.echo(f"    {r.param} = {r.default:g}  [{r.low:g}, {r.high:g}]"
                       + (f"  {r.doc}" if r.doc else ""))
