"""The engine's two ways out: a question to a seat's strategy (``ask``) and a row of the event log
(``log_event``). A strategy sees the public table and its own private row only (R11); it is the
compiled switch of built-ins (``strategies.dispatch``) or, for a plug-in or a built-in outside
the switch, the seat's first-class function. An answer outside the options is an error code
in ``ctx``, never an exception (exceptions from compiled code come out garbled)."""
import numpy as np

from simulator.jit import hot
from simulator.state import PRIV, PRIV_W, PUB_SIZE, RNG_SEAT0, TURN
from strategies import dispatch as DI
from strategies.dispatch import PAR0
from strategies.registry import PLUGIN_CODE
from strategies.seat_call import OPTS_WRITTEN

from .journal import note
from .layout import (
    C_BAD_KIND,
    C_BAD_SEAT,
    C_ERR,
    C_LOG,
    C_NEV,
    ERR_BAD_CHOICE,
    ERR_LOG_FULL,
    ERR_PLUGIN_CHOICE,
    ERR_PLUGIN_OPTS,
    ST_SIDS,
)


@hot
def log_event(S, ctx, ev, snaps, etype, seat, a, b, c, d, e, f, g):
    if ctx[C_LOG] == 0:
        return
    i = ctx[C_NEV]
    if i >= ev.shape[0]:
        ctx[C_ERR] = ERR_LOG_FULL
        return
    ev[i, 0] = etype
    ev[i, 1] = seat
    ev[i, 2] = S[TURN]
    ev[i, 3] = a
    ev[i, 4] = b
    ev[i, 5] = c
    ev[i, 6] = d
    ev[i, 7] = e
    ev[i, 8] = f
    ev[i, 9] = g
    for j in range(S.shape[0]):
        snaps[i, j] = S[j]
    ctx[C_NEV] = i + 1


@hot
def ask(S, st, rng, ctx, mem, W, fns, seat, kind, opts, n):
    """Ask the seat's strategy to pick one of ``n`` legal options. It sees only the public part
    of the state and its own private row (R11), and may use ``W`` as scratch for rules queries
    (so the engine never keeps a search result across a question). One option needs no
    question."""
    if n <= 1:
        return 0
    pub = S[:PUB_SIZE]
    mine = S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W]
    row = mem[seat]
    sid = st[ST_SIDS + seat]
    noise = rng[RNG_SEAT0 + seat:RNG_SEAT0 + seat + 1]
    if sid >= PLUGIN_CODE:      # a plug-in or a built-in outside the switch: its seat function
        k = fns[seat](np.int64(S.ctypes.data), np.int64(opts.ctypes.data),
                      np.int64(W.ctypes.data), np.int64(rng.ctypes.data),
                      np.int64(mem.ctypes.data), np.int64(seat), np.int64(kind), np.int64(n))
        if k < 0 or k >= n:     # a bad row, or it changed ``opts[:n]`` (``seat_call``)
            ctx[C_ERR] = ERR_PLUGIN_OPTS if k == OPTS_WRITTEN else ERR_PLUGIN_CHOICE
            ctx[C_BAD_KIND] = kind
            ctx[C_BAD_SEAT] = seat
            return 0
        note(st, W, k)
        return k
    k = DI.choose(sid, pub, mine, seat, kind, opts, n, noise, row[:PAR0], W, row[PAR0:])
    if k < 0 or k >= n:
        ctx[C_ERR] = ERR_BAD_CHOICE
        return 0
    note(st, W, k)
    return k
