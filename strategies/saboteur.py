"""``saboteur``: sinks tiles under the leader and sends creatures after it.

Why it plays differently from ``greedy``: it judges who leads from public information only
(explorers rescued, plus half of those in boats: never anyone's values, RULES R11), and every
loss it can inflict is weighed ``malice`` times greedy's weight (4 by default), the leading
player's ``spite`` times more than the others' -- so the tile it sinks, the creature it moves
and the red tile it plays go against the leader first, and its own explorers count only
``greed`` (half) as much against that. When no one can be eaten at once, a creature is moved
to bring the leader's swimmers and boats within its next die move (``pursue`` per explorer).
Its own movement points are greedy's (under greedy's weights: with the harm weights a shared
boat carrying the leader's explorers would be steered into danger, sinking its own with it).
"""
from simulator.board import N_HEX
from simulator.jit import hot
from simulator.state import (
    D_CREATURE,
    D_CREATURE_PIECE,
    D_MOVE,
    D_MOVE_PIECE,
    MAX_SEATS,
    MUST_MOVE,
    PLAYER_OF,
    WHALE,
)
from strategies.api import Param
from strategies.choice import remember, tally
from strategies.greedy import is_setup, rung
from strategies.queries import (
    Q_DECISION,
    Q_LEAD,
    Q_LEAD_DECISION,
    afloat,
    creature_can_move,
    creature_moves,
    die_reach,
    piece_hex,
    rescued,
    threat_to_own,
    threat_to_seat,
)
from strategies.scores import M_END, M_GUARD, row_score, set_weights, victims

NAME = "saboteur"
CODE = 4
DESCRIPTION = ("sinks tiles under the leader and sends creatures after it (the leader judged "
               "from rescues and boats, public only)")
PARAMS = (
    Param("malice", 4.0, 0.0, 10.0, "weight of hurting other players (greedy: 1)"),
    Param("spite", 3.0, 1.0, 10.0, "how many times more the leader's losses count"),
    Param("pursue", 6.0, 0.0, 50.0, "weight of bringing a creature within reach of the "
          "leader's swimmers and boats"),
    Param("greed", 0.5, 0.0, 5.0, "weight of our own explorers against the harm we do"),
)
M_LEADER = M_END              # the leading seat of this decision (-1: none)
MEM_W = M_LEADER + 1


@hot
def _standings(pub, seat, mem, spite):
    """Fill the per-seat weights greedy's ``scores.value`` reads (``queries.lead``) for this
    decision: 1 + rescued + half the explorers afloat, times ``spite`` for the leading seat(s)
    of the other players; note the first leading seat."""
    top = -1.0
    leader = -1
    for s in range(MAX_SEATS):
        st = rescued(pub, s) + 0.5 * afloat(pub, s)
        mem[Q_LEAD + s] = 1.0 + st
        if pub[PLAYER_OF + s] != pub[PLAYER_OF + seat] and st > top:
            top = st
            leader = s
    for s in range(MAX_SEATS):
        if pub[PLAYER_OF + s] != pub[PLAYER_OF + seat] and mem[Q_LEAD + s] == 1.0 + top:
            mem[Q_LEAD + s] *= spite
    mem[Q_LEAD_DECISION] = mem[Q_DECISION]
    mem[M_LEADER] = leader


@hot
def _creature(pub, mine, seat, opts, n, rng, mem, work, pursue):
    """The die move decided whole (as ``greedy.best_die_move``), a serpent, shark or whale
    also scored by how many of the leader's explorers it threatens after the move, less
    before."""
    leader = int(mem[M_LEADER])
    best = -1e18
    pick = 0
    ties = 0
    for j in range(n):
        a = opts[j, 0]
        must = pub[MUST_MOVE] != 0 and creature_can_move(pub, a, opts[j, 1])
        m = creature_moves(pub, work, a, opts[j, 1], die_reach(pub, a), must, opts, n)
        start = piece_hex(pub, a, opts[j, 1])
        threat = 0.0
        before = 0.0
        if a <= WHALE and start >= 0:
            threat = threat_to_own(mem, a, start)
            if leader >= 0:
                before = float(threat_to_seat(pub, leader, a, start))
        for k in range(n, m):
            c = opts[k, 2]
            if a > WHALE:                            # dolphin, squid, empty boat
                s = row_score(pub, mine, seat, D_CREATURE, opts, k, mem)
            elif c == start:
                s = 0.0
            else:
                change = 0.0 if threat == 0.0 else threat - threat_to_own(mem, a, c)
                s = victims(pub, mine, seat, a, c, mem) + mem[M_GUARD] * change
                if leader >= 0 and c < N_HEX:
                    s += pursue * (threat_to_seat(pub, leader, a, c) - before)
            best, won, ties = tally(s, k, best, -1, ties, rng)
            if won == k:
                pick = j
                remember(pub, opts, k, D_CREATURE, mem)
    return pick


@hot
def _weigh(pub, seat, kind, mem, par):
    if is_setup(kind) or kind == D_MOVE_PIECE or kind == D_MOVE:
        set_weights(mem, 1.0, 1.0, 1.0, 3.0, 3.0)          # moving: greedy's own weights
    else:
        set_weights(mem, 1.0, par[3], par[0], 3.0, 3.0)
        _standings(pub, seat, mem, par[1])


@hot
def _own(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    if kind == D_CREATURE_PIECE:
        return _creature(pub, mine, seat, opts, n, rng, mem, work, par[2])
    return -1


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return rung(pub, mine, seat, kind, opts, n, rng, mem, work, par, _weigh, _own)
