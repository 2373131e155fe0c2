"""Decision points of real games, captured as the engine hands them to a seat function: what
``search``'s tests re-enter and ``survive-sim bench --search`` times.

``capture(settings, seed, game, seat, call)`` plays one game with the journal on
(``play.journal``), ``seat`` answered by a capturing seat function that copies, at its
``call``-th question, everything a seat function receives -- the whole state, the work array
(with the journal), the options, the streams -- and answers the first option throughout (a
legal game). The result can be handed to any seat function, ``search``'s included, exactly as
the engine would have called it (``ask_seat``).

The capturing function writes into buffers whose addresses it holds as constants, so it is
compiled in each process (about a second), like a plug-in's trampoline.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, types

from play import engine as E
from play.layout import REC_W, ST_JOURNAL, ST_SIDS
from play.settings import Settings
from play.simulate import settings_vector
from simulator.rules.layout import W_SIZE
from simulator.state import MAX_OPTS, MAX_SEATS, N_STREAMS, OPT_W, STATE_SIZE
from strategies import seat_call
from strategies.api import MEM_W, PAR0
from strategies.registry import PLUGIN_CODE, param_row

_S = np.zeros(STATE_SIZE, np.int32)
_W = np.zeros(W_SIZE, np.int32)
_OPTS = np.zeros(MAX_OPTS * OPT_W, np.int32)
_RNG = np.zeros(N_STREAMS, np.uint64)
_CTL = np.zeros(8, np.int64)          # calls, wanted call, captured, seat, kind, n
_FN = []


def _capturing():
    if _FN:
        return _FN[0]
    v = seat_call.views()
    ns = dict(state_view=v["state_view"], stream_view=v["stream_view"],
              ctl_view=seat_call._view(types.int64, 1), S_AT=_S.ctypes.data,
              W_AT=_W.ctypes.data, O_AT=_OPTS.ctypes.data, R_AT=_RNG.ctypes.data,
              C_AT=_CTL.ctypes.data, STATE_SIZE=STATE_SIZE, W_SIZE=W_SIZE,
              OPTS=MAX_OPTS * OPT_W, N_STREAMS=N_STREAMS)
    exec("""
def capture_seat(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n):
    ctl = ctl_view(C_AT, (8,))
    ctl[0] += 1
    if ctl[0] == ctl[1] and ctl[2] == 0:
        S = state_view(s_at, (STATE_SIZE,))
        W = state_view(w_at, (W_SIZE,))
        O = state_view(opts_at, (OPTS,))
        R = stream_view(rng_at, (N_STREAMS,))
        cS = state_view(S_AT, (STATE_SIZE,))
        cW = state_view(W_AT, (W_SIZE,))
        cO = state_view(O_AT, (OPTS,))
        cR = stream_view(R_AT, (N_STREAMS,))
        for i in range(STATE_SIZE):
            cS[i] = S[i]
        for i in range(W_SIZE):
            cW[i] = W[i]
        for i in range(OPTS):
            cO[i] = O[i]
        for i in range(N_STREAMS):
            cR[i] = R[i]
        ctl[2] = 1
        ctl[3] = seat
        ctl[4] = kind
        ctl[5] = n
    return 0
""", ns)
    _FN.append(njit(seat_call.signature())(ns["capture_seat"]))
    return _FN[0]


@dataclass
class Decision:
    """One question as the engine asked it: the state, the work array (the journal in it),
    the options, the streams, who was asked what among how many rows."""
    S: np.ndarray
    W: np.ndarray
    opts: np.ndarray
    rng: np.ndarray
    seat: int
    kind: int
    n: int


def capture(settings: Settings, seed: int, game: int, seat: int, call: int) -> Decision | None:
    """The ``call``-th question to ``seat`` in game ``game`` (None if the game had fewer)."""
    st = settings_vector(settings)
    st[ST_JOURNAL] = 1
    st[ST_SIDS + seat] = PLUGIN_CODE
    fns = list(settings.strategy_functions)
    fns[seat] = _capturing()
    _CTL[:] = 0
    _CTL[1] = call
    out = np.zeros((1, REC_W), np.int32)
    err = np.zeros((1, 3), np.int64)
    E.run_games(st, settings.strategy_params, tuple(fns), seed, game, 1, out, err)
    if _CTL[2] == 0:
        return None
    return Decision(_S.copy(), _W.copy(), _OPTS.reshape(MAX_OPTS, OPT_W).copy(), _RNG.copy(),
                    int(_CTL[3]), int(_CTL[4]), int(_CTL[5]))


def ask_seat(fn, spec: str | np.ndarray, d: Decision, S=None, W=None):
    """Seat function ``fn`` (a seat of ``spec``, or of that parameter row) asked ``d``'s
    question, on copies (``S`` and ``W`` replace the decision's); returns (row, the seat's
    memory row)."""
    S = np.ascontiguousarray(d.S if S is None else S).copy()
    W = np.ascontiguousarray(d.W if W is None else W).copy()
    opts = d.opts.copy()
    rng = d.rng.copy()
    mem = np.zeros((MAX_SEATS, MEM_W), np.float64)
    mem[d.seat, PAR0:] = param_row(spec) if isinstance(spec, str) else spec
    k = fn(S.ctypes.data, opts.ctypes.data, W.ctypes.data, rng.ctypes.data, mem.ctypes.data,
           d.seat, d.kind, d.n)
    return int(k), mem[d.seat].copy()
