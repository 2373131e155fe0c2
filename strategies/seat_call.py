"""How the engine calls a seat outside its switch: a trampoline that takes addresses, not arrays.

A numba first-class call costs about 3 ns for every array argument (each array travels as its
whole descriptor) on top of ~7 ns for the call itself, and ``choose`` takes seven arrays: 30 ns a
decision, which cost a ``random`` plug-in 12% of its games' time. So the engine calls, through
the seat's first-class function, a small *trampoline* that takes the addresses of the engine's
five buffers and three integers (``signature()``: eight int64), rebuilds the views from the
addresses (no allocation, no copies), slices out exactly what ``ask`` hands a built-in
(``pub``, the seat's ``mine``, its noise stream, its scratch and its parameters) and calls the
strategy's ``choose`` directly, where the compiler can inline it. The plug-in's API
(``strategies.api``) does not change.

A plug-in's trampoline is compiled in each process. Every built-in outside the engine's switch
(``registry``: not ``INLINE``) has one too, written into a generated module and cached on disk
like the engine: numba does not link what it calls through a first-class function, so such a
strategy is compiled once, on its own, the first time it plays, instead of into every engine
function that asks a decision (``simulator.jit``).

The buffers' shapes are the engine's constants, so the views are exact; the addresses are only
used during the call, while the engine holds the arrays.
"""
from __future__ import annotations

import ctypes

import numpy as np
from numba import config, get_thread_id, njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from simulator.jit import STRATEGY_INLINING, inlining
from simulator.rules import W_SIZE
from simulator.state import (
    DECISION_NAMES,
    MAX_OPTS,
    MAX_SEATS,
    N_STREAMS,
    OPT_W,
    PRIV,
    PRIV_W,
    PUB_SIZE,
    RNG_SEAT0,
    STATE_SIZE,
)

from .api import MEM_W, PAR0
from .generated import generated_module

_TRAMPOLINES: dict[int, object] = {}


def signature():
    """``(S, opts, W, rng, mem addresses, seat, kind, n) -> row``: eight int64."""
    i = types.int64
    return i(i, i, i, i, i, i, i, i)


def _view(dtype, ndim: int):
    """An intrinsic ``view(address, shape)`` -> a C-contiguous array over memory the caller
    owns (no meminfo: nothing is counted or freed)."""
    arrty = types.Array(dtype, ndim, "C")

    @intrinsic
    def view(typingctx, address, shape):
        def codegen(context, builder, sig, args):
            ary = make_array(arrty)(context, builder)
            shapes = cgutils.unpack_tuple(builder, args[1])
            size = context.get_abi_sizeof(context.get_data_type(dtype))
            strides = [None] * ndim
            step = context.get_constant(types.intp, size)
            for k in range(ndim - 1, -1, -1):
                strides[k] = step
                step = builder.mul(step, shapes[k])
            populate_array(ary, data=builder.inttoptr(args[0], ary.data.type), shape=shapes,
                           strides=strides, itemsize=context.get_constant(types.intp, size),
                           meminfo=None)
            return ary._getvalue()
        return arrty(address, shape), codegen
    return view


def _stack_rows():
    """An intrinsic ``stack_rows()`` -> int32[MAX_OPTS * OPT_W] on the calling function's own
    stack (room for one decision's options; per call, so per thread, with nothing to free)."""
    arrty = types.Array(types.int32, 1, "C")
    cells = MAX_OPTS * OPT_W

    @intrinsic
    def stack_rows(typingctx):
        def codegen(context, builder, sig, args):
            ary = make_array(arrty)(context, builder)
            data = cgutils.alloca_once(builder, context.get_data_type(types.int32), size=cells)
            size = context.get_abi_sizeof(context.get_data_type(types.int32))
            populate_array(ary, data=data, shape=[context.get_constant(types.intp, cells)],
                           strides=[context.get_constant(types.intp, size)],
                           itemsize=context.get_constant(types.intp, size), meminfo=None)
            return ary._getvalue()
        return arrty(), codegen
    return stack_rows


_VIEWS: dict[str, object] = {}


def views() -> dict:
    """The four view intrinsics the trampolines use, made once."""
    if not _VIEWS:
        _VIEWS.update(state_view=_view(types.int32, 1), board_view=_view(types.int32, 2),
                      stream_view=_view(types.uint64, 1), rows_view=_view(types.float64, 2))
    return _VIEWS


# The one trampoline source: compiled per process for a plug-in (``_compiled_trampoline``), and
# written for every built-in called through a seat function into a generated module, so that
# numba caches those like the engine (``builtin_trampoline``).
_HEAD = """
def seat_{name}(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n):
    S = state_view(s_at, (STATE_SIZE,))
    row = rows_view(mem_at, (MAX_SEATS, MEM_W))[seat]
    pub = S[:PUB_SIZE]
    mine = S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W]
    opts = board_view(opts_at, (MAX_OPTS, OPT_W))
    noise = stream_view(rng_at, (N_STREAMS,))[RNG_SEAT0 + seat:RNG_SEAT0 + seat + 1]
    W = state_view(w_at, (W_SIZE,))
"""
_CALL = "{choose}(pub, mine, seat, {kind}, opts, n, noise, row[:PAR0], W, row[PAR0:])"
_CONSTANTS = dict(MAX_OPTS=MAX_OPTS, MAX_SEATS=MAX_SEATS, MEM_W=MEM_W, N_STREAMS=N_STREAMS,
                  OPT_W=OPT_W, PAR0=PAR0, PRIV=PRIV, PRIV_W=PRIV_W, PUB_SIZE=PUB_SIZE,
                  RNG_SEAT0=RNG_SEAT0, STATE_SIZE=STATE_SIZE, W_SIZE=W_SIZE)


def trampoline_source(name: str, choose: str, per_decision: bool = False) -> str:
    """``seat_<name>``: view the engine's buffers, call ``choose``. With ``per_decision`` the
    decision kind reaches ``choose`` as a constant, one call per kind (``state.DECISION_NAMES``),
    so numba compiles ``choose`` once per decision with only that decision's code, as the
    engine's own calls of the switch are: a built-in played through a generic ``choose`` ran
    7% slower (``greedy``); a kind the engine never asks returns -1 (a bad choice)."""
    lines = [_HEAD.format(name=name).rstrip("\n")]
    if not per_decision:
        return "\n".join(lines + ["    return " + _CALL.format(choose=choose, kind="kind"), ""])
    for kind, decision in enumerate(DECISION_NAMES):
        lines += [f"    if kind == {kind}:  # {decision}",
                  "        return " + _CALL.format(choose=choose, kind=kind)]
    return "\n".join(lines + ["    return -1", ""])


# ---------------------------------------------------------------------------- watching plug-ins
# A plug-in's trampoline notes, per numba thread, the seat and decision it is asking (``WATCH``
# columns ``W_SEAT`` = seat + 1, ``W_KIND``) and clears the seat when ``choose`` returns. So
# Python can say whose code is at fault when the compiled run cannot: a ``choose`` that raises
# leaves its note behind (numba returns from the trampoline at once, and the engine carries on
# to the next decision, whose trampoline moves the stale note to ``W_RAISED_*`` before writing
# its own); one that never returns keeps its note while the run is interrupted. Only plug-ins
# are watched: the built-ins' seat functions and tables are untouched.
#
# It also keeps a copy of the legal options ``opts[:n]`` on its stack during the call and
# answers ``OPTS_WRITTEN`` when ``choose`` changed them (the engine plays the row it is given:
# ``opts[0, 0] = 99`` played a move no rule allows). ``pub`` and ``mine`` need no copy: they
# are read-only in ``choose`` (``strategies.api.arguments``). Its own negative answers all read
# -1, so ``OPTS_WRITTEN`` is never a plug-in's. Changed rows are put back, since the engine
# finishes its step with row 0 before it stops. Measured (one thread, CPU time): a plug-in that
# only draws a random row in all four seats plays 8% fewer games a second, ``homing`` beside
# three ``greedy`` 1% (docs/writing-a-strategy.md); comparing only the row picked (all the
# engine reads) saved about 2 of those 8 points, but misses a change to any other row.
W_SEAT, W_KIND, W_RAISED_SEAT, W_RAISED_KIND = range(4)
OPTS_WRITTEN = -2
_WATCH = []


def watch_table():
    """The per-thread notes (threads x 4 int64), made once per process; the plug-in
    trampolines hold its address as a constant (they are compiled in each process)."""
    if not _WATCH:
        _WATCH.append(np.zeros((max(int(config.NUMBA_NUM_THREADS), 1) + 1, 4), np.int64))
    return _WATCH[0]


_WATCHED = """
def seat_call(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n):
    notes = notes_view(WATCH_AT, (WATCH_ROWS, 4))
    t = min(get_thread_id(), WATCH_ROWS - 1)
    if notes[t, 0] != 0 and notes[t, 2] == 0:      # the last call on this thread raised
        notes[t, 2] = notes[t, 0]
        notes[t, 3] = notes[t, 1]
    notes[t, 0] = seat + 1
    notes[t, 1] = kind
    legal = state_view(opts_at, (n * OPT_W,))
    kept = stack_rows()
    for i in range(n * OPT_W):
        kept[i] = legal[i]
    row = np.int64(seat_plain(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n))
    notes[t, 0] = 0
    changed = 0
    for i in range(n * OPT_W):              # no early exit: the loop vectorises
        changed |= legal[i] ^ kept[i]
    if changed != 0:
        for i in range(n * OPT_W):          # put them back: the engine goes on to the end of
            legal[i] = kept[i]              # the step with row 0 before it stops the game
        return OPTS_WRITTEN
    return row if row >= 0 else -1
"""


def _compiled_trampoline(choose):
    namespace = {**_CONSTANTS, **views(), "choose": choose}
    exec(trampoline_source("plain", "choose"), namespace)
    table = watch_table()
    watched = {"notes_view": _view(types.int64, 2), "get_thread_id": get_thread_id,
               "WATCH_AT": int(table.ctypes.data), "WATCH_ROWS": int(table.shape[0]),
               "state_view": views()["state_view"], "stack_rows": _stack_rows(), "np": np,
               "OPT_W": OPT_W, "OPTS_WRITTEN": OPTS_WRITTEN}
    with inlining(STRATEGY_INLINING):
        watched["seat_plain"] = njit(_nrt=False)(namespace["seat_plain"])
        exec(_WATCHED, watched)
        return njit(signature(), _nrt=False)(watched["seat_call"])


def seats_source(strategies) -> str:
    """The generated module of the built-ins' trampolines (``seat_<name>``)."""
    lines = ['"""Generated by strategies.seat_call from the registry; do not edit."""',
             "from strategies.seat_call import views",
             f"from strategies.seat_call import {', '.join(sorted(_CONSTANTS))}"]
    lines += [f"from {getattr(s.choose, 'py_func', s.choose).__module__} import choose as "
              f"choose_{s.name}" for s in strategies]
    lines += ["", "globals().update(views())", ""]
    for s in strategies:
        lines += [trampoline_source(s.name, f"choose_{s.name}", per_decision=True)]
    return "\n".join(lines)


_BUILTIN: dict[str, object] = {}


def builtin_trampoline(s, apart):
    """The seat function of built-in ``s``, one of the built-ins ``apart`` from the engine's
    switch (``dispatch.apart``): its trampoline, compiled from the generated module of all
    their trampolines the first time the strategy plays, cached on disk."""
    if s.name not in _BUILTIN:
        module = generated_module("strategies._seats", "strategy_seats.py", seats_source(apart))
        with inlining(STRATEGY_INLINING):
            _BUILTIN[s.name] = njit(signature(), cache=True, _nrt=False)(
                getattr(module, f"seat_{s.name}"))
    return _BUILTIN[s.name]


def _python_trampoline(choose):
    """The same in plain Python, for runs with numba's JIT disabled (coverage, audits)."""
    def view(address, ctype, shape):
        return np.ctypeslib.as_array(ctypes.cast(address, ctypes.POINTER(ctype)), shape)

    def read_only(a):
        a.flags.writeable = False
        return a

    def seat_call(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n):
        S = view(s_at, ctypes.c_int32, (STATE_SIZE,))
        row = view(mem_at, ctypes.c_double, (MAX_SEATS, MEM_W))[seat]
        opts = view(opts_at, ctypes.c_int32, (MAX_OPTS, OPT_W))
        kept = opts[:n].copy()
        k = choose(read_only(S[:PUB_SIZE]),
                   read_only(S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W]), seat, kind,
                   opts, n, view(rng_at, ctypes.c_uint64, (N_STREAMS,))[RNG_SEAT0 + seat:
                                                                       RNG_SEAT0 + seat + 1],
                   row[:PAR0], view(w_at, ctypes.c_int32, (W_SIZE,)), row[PAR0:])
        if not np.array_equal(opts[:n], kept):
            opts[:n] = kept
            return OPTS_WRITTEN
        return k if isinstance(k, (int, np.integer)) and k >= 0 else -1
    return seat_call


def trampoline(choose):
    """The seat function the engine is handed for a plug-in's ``choose`` (one per function,
    compiled once per process, ~0.2 s)."""
    key = id(choose)
    if key not in _TRAMPOLINES:
        _TRAMPOLINES[key] = (_python_trampoline if config.DISABLE_JIT
                             else _compiled_trampoline)(choose)
    return _TRAMPOLINES[key]
