"""The game, re-entrant: play the engine's own code on from a clean point of the journal
(``play.journal``), with any seat functions, for at most a given number of seat-turns.

``play_on`` is what a search iteration runs and what a plug-in may call: copy the journal's
state and streams (``journal.state_at``, ``journal.streams_at``), hand it seat functions that
answer the journal's rows first (``play.tree``), and the engine's setup (B4) or turn (B5) code
runs on from there exactly as it ran in the game, past the decision asked about, to the end
or to the cut. It is compiled once, as a root of its own with a fixed signature, and called
through a first-class function, so nothing that calls it links the engine again
(``simulator.jit``).
"""
import numpy as np
from numba import njit, types

from simulator.jit import ENGINE_INLINING, inlining
from simulator.rules.layout import W_PATH
from simulator.state import OVER
from strategies import seat_call

from .journal import PHASE_SETUP
from .layout import C_ERR, EV_W
from .setup import place_pieces
from .steps import play_turn, strand_the_rest


def play_on_signature():
    i32, i64 = types.int32, types.int64

    def arr(dtype, ndim):
        return types.Array(dtype, ndim, "C")
    fns = types.UniTuple(types.FunctionType(seat_call.signature()), 6)
    return i64(arr(i32, 1), arr(i64, 1), arr(types.uint64, 1), arr(i64, 1),
               arr(types.float64, 2), arr(i32, 1), fns, arr(i32, 2), i64, i64)


def _play_on(S, st, rng, ctx, mem, W, fns, opts, phase, turns):
    """From the clean point in ``S``/``rng`` (``phase``: setup or a turn), play at most
    ``turns`` seat-turns (the one begun counts); returns the seat-turns played. A finished
    game's unrescued explorers are stranded (B7.2), as at the end of ``engine.play_game``."""
    ev = np.empty((1, EV_W), np.int32)
    snaps = np.empty((1, 1), np.int32)
    path = W[W_PATH:W_PATH + 3]
    if phase == PHASE_SETUP:
        place_pieces(S, st, rng, ctx, mem, W, fns, opts, ev, snaps)
    played = 0
    while S[OVER] == 0 and ctx[C_ERR] == 0 and played < turns:
        play_turn(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps)
        played += 1
    if S[OVER] != 0:
        strand_the_rest(S)
    return played


_PLAY_ON = []


def play_on_function():
    """``_play_on`` compiled (once per process; from numba's disk cache after the first)."""
    if not _PLAY_ON:
        with inlining(ENGINE_INLINING):
            _PLAY_ON.append(njit(play_on_signature(), cache=True, nogil=True)(_play_on))
    return _PLAY_ON[0]
