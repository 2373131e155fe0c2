"""``careful``: greedy's scores with a high price on danger, so its explorers keep away from
creatures.

Why it plays differently from ``greedy``: creature danger weighs ``risk`` times greedy's in an
explorer's potential (2.5 by default: a hex within a serpent's or shark's die move costs 30, a
whole turn's progress, and the creature's own hex 250, so it avoids ending a movement point
within reach), a hex swum counts four movement points instead of three (it prefers land and
boats to open water), its own explorers count double against hurting others when creatures
move and tiles sink, and moving creatures away from its swimmers and boats weighs ``guard``.
It also spreads its explorers over boats: boarding a boat costs ``spread`` per explorer of ours
already aboard, so one whale or serpent cannot take many at once.
"""
from simulator.jit import hot
from simulator.state import D_MOVE, D_MOVE_PIECE, MV_BOAT, MV_STOP
from strategies import greedy as G
from strategies.api import Param
from strategies.choice import remember, tally
from strategies.queries import best_step, boat_moves, explorer_moves, own_aboard

NAME = "careful"
CODE = 2
DESCRIPTION = ("greedy with a high price on creature danger: keeps explorers out of reach, "
               "off open water and spread over boats")
PARAMS = (
    Param("risk", 2.5, 0.0, 10.0, "weight of creature danger in a potential (greedy: 1)"),
    Param("spread", 8.0, 0.0, 50.0, "cost of boarding a boat, per explorer of ours aboard"),
    Param("guard", 8.0, 0.0, 20.0, "weight of moving creatures away from our explorers"),
)
MEM_W = G.MEM_W


@hot
def _move(pub, mine, seat, opts, n, rng, mem, spread):
    """A movement point decided whole (as ``greedy._best_whole_move``), boarding a boat
    already carrying our explorers costing ``spread`` each. The penalty only lowers scores, so
    greedy's bounds still skip pieces safely."""
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
            worth, here, top = G._boat_here(pub, mine, seat, i, mem)
            if top < best - 1e-9:
                continue
            m = boat_moves(pub, seat, i, opts, n)
            for k in range(n, m):
                s = G._boat_gain(pub, mem, i, worth, here, opts[k, 2])
                best, won, ties = tally(s, k, best, -1, ties, rng)
                if won == k:
                    pick = j
                    remember(pub, opts, k, D_MOVE, mem)
        else:
            worth, here = G._explorer_here(pub, mine, i, mem)
            if worth * (best_step(pub, mem, i) - here) < best - 1e-9:
                continue
            m = explorer_moves(pub, i, opts, n, True)
            for k in range(n, m):
                s = G._explorer_gain(pub, mem, worth, here, opts[k, 2], opts[k, 3])
                if opts[k, 3] >= 0:                  # boarding boat opts[k, 3]
                    s -= spread * own_aboard(pub, seat, opts[k, 3])
                best, won, ties = tally(s, k, best, -1, ties, rng)
                if won == k:
                    pick = j
                    remember(pub, opts, k, D_MOVE, mem)
    return pick


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    G.set_weights(mem, par[0], 2.0, 0.5, par[2], 4.0)
    k = G.begin(pub, kind, opts, n, mem)
    if k >= 0:
        return k
    if G.is_setup(kind):
        return G._best(pub, mine, seat, kind, opts, 0, n, rng, mem)
    G.prepare(pub, mine, seat, kind, mem)
    if kind == D_MOVE_PIECE:
        return _move(pub, mine, seat, opts, n, rng, mem, par[1])
    return G.finish(pub, mine, seat, kind, opts, n, rng, mem, work)
