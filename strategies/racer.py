"""``racer``: the fastest way home for its most valuable explorers, danger be damned.

Why it plays differently from ``greedy``: an explorer's worth in a move is its value raised to
``focus`` (2 by default: a 6 counts 36, a 1 counts 1), so its movement points go to the
valuable explorers and to the boats that carry them before anything else; creature danger
weighs only ``risk`` (a quarter of greedy's), and a hex swum counts ``swim`` movement points
(2 instead of greedy's 3), so it jumps into the water and sails past creatures when that is the
short way. It spends little on hurting others (``malice`` 0.5) or guarding (``guard`` 1).
"""
from simulator.jit import hot
from simulator.state import (
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    CH_EQUAL,
    CHALLENGES,
    D_MOVE,
    D_MOVE_PIECE,
    EX_SEAT,
    L_BOAT,
    MV_BOAT,
    MV_STOP,
    P_VALUE,
    SLOTS,
)
from strategies import greedy as G
from strategies.api import Param
from strategies.choice import remember, tally
from strategies.queries import best_step, boat_moves, explorer_moves, potential

NAME = "racer"
CODE = 3
DESCRIPTION = ("races its most valuable explorers home by the shortest way, swimming and "
               "braving creatures")
PARAMS = (
    Param("focus", 2.0, 0.0, 4.0, "an explorer's worth is its value to this power"),
    Param("risk", 0.25, 0.0, 10.0, "weight of creature danger in a potential (greedy: 1)"),
    Param("swim", 2.0, 1.0, 6.0, "movement points a hex swum counts (greedy: 3)"),
)
MEM_W = G.MEM_W


@hot
def _worth(pub, mine, seat, e, mem, focus):
    """Explorer ``e``'s worth to us: our own by value ** ``focus`` (1 under Everyone is Equal),
    anyone else's as greedy counts it."""
    if pub[EX_SEAT + e] != seat:
        return G._value(pub, mine, seat, e, mem)
    if pub[CHALLENGES] & CH_EQUAL:
        return 1.0
    return float(mine[P_VALUE + e % SLOTS]) ** focus


@hot
def _move(pub, mine, seat, opts, n, rng, mem, focus):
    """A movement point decided whole (as ``greedy._best_whole_move``) with explorers and
    boats weighed by ``_worth``; empty boats drift as greedy's do."""
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
            worth = 0.0
            for q in range(pub[BOAT_N + i]):
                worth += _worth(pub, mine, seat, pub[BOAT_P + 3 * i + q], mem, focus)
            here = potential(pub, mem, L_BOAT, pub[BOAT_HEX + i])
            m = boat_moves(pub, seat, i, opts, n)
            for k in range(n, m):
                s = G._boat_gain(pub, mem, i, worth, here, opts[k, 2])
                best, won, ties = tally(s, k, best, -1, ties, rng)
                if won == k:
                    pick = j
                    remember(pub, opts, k, D_MOVE, mem)
        else:
            _, here = G._explorer_here(pub, mine, i, mem)
            worth = _worth(pub, mine, seat, i, mem, focus)
            if worth * (best_step(pub, mem, i) - here) < best - 1e-9:
                continue
            m = explorer_moves(pub, i, opts, n, True)
            for k in range(n, m):
                s = G._explorer_gain(pub, mem, worth, here, opts[k, 2], opts[k, 3])
                best, won, ties = tally(s, k, best, -1, ties, rng)
                if won == k:
                    pick = j
                    remember(pub, opts, k, D_MOVE, mem)
    return pick


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    G.set_weights(mem, par[1], 1.0, 0.5, 1.0, par[2])
    k = G.begin(pub, kind, opts, n, mem)
    if k >= 0:
        return k
    if G.is_setup(kind):
        return G._best(pub, mine, seat, kind, opts, 0, n, rng, mem)
    G.prepare(pub, mine, seat, kind, mem)
    if kind == D_MOVE_PIECE:
        return _move(pub, mine, seat, opts, n, rng, mem, par[0])
    return G.finish(pub, mine, seat, kind, opts, n, rng, mem, work)
