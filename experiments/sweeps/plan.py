"""``sweep --plan`` and ``study --plan``: what a sweep will play, how long it should take, how
precise it will be -- and, for a study, what it costs in core-hours.

Nothing of the sweep is played: the time comes from timed games of each kind of setting on
this machine. Settings that differ only in boats or turn cap are one kind. A kind whose seats
play heuristics is timed on a short sample (a few hundred games, under a second each; a grid
of many kinds times ``MAX_TIMED`` of them in about ``BUDGET_SECONDS``, so that even thousands
of settings plan in seconds). A kind where a seat searches (a strategy that re-enters the
game: ``Strategy.reenters``) costs seconds a game, thousands of times a heuristic's, so it is
timed on ONE game at its own budget: the engine plays games in blocks of ``RUN_BLOCK`` per
thread, so that game runs on one thread and its time is one core's seconds per game. The
precision is the 95% half-width of a seat's win share at the fair share 1/N with the games
asked (``experiments.tables.stats.share_precision``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

from play.engine import RUN_BLOCK
from play.simulate import numba_threads, run_records
from strategies.registry import parse_spec

from ..store.watch import watching
from ..tables.stats import share_precision
from ..tables.summary import align
from .spec import Spec

SAMPLE_SECONDS = 0.4          # timed play per timed setting (less when many are timed)
BUDGET_SECONDS = 6.0          # timed play in all: a grid of thousands of settings plans in seconds
MAX_TIMED = 24                # heuristic speed classes timed at most; the others estimated
MAX_TIMED_SEARCH = 24         # searching speed classes timed (one game each) at most
FAR = 10**15                  # timing games come from far past any sweep's indices
WORKERS = (1, 2, 8, 32)       # the cores a study's plan gives the wall time on


def _groups(spec: Spec) -> dict[tuple, list]:
    out: dict[tuple, list] = {}
    for p in spec.points:
        out.setdefault(p.game_key(), []).append(p)
    return out


def _speed_key(settings) -> tuple:
    """What sets a setting's speed: all but the tie-break (games are shared), the boats and
    the turn cap (a game runs the same turns until the cap; a lower one only shortens it)."""
    d = settings.to_dict()
    for key in ("tiebreak", "boats_per_seat", "max_turns"):
        d.pop(key, None)
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in d.items()))


def _pick(classes: dict[tuple, object], n: int) -> list[tuple]:
    """Up to ``n`` speed classes to time: one of each (players, strategies) first, then
    spread evenly over the rest."""
    keys = list(classes)
    if len(keys) <= n:
        return keys
    first, seen = [], set()
    for k in keys:
        s = classes[k]
        if (s.players, s.strategies) not in seen:
            seen.add((s.players, s.strategies))
            first.append(k)
    chosen = first[:n]
    rest = [k for k in keys if k not in set(chosen)]
    step = len(rest) / max(1, n - len(chosen))
    chosen += [rest[int(i * step)] for i in range(n - len(chosen))]
    return chosen


# ---------------------------------------------------------------------------- searching seats
def _budgets(settings) -> set[tuple[tuple, float, str]]:
    """``(family, budget, spec)`` of every seat that searches with a ``budget``: a family is
    the strategy with its other parameters (two budgets of one family are two levels)."""
    out = set()
    for spec in settings.strategies:
        s, values = parse_spec(spec)
        if s.reenters and "budget" in {p.name for p in s.params}:
            budget = values.get("budget", next(p.default for p in s.params
                                               if p.name == "budget"))
            rest = tuple(sorted((k, v) for k, v in values.items() if k != "budget"))
            out.add(((s.name, rest), budget, spec))
    return out


def searches(settings) -> bool:
    """A seat re-enters the game to search: its games cost seconds, not milliseconds."""
    return any(parse_spec(spec)[0].reenters for spec in settings.strategies)


def with_budget(spec: str, budget: float) -> str:
    """A searching seat's spec at another budget (not checked against the budget's range: the
    doubling's name may lie beyond it)."""
    s, values = parse_spec(spec)
    values["budget"] = float(budget)
    return s.name + ":" + ",".join(f"{p.name}={p.spell(values[p.name]) or f'{values[p.name]:g}'}"
                                   for p in s.params if p.name in values)


def _at_budget_one(settings):
    """``settings`` with every searching seat at budget 1: the same compiled code (the budget
    is data), so playing it loads the engine and compiles a seat function for about two games
    of the rollout rung, and the timing that follows times play, not compiling."""
    searching = {seat for _, _, seat in _budgets(settings)}
    specs = tuple(with_budget(spec, 1) if spec in searching else spec
                  for spec in settings.strategies)
    return settings if specs == settings.strategies else replace(settings, strategies=specs)


def play_timed(settings, seed: int, count: int) -> float:
    """Seconds to play ``count`` games far past any sweep's indices: the one place a plan plays
    (a test replaces it to plan without the engine)."""
    t = time.perf_counter()
    run_records(settings, seed, FAR, count)
    return time.perf_counter() - t


# ---------------------------------------------------------------------------- timing
@dataclass
class Timing:
    """One core's seconds per game of each distinct game of a spec (``Point.game_key``), and
    how each was had: ``sample`` (heuristics), ``one game`` (a seat searches) or
    ``estimated`` (from the timed kinds most like it)."""
    threads: int                        # engine threads the samples ran on
    seconds: dict[tuple, float]
    how: dict[tuple, str]
    kinds: int = 0                      # heuristic speed classes, and how many were timed
    timed: int = 0
    search_kinds: int = 0               # searching speed classes, and how many were timed
    search_timed: int = 0


def timings(spec: Spec, threads: int | None = None, watch=None) -> Timing:
    """Time the kinds of setting of ``spec`` on ``threads`` engine threads: heuristic ones on a
    sample (at most ``MAX_TIMED`` kinds, about ``BUDGET_SECONDS`` in all), searching ones on
    one game each at their own budget (at most ``MAX_TIMED_SEARCH``). An untimed kind gets the
    mean of the timed ones of its sort (heuristic or searching) with the same players and
    strategies, else the same players, else all. ``watch`` (``experiments.store.watch``) sees
    the engine load and the timings."""
    import numba                # (after play.simulate, which points numba's cache first)
    w = watching(watch)
    groups = _groups(spec)
    speed_of = {key: _speed_key(points[0].settings) for key, points in groups.items()}
    classes: dict[tuple, object] = {}
    for key, points in groups.items():
        classes.setdefault(speed_of[key], points[0].settings)
    searching = {c for c, s in classes.items() if searches(s)}
    heuristic_keys = _pick({c: s for c, s in classes.items() if c not in searching}, MAX_TIMED)
    search_keys = _pick({c: s for c, s in classes.items() if c in searching}, MAX_TIMED_SEARCH)
    seconds: dict[tuple, float] = {}
    how: dict[tuple, str] = {}
    with numba_threads(threads):
        used = numba.get_num_threads()
        w.begin("loading the engine")
        play_timed(_at_budget_one(spec.points[0].settings), spec.seed, 1)
        if heuristic_keys:
            sample = max(0.05, min(SAMPLE_SECONDS, BUDGET_SECONDS / len(heuristic_keys)))
            w.begin("timing each distinct setting" if len(heuristic_keys) + len(searching) ==
                    len(classes) else f"timing {len(heuristic_keys)} of "
                    f"{len(classes) - len(searching)} kinds of setting",
                    len(heuristic_keys), unit="setting")
            for c in heuristic_keys:
                play_timed(classes[c], spec.seed, 1)    # a rung met first compiles here
                n = 16
                while (spent := play_timed(classes[c], spec.seed, n)) < sample:
                    n *= 4
                # n games ran in blocks of RUN_BLOCK, each block on one thread
                seconds[c], how[c] = spent * min(used, -(-n // RUN_BLOCK)) / n, "sample"
                w.update(1)
        if search_keys:
            w.begin(f"timing one game of each of {len(search_keys)} searching kinds of setting "
                    f"(seconds each)", len(search_keys), unit="setting")
            for c in search_keys:
                play_timed(_at_budget_one(classes[c]), spec.seed, 1)   # compiles, untimed
                seconds[c], how[c] = play_timed(classes[c], spec.seed, 1), "one game"
                w.update(1)
    by: dict[tuple, list[float]] = {}
    for c, value in seconds.items():
        s = classes[c]
        for k in ((c in searching, s.players, s.strategies), (c in searching, s.players),
                  (c in searching,)):
            by.setdefault(k, []).append(value)

    def estimate(c) -> float:
        s = classes[c]
        for k in ((c in searching, s.players, s.strategies), (c in searching, s.players),
                  (c in searching,)):
            if k in by:
                return sum(by[k]) / len(by[k])
    return Timing(used, {key: seconds[c] if c in seconds else estimate(c)
                         for key, c in speed_of.items()},
                  {key: how.get(c, "estimated") for key, c in speed_of.items()},
                  len(classes) - len(searching), len(heuristic_keys), len(searching),
                  len(search_keys))


def _duration(seconds: float) -> str:
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    if s < 2 * 86400:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    return f"{s // 86400} d {s % 86400 // 3600:02d} h"


def _sampled(t: Timing) -> str:
    """How the times were had, in words."""
    parts = []
    if t.kinds:
        parts.append("a sample of each distinct heuristic setting" if t.timed == t.kinds else
                     f"samples of {t.timed} of the {t.kinds} heuristic kinds of setting (the "
                     f"others estimated from those of the same players and strategies)")
    if t.search_kinds:
        which = ("the one searching kind" if t.search_kinds == 1 else
                 f"each of the {t.search_kinds} searching kinds" if t.search_timed ==
                 t.search_kinds else f"{t.search_timed} of the {t.search_kinds} searching kinds")
        parts.append(f"ONE game, at its own budget on one engine thread, of {which} of setting "
                     f"-- a search game costs seconds, and one game's length varies: rough "
                     f"figures")
    return "; ".join(parts)


def describe(spec: Spec, threads: int | None = None, workers: int | None = None,
             watch=None) -> str:
    """The plan as text: one line per setting, then the totals and the estimated time
    (``watch`` sees the timing, ``timings``)."""
    groups = _groups(spec)
    play = len(groups) * spec.games
    lines = [f"sweep {spec.name} ({spec.source}): seed {spec.seed}, {spec.games:,} games per "
             f"setting in chunks of {spec.chunk:,}",
             f"{len(spec.points)} settings, {len(groups)} distinct games (settings that differ "
             f"only in the tie-break, or whose named boats are equal, are played once): "
             f"{play:,} games to play, {spec.games * len(spec.points):,} rows to write", ""]
    rows = []
    for p in spec.points:
        s = p.settings
        half = share_precision(spec.games, s.players)
        rows.append([p.label, str(s.players), ",".join(map(str, s.boats)), f"{spec.games:,}",
                     f"1/{s.players} = {100 / s.players:.1f}%", f"+-{100 * half:.2f} pp"])
    lines += align(["setting", "players", "boats", "games", "fair share",
                    "seat share 95% half-width"], rows, right={3})
    t = timings(spec, 1 if workers else threads, watch)
    seconds = sum(spec.games * t.seconds[key] for key in groups) / (workers or t.threads)
    where = (f"{workers} Dask worker(s), one engine thread each" if workers else
             f"{t.threads} engine thread(s)")
    lines += ["", f"estimated time: {_duration(seconds)} on {where} (timed on {_sampled(t)} on "
                  f"this machine; settings that differ only in boats or turn cap share a "
                  f"timing; writing adds a few per cent)"]
    for s in spec.skipped:
        lines.append(f"skipped: {s}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- a study's cost
@dataclass
class SettingCost:
    """One distinct game of a study: its games and one core's seconds per game."""
    label: str
    players: int
    strategies: str
    games: int
    seconds: float              # one core's seconds per game
    how: str                    # sample, one game or estimated (``Timing``)

    @property
    def core_hours(self) -> float:
        return self.games * self.seconds / 3600


@dataclass
class Doubling:
    """The next budget level of one searching strategy: the settings at its largest budget
    now, played again at twice that budget, at twice their cost per game."""
    strategy: str               # the seat's spec at its largest budget now
    next: str                   # the same at twice that budget
    settings: int
    games: int                  # per setting
    core_hours: float


@dataclass
class StudyPlan:
    """What a study would cost on this machine, nothing of it played (``study_cost``).

    ``core_hours`` is the sum over its distinct games of games x one core's seconds per game;
    ``wall_hours(cores)`` that divided evenly over ``cores`` cores like this machine's, one
    engine thread each; ``doubling`` the cost of the next budget level of each searching
    strategy, taken as linear in the budget."""
    name: str
    source: str
    seed: int
    games: int                  # per setting: the study's, ``games``, or the settling cap
    capped: bool                # ``games`` is --until-settled's cap (the rounds may stop sooner)
    settings: int               # grid points (those differing only in tie-break share games)
    rows: list[SettingCost]     # one per distinct game
    threads: int                # this machine's engine threads (its cores) the timing used
    doubling: list[Doubling]
    timing: str                 # how the times were had, in words
    skipped: tuple[str, ...] = ()
    workers: tuple[int, ...] = WORKERS

    @property
    def games_total(self) -> int:
        return sum(r.games for r in self.rows)

    @property
    def core_hours(self) -> float:
        return sum(r.core_hours for r in self.rows)

    @property
    def doubling_core_hours(self) -> float:
        return sum(d.core_hours for d in self.doubling)

    def wall_hours(self, cores: int | None = None) -> float:
        """Hours on ``cores`` cores (default: this machine's), the work divided evenly."""
        return self.core_hours / (cores or self.threads)

    def text(self) -> str:
        """The plan as ``survive-sim study NAME --plan`` prints it."""
        cap = (" at most (the --until-settled cap, --max-games; the rounds stop sooner when "
               "every verdict settles)" if self.capped else "")
        lines = [f"study {self.name} ({self.source}): seed {self.seed}, {self.games:,} games "
                 f"per setting{cap}",
                 f"{self.settings} settings, {len(self.rows)} distinct games (settings that "
                 f"differ only in the tie-break, or whose named boats are equal, are played "
                 f"once): {self.games_total:,} games in all", ""]
        rows = [[r.label, str(r.players), f"{r.games:,}", _seconds(r.seconds),
                 f"{r.core_hours:,.2f}", r.how] for r in self.rows]
        lines += align(["setting", "players", "games", "s/game (one core)", "core-hours",
                        "timed on"], rows, right={1, 2, 3, 4})
        total = self.core_hours
        lines += ["", f"estimated cost: {total:,.2f} core-hours ({_duration(total * 3600)} of "
                      f"one core): the sum over settings of games x one core's seconds per game",
                  "wall time, the work divided evenly over cores like this machine's (one "
                  "engine thread each; writing adds a few per cent):",
                  f"  this machine ({_cores(self.threads)}): "
                  f"{_duration(self.wall_hours() * 3600)}"]
        lines += [f"  {_cores(k):>9}: {_duration(self.wall_hours(k) * 3600)}"
                  for k in self.workers]
        if self.doubling:
            extra = self.doubling_core_hours
            lines.append(f"one more doubling of the search budget: +{extra:,.2f} core-hours "
                         f"(+{_duration(extra * 3600 / self.threads)} on this machine); a "
                         f"game's cost taken as linear in the budget (twice the largest "
                         f"budget's timed cost):")
            lines += [f"  {d.strategy} -> {d.next}: {d.settings} settings x "
                      f"{d.games:,} games, +{d.core_hours:,.2f} "
                      f"core-hours" for d in self.doubling]
        else:
            lines.append("one more doubling of the search budget: none (no seat searches)")
        lines.append(f"timed on this machine: {self.timing}")
        lines += [f"skipped: {s}" for s in self.skipped]
        return "\n".join(lines)


def _cores(k: int) -> str:
    return f"{k} core{'s' * (k != 1)}"


def _seconds(s: float) -> str:
    """Seconds a game: three significant digits, from microseconds to minutes."""
    return f"{s:.3g}" if s >= 0.001 else f"{s:.2e}"


def _doublings(spec: Spec, groups: dict, seconds: dict[tuple, float]) -> list[Doubling]:
    """For each searching family, the settings at its largest budget, at twice the budget."""
    top: dict[tuple, tuple[float, str]] = {}
    for points in groups.values():
        for family, budget, seat in _budgets(points[0].settings):
            if family not in top or budget > top[family][0]:
                top[family] = (budget, seat)
    out = []
    for family, (budget, seat) in top.items():
        keys = [key for key, points in groups.items()
                if any(f == family and b == budget for f, b, _ in _budgets(points[0].settings))]
        hours = sum(spec.games * 2 * seconds[key] for key in keys) / 3600
        out.append(Doubling(with_budget(seat, budget), with_budget(seat, 2 * budget), len(keys),
                            spec.games, hours))
    return out


def study_cost(spec: Spec, threads: int | None = None, capped: bool = False,
               watch=None) -> StudyPlan:
    """What playing ``spec`` (a study's sweep; ``capped``: its games are the settling cap)
    would cost, from games timed on this machine (``timings``), nothing of it played."""
    groups = _groups(spec)
    t = timings(spec, threads, watch)
    rows = [SettingCost(points[0].label, points[0].settings.players,
                        ",".join(dict.fromkeys(points[0].settings.strategies)), spec.games,
                        t.seconds[key], t.how[key]) for key, points in groups.items()]
    return StudyPlan(spec.name, spec.source, spec.seed, spec.games, capped, len(spec.points),
                     rows, t.threads, _doublings(spec, groups, t.seconds), _sampled(t),
                     tuple(spec.skipped))
