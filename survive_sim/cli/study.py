"""``survive-sim study``: the tool's main job in one command -- a shipped study's sweep
(resumable) and its report, then the verdict table."""
from __future__ import annotations

import os

import click

from .group import main
from .options import IntRange, bad, one_line

# the API's arguments as this command spells them (``options.usage_error``, the refusals of
# ``survive_sim.checks.settling_problem`` and ``study_folder_problem``)
CLI_NAMES = {"games": "--games", "max_games": "--max-games", "until_settled": "--until-settled",
             "out": "--out", "report": "`survive-sim report {run}`"}


def _listing(name: str, path) -> str:
    """One line of ``study --list``: what the study plays and judges."""
    from experiments.sweeps.spec import is_search
    if is_search(path):
        from survive_sim.fair import fair_spec
        f = fair_spec(path)
        styles = "; ".join(s.label for s in f.styles)
        return (f"{f.description} (a search of {f.what} at "
                f"{', '.join(map(str, f.players))} players for {len(f.styles)} styles: "
                f"{styles}; claim {f.claim}; {path.name})")
    from survive_sim.runs import spec
    s = spec(name)
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
@click.option("--plan", is_flag=True,
              help="Print what the study would cost -- settings, games, core-hours, the wall "
                   "time here and on more cores, one more doubling of the search budget -- from "
                   "games timed on this machine (one game per setting where a seat searches); "
                   "play and write nothing.")
@click.option("--no-progress", is_flag=True, help="No progress bar or lines on stderr.")
def study(name, list_, games, out, threads, scheduler, workers, force_new, until_settled,
          max_games, plan, no_progress):
    """Run the shipped study NAME: play its sweep into DIR/run (re-running resumes it), write
    its report into DIR/report, and print where the report is and the verdict table. With
    --until-settled it plays until every verdict is settled (re-running resumes it too). With
    --plan it prints what the study would cost and plays nothing."""
    from experiments.sweeps.spec import is_search
    from survive_sim.runs import studies as shipped
    studies = shipped()
    if list_:
        width = max(map(len, studies), default=0) + 1
        for key, path in studies.items():
            click.echo(f"{key:<{width}} {_listing(key, path)}")
        return
    if name is None:
        bad(f"give a study name; shipped: {', '.join(studies)} (survive-sim study --list)")
    if name not in studies:
        bad(f"unknown study {name!r}; shipped: {', '.join(studies)}")
    if plan:
        for given, option in ((scheduler, "--scheduler"), (workers, "--workers")):
            if given:
                bad(f"--plan plays nothing: {option} does not apply (the plan gives the wall "
                    f"time on 1 to 32 cores like this machine's)", option)
    if is_search(studies[name]):                    # the fairest boats: a search, no sweep
        for given, option in ((games, "--games"), (until_settled, "--until-settled"),
                              (max_games, "--max-games"), (scheduler, "--scheduler"),
                              (workers, "--workers")):
            if given:
                bad(f"study {name} is a search of boat allocations (survive-sim fairest): "
                    f"{option} does not apply; its values are in {studies[name].name} "
                    f"(or give them to `survive-sim fairest --spec {name}`)", option)
        if plan:                                    # the search's own plan (fairest --plan)
            from survive_sim.fair import fairest_plan

            from .options import usage_error
            try:
                text = fairest_plan(name, threads=threads)
            except ValueError as e:
                usage_error(e)
            click.echo(text)
            return
        if out is not None and os.path.exists(out) and not os.path.isdir(out):
            bad(f"{out} is a file; --out needs a folder", "--out")
        from .fairest import play as play_search
        play_search(name, out, {}, threads, force_new, no_progress, f"study {name}")
        return
    if plan:
        _print_plan(name, games, threads, until_settled, max_games, no_progress)
        return
    from survive_sim.runs import study_folder
    out = out or str(study_folder(name, games, until_settled, max_games))
    done = _play(name, games, out, threads, scheduler, workers, force_new, until_settled,
                 max_games, no_progress)
    if done.rounds is not None:
        end = done.rounds.rounds[-1]
        click.echo(f"until settled: {len(done.rounds.rounds)} round(s), {end[0]:,} games per "
                   f"setting; {end[1]} of {end[2]} verdicts settled"
                   + (f" (the cap, --max-games {done.rounds.cap:,}, was reached)"
                      if done.rounds.capped else ""), err=True)
        if done.rounds.limits:
            stops = sorted(set(done.rounds.limits.values()))
            click.echo(f"until settled: {len(done.rounds.limits)} setting(s) stopped early, "
                       f"every verdict they take part in settled (at "
                       f"{', '.join(f'{n:,}' for n in stops)} games)", err=True)
    from .report import reported
    result = reported(done.report, no_progress)
    click.echo(f"report: {os.path.join(out, 'report', 'index.html')} (also index.md; "
               f"{result.figures} charts, tables/ and verdicts.csv)")
    if result.verdicts is not None and len(result.verdicts):
        from reports.report import verdict_text
        click.echo(verdict_text(result.verdicts))


def _print_plan(name, games, threads, until_settled, max_games, no_progress) -> None:
    """``survive_sim.study_plan`` printed: the timing on a progress bar, the API's refusals
    in this command's words, an engine error in one line."""
    from survive_sim.runs import study_plan

    from .options import usage_error
    from .progress import Progress, compile_note
    compile_note("run_games", no_progress)
    with Progress(title=f"study {name}: plan", quiet=no_progress) as bar:
        try:
            plan = study_plan(name, games, threads, until_settled=until_settled,
                              max_games=max_games, watch=bar)
        except RuntimeError as e:                             # an engine error names the game
            raise click.ClickException(one_line(e))
        except ValueError as e:                 # SpecError, ArgumentError: one line
            usage_error(e, CLI_NAMES)
    click.echo(plan.text())


def _play(name, games, out, threads, scheduler, workers, force_new, until_settled, max_games,
          no_progress):
    """``survive_sim.study`` into ``out``, its sweeps, rounds and verdict lines on a progress
    bar, Ctrl-C heard between chunks (exit 130 / 143, resumable), and the API's refusals in
    this command's words. Returns the ``Study``."""
    from survive_sim.runs import study

    from .options import usage_error
    from .progress import Progress
    from .sweep import Signals, played_line, progress_hooks, stopped
    run = os.path.join(out, "run")
    now = {}                                    # the spec being played (a round's)
    sig = Signals()

    def sweeping(at, r, rounds):
        now["spec"] = at
        bar.finish()                # silent while the sweep checks its folder and scheduler
        bar.title = (f"study {name}: round {r} of at most {rounds} ({at.games:,} games per "
                     f"setting)" if until_settled else f"study {name}")
        sig.arm()

    def swept(outcome):
        sig.disarm()
        if not outcome.stopped:
            bar.finish()                        # the sweep's last line, under its title
            played_line(outcome, run, now["spec"])
            bar.title = f"study {name}"

    def say(line):                              # a round's verdicts: shown even when quiet
        if no_progress:
            click.echo(line, err=True)
        else:
            bar.note(line)
    with Progress(title=f"study {name}", quiet=no_progress) as bar:
        hooks = progress_hooks(bar, lambda: now["spec"], run, threads, scheduler, no_progress,
                               sig)
        try:
            done = study(name, games, out=out, until_settled=until_settled,
                         max_games=max_games, threads=threads, force_new=force_new,
                         parents=True, scheduler=scheduler, workers=workers, say=say,
                         sweeping=sweeping, swept=swept, **hooks)
        except RuntimeError as e:                             # an engine error names the game
            raise click.ClickException(one_line(e))
        except ValueError as e:                 # SpecError, RunError, ArgumentError: one line
            usage_error(e, CLI_NAMES)
        except OSError as e:
            if not until_settled:
                raise
            bad(one_line(e))
        finally:
            sig.disarm()                        # (armed for each sweep alone)
        if done.stopped:
            stopped(done.run.outcome, sig, bar)
    return done
