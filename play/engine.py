"""The game loop and its entry points: one game from the seeds to the per-game record, a block
of games in parallel (``run_games``), one game with its event log (``replay_game``).

``play_game`` drives one complete game over the flat state ``S``; every choice goes to the seat's
strategy through ``decisions.ask`` with the legal options the rules (``simulator.rules``)
enumerated, every chance outcome comes from the game's own random streams. ``run_games`` plays a
block of games in parallel; game ``i`` depends only on (root seed, i, settings), so results never
depend on threads or chunking. With ``log_on`` the game also writes one event row per decision or
chance outcome, and a copy of the state after it, which ``play.record`` turns into the replay log.

The compiled game, bottom to top: ``layout`` (the shared array layouts), ``decisions`` (``ask``,
``log_event``), ``setup`` (B4), ``reactions`` (end checks, dolphins' and the squid's choices),
``steps`` (the turn, B5), then this module. The rules' functions are called through their modules
(``MV.put_boat``: numba resolves a module's attribute when it compiles); constants are imported by
name, because numba types a global integer as a literal and a call passes that on (``ask(...,
D_SINK, ...)`` is compiled for that decision kind, as ``simulator/jit.py`` describes), while a
module's attribute would be a plain int64 and change what is compiled.
"""
import numpy as np
from numba import njit, prange, types

from simulator.jit import ENGINE_INLINING, hot, inlining
from simulator.rng import seed_streams
from simulator.rules import paths as PA
from simulator.rules.layout import W_PATH, W_SIZE
from simulator.state import (
    BACKS_REMOVED,
    BONUS_MOVES,
    CH_EQUAL,
    CHALLENGES,
    DOLPHINS_PLACED,
    END_REASON,
    END_SEAT,
    EX_FATE,
    EX_LOC,
    EX_VALUE,
    L_OFF,
    L_SAFE,
    MAX_EX,
    MAX_OPTS,
    MAX_SEATS,
    N_BACKS,
    N_PLAYERS,
    N_SEATS,
    N_STREAMS,
    OPT_W,
    OVER,
    SLOTS,
    SQUID_PLACED,
    STATE_SIZE,
    TURN,
    TURNS,
)
from strategies import seat_call
from strategies.dispatch import MEM_W, PAR0

from .decisions import log_event
from .layout import (
    C_BAD_KIND,
    C_BAD_SEAT,
    C_ERR,
    C_LOG,
    C_NEV,
    CTX_W,
    EV_END,
    EV_LAYOUT,
    EV_W,
    R_BACKS,
    R_SEAT0,
    REC_SEAT,
    REC_W,
)
from .journal import PHASE_SETUP, begin
from .setup import new_game, place_pieces
from .steps import play_turn, strand_the_rest

_RS = len(REC_SEAT)


@hot
def play_game(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, root, game):
    """One complete game, from the seeds to the final position."""
    seed_streams(rng, root, game)
    PA.reset_work(W)
    new_game(S, st, rng)
    log_event(S, ctx, ev, snaps, EV_LAYOUT, -1, 0, 0, 0, 0, 0, 0, 0)
    begin(S, st, rng, W, PHASE_SETUP)
    path = W[W_PATH:W_PATH + 3]
    place_pieces(S, st, rng, ctx, mem, W, fns, opts, ev, snaps)
    while S[OVER] == 0 and ctx[C_ERR] == 0:
        play_turn(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps)
    strand_the_rest(S)
    log_event(S, ctx, ev, snaps, EV_END, S[END_SEAT], S[END_REASON], 0, 0, 0, 0, 0, 0)


@hot
def write_record(S, row):
    """The per-game row (names in ``REC_GAME``/``REC_SEAT``); absent seats are -1."""
    nseats = S[N_SEATS]
    equal = (S[CHALLENGES] & CH_EQUAL) != 0
    for i in range(row.shape[0]):
        row[i] = -1
    row[0] = S[N_PLAYERS]
    row[1] = nseats
    row[2] = S[END_REASON]
    row[3] = S[END_SEAT]
    row[4] = S[TURN]
    total = 0
    for b in range(N_BACKS):
        row[R_BACKS + b] = S[BACKS_REMOVED + b]
        total += S[BACKS_REMOVED + b]
    row[5] = total
    row[6] = S[BONUS_MOVES]
    row[7] = S[DOLPHINS_PLACED]
    row[8] = S[SQUID_PLACED]
    for s in range(nseats):
        base = R_SEAT0 + s * _RS
        for i in range(_RS):
            row[base + i] = 0
        row[base + 4] = S[TURNS + s]
    for e in range(MAX_EX):
        s = e // SLOTS
        if s >= nseats or S[EX_LOC + e] == L_OFF:
            continue
        base = R_SEAT0 + s * _RS
        fate = S[EX_FATE + e]
        if S[EX_LOC + e] == L_SAFE:
            row[base + 0] += 1 if equal else S[EX_VALUE + e]     # X2.3: every explorer is 1
            row[base + 1] += 1
            row[base + 2] += S[EX_VALUE + e]
        elif fate > 0:
            row[base + 3] += 1
            row[base + 4 + fate] += 1     # lost_serpent .. lost_stranded follow F_* order


@hot
def start_memory(mem, par):
    """A seat's float row at the start of a game: zero scratch, then its parameters."""
    for s in range(MAX_SEATS):
        for i in range(PAR0):
            mem[s, i] = 0.0
        for i in range(par.shape[1]):
            mem[s, PAR0 + i] = par[s, i]


RUN_BLOCK = 32                    # games per parallel work item (scratch allocated once)


def play_games(st, par, fns, root, first, lo, hi, out, err, ev, snaps, S, log):
    """Play games ``first+lo .. first+hi-1`` of root seed ``root`` into ``out`` rows ``lo..hi-1``,
    each seat with its parameters ``par`` (6 x PAR_W) and, for a seat outside the switch, its
    function in ``fns``; ``err`` gets (code, decision kind, seat) per game. With ``log`` the
    games write the event log into ``ev``/``snaps``. ``S`` is the state (the last game's final
    position). Returns the number of events written. Compiled by ``game_function``."""
    rng = np.empty(N_STREAMS, np.uint64)
    ctx = np.zeros(CTX_W, np.int64)
    ctx[C_LOG] = log
    mem = np.empty((MAX_SEATS, MEM_W), np.float64)
    W = np.empty(W_SIZE, np.int32)
    opts = np.empty((MAX_OPTS, OPT_W), np.int32)
    for j in range(lo, hi):
        ctx[C_ERR] = 0
        start_memory(mem, par)
        play_game(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, root, first + j)
        write_record(S, out[j])
        err[j, 0] = ctx[C_ERR]
        err[j, 1] = ctx[C_BAD_KIND]
        err[j, 2] = ctx[C_BAD_SEAT]
    return ctx[C_NEV]


def _game_signature():
    i32, i64 = types.int32, types.int64

    def arr(dtype, ndim):
        return types.Array(dtype, ndim, "C")
    fns = types.UniTuple(types.FunctionType(seat_call.signature()), 6)
    return i64(arr(i64, 1), arr(types.float64, 2), fns, i64, i64, i64, i64, arr(i32, 2),
               arr(i64, 2), arr(i32, 2), arr(i32, 2), arr(i32, 1), i64)


_GAMES = []


def game_function():
    """``play_games`` compiled, once per process (from numba's disk cache after the first
    time). Both entry points reach the game code through it, as a first-class function: numba
    otherwise links the whole game, every strategy included, into each caller and optimises and
    compiles it again there -- five times for ``run_games`` (its parallel loop is four LLVM
    modules) and ``replay_game``."""
    if not _GAMES:
        with inlining(ENGINE_INLINING):
            _GAMES.append(njit(_game_signature(), cache=True, nogil=True)(play_games))
    return _GAMES[0]


@njit(cache=True, parallel=True, nogil=True)
def _run_blocks(st, par, fns, games, root, first, count, out, err):
    nblocks = (count + RUN_BLOCK - 1) // RUN_BLOCK
    for blk in prange(nblocks):
        S = np.empty(STATE_SIZE, np.int32)
        ev = np.empty((1, EV_W), np.int32)
        snaps = np.empty((1, 1), np.int32)
        games[0](st, par, fns, root, first, np.int64(blk * RUN_BLOCK),
                 np.int64(min(count, (blk + 1) * RUN_BLOCK)), out, err, ev, snaps, S, np.int64(0))


def run_games(st, par, fns, root, first, count, out, err):
    """Play games ``first .. first+count-1`` of root seed ``root`` into ``out`` rows, each seat
    with its parameters ``par`` (6 x PAR_W) and, for a plug-in seat, its function in ``fns``.
    ``err`` gets (code, decision kind, seat) per game. Work is handed out in blocks of
    ``RUN_BLOCK`` games that share scratch arrays; every game starts from its own seeds, so the
    blocking never changes a result. The GIL is released while it runs, so a sweep writes one
    chunk while the next one plays (only one Python thread may call it at a time: numba's
    parallel pool is not re-entrant)."""
    _run_blocks(st, par, fns, (game_function(),), root, first, count, out, err)


def replay_game(st, par, fns, root, game, ev, snaps, S):
    """Play one game with the event log on; returns (events written, error code, and the
    decision kind and seat of a plug-in's bad answer)."""
    out = np.empty((1, REC_W), np.int32)
    err = np.zeros((1, 3), np.int64)
    n = game_function()(st, par, fns, root, game, np.int64(0), np.int64(1), out, err, ev, snaps,
                        S, np.int64(1))
    return int(n), int(err[0, 0]), int(err[0, 1]), int(err[0, 2])
