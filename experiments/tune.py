"""Tuning a strategy's parameters by self-play against a ladder, with CMA-ES (the ``cma`` package).

A candidate is a parameter vector of one strategy. It is measured by its *win share* (ties
split, the settings' tie-break rule) in games against the ladder: the candidate takes one seat,
the ladder's strategies fill the others cyclically, and the candidate sits in every seat in turn
(all rotations). Every candidate of a generation plays the *same* game indices in the same
line-ups (common random numbers), so the ranking within a generation reflects the parameters
and not the luck of the deal; each generation takes fresh indices, so the search cannot fit
itself to one set of deals.

The search runs in the unit box (each parameter scaled from its declared range to [0, 1]) so
that one step size suits every parameter; CMA-ES minimises, so the objective is ``-win share``.
At the end the best mean (CMA's ``xfavorite``) and the starting point are measured again on
held-out indices that the search never saw, paired game by game, and the tuned one's win share
and its paired difference to the start are reported with 95% intervals.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from simulator.settings import Settings

HOLDOUT = 1 << 40          # held-out game indices start here; the search uses 0, 1, 2, ...


class TuneError(ValueError):
    """Bad tuning input: one line naming the problem and what is accepted."""

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


@dataclass(frozen=True)
class Tuning:
    strategy: str                       # a spec; its parameters are the starting point
    against: tuple[str, ...]            # the ladder the candidate plays
    players: int = 4
    budget: int = 100_000               # games the search may play (held-out games extra)
    games: int = 200                    # game indices per candidate (x rotations = its games)
    popsize: int = 8
    sigma: float = 0.25                 # CMA's first step in the unit box
    seed: int = 0
    holdout: int = 2_000                # held-out game indices for the final measurement
    tune: tuple[str, ...] = ()          # parameter names to tune (empty = all)
    rules: dict = field(default_factory=dict)

    def __post_init__(self):
        from strategies.registry import StrategyError, canonical, parse_spec
        try:
            base, values = parse_spec(self.strategy)
            against = tuple(canonical(a) for a in self.against)
        except StrategyError as e:
            raise TuneError(str(e), "--strategy") from None
        if not base.params:
            raise TuneError(f"{base.name} has no parameters to tune; strategies with "
                            f"parameters are listed by `survive-sim strategies`", "STRATEGY")
        if not against:
            raise TuneError("--against needs at least one strategy", "--against")
        names = [p.name for p in base.params]
        unknown = [t for t in self.tune if t not in names]
        if unknown:
            raise TuneError(f"{base.name} has no parameter {unknown[0]!r}; accepted: "
                            f"{', '.join(names)}", "--params")
        for key, value, lo in (("budget", self.budget, 1), ("games", self.games, 1),
                               ("popsize", self.popsize, 2), ("holdout", self.holdout, 1)):
            if value < lo:
                raise TuneError(f"--{key} must be at least {lo}, got {value}", f"--{key}")
        if self.budget < self.popsize * self.games * self.players:
            raise TuneError(f"--budget {self.budget} does not cover one generation: "
                            f"{self.popsize} candidates x {self.games} indices x "
                            f"{self.players} seats = "
                            f"{self.popsize * self.games * self.players} games", "--budget")
        object.__setattr__(self, "against", against)
        _ = self.lineups(self.spec(self.to_unit(self.start_values())))   # players, rules

    # -------------------------------------------------------------------- the space
    @property
    def base(self):
        from strategies.registry import parse_spec
        return parse_spec(self.strategy)[0]

    @property
    def tuned(self):
        """The parameters searched, in declared order."""
        return [p for p in self.base.params if not self.tune or p.name in self.tune]

    def start_values(self) -> dict[str, float]:
        from strategies.registry import parse_spec
        s, values = parse_spec(self.strategy)
        return {p.name: values.get(p.name, p.default) for p in s.params}

    def to_unit(self, values: dict) -> np.ndarray:
        return np.array([(values[p.name] - p.low) / (p.high - p.low) for p in self.tuned])

    def spec(self, x) -> str:
        """The strategy spec of a point of the unit box (clipped to it)."""
        from strategies.registry import canonical
        values = self.start_values()
        for p, u in zip(self.tuned, np.clip(np.asarray(x, float), 0.0, 1.0)):
            values[p.name] = float(f"{p.low + u * (p.high - p.low):.4g}")
            values[p.name] = min(max(values[p.name], p.low), p.high)
        body = ",".join(f"{k}={v:g}" for k, v in values.items())
        return canonical(f"{self.base.name}:{body}")

    def lineups(self, spec: str) -> list[Settings]:
        """The candidate in every seat, the ladder filling the others."""
        from simulator.settings import SettingsError
        out = []
        for seat in range(self.players):
            # the ladder fills the other seats cyclically, starting one further each seat,
            # so a ladder longer than the table still meets the candidate in full
            others = [self.against[(seat + i) % len(self.against)]
                      for i in range(self.players - 1)]
            line = others[:seat] + [spec] + others[seat:]
            try:
                out.append(Settings(players=self.players, strategies=tuple(line), **self.rules))
            except SettingsError as e:
                raise TuneError(str(e), e.param) from None
        return out


# ---------------------------------------------------------------------------- measuring
def win_shares(settings: Settings, rows: np.ndarray, player: int) -> np.ndarray:
    """Per game: ``player``'s share of the win (1/k when k players share it)."""
    from simulator import engine as E
    from simulator.scoring import decide
    width = len(E.REC_SEAT)
    keys = []
    for name in ("score", "rescued", "rescued_value", "turns"):
        i = E.REC_SEAT.index(name)
        cols = rows[:, E.R_SEAT0 + i:E.R_SEAT0 + settings.seats * width:width].astype(np.int64)
        keys.append(np.column_stack([cols[:, [s for s in range(settings.seats)
                                              if settings.player_of_seat[s] == p]].sum(axis=1)
                                     for p in range(settings.players)]))
    winners, _ = decide(*keys, rule=settings.tiebreak, equal=3 in settings.challenges)
    return winners[:, player] / winners.sum(axis=1)


def measure(t: Tuning, spec: str, first: int, count: int, threads=None,
            played: Callable[[int], None] | None = None) -> np.ndarray:
    """The candidate's win share per game index (mean over its seats), indices
    ``first .. first+count-1`` of the tuning's seed; ``played(count)`` after each seat's
    games."""
    from simulator.simulate import numba_threads, run_records
    shares = np.zeros(count)
    with numba_threads(threads):
        for seat, s in enumerate(t.lineups(spec)):
            shares += win_shares(s, run_records(s, t.seed, first, count), s.player_of_seat[seat])
            if played is not None:
                played(count)
    return shares / t.players


@dataclass
class TuneResult:
    tuning: Tuning
    best: str                           # the tuned spec
    start: str                          # the starting spec
    history: list[dict]                 # one row per candidate evaluated
    holdout: dict                       # the final paired measurement
    games_played: int
    seconds: float


def generations(t: Tuning) -> int:
    """Generations the budget pays for (CMA-ES may stop sooner)."""
    return max(1, t.budget // (t.popsize * t.games * t.players))


def tune(t: Tuning, threads=None, progress: Callable[[int], None] | None = None,
         watch=None) -> TuneResult:
    """Search, then measure the best and the start on the held-out indices. ``progress(n)``
    gets the games just played; ``watch`` (``experiments.watch``) the phases: the search (its
    games; renamed per generation) and the hold-out."""
    import cma

    from experiments.moments import bounded_mean_ci
    from experiments.stats import paired_diff

    from .watch import watching
    w = watching(watch, progress)
    started = time.perf_counter()
    x0 = np.clip(t.to_unit(t.start_values()), 0.0, 1.0)
    per_candidate = t.games * t.players
    most = generations(t)
    es = cma.CMAEvolutionStrategy(x0, t.sigma, {
        "bounds": [0.0, 1.0], "popsize": t.popsize, "seed": t.seed % (2**32 - 1) + 1,
        "verbose": -9, "verb_disp": 0, "verb_log": 0, "maxiter": most})
    history, played = [], 0
    w.begin("search", most * t.popsize * per_candidate)
    for gen in range(most):
        best = max((h["win_share"] for h in history), default=None)
        w.phase = f"generation {gen + 1}/{most}" + (
            "" if best is None else f" (best candidate so far {100 * best:.1f}%)")
        xs = es.ask()
        first = gen * t.games                      # this generation's common game indices
        fitness = []
        for k, x in enumerate(xs):
            spec = t.spec(x)
            share = float(measure(t, spec, first, t.games, threads, w.update).mean())
            fitness.append(-share)
            history.append({"generation": gen, "candidate": k, "spec": spec,
                            "win_share": share, "games": per_candidate})
            played += per_candidate
        es.tell(xs, fitness)
        if es.stop() and "maxiter" not in es.stop():
            break
    best, start = t.spec(es.result.xfavorite), t.spec(x0)
    w.begin("hold-out (the best and the start, paired)", 2 * t.holdout * t.players)
    a = measure(t, best, HOLDOUT, t.holdout, threads, w.update)
    b = measure(t, start, HOLDOUT, t.holdout, threads, w.update)
    played += 2 * t.holdout * t.players
    mean, lo, hi, n, method = bounded_mean_ci(a, 0.0, 1.0)
    s_mean, s_lo, s_hi, _, _ = bounded_mean_ci(b, 0.0, 1.0)
    diff = paired_diff(a, b, 1.0)
    holdout = {"indices": n, "games_each": n * t.players, "first_index": HOLDOUT,
               "win_share": mean, "low": lo, "high": hi, "method": method,
               "start_win_share": s_mean, "start_low": s_lo, "start_high": s_hi,
               "fair_share": 1.0 / t.players,
               "gain": diff["value"], "gain_low": diff["low"], "gain_high": diff["high"],
               "gain_p": diff["p"], "gain_method": diff["method"]}
    return TuneResult(t, best, start, history, holdout, played, time.perf_counter() - started)


def summary(r: TuneResult) -> str:
    h = r.holdout
    pct = 100.0
    verdict = ("better than the start" if h["gain_low"] > 0 else
               "worse than the start" if h["gain_high"] < 0 else
               "not distinguishable from the start")
    return "\n".join([
        f"tuned {r.tuning.base.name} against {', '.join(r.tuning.against)} "
        f"({r.tuning.players} players, every seat), {len(r.history)} candidates, "
        f"{r.games_played:,} games in {r.seconds:.0f} s",
        f"best:  {r.best}",
        f"start: {r.start}",
        f"held-out games ({h['indices']:,} indices x {r.tuning.players} seats, paired): win share "
        f"{pct * h['win_share']:.1f}% [{pct * h['low']:.1f}, {pct * h['high']:.1f}] vs start "
        f"{pct * h['start_win_share']:.1f}% [{pct * h['start_low']:.1f}, "
        f"{pct * h['start_high']:.1f}] (fair share {pct * h['fair_share']:.1f}%)",
        f"gain {pct * h['gain']:+.2f} pp [{pct * h['gain_low']:+.2f}, {pct * h['gain_high']:+.2f}] "
        f"({h['gain_method']}, p = {h['gain_p']:.3g}): {verdict} (95% interval rule)",
    ])

