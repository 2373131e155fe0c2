"""``survive-sim stats``: the balance statistics of a sweep's run folder.

Per setting and seat: win share (ties split) under both tie-breaks, outright wins, shared tops,
score, rescued fraction, turns; per setting the χ² test of seat uniformity (Holm-adjusted over
the grid), tie rate and deciding steps; paired differences between settings that share games.
Every rate has its 95% interval and n (``experiments.tables.stats``). A partial run is reported for
what it holds, and says so.
"""
from __future__ import annotations

import click

from .group import main
from .files import check_output, write_text
from .options import IntRange, FloatRange, bad
from .report import analysis_options


@main.command(short_help="Balance statistics of a sweep's run folder.")
@click.argument("run", metavar="RUN", type=click.Path(file_okay=False))
@click.option("--out", default=None, metavar="FILE",
              help="Also write the tidy table (setting, seat, metric, value, low, high, n, "
                   "method) as CSV.")
@click.option("--precision", type=FloatRange(min=0.0001, max=0.5), default=0.01,
              show_default=True,
              help="Half-width of a seat's win share the `games needed` lines aim at.")
@click.option("--games", type=IntRange(min=1), default=None,
              help="Only the first N games of each setting (as `report --games`).")
@analysis_options
@click.option("--no-progress", is_flag=True, help="No progress lines on stderr.")
def stats(run, out, precision, games, scheduler, workers, no_progress):
    """Print the balance statistics of the sweep folder RUN (made by `survive-sim sweep`)."""
    import os
    if not os.path.isdir(run):
        bad(f"{run} is not a run folder (no such directory); make one with `survive-sim sweep`")
    if out is not None:
        if not out.lower().endswith(".csv"):
            bad(f"--out must name a .csv file, got {out}", "--out")
        check_output(out, "--out")              # only a file survive-sim wrote is replaced
    from experiments.store.runs import RunError
    from experiments.tables.stats_text import format_stats
    from survive_sim.runs import Run

    from .progress import Progress
    with Progress(title="stats", unit="chunk", quiet=no_progress) as bar:
        try:
            result = Run(run).analysis(games, charts=False, workers=workers,
                                       scheduler=scheduler, watch=bar)
        except RunError as e:
            bar.abort()
            bad(str(e))
        bar.begin("statistics")
        tidy = result.tidy(precision=precision)
        bar.finish()
    account = result.account
    have = sum(h for h, _ in account.values())
    want = sum(w for _, w in account.values())
    if have < want:
        short = [f"{label} {h}/{w}" for label, (h, w) in account.items() if h < w]
        click.echo(f"partial run: {have:,} of {want:,} games finished; short: "
                   f"{', '.join(short[:4])}{' ...' if len(short) > 4 else ''}")
    click.echo(format_stats(tidy))
    if out is not None:
        write_text(out, tidy.to_csv(index=False))
        click.echo(f"wrote {out} ({len(tidy)} rows)")
