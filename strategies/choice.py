"""How the heuristics pick among scored rows, shared so every rung breaks ties and carries a
whole move across a decision's two halves the same way: exact ties are broken uniformly with
the seat's noise stream (reservoir sampling: one draw per tie, so skipping a row that could
not have tied changes nothing), and a move chosen whole at its first half (which piece) is
remembered in ``mem`` for the destination decision that follows in the same turn.

``whole_move`` is the one loop that decides a movement point whole; each rung hands it its own
compiled scorers (numba compiles the loop once per set of functions passed, so the calls stay
direct and inline like the loop's own code).
"""
from numba import njit

from simulator.jit import hot
from simulator.rng import randint
from simulator.state import D_MOVE, MV_BOAT, MV_STOP, TURN
from strategies.queries import Q_END, boat_moves, explorer_moves

C_PLAN = Q_END             # the destination decision's kind a whole move was chosen for
C_PLAN_TURN = C_PLAN + 1   # ... the turn it was chosen in
C_PLAN_ROW = C_PLAN_TURN + 1   # ... and its row, C_PLAN_ROW .. +3
C_END = C_PLAN_ROW + 4


def inlined(fn):
    """``hot``, and inlined into its callers by numba itself (not only by LLVM): for the
    functions that take a rung's compiled functions as arguments. A function passed as a value
    is compiled in as its address in this process, which numba's disk cache refuses ("dynamic
    globals") unless the value is optimised away -- as it is once the body is part of the
    caller and every call through the argument is a direct call."""
    return njit(cache=True, _nrt=False, inline="always")(fn)


@hot
def tally(s, k, best, pick, ties, rng):
    """Keep row ``k`` (score ``s``) if it beats the best so far; exact ties are broken
    uniformly with the seat's noise stream (reservoir sampling)."""
    if s > best + 1e-9:
        return s, k, 1
    if s > best - 1e-9:
        ties += 1
        if randint(rng, 0, ties) == 0:
            pick = k
    return best, pick, ties


@hot
def remember(pub, opts, kb, dest_kind, mem):
    """Keep row ``kb`` for the destination decision ``dest_kind`` of this turn."""
    mem[C_PLAN] = dest_kind
    mem[C_PLAN_TURN] = pub[TURN]
    for j in range(4):
        mem[C_PLAN_ROW + j] = opts[kb, j]


@hot
def plan(pub, opts, n, kb, dest_kind, mem):
    """Remember the whole move of row ``kb`` and return the piece row (among the first ``n``)
    it belongs to: the destination decision that follows takes the remembered row."""
    remember(pub, opts, kb, dest_kind, mem)
    for j in range(n):
        if opts[j, 0] == opts[kb, 0] and opts[j, 1] == opts[kb, 1]:
            return j
    return 0


@hot
def planned(pub, kind, opts, n, mem):
    """The row remembered by ``plan`` for this destination decision, or -1. (A plan can be
    left over: the engine does not ask a decision with a single option.)"""
    if mem[C_PLAN] != kind or mem[C_PLAN_TURN] != pub[TURN]:
        return -1
    mem[C_PLAN] = -1.0
    for k in range(n):
        if (opts[k, 0] == mem[C_PLAN_ROW] and opts[k, 1] == mem[C_PLAN_ROW + 1]
                and opts[k, 2] == mem[C_PLAN_ROW + 2] and opts[k, 3] == mem[C_PLAN_ROW + 3]):
            return k
    return -1


@inlined
def whole_move(pub, mine, seat, opts, n, rng, mem, work, ctx, boat_piece, boat_score,
               explorer_piece, explorer_score):
    """A movement point decided whole: each piece row ``opts[1:n]`` has its moves listed past
    the piece rows in turn (the rules' own enumerators) and scored, and the best move is
    remembered for the destination decision; returns the piece row. Stop, the first row,
    scores 0. The rung's scorers (``strategies.scores`` has greedy's):

    * ``boat_piece`` / ``explorer_piece(pub, mine, seat, i, mem, ctx)`` -> ``(worth, here,
      bound)``: once per piece, what it is worth, its potential where it stands and an upper
      bound on the score of any of its moves;
    * ``boat_score`` / ``explorer_score(pub, mine, seat, mem, work, ctx, i, worth, here, dest,
      via)`` -> the score of one move;

    ``ctx`` is the rung's own tuple of numbers, handed to every scorer. A piece is skipped when
    its bound falls short of the best so far by more than the tie margin: none of its rows
    could have won or drawn a tie, so the choice and the noise stream are those of scoring
    every row (rows are visited in the order of ``rules.move_rows``)."""
    best = 0.0                                       # stop, the first row, scores 0
    pick = 0
    ties = 1
    opts[n, 0] = MV_STOP
    opts[n, 1] = -1
    opts[n, 2] = -1
    opts[n, 3] = -1
    remember(pub, opts, n, D_MOVE, mem)
    for j in range(1, n):
        i = opts[j, 1]
        if opts[j, 0] == MV_BOAT:
            worth, here, top = boat_piece(pub, mine, seat, i, mem, ctx)
            if top < best - 1e-9:
                continue
            m = boat_moves(pub, seat, i, opts, n)
            for k in range(n, m):
                s = boat_score(pub, mine, seat, mem, work, ctx, i, worth, here, opts[k, 2],
                               opts[k, 3])
                best, won, ties = tally(s, k, best, -1, ties, rng)
                if won == k:
                    pick = j
                    remember(pub, opts, k, D_MOVE, mem)
        else:                                        # our own explorer (R17)
            worth, here, top = explorer_piece(pub, mine, seat, i, mem, ctx)
            if top < best - 1e-9:
                continue
            m = explorer_moves(pub, i, opts, n, True)
            for k in range(n, m):
                s = explorer_score(pub, mine, seat, mem, work, ctx, i, worth, here, opts[k, 2],
                                   opts[k, 3])
                best, won, ties = tally(s, k, best, -1, ties, rng)
                if won == k:
                    pick = j
                    remember(pub, opts, k, D_MOVE, mem)
    return pick
