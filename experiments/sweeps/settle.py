"""``study NAME --until-settled``: play a study in rounds and stop when every verdict is settled.

Round r plays every setting up to ``sizes[r]`` games (the first round's size, doubled each
round, up to the cap) into the run folder -- an ordinary resumable sweep -- and judges every
claim with anytime-valid intervals (``experiments.verdicts.inference``: a confidence sequence covers
the truth at every look at once, so stopping when the verdicts look settled keeps the error
rates). A row settled at some round keeps that verdict and the games it needed
(``settled_at``). A setting every one of whose rows has settled plays no more rounds (its
limit, recorded in the manifest), so that each setting plays only the games its verdicts need:
in a skill trace the cheap heuristic levels and the dear search levels stop each when their
own rows are settled. The run stops after the first round at which every row the run can judge
is supported, negligible or refuted, or at the cap.

Each round's verdicts are recorded in the run's look log (``experiments.verdicts.looks``) when the
round is judged. Killed at any moment and run again, the command replays nothing finished and
re-judges from the log: the rounds, their sizes and their data are the same, so the final
verdicts are those of an uninterrupted run.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from ..store.runs import RunFolder
from ..store.watch import under, watching
from ..verdicts.decisions import SETTLED
from ..verdicts.looks import judge_run
from .sweep import run_sweep


def sizes(first: int, cap: int, chunk: int) -> list[int]:
    """The rounds' games per setting: ``first`` (rounded up to whole chunks when it holds one
    or more, so that no finished chunk is played again), doubled each round, the cap last."""
    if first < 1 or cap < 1:
        raise ValueError("round sizes must be positive")
    size = min(cap, -(-first // chunk) * chunk if first >= chunk else first)
    out = [size]
    while size < cap:
        size = min(cap, 2 * size)
        out.append(size)
    return out


def stopping(table: pd.DataFrame, games: int, chunk: int) -> set[str]:
    """The settings that need no more games after a round of ``games``: every verdict row
    that reads them (n > 0) is settled. None when the round does not end on a chunk boundary
    (a setting stopped inside a chunk would hold a shorter chunk than the others). A setting
    that no row reads plays on (the study plays it for its statistics and charts)."""
    if games % chunk or "settings" not in table.columns:
        return set()
    read, open_ = set(), set()
    for labels, verdict, n in zip(table["settings"], table["verdict"], table["n"]):
        if n <= 0:
            continue
        read.update(labels)
        if verdict not in SETTLED:
            open_.update(labels)
    return read - open_


def settled(table: pd.DataFrame) -> bool:
    """Every row that the run can judge (n > 0) is settled."""
    live = table[table["n"] > 0]
    return bool(len(live)) and bool(live["verdict"].isin(SETTLED).all())


@dataclass
class Rounds:
    """What the rounds did: ``(games per setting, rows settled, rows judged)`` per round;
    ``cap``: the most games per setting; ``stopped``: a round's sweep was asked to stop (its
    ``stop`` hook) and the rounds ended there, unjudged (run again to resume)."""
    rounds: list[tuple[int, int, int]] = field(default_factory=list)
    table: pd.DataFrame | None = None
    capped: bool = False
    cap: int = 0
    stopped: bool = False
    limits: dict = field(default_factory=dict)      # settings stopped early: their games


def play_until_settled(spec, out: str, cap: int, first: int | None = None,
                       sweep: Callable | None = None, say: Callable[[str], None] = print,
                       watch=None) -> Rounds:
    """Play ``spec`` into ``out`` in rounds until every verdict is settled or ``cap`` games
    per setting are played. ``sweep(spec_at_round)`` plays one round (``survive_sim.study``'s,
    with the caller's hooks; ``sweep.run_sweep`` when None); when it returns a sweep's
    ``Outcome`` that was stopped, the rounds end there (``Rounds.stopped``). ``watch``
    (``experiments.store.watch``) sees each round's judging begin."""
    w = watching(watch)
    if not spec.claims:
        raise ValueError(f"study {spec.name} names no claims: nothing to settle")
    plan = sizes(first or spec.chunk, cap, spec.chunk)
    done = Rounds(cap=cap)
    limits: dict[str, int] = {}         # a setting whose verdicts settled: the games it stopped at
    for r, n in enumerate(plan, 1):
        at = replace(spec, games=n, limits=dict(limits))
        manifest = RunFolder(Path(out)).read_manifest() if Path(out).is_dir() else None
        if manifest is None or manifest.get("games", 0) <= n:   # else: a later round began
            outcome = run_sweep(at, out) if sweep is None else sweep(at)
            if getattr(outcome, "stopped", False):
                done.stopped = True
                return done
        judging = f"round {r} of at most {len(plan)}: judging {n:,} games per setting"
        w.begin(judging)
        table = judge_run(out, spec.claims, sequential=True, games=n,
                          watch=under(watch, judging))
        live = table[table["n"] > 0]
        k = int(live["verdict"].isin(SETTLED).sum())
        done.rounds.append((n, k, len(live)))
        done.table = table
        say(f"round {r} of at most {len(plan)}: {n:,} games per setting, {k} of {len(live)} "
            f"verdicts settled")
        if settled(table):
            break
        for label in sorted(stopping(table, n, spec.chunk)):
            limits.setdefault(label, n)
        done.limits = dict(limits)
    else:
        done.capped = not settled(done.table)
    return done
