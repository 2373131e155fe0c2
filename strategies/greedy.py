"""``greedy``: a one-step heuristic that scores every legal option and takes the best.

The score of a position for one explorer is its *potential*: 100 on a safe isle, less the
movement points it still needs to get there (a hex swum counts ``swim``, triple by default: a
swimmer covers one hex a turn), less ``risk`` times the danger from creatures that could reach
it with one die move. Moves are chosen by the change in potential of the seat's own explorers,
weighted by their values;
sinking and creature moves are chosen to hurt opponents, the leader (most explorers rescued)
most, and to spare our own. The position's features (potential, danger maps kept in ``mem`` and
updated only for the creatures that moved) are the shared ``strategies.queries``; the weights
(``PARAMS``: risk, greed, malice, guard, swim) are copied into ``mem`` at each decision, so the
rungs built on these scores (``careful``, ``racer``, ``saboteur``) reuse them with their own.

Each decision kind has its own scoring loop, so the per-option work stays small enough for the
compiler to inline (a strategy is called for every decision of millions of games).
"""
from simulator.board import DIST_TO_ACCESS, HEX_DIST, N_HEX, N_NEIGHBOURS, NEIGHBOURS
from simulator.jit import hot
from simulator.state import (
    B_DOLPHIN,
    B_MOVE_SERPENT,
    B_MOVE_WHALE,
    B_WIND,
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    CH_DIVE,
    CH_EQUAL,
    CHALLENGES,
    CR_HEX,
    D_BOARD,
    D_CREATURE,
    D_CREATURE_PIECE,
    D_DEFEND,
    D_MOVE,
    D_MOVE_PIECE,
    D_PICK_EXPLORER,
    D_PLACE_BOAT,
    D_PLACE_EXPLORER,
    D_PLACE_SQUID,
    D_PLAY_TILE,
    D_PROTECT,
    D_SINK,
    D_SQUID_VICTIM,
    D_TILE_DEST,
    DOL_PROT,
    DOLPHIN,
    CR_SLOTS,
    EX_AT,
    EX_LOC,
    EX_PROT,
    EX_SEAT,
    HEX_BOAT,
    HEX_NCR,
    HEX_NSWIM,
    HEX_TERRAIN,
    L_BOAT,
    L_LAND,
    L_SEA,
    MAX_EX,
    MUST_MOVE,
    MV_BOAT,
    MV_STOP,
    P_VALUE,
    PK_BOAT,
    PLAYER_OF,
    SERPENT,
    SHARK,
    SLOTS,
    SQUID,
    SQUID_ON,
    SWIM_WITH_DOLPHIN,
    VIA_SWITCH,
    WHALE,
)
from strategies.api import Param
from strategies.choice import C_END, C_PLAN
from strategies.choice import plan as _plan
from strategies.choice import planned as _planned
from strategies.choice import remember as _remember
from strategies.choice import tally as _tally
from strategies.queries import (
    Q_DECISION,
    Q_N_OWN,
    Q_RISK,
    Q_SWIM,
    Q_SWIM_COST,
    SAFE_POT,
    best_step,
    boat_moves,
    creature_can_move,
    creature_moves,
    danger_maps,
    die_reach,
    explorer_moves,
    free_dolphin,
    lead,
    list_exposed,
    list_own_land,
    near_own_land,
    piece_hex,
    potential,
    threat_to_own,
    tile_rows,
    unoccupied_sea,
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

OTHER_VALUE = 2.8          # mean explorer value: other players' values are secret (R11)
# mem layout (float64 per seat): the shared queries' block, then greedy's own cells
M_GREED = C_END            # weights copied from the parameters at each decision (set_weights):
M_MALICE = M_GREED + 1     # a rung built on greedy's scores writes its own
M_GUARD = M_MALICE + 1
M_LAST_START = M_GUARD + 1      # creature options come grouped by piece: cache its threat
M_LAST_THREAT = M_LAST_START + 1
M_PIECE_KEY = M_LAST_THREAT + 1   # move options come grouped by piece: cache what the piece
M_PIECE_A = M_PIECE_KEY + 1       # is worth (value, or the boat's passengers) and its
M_PIECE_B = M_PIECE_A + 1         # potential where it stands
M_LANDV = M_PIECE_B + 1           # per hex: the best squid removal from the land tile there
                                  # (X7.4), counted once per decision when squid are in play
M_SINKV = M_LANDV + N_HEX         # per hex: what sinking the tile there is worth (step 3)
M_SWIMV = M_SINKV + N_HEX         # per hex: what a serpent or shark eating the swimmers there
                                  # is worth, counted once per creature decision
M_END = M_SWIMV + N_HEX
MEM_W = M_END


@hot
def set_weights(mem, risk, greed, malice, guard, swim):
    """Write the weights the scores read into ``mem`` (greedy's parameters, or a rung's own):
    kept in ``mem`` rather than passed along, so every scoring function -- and every rung
    that reuses them -- reads the same cells."""
    mem[Q_RISK] = risk
    mem[M_GREED] = greed
    mem[M_MALICE] = malice
    mem[M_GUARD] = guard
    mem[Q_SWIM_COST] = swim


# ============================================================================ position features
@hot
def _own(pub, mine, slot):
    """What our explorer in ``slot`` scores: its value, or 1 under Everyone is Equal (X2.3)."""
    if pub[CHALLENGES] & CH_EQUAL:
        return 1.0
    return float(mine[P_VALUE + slot])


@hot
def _value(pub, mine, seat, e, mem):
    """What explorer ``e`` is worth to ``seat``: its value if ours, the mean value for our other
    colour (2 players), and a negative weight for other players' (hurting them helps)."""
    s = pub[EX_SEAT + e]
    if s == seat:
        return _own(pub, mine, e % SLOTS) * mem[M_GREED]
    if pub[PLAYER_OF + s] == pub[PLAYER_OF + seat]:
        return OTHER_VALUE
    return -0.3 * OTHER_VALUE * lead(pub, s, mem) * mem[M_MALICE]


@hot
def _threat_change(pub, seat, kind, start, dest, mem):
    """Threat to our explorers removed by moving a creature from ``start`` to ``dest``."""
    key = kind * 1000.0 + start
    if mem[M_LAST_START] != key:
        mem[M_LAST_START] = key
        mem[M_LAST_THREAT] = threat_to_own(mem, kind, start)
    if mem[M_LAST_THREAT] == 0.0:
        return 0.0
    return mem[M_LAST_THREAT] - threat_to_own(mem, kind, dest)


@hot
def _hex_losses(pub, mine, seat, loc, weight, region, mem):
    """Per hex, what losing the explorers standing there at ``loc`` is worth to ``seat``
    (``-weight`` times each one's ``_value``: ours a loss, the leader's a gain), into
    ``mem[region:region + N_HEX]``. One pass over the explorers per decision instead of one per
    option scored: the same sums, added in the same (explorer) order."""
    for h in range(N_HEX):
        mem[region + h] = 0.0
    for e in range(MAX_EX):
        if pub[EX_LOC + e] == loc:
            h = pub[EX_AT + e]
            mem[region + h] -= weight * _value(pub, mine, seat, e, mem)


@hot
def _victims(pub, mine, seat, kind, h, mem):
    """Score for ``seat`` of a creature of ``kind`` attacking hex ``h`` (positive = good); the
    swimmers' part comes from the ``M_SWIMV`` table (``_hex_losses``)."""
    score = 0.0
    if kind == SHARK or kind == SERPENT:
        score = mem[M_SWIMV + h]
    b = pub[HEX_BOAT + h]
    if (kind == WHALE or kind == SERPENT) and b >= 0:
        w = 10.0 if kind == SERPENT else 5.0
        for j in range(pub[BOAT_N + b]):
            score -= w * _value(pub, mine, seat, pub[BOAT_P + 3 * b + j], mem)
    return score


@hot
def _land_victims(pub, mine, seat, mem):
    """Note per land hex the best explorer for a squid to take there (``_squid_score``), once
    per decision: one pass over the explorers instead of one per hex scored."""
    for h in range(N_HEX):
        mem[M_LANDV + h] = -1e18
    for e in range(MAX_EX):
        if pub[EX_LOC + e] == L_LAND:
            h = pub[EX_AT + e]
            v = -10.0 * _value(pub, mine, seat, e, mem)
            if v > mem[M_LANDV + h]:
                mem[M_LANDV + h] = v


@hot
def _squid_score(pub, mine, seat, h, mem):
    """A squid ending in hex ``h`` must remove one explorer (X7.4): the best removal for us --
    an opponent's, the leader's first -- or 0 when there is none to remove. The land part
    comes from ``_land_victims``."""
    best = -1e18
    for i in range(N_NEIGHBOURS[h]):
        v = mem[M_LANDV + NEIGHBOURS[h, i]]
        best = v if v > best else best
    b = pub[HEX_BOAT + h]
    if b >= 0:
        for j in range(pub[BOAT_N + b]):
            v = -10.0 * _value(pub, mine, seat, pub[BOAT_P + 3 * b + j], mem)
            best = v if v > best else best
    return best if best > -1e17 else 0.0


@hot
def _dolphin_score(pub, mine, seat, slot, dest, via, mem):
    """A dive-dice dolphin move (X5.5-X5.7): worth the swimmer it comes to protect, less the
    one it leaves -- who is eaten at once beside a serpent or shark (which is good news when
    the swimmer is an opponent's)."""
    start = pub[CR_HEX + DOLPHIN * CR_SLOTS + slot]
    cur = pub[DOL_PROT + slot]
    if via >= VIA_SWITCH:
        gain = 10.0 * _value(pub, mine, seat, via - VIA_SWITCH, mem)
    elif dest == start:
        return 0.0
    else:
        gain = 0.0
        for e in range(MAX_EX if pub[HEX_NSWIM + dest] > 0 else 0):
            if pub[EX_LOC + e] == L_SEA and pub[EX_AT + e] == dest and pub[EX_PROT + e] < 0:
                v = 10.0 * _value(pub, mine, seat, e, mem)
                gain = v if v > gain else gain
    if cur >= 0:
        danger = pub[HEX_NCR + SERPENT * N_HEX + start] + pub[HEX_NCR + SHARK * N_HEX + start]
        gain -= _value(pub, mine, seat, cur, mem) * (10.0 + (100.0 if danger > 0 else 0.0))
    return gain


# ============================================================================ option scores
@hot
def _score_move(pub, mine, seat, mem, what, i, dest, boat):
    """Step 2: change in our potential from one movement point."""
    if what == MV_STOP:
        return 0.0
    key = what * 100.0 + i
    if what == MV_BOAT:
        n = pub[BOAT_N + i]
        if n == 0:
            # an empty boat is worth moving towards our own explorers on the coast
            if mem[Q_N_OWN] == 0:
                return -0.5
            if mem[M_PIECE_KEY] != key:
                mem[M_PIECE_KEY] = key
                mem[M_PIECE_A] = near_own_land(mem, pub[BOAT_HEX + i])
            return 2.0 * (mem[M_PIECE_A] - near_own_land(mem, dest)) - 0.5
        if mem[M_PIECE_KEY] != key:
            mem[M_PIECE_KEY] = key
            worth = 0.0
            for j in range(n):
                worth += _value(pub, mine, seat, pub[BOAT_P + 3 * i + j], mem)
            mem[M_PIECE_A] = worth
            mem[M_PIECE_B] = potential(pub, mem, L_BOAT, pub[BOAT_HEX + i])
        return mem[M_PIECE_A] * (potential(pub, mem, L_BOAT, dest) - mem[M_PIECE_B])
    if mem[M_PIECE_KEY] != key:                  # our own explorer (R17)
        mem[M_PIECE_KEY] = key
        loc = pub[EX_LOC + i]
        at = pub[EX_AT + i]
        mem[M_PIECE_A] = _own(pub, mine, i % SLOTS)
        mem[M_PIECE_B] = potential(pub, mem, loc, pub[BOAT_HEX + at] if loc == L_BOAT else at)
    if dest >= N_HEX:
        new = SAFE_POT
    elif boat >= 0:
        new = potential(pub, mem, L_BOAT, dest)
    elif pub[HEX_TERRAIN + dest] >= 0:
        new = potential(pub, mem, L_LAND, dest)
    else:
        new = potential(pub, mem, L_SEA, dest)
    return mem[M_PIECE_A] * (new - mem[M_PIECE_B])


@hot
def _score_place_boat(pub, mine, seat, h):
    s = -0.5 * DIST_TO_ACCESS[h]
    for e in range(seat * SLOTS, seat * SLOTS + SLOTS):       # our explorers next to it
        if pub[EX_LOC + e] == L_LAND and HEX_DIST[h, pub[EX_AT + e]] == 1:
            s += _own(pub, mine, e % SLOTS)
    return s


@hot
def _score_tile(pub, mine, seat, mem, back, piece, dest, kind):
    """Step 1: a red tile is worth playing only for a clear gain (it is gone once played)."""
    if back < 0:
        return 0.0
    if back == B_MOVE_WHALE and kind == SQUID:       # X7.2: the squid attacks where it lands
        if dest >= 0:
            return _squid_score(pub, mine, seat, dest, mem) - 10.0
        best = 0.0
        for h in range(N_HEX):
            if unoccupied_sea(pub, h):
                v = _squid_score(pub, mine, seat, h, mem)
                best = v if v > best else best
        return best - 10.0
    if back == B_DOLPHIN:
        now = potential(pub, mem, L_SEA, pub[EX_AT + piece])
        new = SAFE_POT if dest >= N_HEX else potential(pub, mem, L_SEA, dest)
        return _value(pub, mine, seat, piece, mem) * (new - now) - 20.0
    if back == B_WIND:
        return _score_move(pub, mine, seat, mem, MV_BOAT, piece, dest, -1) - 20.0
    if B_MOVE_SERPENT <= back <= B_MOVE_WHALE:
        kind = back - B_MOVE_SERPENT
        start = pub[CR_HEX + kind * CR_SLOTS + piece]
        if dest < 0:                         # worth playing if it threatens us at all
            return 20.0 * threat_to_own(mem, kind, start) - 10.0
        return 20.0 * _threat_change(pub, seat, kind, start, dest, mem) - 10.0
    return 0.0


@hot
def _score(pub, mine, seat, kind, opts, k, mem):
    a = opts[k, 0]
    if kind == D_MOVE:
        return _score_move(pub, mine, seat, mem, a, opts[k, 1], opts[k, 2], opts[k, 3])
    if kind == D_CREATURE:
        c = opts[k, 2]
        if a == SQUID:
            return _squid_score(pub, mine, seat, c, mem)
        if a == DOLPHIN:
            return _dolphin_score(pub, mine, seat, opts[k, 1], c, opts[k, 3], mem)
        start = piece_hex(pub, a, opts[k, 1])
        if a == PK_BOAT:                 # an empty boat drifts towards our explorers on land
            if mem[Q_N_OWN] == 0:
                return 0.0
            return 2.0 * (near_own_land(mem, start) - near_own_land(mem, c))
        if c == start:
            return 0.0
        return (_victims(pub, mine, seat, a, c, mem)
                + mem[M_GUARD] * _threat_change(pub, seat, a, start, c, mem))
    if kind == D_PICK_EXPLORER:
        return _own(pub, mine, a)                   # the most valuable first
    if kind == D_PLACE_EXPLORER:
        h = opts[k, 1]
        return _own(pub, mine, a) * (20.0 - DIST_TO_ACCESS[h] + 1.5 * pub[HEX_TERRAIN + h])
    if kind == D_PLACE_BOAT:
        return _score_place_boat(pub, mine, seat, a)
    if kind == D_SINK:
        return mem[M_SINKV + a]
    if kind == D_PLAY_TILE or kind == D_TILE_DEST:
        return _score_tile(pub, mine, seat, mem, a, opts[k, 1], opts[k, 2], opts[k, 3])
    if kind == D_PROTECT:
        return _value(pub, mine, seat, a, mem)
    if kind == D_PLACE_SQUID:
        return _squid_score(pub, mine, seat, a, mem)
    if kind == D_SQUID_VICTIM:
        return -_value(pub, mine, seat, a, mem)
    if kind == D_DEFEND:
        return float(a)                              # always save our swimmers / boat
    if kind == D_BOARD:
        return _value(pub, mine, seat, a, mem)
    return 0.0


@hot
def _best(pub, mine, seat, kind, opts, lo, hi, rng, mem):
    """Index of the best-scoring row of ``opts[lo:hi]``; exact ties are broken uniformly with
    the seat's noise stream."""
    best = -1e18
    pick = lo
    ties = 0
    for k in range(lo, hi):
        s = _score(pub, mine, seat, kind, opts, k, mem)
        best, pick, ties = _tally(s, k, best, pick, ties, rng)
    return pick


@hot
def _explorer_here(pub, mine, e, mem):
    """What our explorer ``e`` is worth and its potential where it stands (a swimmer with a
    dolphin, X5.5, fears no serpent or shark)."""
    loc = pub[EX_LOC + e]
    at = pub[EX_AT + e]
    here = potential(pub, mem, loc, pub[BOAT_HEX + at] if loc == L_BOAT else at)
    if loc == L_SEA and pub[EX_PROT + e] >= 0:
        here += mem[Q_SWIM + at] * mem[Q_RISK]
    return _own(pub, mine, e % SLOTS), here


@hot
def _boat_here(pub, mine, seat, b, mem):
    """What moving boat ``b`` a hex is scored against: its passengers' worth and their
    potential where it stands, and an upper bound on the score of any of its moves (a
    neighbour is at most one hex nearer an access hex, or our nearest explorer on land for an
    empty boat; no bound for a boat of other players' explorers, whose worth is negative)."""
    h = pub[BOAT_HEX + b]
    worth = 0.0
    if pub[BOAT_N + b] == 0:             # an empty boat drifts towards our explorers on land
        return worth, 0.0, (1.5 if mem[Q_N_OWN] != 0 else -0.5)
    for j in range(pub[BOAT_N + b]):
        worth += _value(pub, mine, seat, pub[BOAT_P + 3 * b + j], mem)
    here = potential(pub, mem, L_BOAT, h)
    if worth < 0.0:
        return worth, here, 1e18
    return worth, here, worth * (SAFE_POT - 10.0 * (max(DIST_TO_ACCESS[h] - 1, 0) + 1) - here)


@hot
def _boat_gain(pub, mem, b, worth, here, dest):
    """Score of moving boat ``b`` (``_boat_here`` gave ``worth`` and ``here``) to ``dest``."""
    if pub[BOAT_N + b] > 0:
        return worth * (potential(pub, mem, L_BOAT, dest) - here)
    if mem[Q_N_OWN] != 0:
        return 2.0 * (near_own_land(mem, pub[BOAT_HEX + b]) - near_own_land(mem, dest)) - 0.5
    return -0.5


@hot
def _explorer_gain(pub, mem, worth, here, dest, via):
    """Score of moving our explorer (worth ``worth``, potential ``here``) to ``dest``."""
    if dest >= N_HEX:
        new = SAFE_POT
    elif via >= 0:
        new = potential(pub, mem, L_BOAT, dest)
    elif pub[HEX_TERRAIN + dest] >= 0:
        new = potential(pub, mem, L_LAND, dest)
    else:
        new = potential(pub, mem, L_SEA, dest)
        if via == SWIM_WITH_DOLPHIN or (pub[HEX_NCR + DOLPHIN * N_HEX + dest] > 0
                                        and free_dolphin(pub, dest) >= 0):
            new += mem[Q_SWIM + dest] * mem[Q_RISK]
    return worth * (new - here)


@hot
def _best_whole_move(pub, mine, seat, opts, n, rng, mem):
    """A movement point decided whole (most of greedy's work): each piece row ``opts[1:n]``
    has its moves listed past the piece rows in turn and scored, and the best move is
    remembered for the destination decision; returns the piece row. A piece is skipped when
    an upper bound on its scores falls short of the best so far by more than the tie margin:
    none of its rows could have won or drawn a tie, so the choice and the noise stream are
    those of scoring every row (rows are visited in the order of ``rules.move_rows``)."""
    best = 0.0                                       # stop, the first row, scores 0
    pick = 0
    ties = 1
    opts[n, 0] = MV_STOP
    opts[n, 1] = -1
    opts[n, 2] = -1
    opts[n, 3] = -1
    _remember(pub, opts, n, D_MOVE, mem)
    for j in range(1, n):
        i = opts[j, 1]
        if opts[j, 0] == MV_BOAT:
            worth, here, top = _boat_here(pub, mine, seat, i, mem)
            if top < best - 1e-9:
                continue
            m = boat_moves(pub, seat, i, opts, n)
            for k in range(n, m):
                s = _boat_gain(pub, mem, i, worth, here, opts[k, 2])
                best, won, ties = _tally(s, k, best, -1, ties, rng)
                if won == k:
                    pick = j
                    _remember(pub, opts, k, D_MOVE, mem)
        else:                                        # our own explorer (R17)
            worth, here = _explorer_here(pub, mine, i, mem)
            if worth * (best_step(pub, mem, i) - here) < best - 1e-9:
                continue
            m = explorer_moves(pub, i, opts, n, True)
            for k in range(n, m):
                s = _explorer_gain(pub, mem, worth, here, opts[k, 2], opts[k, 3])
                best, won, ties = _tally(s, k, best, -1, ties, rng)
                if won == k:
                    pick = j
                    _remember(pub, opts, k, D_MOVE, mem)
    return pick


@hot
def _best_creature(pub, mine, seat, opts, n, rng, mem, work):
    """The die move decided whole at its first half: each listed piece's moves are listed
    past the piece rows in turn (a dive-dice D offers every unoccupied hex to each of up to 37
    pieces, more than the option table holds at once), scored, and the best row remembered
    for the destination decision (as ``_plan`` does). A serpent, shark or whale is scored
    as ``_score`` does, with the threat where it stands counted once per piece."""
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
                s = _score(pub, mine, seat, D_CREATURE, opts, k, mem)
            elif c == start:
                s = 0.0
            else:                                    # _score's sum, the start's threat kept
                change = 0.0 if threat == 0.0 else threat - threat_to_own(mem, a, c)
                s = _victims(pub, mine, seat, a, c, mem) + mem[M_GUARD] * change
            best, won, ties = _tally(s, k, best, -1, ties, rng)
            if won == k:
                pick = j
                _remember(pub, opts, k, D_CREATURE, mem)
    return pick


@hot
def begin(pub, kind, opts, n, mem):
    """Start a decision: the row remembered for this destination decision (a whole move chosen
    at its first half), or -1 after counting a new decision."""
    if kind == D_MOVE or kind == D_CREATURE or kind == D_TILE_DEST:
        k = _planned(pub, kind, opts, n, mem)
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
        _hex_losses(pub, mine, seat, L_SEA, 10.0, M_SWIMV, mem)    # eaten by a creature
        if pub[CHALLENGES] & CH_DIVE:
            list_own_land(pub, seat, mem)              # empty boats move by the dive dice
    if pub[SQUID_ON] != 0 and (kind == D_CREATURE_PIECE or kind == D_CREATURE or kind == D_PLAY_TILE
                               or kind == D_TILE_DEST or kind == D_PLACE_SQUID):
        _land_victims(pub, mine, seat, mem)
    if kind == D_SINK:
        _hex_losses(pub, mine, seat, L_LAND, 8.0, M_SINKV, mem)    # the tile sinks under them


@hot
def finish(pub, mine, seat, kind, opts, n, rng, mem, work):
    """The best-scoring option of a prepared decision."""
    if kind == D_MOVE_PIECE:
        return _best_whole_move(pub, mine, seat, opts, n, rng, mem)
    if kind == D_CREATURE_PIECE:
        return _best_creature(pub, mine, seat, opts, n, rng, mem, work)
    if kind == D_PLAY_TILE:
        m = tile_rows(pub, work, seat, mine, opts, n)
        k = _best(pub, mine, seat, D_PLAY_TILE, opts, n, m, rng, mem)
        return _plan(pub, opts, n, k, D_TILE_DEST, mem)
    return _best(pub, mine, seat, kind, opts, 0, n, rng, mem)


@hot
def decide(pub, mine, seat, kind, opts, n, rng, mem, work):
    """greedy's answer under the weights in ``mem`` (``set_weights``)."""
    k = begin(pub, kind, opts, n, mem)
    if k >= 0:
        return k
    if is_setup(kind):
        return _best(pub, mine, seat, kind, opts, 0, n, rng, mem)   # setup: own pieces only
    prepare(pub, mine, seat, kind, mem)
    return finish(pub, mine, seat, kind, opts, n, rng, mem, work)


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    """The best-scoring option. A decision the engine asks in two halves (which piece, then
    where) is decided whole at the first half: every move of every piece is listed past the
    legal rows with the rules' own enumerators (``work`` is their search scratch), scored at
    once, and the destination decision that follows takes the remembered row."""
    set_weights(mem, par[0], par[1], par[2], par[3], par[4])
    return decide(pub, mine, seat, kind, opts, n, rng, mem, work)
