"""``survive-sim sweep``: play a grid of settings into a resumable run folder.

The grid comes from an experiment file (``experiments/*.toml``) or from the options, for quick
questions; ``--games`` overrides the file's count (a quick version of any study). Every check
(the spec, the folder, the scheduler's address) runs before the first game: bad input is one
line, exit 2, and no folder. Ctrl-C or SIGTERM stops after the chunk in flight, or within two
seconds when that chunk has not ended (exit 130 / 143), and leaves a folder the same command
resumes.
"""
from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import NoReturn

import click

from .group import main
from .options import INT32_MAX, IntRange, bad, load_plugins_option, one_line, plugin_option

GRID_HELP = ("With SPEC the grid is the file's; without it the options below give it (each a "
             "comma-separated list of alternatives unless said otherwise).")


def _alternatives(value: str | None, convert=str, option: str | None = None,
                  what: str = "", example: str = "") -> list | None:
    """A comma-separated list; with ``convert`` (int), an item it refuses is a usage error
    quoting that item."""
    if value is None:
        return None
    parts = [p.strip() for p in value.split(",")]
    if any(not p for p in parts):
        return [""]                                      # reported by the spec's checks
    out = []
    for p in parts:
        try:
            out.append(convert(p))
        except ValueError:
            bad(f"{p!r} is not {what}; give a comma-separated list of them, e.g. {example}",
                option)
    return out


def _boats_value(text: str):
    """``rules`` / ``flat`` / ``reversed``, or a per-seat list written with dots (2.2.1.1.2)."""
    if "." in text or text.isdigit():
        try:
            return [int(x) for x in text.split(".")]
        except ValueError:
            return text
    return text


def _challenge_sets(values: tuple[str, ...]) -> list | None:
    if not values:
        return None
    out = []
    for v in values:
        v = v.strip()
        if v in ("", "none", "base"):
            out.append([])
            continue
        numbers = []
        for x in v.split(","):
            try:
                numbers.append(int(x))
            except ValueError:
                bad(f"challenge set {v!r}: {x.strip()!r} is not a challenge number; give "
                    f"comma-separated challenge numbers 1-6, or none", "--challenge")
        out.append(numbers)
    return out


def _grid(players, strategies, boats, challenges, tiebreak, dolphins, squid, squid_only,
          lagoon_not_sea, creatures_must_move, max_turns, komi=(), setup_orders=()) -> dict:
    grid = {}
    if players is not None:
        grid["players"] = _alternatives(players, int, "--players", "a player count 2-6",
                                         "5,6")
    if strategies:
        from strategies.registry import split_specs
        grid["strategies"] = [split_specs(s) if len(split_specs(s)) > 1 else s for s in
                              (x.strip() for x in strategies)]
    if boats is not None:
        grid["boats"] = [_boats_value(b) for b in _alternatives(boats)]
    if challenges:
        grid["challenges"] = _challenge_sets(challenges)
    if tiebreak is not None:
        grid["tiebreak"] = _alternatives(tiebreak)
    for key, flag in (("dolphins", dolphins), ("squid", squid), ("squid_only", squid_only),
                      ("creatures_must_move", creatures_must_move)):
        if flag:
            grid[key] = [True]
    if lagoon_not_sea:
        grid["lagoon_is_sea"] = [False]
    if max_turns is not None:
        grid["max_turns"] = _alternatives(max_turns, int, "--max-turns",
                                          f"a turn cap 1 to {INT32_MAX}", "200,400")
    if komi:
        grid["komi"] = [k.strip() for k in komi]         # checked by the spec (C1.1)
    if setup_orders:
        grid["setup_order"] = [o.strip() for o in setup_orders]
    return grid


@main.command(short_help="Play a grid of settings into a resumable run folder.")
@click.argument("spec_file", metavar="[SPEC]", required=False,
                type=click.Path(dir_okay=False))
@click.option("--out", required=True, metavar="FOLDER",
              help="The run folder (a Parquet dataset; re-running resumes it).")
@click.option("--games", type=IntRange(min=1), default=None,
              help="Games per setting (overrides the file's `games`).")
@click.option("--seed", type=IntRange(0, 2**63 - 1), default=None,
              help="Root seed shared by every setting (overrides the file's).")
@click.option("--chunk", type=IntRange(min=1), default=None,
              help="Games per chunk file (overrides the file's; default 10000).")
@click.option("--players", default=None, metavar="LIST", help="Player counts, e.g. 5,6.")
@click.option("--strategies", multiple=True, metavar="NAMES",
              help="A strategy for every seat, or a comma-separated name per seat; repeat the "
                   "option for alternatives.")
@click.option("--boats", default=None, metavar="LIST",
              help="Allocations: rules, flat, reversed, or per-seat lists written with dots "
                   "(2.2.1.1.2).")
@click.option("--challenge", "challenges", multiple=True, metavar="SET",
              help="A challenge set (comma-separated numbers, or none); repeat for "
                   "alternatives.")
@click.option("--tiebreak", default=None, metavar="LIST",
              help="Tie-breaks: shared, chain, or shared,chain for both.")
@click.option("--dolphins", is_flag=True, help="X5 in every setting.")
@click.option("--squid", is_flag=True, help="X7 in every setting.")
@click.option("--squid-only", is_flag=True, help="X7.6 in every setting (with --squid).")
@click.option("--lagoon-not-sea", is_flag=True, help="R1 the other way in every setting.")
@click.option("--creatures-must-move", is_flag=True, help="R2/R21 in every setting.")
@click.option("--max-turns", default=None, metavar="LIST", help="R10 turn caps.")
@click.option("--komi", multiple=True, metavar="LIST",
              help="C1: a score bonus per seat in points, whole or half (0,0,0.5,1,1.5), or "
                   "none; repeat for alternatives.")
@click.option("--setup-order", "setup_orders", multiple=True, metavar="ORDER",
              help="C2: forward, reverse, snake, or explorers=ORDER,boats=ORDER; repeat for "
                   "alternatives.")
@click.option("--skip-invalid", is_flag=True,
              help="Leave out combinations that cannot be played (saying which).")
@click.option("--plan", is_flag=True,
              help="Print the settings, games, estimated time and seat-share precision; play "
                   "nothing.")
@click.option("--force-new", is_flag=True,
              help="Replace a run folder made by another spec or engine (its games are lost).")
@click.option("--threads", type=IntRange(min=1), default=None,
              help="Engine threads without a scheduler (default: all). Results do not depend "
                   "on it.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Play on Dask: `local` starts a LocalCluster, tcp://HOST:PORT uses a running "
                   "scheduler (pip install \"survive-sim[dask]\").")
@click.option("--workers", type=IntRange(min=1), default=None,
              help="Worker processes of --scheduler local (default: one per core).")
@click.option("--no-progress", is_flag=True, help="No progress bar or lines on stderr.")
@plugin_option
def sweep(spec_file, out, games, seed, chunk, players, strategies, boats, challenges, tiebreak,
          dolphins, squid, squid_only, lagoon_not_sea, creatures_must_move, max_turns, komi,
          setup_orders, skip_invalid, plan, force_new, threads, scheduler, workers, no_progress,
          plugins):
    """Play every setting of a grid into the run folder --out.

    SPEC is an experiment file (TOML, see experiments/); without it the grid options give the
    grid. Settings share the seed game by game. Re-running the same command resumes an
    interrupted sweep; the folder is read with `pandas.read_parquet(FOLDER)` or `survive-sim
    stats FOLDER`."""
    import dataclasses

    from experiments.sweeps import spec as specs
    load_plugins_option(plugins)        # before the grid is checked: its names may use them
    grid = _grid(players, strategies, boats, challenges, tiebreak, dolphins, squid, squid_only,
                 lagoon_not_sea, creatures_must_move, max_turns, komi, setup_orders)
    try:
        if spec_file is not None:
            if grid or skip_invalid:
                bad("give the grid in SPEC or as options, not both", None)
            spec = specs.load(spec_file, games=games, seed=seed, chunk=chunk)
        else:
            if not grid:
                bad("give an experiment file SPEC or the grid as options (at least --players)")
            data = {"name": os.path.basename(os.path.normpath(out)) or "sweep",
                    "seed": 0 if seed is None else seed, "games": games or 0, "grid": grid,
                    "skip_invalid": skip_invalid}
            if games is None:
                bad("--games is needed without an experiment file", "--games")
            if chunk is not None:
                data["chunk"] = chunk
            spec = specs.build(data)
    except specs.SpecError as e:
        bad(str(e))
    extra = tuple(str(Path(p).expanduser().resolve()) for p in plugins)
    spec = dataclasses.replace(spec, plugins=spec.plugins + tuple(
        p for p in extra if p not in spec.plugins))
    if scheduler is None and workers is not None:
        bad("--workers needs --scheduler local", "--workers")
    for line in spec.skipped:
        click.echo(f"skipped: {line}", err=True)
    if plan:
        _print_plan(spec, threads, scheduler, workers, no_progress)
        return
    play(spec, out, force_new, threads, scheduler, workers, no_progress)


def _print_plan(spec, threads, scheduler, workers, no_progress) -> None:
    from experiments.sweeps.plan import describe

    from .progress import Progress, compile_note
    compile_note("run_games", no_progress)
    with Progress(title=f"sweep {spec.name}: plan", quiet=no_progress) as p:
        text = describe(spec, threads=threads, workers=workers if scheduler else None, watch=p)
    click.echo(text)


class Signals:
    """SIGINT / SIGTERM ask the sweep to stop after the chunk in flight; if that chunk has not
    ended ``GRACE`` seconds later (a long chunk, or a plug-in that never returns), the sweep
    leaves at once, as on a second signal: the folder stays resumable (the chunk in flight was
    not written, so a resume plays it again). ``arm()`` and ``disarm()`` for the span of each
    sweep of a longer command (``study``: its rounds, judged in between as usual); the
    ``with`` block arms it and disarms it in every case."""

    GRACE = 2.0

    def __init__(self):
        self.got = None
        self.timer = None
        self.old = None

    def arm(self) -> None:
        if self.old is None:
            self.old = {s: signal.signal(s, self._handle) for s in (signal.SIGINT,
                                                                     signal.SIGTERM)}

    def disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.old is not None:
            for s, h in self.old.items():
                signal.signal(s, h)
            self.old = None

    def __enter__(self):
        self.arm()
        return self

    def _handle(self, signum, frame):
        if self.got is not None:                 # a second one: leave now (still resumable)
            from .files import Terminated
            leave = (Terminated(signal.SIGTERM) if signal.SIGTERM in (signum, self.got)
                     else KeyboardInterrupt())
            leave.add_note("left before the chunk in flight ended; run the same command to "
                           "resume")
            raise leave
        self.got = signum
        import threading
        self.timer = threading.Timer(self.GRACE, os.kill, (os.getpid(), signum))
        self.timer.daemon = True
        self.timer.start()

    def __exit__(self, *exc):
        self.disarm()
        return False

    @property
    def code(self) -> int:
        return 128 + int(self.got)


def play(spec, out, force_new, threads, scheduler, workers, no_progress) -> None:
    """Play ``spec`` into ``out`` with progress on stderr; a stop request exits 130 / 143
    (the folder stays resumable)."""
    from experiments.store.runs import RunError
    from survive_sim.runs import sweep as sweep_into

    from .files import check_folder_writable
    from .progress import Progress
    check_folder_writable(out, "--out")          # before anything heavy, named as typed
    p = Progress(quiet=no_progress)
    p.finish()                 # no phase (silent) while the sweep checks the folder and the
    p.title = f"sweep {spec.name}"                # scheduler: bad input stays one line
    with p, Signals() as sig:
        hooks = progress_hooks(p, lambda: spec, out, threads, scheduler, no_progress, sig)
        try:
            outcome = sweep_into(spec, out, force_new=force_new, threads=threads,
                                 scheduler=scheduler, workers=workers, parents=True,
                                 **hooks).outcome
        except RunError as e:
            bad(str(e))
        except RuntimeError as e:                             # an engine error names the game
            raise click.ClickException(one_line(e))
    if outcome.stopped:
        stopped(outcome, sig)
    played_line(outcome, out, spec)


def progress_hooks(p, spec, out, threads, scheduler, no_progress, sig) -> dict:
    """The hooks of an API sweep (``survive_sim.runs.sweep``, and each of ``study``'s) that
    show it on the progress ``p`` and hear Ctrl-C (``sig``): ``spec()`` is the spec being
    played (a study's round)."""
    from .progress import compile_note, load_engine

    def started(done, total):
        at = spec()
        compile_note("run_games", no_progress)     # (after the checks: bad input is one line)
        p.note(f"{p.title}: {len(at.points)} settings x {at.games:,} games (seed "
               f"{at.seed}) into {out}; {done:,} of {total:,} games already there"
               + _recount_note(at))
        if scheduler is None and done < total:
            load_engine(p, at.points[0].settings, threads,
                        [x for point in at.points for x in point.settings.strategies])

    def setting_done(label, n):
        p.note(f"done: {label} ({n} games)")
    return {"watch": p, "started": started, "setting_done": setting_done,
            "stop": lambda: sig.got is not None}


def stopped(outcome, sig, progress=None) -> NoReturn:
    """A sweep that a signal stopped: say so and exit 130 / 143 (``progress``: a bar that
    the command would go on with, ended here)."""
    if progress is not None:
        progress.abort()
    click.echo(f"stopped after {outcome.games_done} of {outcome.games_total} games; run the "
               f"same command to resume", err=True)
    sys.exit(sig.code)


def played_line(outcome, out, spec) -> None:
    """What a sweep into ``out`` played, and how to read it."""
    click.echo(f"{out}: {outcome.games_done} games of {len(spec.points)} settings "
               f"({played_text(outcome)}); read it with `survive-sim stats {out}`")


def _recount_note(spec) -> str:
    """What the playing bar counts when some settings replay the games of another (the same
    games under another tie-break, or named allocations that are the same boats)."""
    distinct = len({p.game_key() for p in spec.points})
    if distinct == len(spec.points):
        return ""
    return (f"; {len(spec.points) - distinct} of the settings play the same games as another "
            f"(another tie-break or the same boats): those are recounted, not played again, "
            f"and the bar counts games per setting, recounted ones included")


def played_text(outcome) -> str:
    """What a sweep call played and how fast, each rate saying what it counts: the games the
    engine played (a game recounted for a twin setting counts once) per second of engine
    time, and per second of the whole call (loading or compiling the engine and checking the
    chunk files already there included). The progress bar's rate is neither: it counts games
    per setting (twins included) per second of playing."""
    from .progress import duration, rate_text
    played, written = outcome.games_played, outcome.games_written
    text = f"{played:,} played now"
    if written > played:
        text += f", recounted as {written:,} games of the settings that share them"
    if played:
        text += (f"; {rate_text(played / max(outcome.seconds_playing, 1e-9))} games/s in the "
                 f"engine, {rate_text(played / max(outcome.seconds, 1e-9))} games/s over the whole "
                 f"{duration(outcome.seconds)} (loading the engine and checking the folder "
                 f"included)")
    return text
