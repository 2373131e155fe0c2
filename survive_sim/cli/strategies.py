"""``survive-sim strategies``: every strategy there is, its parameters and what it does."""
from __future__ import annotations

import click

from .group import main
from .options import load_plugins_option, plugin_option


@main.command(short_help="List the strategies, their parameters and descriptions.")
@plugin_option
def strategies(plugins):
    """List every strategy (built in, and those of --plugin files) with its parameters:
    default and range. A seat's strategy is written name or name:key=value,..."""
    from strategies.registry import all_strategies
    load_plugins_option(plugins)
    for s in all_strategies().values():
        if not s.listed:
            continue
        where = f"  (plug-in {s.source})" if s.plugin else ""
        click.echo(f"{s.name}{where}")
        click.echo(f"    {s.description}")
        for p in s.params:
            click.echo(f"    {p.name} = {p.default:g}  [{p.low:g}, {p.high:g}]"
                       + (f"  {p.doc}" if p.doc else ""))
