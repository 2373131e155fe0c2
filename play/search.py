"""The ``search`` rung's seat function: the driver of its iterations (``strategies.search``
declares the rung; ``play.tree`` holds the tree; ``play.reentry`` plays the game on).

When a search seat is asked, the engine calls ``search_<rollout>`` (one per rollout rung,
written into a generated module and cached like the built-ins' seat functions,
``strategies.seat_call``). It reads the journal the engine keeps for it (``play.journal``),
and for each of ``budget`` iterations copies the clean point's state and streams into its own
arrays, resets the tree's walk and plays on through ``play_on`` with every seat answered by
``tree_<rollout>``: the journal's rows, then the tree, then the rollout rung. The reward of
each seat (``play.outcome``) is backed up along the walk; the answer is the most visited
action among the real options.

Seeding: one number from the seat's own noise stream per decision seeds every iteration's
streams (with the iteration's index), so a table depends only on (root seed, game, seat):
never on threads, chunking or workers. The driver allocates its arrays once per decision
(a few hundred kB at the largest budgets) and nothing while it searches.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types

from simulator.jit import ENGINE_INLINING, STRATEGY_INLINING, inlining
from simulator.rng import next_u64
from simulator.rules.layout import J_CHOICES, J_MAX, J_N, J_PHASE, J_TIEBREAK, W_JOURNAL, W_SIZE
from simulator.state import (
    MAX_OPTS,
    MAX_SEATS,
    N_STREAMS,
    OPT_W,
    OVER,
    RNG_SEAT0,
    STATE_SIZE,
)
from strategies import search as SR
from strategies import seat_call
from strategies.api import MEM_W, PAR0
from strategies.generated import generated_module
from strategies.queries import Q_END
from strategies.registry import PLUGIN_CODE, get, param_row

from . import tree as TR
from .journal import state_at, streams_at
from .layout import CTX_W, ST_SIDS, ST_SIZE
from .outcome import blend_scores, estimate, shares
from .reentry import play_on_function, play_on_signature

ARENA_AT = MAX_SEATS * MEM_W * 8          # bytes: the arena follows the seats' memory rows
# what the seat's own scratch row counts over a game (read by the tests and the benchmark):
# decisions asked, decisions answered by the rollout rung instead, iterations run; and the
# nodes of the last decision's tree (its root included)
M_DECISIONS, M_FALLBACKS, M_ITERATIONS, M_NODES = 0, 1, 2, 3
_VIEWS = seat_call.views()
state_view = _VIEWS["state_view"]
board_view = _VIEWS["board_view"]
stream_view = _VIEWS["stream_view"]
rows_view = _VIEWS["rows_view"]


def drive_signature():
    i = types.int64
    fns = types.UniTuple(types.FunctionType(seat_call.signature()), 6)
    return i(i, i, i, i, i, i, i, i, fns, types.FunctionType(play_on_signature()),
             types.Array(types.float64, 1, "C", readonly=True))


def _drive(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n, fns, play_on, roll_par):
    """One decision of a search seat (the module's docstring); returns the row."""
    S = state_view(s_at, (STATE_SIZE,))
    W = state_view(w_at, (W_SIZE,))
    opts = board_view(opts_at, (MAX_OPTS, OPT_W))
    rng = stream_view(rng_at, (N_STREAMS,))
    own = rows_view(mem_at, (MAX_SEATS, MEM_W))[seat]
    par = own[PAR0:]
    own[M_DECISIONS] += 1.0
    budget = np.int64(par[SR.P_BUDGET])
    depth = np.int64(par[SR.P_DEPTH])
    cells, cap, table = TR.arena_size(budget)
    rows = MAX_SEATS + (cells + MEM_W - 1) // MEM_W
    mem = np.zeros((rows, MEM_W), np.float64)
    A = mem.reshape(rows * MEM_W)[MAX_SEATS * MEM_W:MAX_SEATS * MEM_W + cells]
    A[TR.H_SIZE] = cells
    for s in range(MAX_SEATS):
        for i in range(roll_par.shape[0]):
            mem[s, PAR0 + i] = roll_par[i]
    phase = W[W_JOURNAL + J_PHASE]
    count = W[W_JOURNAL + J_N]
    if phase == 0 or count > J_MAX:               # nothing to re-enter: the rollout rung
        own[M_FALLBACKS] += 1.0
        A[TR.H_MODE] = TR.MODE_ROLLOUT
        return fns[0](s_at, opts_at, w_at, rng_at, np.int64(mem.ctypes.data), seat, kind, n)
    chain = W[W_JOURNAL + J_TIEBREAK]
    A[TR.H_MODE] = TR.MODE_ROLLOUT                # the rung's own answer: the default
    preferred = fns[0](s_at, opts_at, w_at, rng_at, np.int64(mem.ctypes.data), seat, kind, n)
    TR.reset(A, cap, table)
    A[TR.H_PREFIX_N] = count
    for i in range(count):
        A[TR.A_PREFIX + i] = W[W_JOURNAL + J_CHOICES + i]
    A[TR.H_OBSERVER] = seat
    A[TR.H_ROOT_KIND] = kind
    A[TR.H_ROOT_N] = n
    A[TR.H_C] = par[SR.P_C]
    paired = par[SR.P_PAIRED] != 0 and par[SR.P_BARE] == 0 and 0 <= preferred < n
    A[TR.H_PAIRED] = 1.0 if paired else 0.0
    A[TR.H_BARE] = par[SR.P_BARE]
    A[TR.H_PLIES] = par[SR.P_PLIES]
    A[TR.H_WIDEN] = par[SR.P_WIDEN]
    A[TR.H_CHECK] = TR.checksum(S, seat)
    seed = next_u64(rng, RNG_SEAT0 + seat)
    A[TR.H_SEED_LO] = np.float64(seed & np.uint64((1 << 26) - 1))
    A[TR.H_SEED_HI] = np.float64(seed >> np.uint64(26))
    sim = np.empty(STATE_SIZE, np.int32)
    streams = np.empty(N_STREAMS, np.uint64)
    work = np.zeros(W_SIZE, np.int32)
    rows_sim = np.empty((MAX_OPTS, OPT_W), np.int32)
    ctx = np.zeros(CTX_W, np.int64)
    st = np.zeros(ST_SIZE, np.int64)
    for s in range(MAX_SEATS):
        st[ST_SIDS + s] = PLUGIN_CODE
    keys = np.zeros((MAX_SEATS, 4), np.int64)
    reward = np.zeros(3 * MAX_SEATS, np.float64)
    temperature = par[SR.P_TEMPERATURE]
    blend = par[SR.P_BLEND]
    risk = par[SR.P_RISK]
    danger = np.zeros(Q_END, np.float64)
    # the paired root: rounds of the options still in ``alive[:m]``, one world per round,
    # halved down to two (``TR.halve``) in ``phases`` equal parts of the budget; per option
    # the sums of its gains over the rung's move, of their squares, and the rounds it played,
    # since the last halving (the ones that chose the survivors do not also test them)
    alive = np.arange(n)
    m = n
    gains = np.zeros((4, n), np.float64)        # the round's rewards, sums, squares, rounds
    phases = 1
    while (1 << phases) < n:
        phases += 1
    per_phase = budget // phases
    played = 0                                  # iterations of this phase's whole rounds
    world = 0
    slot = 0
    for it in range(budget):
        if paired:
            A[TR.H_ROOT_PICK] = alive[slot]
            A[TR.H_WORLD] = world
        state_at(W, sim)
        streams_at(W, streams)
        for i in range(W_JOURNAL):
            work[i] = 0
        for i in range(CTX_W):
            ctx[i] = 0
        for s in range(MAX_SEATS):
            for i in range(PAR0):
                mem[s, i] = 0.0
        A[TR.H_MODE] = TR.MODE_PREFIX
        A[TR.H_CURSOR] = 0
        A[TR.H_PATH_N] = 0
        A[TR.H_NODE] = 0
        A[TR.H_ITER] = it
        play_on(sim, st, streams, ctx, mem, work, fns, rows_sim, np.int64(phase), depth)
        if A[TR.H_ERR] != 0:
            break
        own[M_ITERATIONS] += 1.0
        if sim[OVER] != 0:
            shares(sim, chain, keys, reward)
            blend_scores(sim, blend, keys, reward, False)
        else:
            estimate(sim, temperature, keys, reward, danger, risk)
            blend_scores(sim, blend, keys, reward, True)
        TR.backup(A, reward)
        if paired:
            gains[0, alive[slot]] = reward[seat]
            slot += 1
            if slot == m:                         # a whole round: each option's gain
                for a in range(m):
                    i = alive[a]
                    d = gains[0, i] - gains[0, preferred]
                    gains[1, i] += d
                    gains[2, i] += d * d
                    gains[3, i] += 1.0
                slot = 0
                world += 1
                played += m
                if m > 2 and played + m > per_phase:
                    m = TR.halve(alive, m, preferred, gains[1], gains[3])
                    played = 0
                    for r in range(1, 4):         # the answer's test: fresh rounds only
                        for i in range(n):
                            gains[r, i] = 0.0
    own[M_NODES] = A[TR.H_NODES]
    if par[SR.P_BARE] != 0 and A[TR.H_ERR] == 0:  # a benchmark's playouts: the rung's move
        return preferred
    if paired:
        k = TR.paired_choice(alive, m, preferred, gains[1], gains[2], gains[3], par[SR.P_Z])
    else:
        k = TR.most_visited(A, kind, opts, n)
        if A[TR.H_ERR] == 0 and 0 <= preferred < n and (
                k < 0 or TR.mean_of(A, kind, opts, k) <= TR.mean_of(A, kind, opts, preferred)):
            k = preferred                         # no better than the rung: the rung's move
    if k >= 0 and A[TR.H_ERR] == 0:
        return k
    own[M_FALLBACKS] += 1.0
    A[TR.H_MODE] = TR.MODE_ROLLOUT                # a re-entry that failed: the rollout rung
    return fns[0](s_at, opts_at, w_at, rng_at, np.int64(mem.ctypes.data), seat, kind, n)


def _call(drive, s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n, fns, play_on, roll_par):
    """``drive`` called through its address: a seat function that calls the driver directly
    would link the driver's compiled code into itself and compile it again in every process
    (numba cannot cache a function that holds other functions' addresses)."""
    return drive(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n, fns, play_on, roll_par)


def _call_signature():
    sig = drive_signature()
    return sig.return_type(types.FunctionType(sig), *sig.args)


_DRIVE = []


def drive_function():
    """``_drive`` compiled (once; cached), the same for every rollout rung, and the caller
    that reaches it through its address: (driver, caller)."""
    if not _DRIVE:
        with inlining(ENGINE_INLINING):
            _DRIVE.append(njit(drive_signature(), cache=True)(_drive))
            _DRIVE.append(njit(_call_signature(), cache=True)(_call))
    return _DRIVE[0], _DRIVE[1]


# ---------------------------------------------------------------------------- per rollout rung
_SOURCE = '''"""Generated by play.search for the rollout rung {name}; do not edit."""
import numpy as np
from numba import njit, types

from play.search import ARENA_AT, drive_function, play_on_function
from play.tree import A_HEAD, EXPAND, expand, tree_ask
from strategies.seat_call import signature, views, _view
from strategies.seat_call import MAX_OPTS, MAX_SEATS, MEM_W, N_STREAMS, OPT_W, PAR0, PRIV
from strategies.seat_call import PRIV_W, PUB_SIZE, RNG_SEAT0, STATE_SIZE, W_SIZE
from {module} import choose as choose_{name}

globals().update(views())
flat_view = _view(types.float64, 1)
ROLL_PAR = np.array({par!r}, np.float64)
DRIVE, CALL = drive_function()
PLAY_ON = play_on_function()


def _tree(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n):
    S = state_view(s_at, (STATE_SIZE,))
    opts = board_view(opts_at, (MAX_OPTS, OPT_W))
    W = state_view(w_at, (W_SIZE,))
    rng = stream_view(rng_at, (N_STREAMS,))
    head = flat_view(mem_at + ARENA_AT, (A_HEAD,))
    A = flat_view(mem_at + ARENA_AT, (np.int64(head[0]),))
    k = tree_ask(S, W, opts, rng, A, seat, kind, n)
    if k >= 0:
        return k
    row = rows_view(mem_at, (MAX_SEATS, MEM_W))[seat]
    pub = S[:PUB_SIZE]
    mine = S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W]
    noise = rng[RNG_SEAT0 + seat:RNG_SEAT0 + seat + 1]
    r = choose_{name}(pub, mine, seat, kind, opts, n, noise, row[:PAR0], W, row[PAR0:])
    if k == EXPAND:
        return expand(A, seat, kind, opts, n, r)
    return r


tree = njit(signature(), cache=True)(_tree)


def _search(s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n):
    return CALL(DRIVE, s_at, opts_at, w_at, rng_at, mem_at, seat, kind, n,
                (tree, tree, tree, tree, tree, tree), PLAY_ON, ROLL_PAR)


# it holds the addresses of tree, DRIVE and PLAY_ON, which numba cannot cache: compiled in
# each process, a small function that calls the driver through its address
search = njit(signature())(_search)
'''


def rollout_module(name: str):
    """The generated module of rollout rung ``name``: ``tree`` (a simulated seat) and
    ``search`` (the search seat's function), compiled on first use and cached."""
    s = get(name)
    module = getattr(s.choose, "py_func", s.choose).__module__
    text = _SOURCE.format(name=name, module=module, par=param_row(name).tolist())
    play_on_function()
    drive_function()
    with inlining(STRATEGY_INLINING):
        return generated_module(f"play._search_{name}", f"search_{name}.py", text)


def seat_function(spec: str):
    """The first-class function the engine calls for a ``search`` seat of ``spec``."""
    par = param_row(spec)
    return rollout_module(SR.ROLLOUTS[int(par[SR.P_ROLLOUT])]).search
