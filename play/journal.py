"""The game's journal: how a seat re-enters the game it is asked about.

The engine's turn is nested code (a step asks, the answer sets off a reaction that asks
again ...), so a decision point has a call stack no array holds. A clean point has none: the
start of setup (after the layout) and the start of every seat-turn. When the settings ask for
it (``ST_JOURNAL``: a search seat plays), the engine writes into the work array's journal
(``simulator.rules.layout``: ``W_JOURNAL``) the whole state and the random streams at the last
clean point, and then every row a seat answered since. Playing the engine's own code again
from that state with those rows re-creates the decision point exactly, call stack and all
(``play.reentry``); nothing about the rules is written twice.

The journal holds the clean point's hidden cells too (tile backs, every hand and value): they
are needed to re-create the turn so far exactly. A seat that re-enters must replace every
cell still hidden from it before it looks ahead (``play.determinize``) and check that the
re-created table is the one it was asked about. With the flag off nothing is written, so
games without a search seat are exactly the games they were.
"""
import numpy as np

from simulator.jit import hot
from simulator.rules.layout import J_CHOICES, J_MAX, J_N, J_PHASE, J_RNG, J_STATE, J_TIEBREAK, \
    W_JOURNAL
from simulator.state import N_STREAMS, STATE_SIZE

from .layout import ST_CHAIN, ST_JOURNAL

PHASE_NONE, PHASE_SETUP, PHASE_TURN = 0, 1, 2
_LOW = np.uint64(0xFFFFFFFF)


@hot
def begin(S, st, rng, W, phase):
    """A clean point: keep the state and the streams, forget the rows answered before it."""
    if st[ST_JOURNAL] == 0:
        return
    J = W_JOURNAL
    W[J + J_PHASE] = phase
    W[J + J_N] = 0
    W[J + J_TIEBREAK] = st[ST_CHAIN]
    for k in range(N_STREAMS):
        z = rng[k]
        W[J + J_RNG + 2 * k] = np.int32(np.int64(z & _LOW) - (1 << 31))
        W[J + J_RNG + 2 * k + 1] = np.int32(np.int64(z >> np.uint64(32)) - (1 << 31))
    for i in range(STATE_SIZE):
        W[J + J_STATE + i] = S[i]


@hot
def note(st, W, k):
    """One answered row (asked questions only: a single option is never asked). Past
    ``J_MAX`` the count goes on growing and the journal no longer re-enters."""
    if st[ST_JOURNAL] == 0:
        return
    i = W[W_JOURNAL + J_N]
    if i < J_MAX:
        W[W_JOURNAL + J_CHOICES + i] = k
    W[W_JOURNAL + J_N] = i + 1


@hot
def streams_at(W, rng):
    """The random streams kept at the clean point, into ``rng``."""
    for k in range(N_STREAMS):
        lo = np.uint64(np.int64(W[W_JOURNAL + J_RNG + 2 * k]) + (1 << 31))
        hi = np.uint64(np.int64(W[W_JOURNAL + J_RNG + 2 * k + 1]) + (1 << 31))
        rng[k] = (hi << np.uint64(32)) | lo


@hot
def state_at(W, S):
    """The state kept at the clean point, into ``S``."""
    for i in range(STATE_SIZE):
        S[i] = W[W_JOURNAL + J_STATE + i]
