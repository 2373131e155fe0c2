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

Games are played and counted ``CHUNK`` indices at a time, as whole numbers of 60ths of a win
summed exactly (``experiments.tables.moments.Sums``): memory does not grow with ``games`` or
``holdout``, and the result does not depend on the chunking. With a ``TuneState`` (the
command's ``--out``) every generation and every hold-out chunk is saved as it ends, and a run
stopped in any way goes on from there with the uninterrupted run's result: the saved
generations are replayed through CMA-ES (same seed; each ask must equal the saved candidates,
and tell gets the saved fitness), the hold-out's sums are read back.
"""
from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

import play.simulate as PS          # module attributes: the tests patch run_records there
import simulator
from play import engine as E
from play.settings import Settings, SettingsError
from simulator.scoring import decide
from strategies.plugins import source_hash
from strategies.registry import StrategyError, canonical, parse_spec

from .store.state_files import StateError, StateLock, read_json, write_json
from .store.watch import watching
from .tables.moments import Sums
from .tables.stats import paired_from

INDEX_MAX = 2**63 - 1
HOLDOUT = 1 << 40          # held-out game indices start here; the search uses 0, 1, 2, ...
CHUNK = 10_000             # game indices per engine call: memory stays flat in --games, --holdout
SHARE_DEN = 60             # a win share 1/k (k <= 6 winners) is a whole number of 60ths
FORMAT = "survive-sim-tune/1"
STATE_FORMAT = "survive-sim-tune-partial/1"


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
        try:
            base, values = parse_spec(self.strategy)
        except StrategyError as e:
            raise TuneError(str(e), "STRATEGY") from None
        try:
            against = tuple(canonical(a) for a in self.against)
        except StrategyError as e:
            raise TuneError(str(e), "--against") from None
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
        last = generations(self) * self.games      # the search's indices: 0 .. last - 1
        if last > HOLDOUT:
            most = (HOLDOUT // self.games) * self.popsize * self.games * self.players
            raise TuneError(f"--budget {self.budget} pays for {generations(self):,} generations "
                            f"of {self.games:,} indices, past game index 2**40 where the "
                            f"held-out indices start; the largest --budget is {most:,}",
                            "--budget")
        if self.holdout > INDEX_MAX - HOLDOUT + 1:
            raise TuneError(f"--holdout {self.holdout} runs past the last game index 2**63-1 "
                            f"(held-out indices start at 2**40); the largest --holdout is "
                            f"{INDEX_MAX - HOLDOUT + 1}", "--holdout")
        object.__setattr__(self, "against", against)
        _ = self.lineups(self.spec(self.to_unit(self.start_values())))   # players, rules

    # -------------------------------------------------------------------- the space
    @property
    def base(self):
        return parse_spec(self.strategy)[0]

    @property
    def tuned(self):
        """The parameters searched, in declared order."""
        return [p for p in self.base.params if not self.tune or p.name in self.tune]

    def start_values(self) -> dict[str, float]:
        s, values = parse_spec(self.strategy)
        return {p.name: values.get(p.name, p.default) for p in s.params}

    def to_unit(self, values: dict) -> np.ndarray:
        return np.array([(values[p.name] - p.low) / (p.high - p.low) for p in self.tuned])

    def spec(self, x) -> str:
        """The strategy spec of a point of the unit box (clipped to it)."""
        values = self.start_values()
        for p, u in zip(self.tuned, np.clip(np.asarray(x, float), 0.0, 1.0)):
            values[p.name] = float(f"{p.low + u * (p.high - p.low):.4g}")
            values[p.name] = min(max(values[p.name], p.low), p.high)
        body = ",".join(f"{k}={v:g}" for k, v in values.items())
        return canonical(f"{self.base.name}:{body}")

    def lineups(self, spec: str) -> list[Settings]:
        """The candidate in every seat, the ladder filling the others."""
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
                # tune has no --strategies: the seats' names are STRATEGY and --against
                param = "--against" if e.param == "--strategies" else e.param
                raise TuneError(str(e), param) from None
        return out


# ---------------------------------------------------------------------------- measuring
def _chunks(first: int, count: int):
    for at in range(first, first + count, CHUNK):
        yield at, min(CHUNK, first + count - at)


def numerators(t: Tuning, spec: str, first: int, count: int, threads=None,
               played: Callable[[int], None] | None = None) -> np.ndarray:
    """The candidate's win share per game index (mean over its seats) times ``share_den(t)``
    -- a whole number, so that sums of shares are exact whatever the chunks -- for indices
    ``first .. first+count-1`` of the tuning's seed (at most ``CHUNK`` at a time here)."""
    num = np.zeros(count, np.int64)
    with PS.numba_threads(threads):
        for seat, s in enumerate(t.lineups(spec)):
            num += win_numerators(s, PS.run_records(s, t.seed, first, count),
                                  s.player_of_seat[seat])
            if played is not None:
                played(count)
    return num


def share_den(t: Tuning) -> int:
    return SHARE_DEN * t.players


def win_numerators(settings: Settings, rows: np.ndarray, player: int) -> np.ndarray:
    """Per game: ``player``'s share of the win in 60ths (60 / k when k players share it)."""
    width = len(E.REC_SEAT)
    keys = []
    for name in ("score", "rescued", "rescued_value", "turns"):
        i = E.REC_SEAT.index(name)
        cols = rows[:, E.R_SEAT0 + i:E.R_SEAT0 + settings.seats * width:width].astype(np.int64)
        keys.append(np.column_stack([cols[:, [s for s in range(settings.seats)
                                              if settings.player_of_seat[s] == p]].sum(axis=1)
                                     for p in range(settings.players)]))
    winners, _ = decide(*keys, rule=settings.tiebreak, equal=3 in settings.challenges,
                        komi=settings.player_komi_halves)
    k = winners.sum(axis=1).astype(np.int64)
    return np.where(winners[:, player], SHARE_DEN // np.maximum(k, 1), 0).astype(np.int64)


def measure(t: Tuning, spec: str, first: int, count: int, threads=None,
            played: Callable[[int], None] | None = None) -> np.ndarray:
    """The candidate's win share per game index (mean over its seats), indices
    ``first .. first+count-1`` of the tuning's seed; ``played(count)`` after each seat's
    games. (The search and the hold-out use ``share_sums``: their memory does not grow with
    the games.)"""
    return np.concatenate([numerators(t, spec, at, n, threads, played)
                           for at, n in _chunks(first, count)] or [np.zeros(0)]) / share_den(t)


def share_sums(t: Tuning, spec: str, first: int, count: int, threads=None,
               played: Callable[[int], None] | None = None):
    """``experiments.tables.moments.Sums`` of the per-index win shares (exact fractions), played
    ``CHUNK`` indices at a time."""
    sums = Sums()
    for at, n in _chunks(first, count):
        sums.add_ratio(numerators(t, spec, at, n, threads, played), np.full(n, share_den(t)))
    return sums


@dataclass
class TuneResult:
    tuning: Tuning
    best: str                           # the tuned spec
    start: str                          # the starting spec
    history: list[dict]                 # one row per candidate evaluated
    holdout: dict                       # the final paired measurement
    games_played: int
    seconds: float
    played: bool = True                 # False: read back from a complete --out (result_from)
    resumed: int = 0                    # generations read back from an interrupted run's state


def generations(t: Tuning) -> int:
    """Generations the budget pays for (CMA-ES may stop sooner)."""
    return max(1, t.budget // (t.popsize * t.games * t.players))


def identity(t: Tuning, plugins=()) -> dict:
    """What decides a tuning's result: its options, the plug-in sources, the engine sources,
    the package and the ``cma`` and numpy versions (CMA-ES draws from numpy's seeded global
    generator). Threads and progress do not."""
    import cma                  # here, not at the top: 2 s that bad input (TuneError) never pays
    try:
        package = version("survive-sim")
    except PackageNotFoundError:
        package = None
    tuning = {"strategy": t.strategy, "against": list(t.against), "players": t.players,
              "budget": t.budget, "games": t.games, "popsize": t.popsize, "sigma": t.sigma,
              "seed": t.seed, "holdout": t.holdout, "params": list(t.tune),
              "rules": {k: t.rules[k] for k in sorted(t.rules)}}
    return {"tuning": json.loads(json.dumps(tuning, default=str)),
            "plugins": {Path(p).name: source_hash(Path(p)) for p in plugins or ()},
            "engine": simulator.SOURCE_HASH, "version": package,
            "cma": cma.__version__, "numpy": np.__version__}


def differs(old: dict, new: dict) -> str:
    """Which part of two identities differs, in words."""
    for key, what in (("engine", "engine sources"), ("version", "survive-sim"),
                      ("cma", "cma"), ("numpy", "numpy"), ("plugins", "plug-in sources")):
        if old.get(key) != new[key]:
            return f"{what} {old.get(key)} there, {new[key]} here"
    a, b = old.get("tuning") or {}, new["tuning"]
    for key in b:
        if a.get(key) != b[key]:
            name = {"strategy": "STRATEGY", "rules": "rules"}.get(key, f"--{key}")
            show = (lambda v: ",".join(map(str, v)) if isinstance(v, list) else v)
            return f"{name} {show(a.get(key))} there, {show(b[key])} here"
    return "other options"


def _sums_doc(s) -> list:
    return [s.n, str(s.s1), str(s.s2), None if s.lo is None else str(s.lo),
            None if s.hi is None else str(s.hi)]


def _sums_from(doc):
    s = Sums()
    n, s1, s2, lo, hi = doc
    s.n, s.s1, s.s2 = int(n), Fraction(s1), Fraction(s2)
    s.lo = None if lo is None else Fraction(lo)
    s.hi = None if hi is None else Fraction(hi)
    return s


class TuneState:
    """A tuning's saved progress, in the hidden folder ``.NAME.partial/`` beside its ``--out``
    file: ``_manifest.json`` (the ``identity``), one ``gen-000003.json`` per generation (its
    candidates as CMA-ES asked them, their fitness, their history rows), ``holdout.json`` (the
    hold-out's sums after each chunk of ``CHUNK`` indices) and a ``.lock``; every file written
    to a temporary name, flushed, synced and renamed.

    Resuming replays the saved generations through a fresh ``CMAEvolutionStrategy`` made with
    the same seed: each ``ask`` must return exactly the saved candidates (else the state is
    refused), and ``tell`` gets the saved fitness -- so the optimiser's state, numpy's global
    generator included, is the uninterrupted run's, bit for bit, with no game played again."""

    def __init__(self, out, ident: dict, force_new: bool = False):
        out = Path(os.path.abspath(os.fspath(out)))
        self.folder = out.parent / f".{out.name}.partial"
        self.ident = ident
        self.lock = None
        self.generations: list[dict] = []
        self.holdout: dict | None = None
        p = self.folder
        if p.is_symlink() or (p.exists() and not p.is_dir()):
            raise TuneError(f"{p} is not a folder this program made; move it away to write "
                            f"--out {out}", "--out")
        self.discard = False
        if p.exists():
            old = read_json(p / "_manifest.json")
            ours = isinstance(old, dict) and old.get("format") == STATE_FORMAT
            if ours and old.get("identity") == ident:
                self._read()
            elif force_new:
                foreign = sorted(x.name for x in p.iterdir() if not _state_file(x.name))
                if foreign:
                    raise TuneError(f"{p} holds {foreign[0]!r}, which tune does not write; "
                                    f"move it out to start over", "--out")
                self.discard = True
            else:
                why = differs(old.get("identity") or {}, ident) if ours else \
                    "its state cannot be read"
                raise TuneError(f"{p} holds an interrupted tuning with other options ({why}); "
                                f"run it with its own options to resume it, or pass "
                                f"--force-new to discard it and start over", "--out")

    def _read(self) -> None:
        k = 0
        while True:
            doc = read_json(self.folder / f"gen-{k:06d}.json")
            if not isinstance(doc, dict) or doc.get("generation") != k:
                break
            self.generations.append(doc)
            k += 1
        doc = read_json(self.folder / "holdout.json")
        self.holdout = doc if isinstance(doc, dict) else None

    def __enter__(self) -> TuneState:
        made = not self.folder.exists()
        try:
            self.folder.mkdir(exist_ok=True)
            lock = StateLock(self.folder)
            lock.__enter__()
            self.lock = lock
        except StateError as e:
            raise TuneError(str(e), "--out") from None
        except OSError as e:
            self._unmake(made)
            raise TuneError(f"cannot write {self.folder}: {e.strerror or e}", "--out") from None
        try:
            for x in self.folder.iterdir():
                if x.name.endswith(".tmp") or (self.discard and _state_file(x.name)
                                               and x.name != ".lock"):
                    x.unlink()
            if self.discard or not (self.folder / "_manifest.json").exists():
                write_json(self.folder / "_manifest.json",
                           {"format": STATE_FORMAT, "identity": self.ident})
            if self.discard:
                self.generations, self.holdout, self.discard = [], None, False
        except BaseException:
            self.lock.__exit__()
            self._unmake(made)
            raise
        return self

    def _unmake(self, made: bool) -> None:
        """The folder this call made, when it failed before saving anything (a full disk):
        removed, if empty."""
        if made:
            with contextlib.suppress(OSError):
                self.folder.rmdir()

    def __exit__(self, *exc) -> bool:
        if self.lock is not None:
            self.lock.__exit__()
            self.lock = None
        if not any(self.folder.glob("gen-*.json")):          # nothing to resume
            self.remove()
        return False

    def save_generation(self, doc: dict) -> None:
        write_json(self.folder / f"gen-{doc['generation']:06d}.json", doc)

    def save_holdout(self, doc: dict) -> None:
        write_json(self.folder / "holdout.json", doc)

    def remove(self) -> None:
        """The result is written: the saved progress is no longer needed."""
        with contextlib.suppress(OSError):
            for x in self.folder.iterdir():
                if _state_file(x.name):
                    x.unlink()
            self.folder.rmdir()


def _state_file(name: str) -> bool:
    return (name in ("_manifest.json", "holdout.json", ".lock") or name.endswith(".tmp")
            or (name.startswith("gen-") and name.endswith(".json")))


def tune(t: Tuning, threads=None, progress: Callable[[int], None] | None = None,
         watch=None, state: TuneState | None = None) -> TuneResult:
    """Search, then measure the best and the start on the held-out indices. ``progress(n)``
    gets the games just played; ``watch`` (``experiments.store.watch``) the phases: the search (its
    games; renamed per generation) and the hold-out. With ``state`` (entered) each generation
    and each hold-out chunk is saved as it ends, and what an interrupted run saved there is
    replayed instead of played: the result equals an uninterrupted run's."""
    import cma                  # here, not at the top: 2 s that bad input (TuneError) never pays
    w = watching(watch, progress)
    started = time.perf_counter()
    x0 = np.clip(t.to_unit(t.start_values()), 0.0, 1.0)
    per_candidate = t.games * t.players
    most = generations(t)
    es = cma.CMAEvolutionStrategy(x0, t.sigma, {
        "bounds": [0.0, 1.0], "popsize": t.popsize, "seed": t.seed % (2**32 - 1) + 1,
        "verbose": -9, "verb_disp": 0, "verb_log": 0, "maxiter": most})
    saved = state.generations if state is not None else []
    history, played = [], 0
    w.begin("search", most * t.popsize * per_candidate)
    for gen in range(most):
        best = max((h["win_share"] for h in history), default=None)
        w.phase = f"generation {gen + 1}/{most}" + (
            "" if best is None else f" (best candidate so far {100 * best:.1f}%)")
        xs = es.ask()
        if gen < len(saved):                       # saved by an interrupted run: replay it
            doc = saved[gen]
            if [list(map(float, x)) for x in xs] != doc["xs"]:
                raise TuneError(f"the saved generation {gen} does not replay: CMA-ES asks "
                                f"other candidates here; pass --force-new to start over",
                                "--out")
            fitness = [float(f) for f in doc["fitness"]]
            history.extend(doc["history"])
            w.update(t.popsize * per_candidate)
        else:
            first = gen * t.games                  # this generation's common game indices
            fitness, rows = [], []
            rng = np.random.get_state()            # CMA-ES's generator: the games never draw
            for k, x in enumerate(xs):             # from it, so a replay needs no games
                spec = t.spec(x)
                share = share_sums(t, spec, first, t.games, threads, w.update).mean
                fitness.append(-share)
                rows.append({"generation": gen, "candidate": k, "spec": spec,
                             "win_share": share, "games": per_candidate})
            np.random.set_state(rng)
            history.extend(rows)
            if state is not None:
                state.save_generation({"generation": gen,
                                       "xs": [list(map(float, x)) for x in xs],
                                       "fitness": fitness, "history": rows})
        played += t.popsize * per_candidate
        es.tell(xs, fitness)
        if es.stop() and "maxiter" not in es.stop():
            break
    best, start = t.spec(es.result.xfavorite), t.spec(x0)
    total = 2 * t.holdout * t.players
    a, b, d, done = Sums(), Sums(), Sums(), 0
    old = state.holdout if state is not None else None
    if old is not None and old.get("best") == best and old.get("start") == start:
        a, b, d = (_sums_from(old[k]) for k in ("a", "b", "d"))
        done = int(old["indices"])
    w.begin("hold-out (the best and the start, paired)", total, 2 * done * t.players)
    den = share_den(t)
    for at, n in _chunks(HOLDOUT + done, t.holdout - done):
        na = numerators(t, best, at, n, threads, w.update)
        nb = numerators(t, start, at, n, threads, w.update)
        full = np.full(n, den)
        a.add_ratio(na, full)
        b.add_ratio(nb, full)
        d.add_ratio(na - nb, full)
        done += n
        if state is not None:
            state.save_holdout({"best": best, "start": start, "indices": done,
                                "a": _sums_doc(a), "b": _sums_doc(b), "d": _sums_doc(d)})
    played += total
    mean, lo, hi, n, method = a.ci(0.0, 1.0)
    s_mean, s_lo, s_hi, _, _ = b.ci(0.0, 1.0)
    diff = paired_from(d, float(a.s1), float(b.s1), 1.0)
    holdout = {"indices": n, "games_each": n * t.players, "first_index": HOLDOUT,
               "win_share": mean, "low": lo, "high": hi, "method": method,
               "start_win_share": s_mean, "start_low": s_lo, "start_high": s_hi,
               "fair_share": 1.0 / t.players,
               "gain": diff["value"], "gain_low": diff["low"], "gain_high": diff["high"],
               "gain_p": diff["p"], "gain_method": diff["method"]}
    return TuneResult(t, best, start, history, holdout, played, time.perf_counter() - started)


def result_doc(r: TuneResult, ident: dict) -> dict:
    """The ``--out`` JSON of a tuning (``FORMAT``; ``identity`` lets a later run with the same
    options see that it is complete)."""
    t = r.tuning
    return {"format": FORMAT, "strategy": t.strategy, "against": list(t.against),
            "players": t.players, "budget": t.budget, "games": t.games,
            "popsize": t.popsize, "seed": t.seed, "best": r.best, "start": r.start,
            "holdout": r.holdout, "games_played": r.games_played, "seconds": r.seconds,
            "history": r.history, "identity": ident}


def result_from(t: Tuning, doc: dict) -> TuneResult:
    """The result an ``--out`` file holds (``result_doc``), read back: ``played`` False."""
    return TuneResult(t, doc["best"], doc["start"], doc["history"], doc["holdout"],
                      doc["games_played"], doc["seconds"], played=False)


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

