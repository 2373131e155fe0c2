"""The game one decision at a time, for a caller the engine cannot call back: an environment
(``survive_sim.env``), a Python policy, a person at a prompt.

The engine asks its seats through compiled callbacks, and a turn's decision has a call stack
no array holds (``play.journal``). So ``Stepper`` never keeps a game suspended: every seat is
answered by one compiled seat function that plays a *script* of rows and, when the script runs
out, copies the question it was asked (the state, the work array, the options) into its arena
and stops the game. To answer, the stepper re-enters the game from the journal's last clean
point (``play.reentry``, exactly as the search rung does) with the rows answered since then plus
the new one, and the engine's own code plays on to the next question. Nothing about the rules
is written twice, and every chance outcome comes from the game's own streams: ``reset(root,
game)`` is game ``game`` of root seed ``root``, as in a table.

Cost: one question replays its seat-turn so far (tens of microseconds). A turn longer than the
journal (``J_MAX`` rows: never seen) is replayed from the start of the game instead.
"""
from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass

import numpy as np
from numba import njit, types

from simulator.jit import hot
from simulator.rng import seed_streams
from simulator.rules import paths as PA
from simulator.rules.layout import J_CHOICES, J_MAX, J_N, J_PHASE, W_JOURNAL, W_SIZE
from simulator.state import MAX_OPTS, MAX_SEATS, N_STREAMS, OPT_W, OVER, STATE_SIZE
from strategies import seat_call
from strategies.api import MEM_W, PAR0
from strategies.dispatch import apart, in_switch
from strategies.registry import PLUGIN_CODE, param_row, parse_spec

from .engine import write_record
from .journal import PHASE_SETUP, begin, state_at, streams_at
from .layout import C_ERR, CTX_W, REC_W, ST_JOURNAL, ST_SIDS
from .reentry import play_on_function
from .settings import Settings, settings_vector
from .setup import new_game

ARENA_AT = MAX_SEATS * MEM_W * 8      # bytes: the arena follows the seats' memory rows
# the arena's cells (float64): its size, the script's length and cursor, whether a question
# was kept, who was asked what among how many options; then the script, the kept state, work
# array and options
(E_SIZE, E_COUNT, E_CURSOR, E_ASKED, E_SEAT, E_KIND, E_N) = range(7)
E_HEAD = 8
_KEPT = STATE_SIZE + W_SIZE + MAX_OPTS * OPT_W
NO_LIMIT = np.int64(1 << 62)          # seat-turns: play on until a question or the end
_SCRIPT_ROWS = 1024                   # the arena's first room for a script; it grows if asked
_GAMES = itertools.count(1)           # games begun in this process: no two share a serial

_VIEWS = seat_call.views()
_flat_view = seat_call._view(types.float64, 1)
_state_view = _VIEWS["state_view"]
_board_view = _VIEWS["board_view"]


def _scripted_seat(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n):
    """Answer the script's next row; past its end, keep the question and stop the game."""
    head = _flat_view(mem_at + ARENA_AT, (E_HEAD,))
    A = _flat_view(mem_at + ARENA_AT, (np.int64(head[E_SIZE]),))
    c = np.int64(A[E_CURSOR])
    count = np.int64(A[E_COUNT])
    if c < count:
        A[E_CURSOR] = c + 1
        return np.int64(A[E_HEAD + c])
    if A[E_ASKED] == 0:                 # the first question past the script: keep it
        A[E_ASKED] = 1
        A[E_SEAT] = seat
        A[E_KIND] = kind
        A[E_N] = n
        at = E_HEAD + count
        S = _state_view(s_at, (STATE_SIZE,))
        for i in range(STATE_SIZE):
            A[at + i] = S[i]
        at += STATE_SIZE
        W = _state_view(w_at, (W_SIZE,))
        for i in range(W_SIZE):
            A[at + i] = W[i]
        at += W_SIZE
        opts = _board_view(opts_at, (MAX_OPTS, OPT_W))
        for r in range(n):
            for j in range(OPT_W):
                A[at + r * OPT_W + j] = opts[r, j]
    return np.int64(-1)                 # the engine stops the game (an error it reports)


_SEAT = []


def scripted_seat():
    """``_scripted_seat`` compiled (once; cached on disk)."""
    if not _SEAT:
        _SEAT.append(njit(seat_call.signature(), cache=True)(_scripted_seat))
    return _SEAT[0]


_DRIVE = []


def driver():
    """``play_on`` with every seat scripted, called from Python: a small function compiled in
    each process (it holds the functions' addresses, which numba cannot cache). Handing
    ``play_on`` the six seat functions from Python would cost ~1.5 ms a call in typing them."""
    if not _DRIVE:
        seat, play_on = scripted_seat(), play_on_function()

        def drive(S, st, rng, ctx, mem, W, opts, phase, turns):
            return play_on(S, st, rng, ctx, mem, W, (seat, seat, seat, seat, seat, seat),
                           opts, phase, turns)
        _DRIVE.append(njit(drive))
    return _DRIVE[0]


_SCRIPT = np.zeros(1 << 15, np.int64)     # rows: a game asks a few hundred questions
_SCRIPT_CTL = np.zeros(2, np.int64)        # rows written, next row
_SCRIPT_FN = []
# ``script_seat``'s buffers are one per process: hold this from writing a script until the game
# that plays it has ended, so that two threads never play one another's rows
SCRIPT_LOCK = threading.Lock()


def script_seat(rows) -> object:
    """A seat function answering ``rows`` in order (every seat of one game shares it; -1 past
    the end): the engine plays a stepped game again, e.g. with its event log. It reads
    buffers at fixed addresses, so it is compiled in each process (about a second), like
    ``experiments.capture``'s; one script at a time: hold ``SCRIPT_LOCK`` from this call to
    the end of the game it plays."""
    rows = np.asarray(rows, np.int64)
    if rows.shape[0] > _SCRIPT.shape[0]:
        raise ValueError(f"a script of {rows.shape[0]} rows is longer than "
                         f"{_SCRIPT.shape[0]}")
    _SCRIPT[:rows.shape[0]] = rows
    _SCRIPT_CTL[:] = (rows.shape[0], 0)
    if not _SCRIPT_FN:
        view = seat_call._view(types.int64, 1)
        rows_at, ctl_at, size = _SCRIPT.ctypes.data, _SCRIPT_CTL.ctypes.data, _SCRIPT.shape[0]

        def scripted(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n):
            ctl = view(ctl_at, (2,))
            script = view(rows_at, (size,))
            c = ctl[1]
            if c >= ctl[0]:
                return np.int64(-1)
            ctl[1] = c + 1
            return script[c]
        _SCRIPT_FN.append(njit(seat_call.signature())(scripted))
    return _SCRIPT_FN[0]


@hot
def _start(S, st, rng, W, root, game):
    """Game ``game`` of root seed ``root`` up to its first clean point, as ``play_game``."""
    seed_streams(rng, root, game)
    PA.reset_work(W)
    new_game(S, st, rng)
    begin(S, st, rng, W, PHASE_SETUP)


@hot
def _record(S, row):
    write_record(S, row)


@dataclass(frozen=True)
class Question:
    """A decision the game waits on: ``seat`` (a colour: with 2 players a player has two) is
    to pick one of the ``n`` rows of ``options`` of decision ``kind``
    (``simulator.state.DECISION_NAMES``). ``state`` and ``work`` are the engine's arrays as the
    seat was asked (the state holds hidden cells: what a seat may see is ``state[:PUB_SIZE]``
    and its own private row, RULES R11)."""
    seat: int
    kind: int
    n: int
    options: np.ndarray
    state: np.ndarray
    work: np.ndarray


class EngineStopped(RuntimeError):
    """The engine stopped a game for a reason other than a question (a defect: say so)."""


class Stepper:
    """One game of ``settings`` (its strategies are ignored: every seat is asked), played one
    answer at a time. ``reset(root, game)``, then while ``question`` is not None, ``answer(k)``
    with ``0 <= k < question.n``; at the end ``record`` is the per-game row a table holds
    (``play.layout.REC_GAME``/``REC_SEAT``)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        st = settings_vector(settings)
        st[ST_JOURNAL] = 1
        st[ST_SIDS:ST_SIDS + MAX_SEATS] = PLUGIN_CODE
        self._st = st
        self._drive = driver()
        self._S = np.zeros(STATE_SIZE, np.int32)
        self._rng = np.zeros(N_STREAMS, np.uint64)
        self._W = np.zeros(W_SIZE, np.int32)
        self._opts = np.zeros((MAX_OPTS, OPT_W), np.int32)
        self._ctx = np.zeros(CTX_W, np.int64)
        self._start_W = np.zeros(W_SIZE, np.int32)
        self._mem = self._arena(_SCRIPT_ROWS)      # the seats' rows, then the arena
        self.streams = np.zeros(N_STREAMS, np.uint64)
        self.history: list[int] = []
        self.question: Question | None = None
        self.record: np.ndarray | None = None
        self.final_state: np.ndarray | None = None
        self.root = self.game = None
        self.serial = 0            # this game's serial in the process: a policy's memory
                                   # follows it (``StrategyAnswers``)

    # ------------------------------------------------------------------------ playing
    def reset(self, root: int, game: int = 0) -> Question | None:
        """Game ``game`` of root seed ``root``, up to its first question."""
        self.root, self.game = int(root), int(game)
        self.serial = next(_GAMES)
        _start(self._S, self._st, self._rng, self._W, np.uint64(self.root),
               np.int64(self.game))
        self.streams = self._rng.copy()            # the streams at the start (seat noise too)
        self._start_W[:] = self._W
        self.history = []
        self.record = None
        self._play([], from_start=True)
        return self.question

    def answer(self, k: int) -> Question | None:
        """Answer the question with row ``k``; returns the next question (None at the end)."""
        q = self.question
        if q is None:
            raise ValueError("the game is over: no question to answer (reset first)")
        if not 0 <= k < q.n:
            raise ValueError(f"row {k} is not a legal option: a {q.n}-option question takes "
                             f"0 to {q.n - 1}")
        self.history.append(int(k))
        count = int(self._W[W_JOURNAL + J_N])
        if count <= J_MAX:                          # from the last clean point
            rows = [int(r) for r in self._W[W_JOURNAL + J_CHOICES:
                                             W_JOURNAL + J_CHOICES + count]]
            self._play(rows + [int(k)], from_start=False)
        else:                                       # a turn longer than the journal
            self._W[:] = self._start_W
            self._play(self.history, from_start=True)
        return self.question

    @property
    def over(self) -> bool:
        return self.record is not None

    # ------------------------------------------------------------------------ the replay
    @staticmethod
    def _arena(rows: int) -> np.ndarray:
        """The seats' memory rows and, after them, an arena with room for ``rows`` script
        rows and a kept question: allocated once per stepper, grown only by a longer script."""
        extra = (E_HEAD + rows + _KEPT + MEM_W - 1) // MEM_W
        return np.zeros((MAX_SEATS + extra, MEM_W), np.float64)

    def _play(self, rows: list[int], from_start: bool):
        W = self._W
        state_at(W, self._S)
        streams_at(W, self._rng)
        phase = int(W[W_JOURNAL + J_PHASE])
        W[:W_JOURNAL] = 0
        W[W_JOURNAL + J_N] = 0                      # the setup phase has no ``begin`` of its own
        count = len(rows)
        size = E_HEAD + count + _KEPT
        if self._mem.size < MAX_SEATS * MEM_W + size:
            self._mem = self._arena(2 * count)
        mem = self._mem
        mem[:MAX_SEATS] = 0.0                       # the seats' rows, as a fresh game has them
        A = mem.reshape(-1)[MAX_SEATS * MEM_W:MAX_SEATS * MEM_W + size]
        A[:E_HEAD] = 0.0
        A[E_SIZE] = size
        A[E_COUNT] = count
        A[E_HEAD:E_HEAD + count] = rows
        self._ctx[:] = 0
        self._drive(self._S, self._st, self._rng, self._ctx, mem, W, self._opts,
                    np.int64(PHASE_SETUP if from_start else phase), NO_LIMIT)
        if A[E_ASKED]:
            at = E_HEAD + count
            n = int(A[E_N])
            state = A[at:at + STATE_SIZE].astype(np.int32)
            work = A[at + STATE_SIZE:at + STATE_SIZE + W_SIZE].astype(np.int32)
            at += STATE_SIZE + W_SIZE
            options = A[at:at + n * OPT_W].astype(np.int32).reshape(n, OPT_W)
            self.question = Question(int(A[E_SEAT]), int(A[E_KIND]), n, options, state, work)
            return
        if self._ctx[C_ERR] != 0 or self._S[OVER] == 0:
            raise EngineStopped(f"the engine stopped game {self.game} of seed {self.root} "
                                f"without a question (error code {int(self._ctx[C_ERR])}): "
                                f"a defect, please report it with these settings")
        self.question = None
        row = np.empty(REC_W, np.int32)
        _record(self._S, row)
        self.record = row
        self.final_state = self._S.copy()


class StrategyAnswers:
    """Answers a ``Stepper``'s questions as strategy ``spec`` answers them in the engine: its
    compiled ``choose`` asked with the seat's view of the question, its own memory rows and the
    seats' own noise streams, carried from question to question of one game (``start`` at each
    game). A game whose every answer comes from here is the game a table holds for that
    strategy (tests/test_env.py checks it). Not the search rungs: their look-ahead replays the
    game from the journal, whose noise streams a stepped game leaves unused."""

    def __init__(self, spec: str):
        s, _ = parse_spec(spec)
        if s.reenters:
            raise ValueError(f"{spec!r} searches by re-entering the game: it cannot answer a "
                             f"stepped game's questions (use a heuristic rung)")
        self.spec = spec
        self._fn = (seat_call.trampoline(s.choose) if s.plugin or in_switch(s)
                    else seat_call.builtin_trampoline(s, apart()))
        self._par = param_row(spec)
        self._game = None
        self._rng = np.zeros(N_STREAMS, np.uint64)
        self._mem = np.zeros((MAX_SEATS, MEM_W), np.float64)
        self._opts = np.zeros((MAX_OPTS, OPT_W), np.int32)

    def start(self, stepper: Stepper):
        """A new game: the seats' noise streams as the game began, fresh memory rows."""
        self._game = stepper.serial
        self._rng[:] = stepper.streams
        self._mem[:] = 0.0
        self._mem[:, PAR0:PAR0 + self._par.shape[0]] = self._par

    def __call__(self, stepper: Stepper) -> int:
        """The row this strategy answers ``stepper.question`` with."""
        q = stepper.question
        if q is None:
            raise ValueError("the game is over: no question to answer")
        if self._game != stepper.serial:
            self.start(stepper)
        S = q.state.copy()
        W = q.work.copy()
        self._opts[:q.n] = q.options
        k = self._fn(S.ctypes.data, self._opts.ctypes.data, W.ctypes.data,
                     self._rng.ctypes.data, self._mem.ctypes.data, q.seat, q.kind, q.n)
        if not 0 <= k < q.n:
            raise RuntimeError(f"strategy {self.spec} answered row {k} of {q.n} options")
        return int(k)
