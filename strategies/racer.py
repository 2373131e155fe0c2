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
    D_MOVE_PIECE,
    EX_SEAT,
    L_BOAT,
    P_VALUE,
    SLOTS,
)
from strategies.api import Param
from strategies.choice import whole_move
from strategies.greedy import rung
from strategies.queries import best_step, potential
from strategies.scores import (
    M_END,
    boat_gain,
    explorer_gain,
    explorer_here,
    set_weights,
    value,
)

NAME = "racer"
CODE = 3
DESCRIPTION = ("races its most valuable explorers home by the shortest way, swimming and "
               "braving creatures")
PARAMS = (
    Param("focus", 2.0, 0.0, 4.0, "an explorer's worth is its value to this power"),
    Param("risk", 0.25, 0.0, 10.0, "weight of creature danger in a potential (greedy: 1)"),
    Param("swim", 2.0, 1.0, 6.0, "movement points a hex swum counts (greedy: 3)"),
)
MEM_W = M_END           # greedy's cells (strategies.scores)


@hot
def worth_of(pub, mine, seat, e, mem, focus):
    """Explorer ``e``'s worth to us: our own by value ** ``focus`` (1 under Everyone is Equal),
    anyone else's as greedy counts it."""
    if pub[EX_SEAT + e] != seat:
        return value(pub, mine, seat, e, mem)
    if pub[CHALLENGES] & CH_EQUAL:
        return 1.0
    return float(mine[P_VALUE + e % SLOTS]) ** focus


# A movement point is decided whole (``choice.whole_move``) with explorers and boats weighed by
# ``worth_of`` (``focus`` = ``ctx[0]``); empty boats drift as greedy's do.
@hot
def boat_piece(pub, mine, seat, b, mem, ctx):
    """Boat ``b``'s passengers' worth and their potential where it stands; no bound (every
    move of a boat is scored)."""
    worth = 0.0
    for q in range(pub[BOAT_N + b]):
        worth += worth_of(pub, mine, seat, pub[BOAT_P + 3 * b + q], mem, ctx[0])
    return worth, potential(pub, mem, L_BOAT, pub[BOAT_HEX + b]), 1e18


@hot
def explorer_piece(pub, mine, seat, e, mem, ctx):
    """Our explorer ``e``'s worth and potential where it stands, and greedy's bound for it."""
    _, here = explorer_here(pub, mine, e, mem)
    worth = worth_of(pub, mine, seat, e, mem, ctx[0])
    return worth, here, worth * (best_step(pub, mem, e) - here)


@hot
def _weigh(pub, seat, kind, mem, par):
    set_weights(mem, par[1], 1.0, 0.5, 1.0, par[2])


@hot
def _own(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    if kind == D_MOVE_PIECE:
        return whole_move(pub, mine, seat, opts, n, rng, mem, work, (par[0],), boat_piece,
                          boat_gain, explorer_piece, explorer_gain)
    return -1


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return rung(pub, mine, seat, kind, opts, n, rng, mem, work, par, _weigh, _own)
