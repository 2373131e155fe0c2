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
from simulator.state import D_MOVE_PIECE
from strategies.api import Param
from strategies.choice import whole_move
from strategies.greedy import rung
from strategies.queries import own_aboard
from strategies.scores import (
    M_END,
    boat_gain,
    boat_piece,
    explorer_gain,
    explorer_piece,
    set_weights,
)

NAME = "careful"
CODE = 2
DESCRIPTION = ("greedy with a high price on creature danger: keeps explorers out of reach, "
               "off open water and spread over boats")
PARAMS = (
    Param("risk", 2.5, 0.0, 10.0, "weight of creature danger in a potential (greedy: 1)"),
    Param("spread", 8.0, 0.0, 50.0, "cost of boarding a boat, per explorer of ours aboard"),
    Param("guard", 8.0, 0.0, 20.0, "weight of moving creatures away from our explorers"),
)
MEM_W = M_END           # greedy's cells (strategies.scores)


@hot
def _explorer_score(pub, mine, seat, mem, work, ctx, e, worth, here, dest, via):
    """greedy's score of a move, boarding a boat already carrying our explorers costing
    ``spread`` (``ctx[0]``) each. The penalty only lowers scores, so greedy's bounds still
    skip pieces safely."""
    s = explorer_gain(pub, mine, seat, mem, work, ctx, e, worth, here, dest, via)
    if via >= 0:                                     # boarding boat ``via``
        s -= ctx[0] * own_aboard(pub, seat, via)
    return s


@hot
def _weigh(pub, seat, kind, mem, par):
    set_weights(mem, par[0], 2.0, 0.5, par[2], 4.0)


@hot
def _own(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    if kind == D_MOVE_PIECE:
        return whole_move(pub, mine, seat, opts, n, rng, mem, work, (par[1],), boat_piece,
                          boat_gain, explorer_piece, _explorer_score)
    return -1


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return rung(pub, mine, seat, kind, opts, n, rng, mem, work, par, _weigh, _own)
