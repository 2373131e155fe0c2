"""``survive-sim report``: charts, tables, verdicts and one page (HTML and Markdown) of any
sweep's run folder. A partial run is reported for what it holds and says so in its header."""
from __future__ import annotations

import os

import click

from .group import main
from .options import IntRange, bad, one_line


def default_out(run: str) -> str:
    return os.path.join(os.path.dirname(os.path.normpath(run)) or ".",
                        f"{os.path.basename(os.path.normpath(run))}-report")


def write(run: str, out: str, quiet: bool = False, games: int | None = None,
          scheduler: str | None = None, workers: int | None = None):
    """Build the report of ``run`` into ``out``; bad input is a usage error (exit 2)."""
    from survive_sim.runs import Run
    return reported(lambda **shown: Run(run).report(out, games=games, workers=workers,
                                                    scheduler=scheduler, **shown), quiet)


def reported(report, quiet: bool = False):
    """``report(log=, watch=)`` -- the API's ``Run.report`` or ``Study.report`` -- with its
    phases on a progress bar; bad input is a usage error (exit 2)."""
    from experiments.store.runs import RunError

    from .progress import Progress
    with Progress(title="report", unit="chunk", quiet=quiet) as bar:
        try:
            return report(log=None if quiet else bar.note, watch=bar)
        except (RunError, ValueError) as e:
            bar.abort()
            bad(one_line(e))


def analysis_options(f):
    """``--scheduler`` and ``--workers`` of the commands that read a run."""
    f = click.option("--workers", type=IntRange(min=1), default=None,
                     help="Processes that read the run's chunks (and draw the charts): "
                          "default one per core for a large run; with --scheduler local, "
                          "the Dask workers.")(f)
    return click.option("--scheduler", default=None, metavar="ADDRESS",
                        help="Read the run's chunks on Dask (`local`, or tcp://HOST:PORT of a "
                             "scheduler whose workers see the run folder at the same path); "
                             "only sums come back, and the numbers are the same.")(f)


@main.command(short_help="Charts, tables and verdicts of a run folder, as one page.")
@click.argument("run", metavar="RUN", type=click.Path(file_okay=False))
@click.option("--out", default=None, metavar="DIR",
              help="The report folder (default: RUN-report beside RUN). Holds index.html, "
                   "index.md, figures/, tables/ and verdicts.csv.")
@click.option("--games", type=IntRange(min=1), default=None,
              help="Only the first N games of each setting (statistics, charts and "
                   "verdicts).")
@analysis_options
@click.option("--no-progress", is_flag=True, help="No progress lines on stderr.")
def report(run, out, games, scheduler, workers, no_progress):
    """Write the report of the sweep folder RUN: index.html (opens from disk, no internet),
    index.md, figures/*.png and *.svg, tables/*.csv behind every chart, and the verdicts of
    the study's claims (verdicts.csv).

    Run again, it replaces only the files the earlier report wrote (listed in its
    _report.json); files of your own in the folder are kept. A folder that is not a report
    and not empty is refused, and so is --out at, inside or around RUN."""
    if not os.path.isdir(run):
        bad(f"{run} is not a run folder (no such directory); make one with `survive-sim sweep`")
    out = out or default_out(run)
    from experiments.store.outputs import (
        REPORT_FAMILY, REPORT_MARKER, check_apart, check_folder_target,
    )
    try:                                     # before any work (and imports): where it goes
        check_apart(run, out, "run folder", "report folder", default_out(run))
        check_folder_target(out, REPORT_MARKER, REPORT_FAMILY, "report")
    except ValueError as e:
        bad(one_line(e), "--out")
    result = write(run, out, no_progress, games, scheduler, workers)
    click.echo(f"wrote {os.path.join(out, 'index.html')} ({result.figures} charts, "
               f"{result.tables} tables{', PARTIAL run' if result.partial else ''})")
    if result.verdicts is not None and len(result.verdicts):
        from reports.report import verdict_text
        click.echo(verdict_text(result.verdicts))
