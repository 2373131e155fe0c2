"""How the heuristics pick among scored rows, shared so every rung breaks ties and carries a
whole move across a decision's two halves the same way: exact ties are broken uniformly with
the seat's noise stream (reservoir sampling: one draw per tie, so skipping a row that could
not have tied changes nothing), and a move chosen whole at its first half (which piece) is
remembered in ``mem`` for the destination decision that follows in the same turn.
"""
from simulator.jit import hot
from simulator.rng import randint
from simulator.state import TURN
from strategies.queries import Q_END

C_PLAN = Q_END             # the destination decision's kind a whole move was chosen for
C_PLAN_TURN = C_PLAN + 1   # ... the turn it was chosen in
C_PLAN_ROW = C_PLAN_TURN + 1   # ... and its row, C_PLAN_ROW .. +3
C_END = C_PLAN_ROW + 4


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
