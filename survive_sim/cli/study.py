"""``survive-sim study``: the tool's main job in one command -- a shipped study's sweep
(resumable) and its report, then the verdict table."""
from __future__ import annotations

import os

import click

from .group import main
from .options import IntRange, bad, one_line

# the settling options as the CLI spells them (``survive_sim.checks.settling_problem``)
CLI_NAMES = {"games": "--games", "max_games": "--max-games", "until_settled": "--until-settled"}


def _listing(path) -> str:
    """One line of ``study --list``: what the study plays and judges."""
    from experiments import spec as specs
    if specs.is_search(path):
        from experiments.fairest import load
        f = load(path)
        styles = "; ".join(s.label for s in f.styles)
        return (f"{f.description} (a search of {f.space} boat allocations at "
                f"{', '.join(map(str, f.players))} players for {len(f.styles)} styles: "
                f"{styles}; claim B3; {path.name})")
    s = specs.load(path)
    return (f"{s.description} ({len(s.points)} settings x {s.games:,} games; claims "
            f"{', '.join(s.claims) or 'none'}; {path.name})")


@main.command(short_help="Run a shipped study (sweep + report) and print its verdicts.")
@click.argument("name", required=False)
@click.option("--list", "list_", is_flag=True, help="Name the shipped studies and stop.")
@click.option("--games", type=IntRange(min=1), default=None,
              help="Games per setting (default: the study's; fewer = a quick version).")
@click.option("--out", default=None, metavar="DIR",
              help="Where the run and the report go (default: studies/NAME, "
                   "studies/NAME-GAMES with --games, studies/NAME-settled with "
                   "--until-settled). To extend a run, give its folder and more --games.")
@click.option("--threads", type=IntRange(min=1), default=None,
              help="Engine threads (default: all). Results do not depend on it.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play on Dask (`local` or tcp://HOST:PORT), as for sweep, and read the run "
                   "for the report there too.")
@click.option("--workers", type=IntRange(min=1), default=None,
              help="Worker processes: of --scheduler local, or (without it) that read the "
                   "run and draw the report's charts.")
@click.option("--force-new", is_flag=True, help="Replace a run folder of another spec.")
@click.option("--until-settled", is_flag=True,
              help="Play in rounds (doubling from the study's chunk, or from --games) and "
                   "judge each round with anytime-valid intervals; stop when every verdict is "
                   "settled (supported, negligible or refuted) or at --max-games.")
@click.option("--max-games", type=IntRange(min=1), default=None,
              help="With --until-settled: the most games per setting (default 200,000).")
@click.option("--no-progress", is_flag=True, help="No progress bar or lines on stderr.")
def study(name, list_, games, out, threads, scheduler, workers, force_new, until_settled,
          max_games, no_progress):
    """Run the shipped study NAME: play its sweep into DIR/run (re-running resumes it), write
    its report into DIR/report, and print where the report is and the verdict table. With
    --until-settled it plays until every verdict is settled (re-running resumes it too)."""
    from experiments import spec as specs
    from survive_sim.runs import SETTLE_CAP, study_folder
    studies = specs.shipped()
    if list_:
        width = max(map(len, studies), default=0) + 1
        for key, path in studies.items():
            click.echo(f"{key:<{width}} {_listing(path)}")
        return
    if name is None:
        bad(f"give a study name; shipped: {', '.join(studies)} (survive-sim study --list)")
    if name not in studies:
        bad(f"unknown study {name!r}; shipped: {', '.join(studies)}")
    if specs.is_search(studies[name]):              # the fairest boats: a search, no sweep
        for given, option in ((games, "--games"), (until_settled, "--until-settled"),
                              (max_games, "--max-games"), (scheduler, "--scheduler"),
                              (workers, "--workers")):
            if given:
                bad(f"study {name} is a search of boat allocations (survive-sim fairest): "
                    f"{option} does not apply; its values are in {studies[name].name} "
                    f"(or give them to `survive-sim fairest --spec {name}`)", option)
        if out is not None and os.path.exists(out) and not os.path.isdir(out):
            bad(f"{out} is a file; --out needs a folder", "--out")
        from .fairest import play as play_search
        play_search(name, out, {}, threads, force_new, no_progress, f"study {name}")
        return
    from survive_sim.checks import settling_problem, study_folder_problem
    if max_games is not None and not until_settled:
        bad(*settling_problem(name, (), games, max_games, False, 1, 1, CLI_NAMES))
    try:
        spec = specs.load(studies[name], games=games)   # a count too large: one line, at once
    except specs.SpecError as e:
        bad(str(e))
    if until_settled:
        max_games = max_games or SETTLE_CAP
        problem = settling_problem(name, spec.claims, games, max_games, True, spec.chunk,
                                   len(spec.points), CLI_NAMES)
        if problem:
            bad(*problem)
    out = out or str(study_folder(name, games, until_settled, max_games or SETTLE_CAP))
    if os.path.exists(out) and not os.path.isdir(out):
        bad(f"{out} is a file; --out needs a folder", "--out")
    problem = study_folder_problem(out, "study --out", cli=True)
    if problem:
        bad(problem, "--out")
    run, page = os.path.join(out, "run"), os.path.join(out, "report")
    from . import report as report_cmd
    from .progress import Progress
    from .sweep import play
    if until_settled:
        from dataclasses import replace

        from experiments.settle import play_until_settled, sizes
        first = True
        start = replace(spec, games=games or spec.chunk)
        plan = sizes(games or start.chunk, max_games, start.chunk)

        def sweep(at):
            nonlocal first
            r = plan.index(at.games) + 1 if at.games in plan else "?"
            play(at, run, force_new and first, threads, scheduler,
                 workers if scheduler else None, no_progress,
                 progress=bar, title=f"study {name}: round {r} of at most {len(plan)} "
                                     f"({at.games:,} games per setting)")
            bar.finish()                        # the round's last line, under its title
            bar.title = f"study {name}"
            first = False

        def say(line):                          # a round's verdicts: shown even when quiet
            if no_progress:
                click.echo(line, err=True)
            else:
                bar.note(line)
        with Progress(title=f"study {name}", quiet=no_progress) as bar:
            try:
                rounds = play_until_settled(start, run, max_games, games, sweep,
                                            say=say, watch=bar)
            except (ValueError, OSError) as e:
                bad(one_line(e))
        end = rounds.rounds[-1]
        click.echo(f"until settled: {len(rounds.rounds)} round(s), {end[0]:,} games per "
                   f"setting; {end[1]} of {end[2]} verdicts settled"
                   + (f" (the cap, --max-games {max_games:,}, was reached)" if rounds.capped
                      else ""), err=True)
    else:
        play(spec, run, force_new, threads, scheduler, workers if scheduler else None,
             no_progress, title=f"study {name}")
    result = report_cmd.write(run, page, no_progress, None, scheduler, workers)
    click.echo(f"report: {os.path.join(page, 'index.html')} (also index.md; "
               f"{result.figures} charts, tables/ and verdicts.csv)")
    if result.verdicts is not None and len(result.verdicts):
        from reports.report import verdict_text
        click.echo(verdict_text(result.verdicts))
