"""``greedy``: a one-step heuristic that scores every legal option and takes the best.

The score of a position for one explorer is its *potential*: 100 on a safe isle, less the
movement points it still needs to get there (a hex swum counts ``swim``, triple by default: a
swimmer covers one hex a turn), less ``risk`` times the danger from creatures that could reach
it with one die move. Moves are chosen by the change in potential of the seat's own explorers,
weighted by their values; sinking and creature moves are chosen to hurt opponents, the leader
(most explorers rescued) most, and to spare our own. The position's features (potential,
danger maps kept in ``mem`` and updated only for the creatures that moved) are the shared
``strategies.queries``, the scores of every option ``strategies.scores``; the weights
(``PARAMS``: risk, greed, malice, guard, swim) are copied into ``mem`` at each decision.

This module is how a decision is taken with those scores -- a whole move or a whole die move
at its first half, then the remembered row -- and ``rung`` is that decision with a rung's own
weights and its own answers for some kinds: ``careful``, ``racer``, ``saboteur`` and
``lookahead`` are built on it.
"""
from simulator.jit import hot
from simulator.state import (
    CH_DIVE,
    CHALLENGES,
    D_CREATURE,
    D_CREATURE_PIECE,
    D_MOVE,
    D_MOVE_PIECE,
    D_PICK_EXPLORER,
    D_PLACE_BOAT,
    D_PLACE_EXPLORER,
    D_PLACE_SQUID,
    D_PLAY_TILE,
    D_SINK,
    D_TILE_DEST,
    L_LAND,
    L_SEA,
    MUST_MOVE,
    SQUID_ON,
    WHALE,
)
from strategies.api import Param
from strategies.choice import C_PLAN, inlined, plan, planned, remember, tally, whole_move
from strategies.queries import (
    Q_DECISION,
    creature_can_move,
    creature_moves,
    danger_maps,
    die_reach,
    list_exposed,
    list_own_land,
    piece_hex,
    threat_to_own,
    tile_rows,
)
from strategies.scores import (
    M_END,
    M_GUARD,
    M_LAST_START,
    M_PIECE_KEY,
    M_SINKV,
    M_SWIMV,
    best_row,
    boat_gain,
    boat_piece,
    explorer_gain,
    explorer_piece,
    hex_losses,
    land_victims,
    row_score,
    set_weights,
    victims,
)

NAME = "greedy"
CODE = 1
DESCRIPTION = ("one-step lookahead: moves by the change in its explorers' potential, sinks and "
               "creatures against the leader")
PARAMS = (
    Param("risk", 1.0, 0.0, 10.0, "weight of creature danger in an explorer's potential"),
    Param("greed", 1.0, 0.0, 5.0, "weight of our own explorers against others' when attacking, "
          "sinking or playing tiles"),
    Param("malice", 1.0, 0.0, 10.0, "weight of hurting other players (the leader most)"),
    Param("guard", 3.0, 0.0, 20.0, "weight of moving creatures away from our swimmers and boats"),
    Param("swim", 3.0, 1.0, 6.0, "movement points a hex swum counts in an explorer's potential"),
)
MEM_W = M_END


# ============================================================================ whole moves
@hot
def best_move(pub, mine, seat, opts, n, rng, mem, work):
    """A movement point decided whole with greedy's scorers (``choice.whole_move``): most of
    greedy's work."""
    return whole_move(pub, mine, seat, opts, n, rng, mem, work, (), boat_piece, boat_gain,
                      explorer_piece, explorer_gain)


@hot
def best_die_move(pub, mine, seat, opts, n, rng, mem, work):
    """The die move decided whole at its first half: each listed piece's moves are listed
    past the piece rows in turn (a dive-dice D offers every unoccupied hex to each of up to 37
    pieces, more than the option table holds at once), scored, and the best row remembered
    for the destination decision (as ``choice.plan`` does). A serpent, shark or whale is scored
    as ``row_score`` does, with the threat where it stands counted once per piece."""
    best = -1e18
    pick = 0
    ties = 0
    for j in range(n):
        a = opts[j, 0]
        must = pub[MUST_MOVE] != 0 and creature_can_move(pub, a, opts[j, 1])
        m = creature_moves(pub, work, a, opts[j, 1], die_reach(pub, a), must, opts, n)
        start = piece_hex(pub, a, opts[j, 1])
        threat = threat_to_own(mem, a, start) if a <= WHALE and start >= 0 else 0.0
        for k in range(n, m):
            c = opts[k, 2]
            if a > WHALE:                            # dolphin, squid, empty boat
                s = row_score(pub, mine, seat, D_CREATURE, opts, k, mem)
            elif c == start:
                s = 0.0
            else:                                    # row_score's sum, the start's threat kept
                change = 0.0 if threat == 0.0 else threat - threat_to_own(mem, a, c)
                s = victims(pub, mine, seat, a, c, mem) + mem[M_GUARD] * change
            best, won, ties = tally(s, k, best, -1, ties, rng)
            if won == k:
                pick = j
                remember(pub, opts, k, D_CREATURE, mem)
    return pick


# ============================================================================ a decision
@hot
def begin(pub, kind, opts, n, mem):
    """Start a decision: the row remembered for this destination decision (a whole move chosen
    at its first half), or -1 after counting a new decision."""
    if kind == D_MOVE or kind == D_CREATURE or kind == D_TILE_DEST:
        k = planned(pub, kind, opts, n, mem)
        if k >= 0:
            return k
    mem[C_PLAN] = -1.0
    mem[Q_DECISION] += 1.0
    return -1


@hot
def is_setup(kind):
    return kind == D_PICK_EXPLORER or kind == D_PLACE_EXPLORER or kind == D_PLACE_BOAT


@hot
def prepare(pub, mine, seat, kind, mem):
    """The per-decision caches the scores of a (non-setup) decision of ``kind`` read."""
    danger_maps(pub, mem)
    mem[M_LAST_START] = -1.0
    mem[M_PIECE_KEY] = -1.0
    if kind == D_MOVE or kind == D_MOVE_PIECE or kind == D_PLAY_TILE:
        list_own_land(pub, seat, mem)
    if kind == D_CREATURE or kind == D_CREATURE_PIECE or kind == D_PLAY_TILE \
            or kind == D_TILE_DEST:
        list_exposed(pub, seat, mem)
    if kind == D_CREATURE or kind == D_CREATURE_PIECE:
        hex_losses(pub, mine, seat, L_SEA, 10.0, M_SWIMV, mem)    # eaten by a creature
        if pub[CHALLENGES] & CH_DIVE:
            list_own_land(pub, seat, mem)              # empty boats move by the dive dice
    if pub[SQUID_ON] != 0 and (kind == D_CREATURE_PIECE or kind == D_CREATURE or kind == D_PLAY_TILE
                               or kind == D_TILE_DEST or kind == D_PLACE_SQUID):
        land_victims(pub, mine, seat, mem)
    if kind == D_SINK:
        hex_losses(pub, mine, seat, L_LAND, 8.0, M_SINKV, mem)    # the tile sinks under them


@hot
def finish(pub, mine, seat, kind, opts, n, rng, mem, work):
    """The best-scoring option of a prepared decision."""
    if kind == D_MOVE_PIECE:
        return best_move(pub, mine, seat, opts, n, rng, mem, work)
    if kind == D_CREATURE_PIECE:
        return best_die_move(pub, mine, seat, opts, n, rng, mem, work)
    if kind == D_PLAY_TILE:
        m = tile_rows(pub, work, seat, mine, opts, n)
        k = best_row(pub, mine, seat, D_PLAY_TILE, opts, n, m, rng, mem)
        return plan(pub, opts, n, k, D_TILE_DEST, mem)
    return best_row(pub, mine, seat, kind, opts, 0, n, rng, mem)


@inlined
def rung(pub, mine, seat, kind, opts, n, rng, mem, work, par, weigh, own):
    """A decision of a rung built on greedy's scores (greedy's own included): the row
    remembered for a destination decision (``begin``); else the rung's weights written by
    ``weigh(pub, seat, kind, mem, par)`` -- after ``begin`` has counted the decision, which
    stamps per-decision tables such as saboteur's standings -- and the setup rows scored, or
    the per-decision caches made and the answer taken from the rung's ``own(pub, mine, seat,
    kind, opts, n, rng, mem, work, par)`` for the kinds it decides its own way (-1 for the
    others: greedy's ``finish``)."""
    k = begin(pub, kind, opts, n, mem)
    if k >= 0:
        return k
    weigh(pub, seat, kind, mem, par)
    if is_setup(kind):
        return best_row(pub, mine, seat, kind, opts, 0, n, rng, mem)   # setup: own pieces only
    prepare(pub, mine, seat, kind, mem)
    k = own(pub, mine, seat, kind, opts, n, rng, mem, work, par)
    if k >= 0:
        return k
    return finish(pub, mine, seat, kind, opts, n, rng, mem, work)


@hot
def _weigh(pub, seat, kind, mem, par):
    set_weights(mem, par[0], par[1], par[2], par[3], par[4])


@hot
def _kept(pub, seat, kind, mem, par):
    """The weights already in ``mem``."""


@hot
def _no_own(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return -1                                        # every kind by greedy's scores


@hot
def decide(pub, mine, seat, kind, opts, n, rng, mem, work):
    """greedy's answer under the weights in ``mem`` (``set_weights``); for plug-ins."""
    return rung(pub, mine, seat, kind, opts, n, rng, mem, work, mem, _kept, _no_own)  # par unused


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    """The best-scoring option. A decision the engine asks in two halves (which piece, then
    where) is decided whole at the first half: every move of every piece is listed past the
    legal rows with the rules' own enumerators (``work`` is their search scratch), scored at
    once, and the destination decision that follows takes the remembered row."""
    return rung(pub, mine, seat, kind, opts, n, rng, mem, work, par, _weigh, _no_own)
