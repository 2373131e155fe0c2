"""Python face of the engine: settings -> compiled runs -> a pandas table, one row per game.

``simulate`` cuts a run into chunks (for the progress bar and to bound memory) and hands each
chunk to the parallel compiled loop; ``iter_frames`` hands out each chunk's table as it is
played, for callers that write or summarise a run without holding all of it. Game ``i``
depends only on (seed, i, settings), so the table is identical for any thread count or chunk
size.
"""
from __future__ import annotations

import queue
import threading
from contextlib import contextmanager
from typing import Callable, Iterator

import numba
import numpy as np
import pandas as pd

from simulator.errors import PluginError
from simulator.scoring import STEPS, TIEBREAKS, decide
from simulator.state import BACK_NAMES, DECISION_NAMES, END_NAMES, MAX_SEATS
from strategies import seat_call
from strategies.registry import builtins, parse_spec
from strategies.seat_call import W_KIND, W_RAISED_KIND, W_RAISED_SEAT, W_SEAT

from . import engine as E
from .layout import (
    ERR_PLUGIN_CHOICE,
    ERR_PLUGIN_OPTS,
    R_BACKS,
    R_SEAT0,
    REC_GAME,
    REC_SEAT,
    REC_W,
)
from .settings import SETUP_ORDERS, Settings, settings_vector

SEAT_COLUMNS = REC_SEAT
BACK_COLUMNS = tuple(f"back_{b}" for b in BACK_NAMES)


@contextmanager
def numba_threads(threads: int | None):
    """Run with ``threads`` numba threads (None = all), restoring the previous count."""
    old = numba.get_num_threads()
    numba.set_num_threads(min(threads or numba.config.NUMBA_NUM_THREADS,
                              numba.config.NUMBA_NUM_THREADS))
    try:
        yield
    finally:
        numba.set_num_threads(old)


def engine_args(settings: Settings) -> tuple:
    """What the compiled entry points take before the seeds: the settings vector, every seat's
    parameters and the seats' plug-in functions."""
    return settings_vector(settings), settings.strategy_params, settings.strategy_functions


class PluginChoiceError(PluginError, ValueError):
    """A plug-in answered a decision with a row outside its legal options, or changed the
    options ``opts[:n]``. Bad input: also a ``ValueError``, as the loader's refusals are."""


def _strategy_at(settings: Settings, seat: int) -> str:
    """``plug-in FILE: strategy NAME (seat K)`` or ``built-in strategy NAME (seat K)``; seats
    count from 0, as in the tables and the replays."""
    s, _ = parse_spec(settings.strategies[seat])
    where = f"plug-in {s.source}: strategy" if s.plugin else "built-in strategy"
    return f"{where} {s.name} (seat {seat})"


def engine_error(settings: Settings, code: int, kind: int, seat: int, game: int,
                 seed: int) -> Exception:
    """The one-line error for a game the engine stopped (``layout.ERR_*``)."""
    if code == ERR_PLUGIN_CHOICE:
        s, _ = parse_spec(settings.strategies[seat])
        return (PluginChoiceError if s.plugin else RuntimeError)(
            f"{_strategy_at(settings, seat)} returned a row outside "
            f"the legal options at a {DECISION_NAMES[kind]} decision (game {game}, seed {seed}); "
            f"choose must return 0 <= k < n")
    if code == ERR_PLUGIN_OPTS:
        return PluginChoiceError(
            f"{_strategy_at(settings, seat)} changed its legal options opts[:n] at a "
            f"{DECISION_NAMES[kind]} decision (game {game}, seed {seed}); opts[:n] is read-only, "
            f"rows past n are scratch")
    return RuntimeError(f"engine error {code} in game {game} (seed {seed}); replay it with "
                        f"`survive-sim replay`")


# ---------------------------------------------------------------------------- the engine thread
def _plugin_seats(settings: Settings) -> list[int]:
    return [seat for seat, spec in enumerate(settings.strategies) if parse_spec(spec)[0].plugin]


def _watch():
    """The plug-in trampolines' per-thread notes (``strategies.seat_call``), or None when no
    plug-in trampoline was compiled in this process."""
    return seat_call.watch_table() if seat_call._WATCH else None


def _kind_name(kind: int) -> str:
    return DECISION_NAMES[kind] if 0 <= kind < len(DECISION_NAMES) else f"kind {kind}"


def _stuck(settings: Settings) -> str | None:
    """Which plug-in seats are inside their ``choose`` now, in words (an interrupted run)."""
    notes = _watch()
    if notes is None:
        return None
    seats = sorted({(int(r[W_SEAT]) - 1, int(r[W_KIND])) for r in notes if r[W_SEAT] > 0})
    seats = [(seat, kind) for seat, kind in seats if 0 <= seat < settings.seats]
    if not seats:
        return None
    return "; ".join(f"{_strategy_at(settings, seat)} had not returned from its "
                     f"{_kind_name(kind)} decision" for seat, kind in seats)


def _plugin_failure(settings: Settings, e: BaseException, games: str,
                    seed: int) -> PluginError | None:
    """The one-line error for a compiled run that a plug-in's ``choose`` broke by raising
    (numba hands the exception back as the ``__cause__`` of a ``SystemError``), naming the
    file, strategy, seat, decision and the exception; None when no plug-in plays."""
    seats = _plugin_seats(settings)
    if not seats or isinstance(e, PluginError):
        return None
    cause = e.__cause__ or e.__context__ or e if isinstance(e, SystemError) else e
    notes = _watch()
    found = []
    if notes is not None:
        found = [(int(r[W_RAISED_SEAT]) - 1, int(r[W_RAISED_KIND])) for r in notes
                 if r[W_RAISED_SEAT] > 0]
        found = found or [(int(r[W_SEAT]) - 1, int(r[W_KIND])) for r in notes if r[W_SEAT] > 0]
    found = [(seat, kind) for seat, kind in found if seat in seats]
    message = " ".join(f"{type(cause).__name__}: {cause}".split()).rstrip(": ")
    if found:
        seat, kind = found[0]
        who = f"{_strategy_at(settings, seat)} raised {message} at a {_kind_name(kind)} decision"
    else:
        who = (" or ".join(_strategy_at(settings, seat) for seat in seats)
               + f" raised {message}")
    return PluginError(f"{who} ({games}, seed {seed})")


class _EngineThread:
    """Runs the main thread's compiled calls on one daemon thread while the main thread waits
    in short steps: compiled code does not see signals, so Ctrl-C or SIGTERM during a long
    chunk, or a plug-in that never returns, would otherwise wait for the call to end. The
    waiting main thread takes the signal at once (the interrupt then says which plug-in seat had
    not returned); the call itself cannot be stopped, so the command line leaves with
    ``os._exit`` once it has cleaned up (``busy``). Calls from other threads (a sweep's, Dask's)
    run where they are. The results are the same: the call is the same, on one thread at a
    time, with the caller's numba thread count."""

    STEP = 0.1                    # seconds between two looks for a signal

    def __init__(self):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self.busy = False

    def _serve(self) -> None:
        while True:
            fn, args, threads, done, box = self._jobs.get()
            try:
                numba.set_num_threads(threads)
                box["value"] = fn(*args)
            except BaseException as e:             # handed to the waiting caller
                box["error"] = e
            finally:
                done.set()

    def call(self, fn, args: tuple, settings: Settings):
        if threading.current_thread() is not threading.main_thread():
            return fn(*args)
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._serve, name="survive-sim-engine",
                                            daemon=True)
            self._thread.start()
        done, box = threading.Event(), {}
        self.busy = True
        self._jobs.put((fn, args, numba.get_num_threads(), done, box))
        try:
            while not done.wait(self.STEP):
                pass
        except BaseException as e:                 # a signal: the call goes on; say who hangs
            stuck = _stuck(settings)
            if stuck and hasattr(e, "add_note"):
                e.add_note(stuck)
            raise
        self.busy = False
        if "error" in box:
            raise box["error"]
        return box["value"]


_ENGINE = _EngineThread()


def engine_busy() -> bool:
    """A compiled call of the main thread has not returned (it was interrupted)."""
    return _ENGINE.busy


def engine_call(settings: Settings, fn, *args, games: str, seed: int):
    """``fn(*args)``, a compiled entry point playing ``settings``, on the engine thread; a
    plug-in that raised becomes a ``PluginError`` naming it."""
    notes = _watch()
    if notes is not None:
        notes[:] = 0
    try:
        return _ENGINE.call(fn, args, settings)
    except Exception as e:
        failure = _plugin_failure(settings, e, games, seed)
        if failure is None:
            raise
        raise failure from None


def run_records(settings: Settings, seed: int, first: int, count: int) -> np.ndarray:
    """Raw int32 records of games ``first .. first+count-1``. A table with a Python policy
    plays through the stepper (``play.policy_games``), one decision at a time."""
    if settings.policy_seats:
        from .policy_games import stepped_records    # the stepper imports the engine
        return stepped_records(settings, seed, first, count)
    out = np.empty((count, REC_W), np.int32)
    err = np.zeros((count, 3), np.int64)
    engine_call(settings, E.run_games, *engine_args(settings), np.int64(seed), np.int64(first),
                np.int64(count), out, err,
                games=f"games {first}..{first + count - 1}" if count > 1 else f"game {first}",
                seed=seed)
    if err[:, 0].any():
        bad = int(np.flatnonzero(err[:, 0])[0])
        raise engine_error(settings, *(int(x) for x in err[bad]), first + bad, seed)
    return out


def strategy_categories(settings: Settings) -> list[str]:
    """The categories of the ``strategy_<seat>`` columns: the listed built-ins, then the
    settings' own spellings (parameters, plug-ins), so tables of one sweep concatenate."""
    names = [n for n, s in builtins().items() if s.listed]   # not the plug-ins: they vary
    return names + sorted(set(settings.strategies) - set(names))   # with the process


def tiebreak_columns(rows: np.ndarray, settings: Settings) -> dict:
    """B7.3 / X1.6: the ``tiebreak`` and ``decided_by`` columns -- the run's rule, and the
    step that decided each game under it. (Settings that differ only in the rule share every
    other column: a sweep recounts them from the same records.)"""
    n, width = len(rows), len(SEAT_COLUMNS)
    keys = []
    for name in ("score", "rescued", "rescued_value", "turns"):
        i = SEAT_COLUMNS.index(name)
        seat_cols = rows[:, R_SEAT0 + i:R_SEAT0 + settings.seats * width:width].astype(np.int64)
        keys.append(np.column_stack([seat_cols[:, [s for s in range(settings.seats)
                                                   if settings.player_of_seat[s] == p]].sum(axis=1)
                                     for p in range(settings.players)]))
    _, step = decide(*keys, rule=settings.tiebreak, equal=3 in settings.challenges,
                     komi=settings.player_komi_halves)
    return {"tiebreak": pd.Categorical.from_codes(
                np.full(n, TIEBREAKS.index(settings.tiebreak), np.int8),
                categories=list(TIEBREAKS)),
            "decided_by": pd.Categorical.from_codes(step.astype(np.int8),
                                                    categories=list(STEPS))}


def records_frame(rows: np.ndarray, settings: Settings, seed: int, first: int) -> pd.DataFrame:
    """Name the columns of raw records and add the settings that produced them."""
    n = len(rows)
    cols: dict[str, object] = {
        "game": np.arange(first, first + n, dtype=np.int64),
        "seed": np.full(n, seed, dtype=np.int64),
    }
    for i, name in enumerate(REC_GAME):
        cols[name] = rows[:, i]
    cols["end_reason"] = pd.Categorical.from_codes(rows[:, 2], categories=list(END_NAMES))
    for b, name in enumerate(BACK_COLUMNS):
        cols[name] = rows[:, R_BACKS + b]
    width = len(SEAT_COLUMNS)
    codes = strategy_categories(settings)
    for s in range(MAX_SEATS):
        present = s < settings.seats
        absent = np.full(n, not present)                    # the mask of a nullable column

        def constant(value, dtype):
            return pd.arrays.IntegerArray(np.full(n, value, dtype), absent)

        for i, name in enumerate(SEAT_COLUMNS):
            col = rows[:, R_SEAT0 + s * width + i]
            cols[f"{name}_{s}"] = pd.arrays.IntegerArray(
                np.ascontiguousarray(col, np.int32) if present else np.zeros(n, np.int32), absent)
        cols[f"player_{s}"] = constant(settings.player_of_seat[s] if present else 0, np.int8)
        cols[f"boats_{s}"] = constant(settings.boats[s] if present else 0, np.int8)
        if settings.komi:                          # C1.3: only then, so other tables keep bytes
            cols[f"komi_{s}"] = pd.arrays.FloatingArray(
                np.full(n, settings.komi[s] if present else 0.0, np.float32), absent)
        cols[f"strategy_{s}"] = pd.Categorical.from_codes(
            np.full(n, codes.index(settings.strategies[s]) if present else -1, np.int8),
            categories=codes)
    cols.update(tiebreak_columns(rows, settings))
    label = ",".join(map(str, settings.challenges)) or "none"           # e.g. "1,3"
    cols["challenges"] = pd.Categorical.from_codes(np.zeros(n, np.int8), categories=[label])
    cols["dolphins"] = np.full(n, settings.dolphins)                    # X5 (Challenge 5)
    cols["squid"] = np.full(n, settings.squid)                          # X7
    cols["squid_only"] = np.full(n, settings.squid_only)                # X7.6
    # the rule flags, so that tables from different settings can be concatenated and grouped
    cols["lagoon_is_sea"] = np.full(n, settings.lagoon_is_sea)
    cols["creatures_must_move"] = np.full(n, settings.creatures_must_move)
    cols["max_turns"] = np.full(n, settings.max_turns, dtype=np.int32)
    if settings.setup_order != ("forward", "forward"):         # C2.1: only then (as komi)
        for phase, order in zip(("explorers", "boats"), settings.setup_order):
            cols[f"setup_order_{phase}"] = pd.Categorical.from_codes(
                np.full(n, SETUP_ORDERS.index(order), np.int8), categories=list(SETUP_ORDERS))
    return pd.DataFrame(cols)


def simulate(settings: Settings, games: int, seed: int, *, first: int = 0,
             threads: int | None = None, chunk: int = 20_000,
             progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """Play ``games`` games (indices ``first..``) and return the per-game table."""
    parts = []
    with numba_threads(threads):
        for start in range(first, first + games, chunk):
            count = min(chunk, first + games - start)
            parts.append(run_records(settings, seed, start, count))
            if progress is not None:
                progress(count)
    rows = np.concatenate(parts) if parts else np.empty((0, REC_W), np.int32)
    return records_frame(rows, settings, seed, first)


def iter_frames(settings: Settings, games: int, seed: int, *, first: int = 0,
                threads: int | None = None, chunk: int = 20_000) -> Iterator[pd.DataFrame]:
    """The table of games ``first..first+games-1``, one chunk of ``chunk`` games at a time
    (each chunk's ``records_frame``: the same columns and dtypes every time)."""
    for start in range(first, first + games, chunk):
        count = min(chunk, first + games - start)
        with numba_threads(threads):
            rows = run_records(settings, seed, start, count)
        yield records_frame(rows, settings, seed, start)
