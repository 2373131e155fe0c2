"""Run folders and studies: a sweep played into a folder (``Run``: its tables, statistics,
verdicts, charts and report) and the shipped studies (``Study``) -- ``survive-sim sweep``,
``stats``, ``report``, ``study``. Part of the Python API (``survive_sim.api``,
docs/python.md).
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from experiments.komi.tables import run_komi
from experiments.sweeps import spec as specs
from experiments.sweeps.plan import StudyPlan, study_cost
from experiments.verdicts.claims import check_claims
from experiments.verdicts.analysis import Analysis, analyse
from experiments.verdicts.looks import judge_run
from experiments.store.outputs import unwritable_folder
from experiments.store.runs import MANIFEST, RunError, RunFolder, finished_chunks
from experiments.sweeps.settle import Rounds, play_until_settled, sizes
from experiments.sweeps.sweep import Outcome, run_sweep
from reports import charts
from reports.report import Result, build_report

from . import checks
from .checks import ArgumentError
from .fair import Fairest, fairest

SETTLE_CAP = 200_000            # --until-settled's default --max-games (as the CLI's)
HOOKS = ("watch", "started", "setting_done", "stop", "progress")    # run_sweep's
PRECISION = (0.0001, 0.5)       # stats' half-width (as ``stats --precision``)


# ---------------------------------------------------------------------------- run folders
@dataclass
class KomiTables:
    """``Run.komi``'s answer: ``table`` (setting, seat, bonus, share, low, high, n, exact) and
    ``fair`` (setting, seat, the fair bonus and its interval, whether the range reaches it)."""
    table: pd.DataFrame
    fair: pd.DataFrame


@dataclass
class Run:
    """A sweep's run folder (docs/opening-a-run.md): read chunk by chunk, never whole unless
    you ask for the whole table."""
    path: Path
    outcome: Outcome | None = field(default=None, repr=False)   # of the sweep that made it

    def __post_init__(self):
        self.path = Path(checks.path(self.path, "path", error=RunError))
        if self.outcome is None:        # a folder named by the caller: a run, now
            if not self.path.is_dir():
                raise RunError(f"{self.path} is not a run folder (no such directory); make one "
                               f"with `survive-sim sweep` or sweep()")
            if RunFolder(self.path).read_manifest() is None:
                raise RunError(f"{self.path} is not a run folder (no {MANIFEST}); make one with "
                               f"`survive-sim sweep` or sweep()")

    @property
    def manifest(self) -> dict:
        """The run's ``_manifest.json``: its spec, settings, seed, claims and versions."""
        return RunFolder(self.path).read_manifest()

    def chunks(self, columns: Sequence[str] | None = None, games: int | None = None
               ) -> Iterator[pd.DataFrame]:
        """Every finished chunk as a table, in grid order (``setting``, then ``game``);
        ``columns``: only these (``setting`` and ``game`` always); ``games``: only the first
        ``games`` of each setting. Memory holds one chunk at a time. An unknown column raises
        ``ArgumentError`` at the call."""
        games = checks.optional_whole(games, "games")
        files, _ = finished_chunks(self.path, games)
        columns = self._columns(columns, files)
        return self._chunks(files, columns, games)

    @staticmethod
    def _columns(columns, files: dict[str, list[str]]) -> list[str] | None:
        """``columns`` checked against the chunks' columns (each setting's first chunk)."""
        columns = checks.names(columns, "columns")
        if columns is None:
            return None
        known = list(dict.fromkeys(name for paths in files.values() if paths
                                   for name in pq.read_schema(paths[0]).names))
        for c in columns:
            if c not in known:
                raise ArgumentError(f"unknown column {c!r}; the run's columns: "
                                    f"{', '.join(known)} (docs/per-game-table.md)", "columns")
        return columns

    @staticmethod
    def _chunks(files: dict[str, list[str]], columns: list[str] | None,
                games: int | None) -> Iterator[pd.DataFrame]:
        limit = games
        for label, paths in files.items():
            seen = 0
            for p in paths:
                names = pq.read_schema(p).names
                cols = None if columns is None else (
                    ["setting", "game"] + [c for c in columns if c in names
                                           and c not in ("setting", "game")])
                part = pq.read_table(p, columns=cols).to_pandas()
                if limit is not None:
                    part = part.iloc[:max(0, limit - seen)]
                seen += len(part)
                if len(part):
                    yield part

    def table(self, columns: Sequence[str] | None = None, games: int | None = None
              ) -> pd.DataFrame:
        """The finished games as one table (``chunks``, concatenated). Pass ``columns``: a
        large run holds millions of rows of ~100 columns. ``columns``: a list of names, or
        one name."""
        parts = list(self.chunks(columns, games))
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()

    def analysis(self, games: int | None = None, charts: bool = True,
                 workers: int | None = None, scheduler: str | None = None,
                 watch=None) -> Analysis:
        """The run read once, chunk by chunk, into sufficient statistics: what ``stats``,
        ``verdicts`` and the charts are computed from (``.tidy(precision)``; ``.account``:
        games present and asked per setting). ``charts=False`` reads only what the
        statistics need, each mixed-table rotation on its own; ``watch``
        (``experiments.store.watch``) sees the chunks read."""
        games, charts = checks.optional_whole(games, "games"), checks.flag(charts, "charts")
        workers, watch = checks.threads(workers, "workers"), checks.watch(watch)
        if scheduler is not None:
            checks.text(scheduler, "scheduler")
        return analyse(str(self.path), games=games, pool_rotations=charts, charts=charts,
                       scheduler=scheduler, workers=workers, watch=watch)

    def stats(self, precision: float = 0.01, games: int | None = None,
              workers: int | None = None, scheduler: str | None = None) -> pd.DataFrame:
        """The tidy statistics ``survive-sim stats --out`` writes: one row per setting, seat
        and metric, with ``value, low, high, n, method``. ``precision``: the win-share
        half-width the ``games_for_precision`` rows aim at, 0.0001 to 0.5."""
        precision = checks.number(precision, "precision", *PRECISION)
        return self.analysis(games, False, workers, scheduler).tidy(precision=precision)

    def komi(self, top: float = 3.0, step: float = 0.5, games: int | None = None) -> KomiTables:
        """Komi tables (RULES.md C1; docs/fairest.md): for every setting and seat, the seat's
        win share with its own score bonus at ``-top .. top`` in steps of ``step`` points (the
        other seats at none), read from the stored scores (the komi screen: exact where every
        seat is komi-blind, ``exact`` in the tables), and the fair bonus where the share
        crosses 1/N, with its interval. Read chunk by chunk."""
        games = checks.optional_whole(games, "games")
        for name, value in (("top", top), ("step", step)):
            value = checks.number(value, name, 0.0, 30.0)
            if float(2 * value) != int(2 * value) or (name == "step" and value == 0):
                raise ArgumentError(f"{name} must be whole or half points (0.5 to 30 for step, "
                                    f"0 to 30 for top), got {value!r}")
        return KomiTables(*run_komi(self.path, top, step, games))

    def verdicts(self, games: int | None = None, record: bool = False,
                 claims: dict | None = None) -> pd.DataFrame:
        """The verdict on every claim the run's spec names, for each style and across them
        (docs/verdicts.md). ``record``: remember this look in the folder, as the report does
        (so that a later, larger look keeps the error rates); off by default. ``claims``:
        judge these claims' parameters instead of the spec's (``{"S1b": {"tolerance":
        0.02}}``, merged over the spec's); parameters other than those the run's first look
        stated make it a labelled re-judgement, with no stated error rate."""
        games = checks.optional_whole(games, "games")
        given = None
        if claims is not None:
            if not isinstance(claims, dict) or not all(isinstance(v, dict)
                                                       for v in claims.values()):
                raise ArgumentError("claims must be a dict of {claim: {parameter: "
                                           "value}}, e.g. {'S1b': {'tolerance': 0.02}}")
            problem = check_claims(claims)
            if problem:
                raise ArgumentError(f"claims: {problem}")
            base = self.manifest.get("claims") or {}
            given = {**base, **{c: {**base.get(c, {}), **p} for c, p in claims.items()}}
        return judge_run(str(self.path), given, games=games,
                         record=checks.flag(record, "record"))

    def chart(self, name: str, analysis: Analysis | None = None, **options):
        """``(figure, table)`` of one of the report's charts (``reports.charts``: e.g.
        ``seat_win_share``, ``game_length``, ``paired_differences``), with ``options`` as
        that function takes them; the table holds exactly the numbers drawn."""
        fn = getattr(charts, name, None) if isinstance(name, str) else None
        if fn is None or name not in charts.__all__ or not callable(fn) or name in (
                "save", "select", "settings_table"):
            raise ArgumentError(f"unknown chart {name!r}; accepted: {', '.join(CHARTS)}",
                                "name")
        return fn(analysis if analysis is not None else self.analysis(), **options)

    def report(self, out: str | os.PathLike | None = None, games: int | None = None,
               workers: int | None = None, scheduler: str | None = None,
               log: Callable[[str], None] | None = None, watch=None) -> Result:
        """Write the report (index.html, index.md, figures/, tables/, verdicts.csv) into
        ``out`` (default: RUN-report beside RUN), as ``survive-sim report`` does. ``log`` gets
        a line as each phase ends; ``watch`` (``experiments.store.watch``) sees the phases."""
        games, workers = checks.optional_whole(games, "games"), checks.threads(workers, "workers")
        checks.callback(log, "log")
        checks.watch(watch)
        out = Path(checks.report_folder(out if out is not None else
                                        self.path.with_name(self.path.name + "-report")))
        return build_report(str(self.path), str(out), log=log, games=games,
                            scheduler=scheduler, workers=workers, watch=watch)


CHARTS = ("seat_win_share", "seat_score_rescued", "tie_decisions", "tiebreak_transitions",
          "game_length", "rescued_per_game", "losses_by_cause", "end_reasons", "turn_capped",
          "score_distributions", "paired_differences")


def spec(source: str | os.PathLike | dict, **overrides) -> specs.Spec:
    """A sweep's ``Spec``: a shipped study's name (``"five-six"``), an experiment file (TOML,
    docs/sweeps.md), or the same structure as a dict. ``overrides``: ``games``, ``seed``,
    ``chunk`` ... (checked as the file's own values)."""
    if isinstance(source, dict):            # None: not given (as for a file)
        return specs.build({**source, **{k: v for k, v in overrides.items() if v is not None}},
                           source="a dict")
    if not isinstance(source, (str, os.PathLike)):
        raise specs.SpecError(f"source must be a shipped study's name, an experiment file "
                              f"(TOML) or a dict, got {source!r}")
    shipped = specs.shipped()
    path = shipped[source] if isinstance(source, str) and source in shipped else specs.find(source)
    return specs.load(path, **overrides)


def sweep(source: str | os.PathLike | dict | specs.Spec, out: str | os.PathLike, *,
          games: int | None = None, threads: int | None = None, force_new: bool = False,
          scheduler: str | None = None, workers: int | None = None, parents: bool = False,
          **hooks: Callable) -> Run:
    """Play what the run folder ``out`` still lacks of the sweep ``source`` (a ``Spec``, a
    study name, a TOML file or a dict: ``spec``) and return the ``Run``. Resumable: the same
    call after an interruption plays only the missing chunks; a folder of another spec or
    engine is refused (``RunError``) unless ``force_new``. ``hooks``: ``watch``, ``started``,
    ``setting_done``, ``stop`` and ``progress`` of ``experiments.sweeps.sweep.run_sweep`` (the CLI's
    progress bar and its Ctrl-C: ``stop()`` True leaves after the chunk in flight).

    ``out``'s parent folder must exist (``parents=True``: its missing parents are made, as
    the CLI's ``sweep --out`` does). Every argument is checked before the folder is touched."""
    out = checks.output_folder(out, "out", parents=checks.flag(parents, "parents"),
                               error=RunError)
    force_new = checks.flag(force_new, "force_new")
    threads, workers = checks.threads(threads), checks.threads(workers, "workers")
    if scheduler is not None:
        checks.text(scheduler, "scheduler")
    elif workers is not None:
        raise ArgumentError("workers needs scheduler='local' (the processes of a local Dask "
                            "cluster); without a scheduler the sweep plays on threads",
                            "workers")
    _check_hooks(hooks, "games, threads, force_new, scheduler, workers, parents")
    if isinstance(source, specs.Spec):
        sp = source
        if games is not None:
            games = checks.whole(games, "games", error=specs.SpecError)
            problem = specs.chunk_files_problem(games, sp.chunk, len(sp.points))
            if problem:
                raise specs.SpecError(f"games: {problem}")
            sp = replace(sp, games=games)
    else:
        sp = spec(source) if games is None else spec(source, games=games)
    outcome = run_sweep(sp, out, force_new=force_new, threads=threads,
                        scheduler=scheduler, workers=workers, **hooks)
    return Run(Path(out), outcome)


def _check_hooks(hooks: dict, keywords: str) -> None:
    """``hooks``: only ``run_sweep``'s (``HOOKS``), each a function (``watch``: a watch)."""
    for key, hook in hooks.items():
        if key not in HOOKS:
            raise ArgumentError(f"unknown keyword {key!r}; accepted: {keywords} and the hooks "
                                f"{', '.join(HOOKS)}", key)
        if key == "watch":
            checks.watch(hook)
        else:
            checks.callback(hook, key)


# ---------------------------------------------------------------------------- studies
@dataclass
class Study:
    """A shipped study played into ``folder`` (``folder/run``): its verdicts and report.
    ``run.outcome``: what its last sweep played (``stopped``: ``stop()`` ended it early);
    ``scheduler`` and ``workers``: the study's, with which ``report`` reads the run."""
    name: str
    folder: Path
    run: Run
    sequential: bool = False          # played until settled (anytime-valid looks)
    rounds: Rounds | None = None      # what the rounds did, when until settled
    scheduler: str | None = None
    workers: int | None = None
    _verdicts: pd.DataFrame | None = field(default=None, repr=False)

    @property
    def stopped(self) -> bool:
        """A sweep was asked to stop (its ``stop`` hook) and the study ended there, not
        judged further; the same call resumes it."""
        return self.run.outcome is not None and self.run.outcome.stopped

    @property
    def verdicts(self) -> pd.DataFrame:
        """The verdict table (one row per claim and style, and across styles), as the
        report's verdicts.csv holds it."""
        if self._verdicts is None:
            self._verdicts = judge_run(str(self.run.path), sequential=self.sequential)
        return self._verdicts

    def report(self, out: str | os.PathLike | None = None, *,
               log: Callable[[str], None] | None = None, watch=None) -> Result:
        """Write the study's report into ``out`` (default ``folder/report``), reading the run
        with the study's ``scheduler`` and ``workers``; ``log`` and ``watch`` as for
        ``Run.report``."""
        result = self.run.report(out if out is not None else self.folder / "report",
                                 workers=self.workers, scheduler=self.scheduler, log=log,
                                 watch=watch)
        if result.verdicts is not None:
            self._verdicts = result.verdicts
        return result


def studies() -> dict[str, Path]:
    """The shipped studies: name -> its experiment file."""
    return specs.shipped()


def study_folder(name: str, games: int | None = None, until_settled: bool = False,
                 max_games: int | None = None) -> Path:
    """Where a study goes by default: ``studies/NAME``, ``studies/NAME-GAMES`` with ``games``,
    ``studies/NAME-settled`` (``-MAX`` with a cap other than the default) until settled."""
    if until_settled:
        cap = max_games or SETTLE_CAP
        return Path("studies") / (f"{name}-settled"
                                  + (f"-{cap}" if cap != SETTLE_CAP else ""))
    return Path("studies") / (name if games is None else f"{name}-{games}")


def study(name: str, games: int | None = None, *, out: str | os.PathLike | None = None,
          until_settled: bool = False, max_games: int | None = None,
          threads: int | None = None, force_new: bool = False, parents: bool = False,
          scheduler: str | None = None, workers: int | None = None,
          say: Callable[[str], None] | None = None,
          sweeping: Callable[[specs.Spec, int, int], None] | None = None,
          swept: Callable[[Outcome], None] | None = None,
          **hooks: Callable) -> Study | Fairest:
    """Play the shipped study ``name`` (``studies()``) into ``out/run`` (default
    ``studies/NAME``, ``studies/NAME-GAMES`` with ``games``, ``studies/NAME-settled`` until
    settled), as ``survive-sim study`` does, and return the ``Study``; call ``.report()`` for
    its page. ``until_settled``: play in doubling rounds, judged with anytime-valid intervals,
    until every verdict is settled or ``max_games`` (default 200,000) per setting.

    ``scheduler``: play on Dask, as ``sweep`` does (``workers``: its local cluster's
    processes), and read the run for the report there too; ``workers`` without a scheduler
    are the processes that read the run for the report.

    The hooks (the CLI's progress display): ``sweeping(spec, round, rounds)`` before each
    sweep, with the ``Spec`` it plays (its games per setting) and the round's number of at
    most ``rounds`` (1 of 1 unless until settled); ``swept(outcome)`` after it; ``say(line)``:
    each round's verdict count; and ``sweep``'s own (``watch``, ``started``, ``setting_done``,
    ``stop``, ``progress``) passed to every sweep (``watch`` also sees each round's judging).
    When ``stop()`` ends a sweep early the study returns there (``Study.stopped``), resumable
    by the same call.

    A study that is a search of boat allocations (``fair-boats``) is played by ``fairest``
    into ``out`` (default ``studies/NAME``) and returns its ``Fairest`` (``.verdicts``,
    ``.report()``); ``games``, the settling options, the scheduler and the hooks do not apply
    to it.

    ``out`` is a new (or empty) folder or an earlier study's, whose parent exists
    (``parents=True``: missing parents are made); the default folder is made as the CLI
    makes it. Every argument is checked before anything is played or written
    (``ArgumentError``, ``SpecError`` or ``RunError``: one line; a refusal of two arguments
    together has ``spell(options)``, ``checks.refuse``)."""
    shipped = specs.shipped()
    if not isinstance(name, str) or name not in shipped:
        raise ArgumentError(f"unknown study {name!r}; shipped: {', '.join(shipped)}", "name")
    until_settled = checks.flag(until_settled, "until_settled")
    force_new = checks.flag(force_new, "force_new")
    parents = checks.flag(parents, "parents")
    threads, workers = checks.threads(threads), checks.threads(workers, "workers")
    max_games = checks.optional_whole(max_games, "max_games")
    if out is not None:
        out = checks.path(out, "out", error=RunError)
    if scheduler is not None:
        checks.text(scheduler, "scheduler")
    for key, hook in (("say", say), ("sweeping", sweeping), ("swept", swept)):
        checks.callback(hook, key)
    _check_hooks(hooks, "games, out, until_settled, max_games, threads, force_new, parents, "
                        "scheduler, workers, say, sweeping, swept")
    if specs.is_search(shipped[name]):
        given = [k for k, v in (("games", games), ("until_settled", until_settled),
                                ("max_games", max_games), ("scheduler", scheduler),
                                ("workers", workers), *hooks.items(), ("say", say),
                                ("sweeping", sweeping), ("swept", swept)) if v]
        if given:
            raise ArgumentError(f"study {name} is a search of boat allocations: "
                                f"{', '.join(given)} {'does' if len(given) == 1 else 'do'} "
                                f"not apply (fairest() takes its values)", given[0])
        return fairest(name, out, threads=threads, force_new=force_new, parents=parents)
    sp, max_games = _study_spec(name, shipped[name], games, until_settled, max_games)
    folder = Path(out) if out is not None else study_folder(name, games, until_settled,
                                                              max_games)
    if out is not None and not parents:         # (the default folder is made as the CLI's)
        checks.output_folder(out, "out", error=RunError)
    checks.refuse(checks.study_folder_problem, str(folder), error=RunError)
    run = folder / "run"
    problem = unwritable_folder(run)
    if problem:
        checks.fail(problem, "out", RunError)
    played = []
    plan = sizes(games or sp.chunk, max_games, sp.chunk) if until_settled else [sp.games]

    def one_sweep(at: specs.Spec) -> Outcome:
        if sweeping is not None:
            sweeping(at, plan.index(at.games) + 1 if until_settled else 1, len(plan))
        outcome = run_sweep(at, str(run), force_new=force_new and not played,
                            threads=threads, scheduler=scheduler,
                            workers=workers if scheduler else None, **hooks)
        played.append(outcome)              # (run_sweep makes the folder's parents)
        if swept is not None:
            swept(outcome)
        return outcome
    rounds = None
    if until_settled:
        rounds = play_until_settled(replace(sp, games=games or sp.chunk), str(run), max_games,
                                    games, one_sweep, say=say or (lambda line: None),
                                    watch=hooks.get("watch"))
    else:
        one_sweep(sp)
    return Study(name, folder, Run(run, played[-1] if played else None), until_settled,
                 rounds, scheduler, workers)


def _study_spec(name: str, path: Path, games: int | None, until_settled: bool,
                max_games: int | None) -> tuple[specs.Spec, int | None]:
    """A sweep study's spec with ``games``, and its settling cap (``max_games`` or
    ``SETTLE_CAP`` until settled), refused together as ``study`` and ``study_plan`` both
    refuse them."""
    if not until_settled:                       # the rule needs no spec: before loading it
        checks.refuse(checks.settling_problem, name, (), games, max_games, False, 1, 1)
    sp = specs.load(path, games=games)
    if until_settled:
        max_games = max_games or SETTLE_CAP
        checks.refuse(checks.settling_problem, name, sp.claims, games, max_games, True,
                      sp.chunk, len(sp.points))
    return sp, max_games


def study_plan(name: str, games: int | None = None, threads: int | None = None, *,
               until_settled: bool = False, max_games: int | None = None,
               watch=None) -> StudyPlan:
    """What ``study(name, games, ...)`` would cost on this machine, nothing of it played or
    written, so that a dear study is priced before it starts: its settings, games in all,
    core-hours, the wall time here and on more cores, and the cost of one more doubling of
    the search budget (a ``StudyPlan``; its ``text()`` is what ``survive-sim study NAME
    --plan`` prints). The times are of games played here
    (``experiments.sweeps.plan.timings``): a sample of each heuristic setting, ONE game of
    each setting where a seat searches (seconds a game). ``until_settled``: planned at the
    cap, ``max_games`` (default 200,000) per setting, the most the rounds can play. A search
    of boat allocations (``fair-boats``) has its own plan, ``fairest_plan``. ``watch``
    (``experiments.store.watch``) sees the engine load and the timings. Bad arguments raise
    as ``study``'s do, before anything is timed."""
    shipped = specs.shipped()
    if not isinstance(name, str) or name not in shipped:
        raise ArgumentError(f"unknown study {name!r}; shipped: {', '.join(shipped)}", "name")
    until_settled = checks.flag(until_settled, "until_settled")
    threads = checks.threads(threads)
    max_games = checks.optional_whole(max_games, "max_games")
    watch = checks.watch(watch)
    if specs.is_search(shipped[name]):
        raise ArgumentError(f"study {name} is a search of boat allocations: its plan is "
                            f"fairest_plan({name!r})", "name")
    sp, cap = _study_spec(name, shipped[name], games, until_settled, max_games)
    if until_settled:
        sp = replace(sp, games=cap)
    return study_cost(sp, threads, capped=until_settled, watch=watch)
