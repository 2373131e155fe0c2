"""How the engine calls a plug-in seat cheaply: a trampoline that takes addresses, not arrays.

A numba first-class call costs about 3 ns for every array argument (each array travels as its
whole descriptor) on top of ~7 ns for the call itself, and ``choose`` takes seven arrays: 30 ns a
decision, which cost a ``random`` plug-in 12% of its games' time. So the engine calls, through
the seat's first-class function, a small *trampoline* compiled per plug-in that takes the
addresses of the engine's five buffers and three integers (``SIGNATURE``: eight int64), rebuilds
the views from the addresses (no allocation, no copies), slices out exactly what ``ask`` hands
a built-in (``pub``, the seat's ``mine``, its noise stream, its scratch and its parameters) and
calls the plug-in's ``choose`` directly, where the compiler can inline it. The plug-in's API
(``strategies.api``) does not change.

The buffers' shapes are the engine's constants, so the views are exact; the addresses are only
used during the call, while the engine holds the arrays.
"""
from __future__ import annotations

from simulator.rules import W_SIZE
from simulator.state import (
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

from .dispatch import MEM_W, PAR0

_TRAMPOLINES: dict[int, object] = {}


def signature():
    """``(S, opts, W, rng, mem addresses, seat, kind, n) -> row``: eight int64."""
    from numba import types
    i = types.int64
    return i(i, i, i, i, i, i, i, i)


def _view(dtype, ndim: int):
    """An intrinsic ``view(address, shape)`` -> a C-contiguous array over memory the caller
    owns (no meminfo: nothing is counted or freed)."""
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic
    from numba.np.arrayobj import make_array, populate_array

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


def _compiled_trampoline(choose):
    from numba import njit, types

    state, board = _view(types.int32, 1), _view(types.int32, 2)
    streams, rows = _view(types.uint64, 1), _view(types.float64, 2)

    @njit(signature(), _nrt=False)
    def seat_call(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n):
        S = state(s_at, (STATE_SIZE,))
        row = rows(mem_at, (MAX_SEATS, MEM_W))[seat]
        return choose(S[:PUB_SIZE], S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W], seat,
                      kind, board(opts_at, (MAX_OPTS, OPT_W)), n,
                      streams(rng_at, (N_STREAMS,))[RNG_SEAT0 + seat:RNG_SEAT0 + seat + 1],
                      row[:PAR0], state(w_at, (W_SIZE,)), row[PAR0:])
    return seat_call


def _python_trampoline(choose):
    """The same in plain Python, for runs with numba's JIT disabled (coverage, audits)."""
    import ctypes

    import numpy as np

    def view(address, ctype, shape):
        return np.ctypeslib.as_array(ctypes.cast(address, ctypes.POINTER(ctype)), shape)

    def seat_call(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n):
        S = view(s_at, ctypes.c_int32, (STATE_SIZE,))
        row = view(mem_at, ctypes.c_double, (MAX_SEATS, MEM_W))[seat]
        return choose(S[:PUB_SIZE], S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W], seat,
                      kind, view(opts_at, ctypes.c_int32, (MAX_OPTS, OPT_W)), n,
                      view(rng_at, ctypes.c_uint64, (N_STREAMS,))[RNG_SEAT0 + seat:
                                                                  RNG_SEAT0 + seat + 1],
                      row[:PAR0], view(w_at, ctypes.c_int32, (W_SIZE,)), row[PAR0:])
    return seat_call


def trampoline(choose):
    """The seat function the engine is handed for a plug-in's ``choose`` (one per function,
    compiled once per process, ~0.2 s)."""
    key = id(choose)
    if key not in _TRAMPOLINES:
        from numba import config
        _TRAMPOLINES[key] = (_python_trampoline if config.DISABLE_JIT
                             else _compiled_trampoline)(choose)
    return _TRAMPOLINES[key]
