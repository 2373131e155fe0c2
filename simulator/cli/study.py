"""``survive-sim study``: the tool's main job in one command -- a shipped study's sweep
(resumable) and its report, then the verdict table."""
from __future__ import annotations

import os

import click

from . import main
from .options import bad


@main.command(short_help="Run a shipped study (sweep + report) and print its verdicts.")
@click.argument("name", required=False)
@click.option("--list", "list_", is_flag=True, help="Name the shipped studies and stop.")
@click.option("--games", type=click.IntRange(min=1), default=None,
              help="Games per setting (default: the study's; fewer = a quick version).")
@click.option("--out", default=None, metavar="DIR",
              help="Where the run and the report go (default: studies/NAME, or "
                   "studies/NAME-GAMES with --games).")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Engine threads (default: all). Results do not depend on it.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play on Dask (`local` or tcp://HOST:PORT), as for sweep.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes of --scheduler local.")
@click.option("--force-new", is_flag=True, help="Replace a run folder of another spec.")
@click.option("--no-progress", is_flag=True, help="No progress bar or lines on stderr.")
def study(name, list_, games, out, threads, scheduler, workers, force_new, no_progress):
    """Run the shipped study NAME: play its sweep into DIR/run (re-running resumes it), write
    its report into DIR/report, and print where the report is and the verdict table."""
    from experiments import spec as specs
    studies = specs.shipped()
    if list_:
        for key, path in studies.items():
            s = specs.load(path)
            click.echo(f"{key:<12} {s.description} ({len(s.points)} settings x {s.games:,} "
                       f"games; claims {', '.join(s.claims) or 'none'}; {path.name})")
        return
    if name is None:
        bad(f"give a study name; shipped: {', '.join(studies)} (survive-sim study --list)")
    if name not in studies:
        bad(f"unknown study {name!r}; shipped: {', '.join(studies)}")
    if scheduler is None and workers is not None:
        bad("--workers needs --scheduler local", "--workers")
    try:
        spec = specs.load(studies[name], games=games)
    except specs.SpecError as e:
        bad(str(e))
    out = out or os.path.join("studies", name if games is None else f"{name}-{games}")
    if os.path.exists(out) and not os.path.isdir(out):
        bad(f"{out} is a file; --out needs a folder", "--out")
    run, page = os.path.join(out, "run"), os.path.join(out, "report")
    from . import report as report_cmd
    from .sweep import play
    play(spec, run, force_new, threads, scheduler, workers, no_progress)
    result = report_cmd.write(run, page, no_progress)
    click.echo(f"report: {os.path.join(page, 'index.html')} (also index.md; "
               f"{result.figures} charts, tables/ and verdicts.csv)")
    if result.verdicts is not None and len(result.verdicts):
        from reports.report import verdict_text
        click.echo(verdict_text(result.verdicts))
