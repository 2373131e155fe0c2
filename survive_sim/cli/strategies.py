"""``survive-sim strategies``: every strategy there is, its parameters and what it does (the
table of ``survive_sim.ranking.strategies``, printed); with ``--check FILE``, the strategy
contract run on a plug-in file (``survive_sim.ranking.check_strategy``): one line per check,
exit code 1 when one fails."""
from __future__ import annotations

import sys

import click

from .group import main
from .options import bad, plugin_option


def report(result) -> None:
    """``PASS``/``FAIL`` per strategy and check, then ``contract: OK``, or ``contract: FAILED``
    and exit code 1 (as ``referee`` reports a discrepancy)."""
    click.echo(str(result))
    if not result.ok:
        sys.exit(1)


@main.command(short_help="List the strategies and their parameters; --check a plug-in.")
@plugin_option
@click.option("--check", "check", metavar="FILE", default=None,
              help="Run the strategy contract on the plug-in FILE instead of listing: legal "
                   "answers under every rule, the same table for the same seed, decisions "
                   "blind to hidden information. One line per check; exit 1 if one fails.")
def strategies(plugins, check):
    """List every strategy (built in, and those of --plugin files) with its parameters:
    default and range. A seat's strategy is written name or name:key=value,...

    With --check FILE, run the contract every strategy must pass on each strategy of the
    plug-in FILE (a few hundred games, seconds once compiled) and print PASS or FAIL per check
    with the reason: exit 0 when all pass, 1 when one fails, 2 for a file that does not load."""
    from strategies.registry import StrategyError
    from survive_sim.ranking import check_strategy
    from survive_sim.ranking import strategies as listing
    if check is not None:
        if plugins:
            bad("give the plug-in to check to --check alone, without --plugin", "--check")
        try:
            result = check_strategy(check)
        except StrategyError as e:
            bad(str(e), "--check")
        report(result)
        return
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
