"""greedy's scores: what each option of each decision is worth to a seat, under the weights in
``mem``. ``greedy`` plays them with its own parameters; ``careful``, ``racer``, ``saboteur`` and
``lookahead`` write their own weights (``set_weights``) and reuse them, so a fix reaches every
rung. The position's features (potential, danger maps) are ``strategies.queries``; what this
module adds is what a piece, an explorer or a hex is *worth*: ours by value, the other colour
of a two-player seat by the mean value, other players' negatively (hurting them helps), the
leader's most.

* ``row_score`` / ``best_row`` -- every decision kind row by row (each kind has its own short
  scoring function, so the per-option work stays small enough for the compiler to inline);
* ``boat_piece``, ``explorer_piece``, ``boat_gain``, ``explorer_gain`` -- a movement point's
  scorers for ``choice.whole_move`` (a piece's worth, potential and bound, then each move);
* ``hex_losses``, ``land_victims`` -- per-hex tables made once per decision (``greedy.prepare``).
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
    CH_EQUAL,
    CHALLENGES,
    CR_HEX,
    CR_SLOTS,
    D_BOARD,
    D_CREATURE,
    D_DEFEND,
    D_MOVE,
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
    MV_BOAT,
    MV_STOP,
    P_VALUE,
    PK_BOAT,
    PLAYER_OF,
    SERPENT,
    SHARK,
    SLOTS,
    SQUID,
    SWIM_WITH_DOLPHIN,
    VIA_SWITCH,
    WHALE,
)
from strategies.choice import C_END, tally
from strategies.queries import (
    Q_N_OWN,
    Q_RISK,
    Q_SWIM,
    Q_SWIM_COST,
    SAFE_POT,
    best_step,
    free_dolphin,
    lead,
    near_own_land,
    piece_hex,
    potential,
    threat_to_own,
    unoccupied_sea,
)

OTHER_VALUE = 2.8          # mean explorer value: other players' values are secret (R11)
# mem layout (float64 per seat): the shared queries' block, the plans (``choice``), then the
# cells of these scores (a rung built on them puts its own cells after ``M_END``)
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
def own_value(pub, mine, slot):
    """What our explorer in ``slot`` scores: its value, or 1 under Everyone is Equal (X2.3)."""
    if pub[CHALLENGES] & CH_EQUAL:
        return 1.0
    return float(mine[P_VALUE + slot])


@hot
def value(pub, mine, seat, e, mem):
    """What explorer ``e`` is worth to ``seat``: its value if ours, the mean value for our other
    colour (2 players), and a negative weight for other players' (hurting them helps)."""
    s = pub[EX_SEAT + e]
    if s == seat:
        return own_value(pub, mine, e % SLOTS) * mem[M_GREED]
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
def hex_losses(pub, mine, seat, loc, weight, region, mem):
    """Per hex, what losing the explorers standing there at ``loc`` is worth to ``seat``
    (``-weight`` times each one's ``value``: ours a loss, the leader's a gain), into
    ``mem[region:region + N_HEX]``. One pass over the explorers per decision instead of one per
    option scored: the same sums, added in the same (explorer) order."""
    for h in range(N_HEX):
        mem[region + h] = 0.0
    for e in range(MAX_EX):
        if pub[EX_LOC + e] == loc:
            h = pub[EX_AT + e]
            mem[region + h] -= weight * value(pub, mine, seat, e, mem)


@hot
def victims(pub, mine, seat, kind, h, mem):
    """Score for ``seat`` of a creature of ``kind`` attacking hex ``h`` (positive = good); the
    swimmers' part comes from the ``M_SWIMV`` table (``hex_losses``)."""
    score = 0.0
    if kind == SHARK or kind == SERPENT:
        score = mem[M_SWIMV + h]
    b = pub[HEX_BOAT + h]
    if (kind == WHALE or kind == SERPENT) and b >= 0:
        w = 10.0 if kind == SERPENT else 5.0
        for j in range(pub[BOAT_N + b]):
            score -= w * value(pub, mine, seat, pub[BOAT_P + 3 * b + j], mem)
    return score


@hot
def land_victims(pub, mine, seat, mem):
    """Note per land hex the best explorer for a squid to take there (``_squid_score``), once
    per decision: one pass over the explorers instead of one per hex scored."""
    for h in range(N_HEX):
        mem[M_LANDV + h] = -1e18
    for e in range(MAX_EX):
        if pub[EX_LOC + e] == L_LAND:
            h = pub[EX_AT + e]
            v = -10.0 * value(pub, mine, seat, e, mem)
            if v > mem[M_LANDV + h]:
                mem[M_LANDV + h] = v


@hot
def _squid_score(pub, mine, seat, h, mem):
    """A squid ending in hex ``h`` must remove one explorer (X7.4): the best removal for us --
    an opponent's, the leader's first -- or 0 when there is none to remove. The land part
    comes from ``land_victims``."""
    best = -1e18
    for i in range(N_NEIGHBOURS[h]):
        v = mem[M_LANDV + NEIGHBOURS[h, i]]
        best = v if v > best else best
    b = pub[HEX_BOAT + h]
    if b >= 0:
        for j in range(pub[BOAT_N + b]):
            v = -10.0 * value(pub, mine, seat, pub[BOAT_P + 3 * b + j], mem)
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
        gain = 10.0 * value(pub, mine, seat, via - VIA_SWITCH, mem)
    elif dest == start:
        return 0.0
    else:
        gain = 0.0
        for e in range(MAX_EX if pub[HEX_NSWIM + dest] > 0 else 0):
            if pub[EX_LOC + e] == L_SEA and pub[EX_AT + e] == dest and pub[EX_PROT + e] < 0:
                v = 10.0 * value(pub, mine, seat, e, mem)
                gain = v if v > gain else gain
    if cur >= 0:
        danger = pub[HEX_NCR + SERPENT * N_HEX + start] + pub[HEX_NCR + SHARK * N_HEX + start]
        gain -= value(pub, mine, seat, cur, mem) * (10.0 + (100.0 if danger > 0 else 0.0))
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
                worth += value(pub, mine, seat, pub[BOAT_P + 3 * i + j], mem)
            mem[M_PIECE_A] = worth
            mem[M_PIECE_B] = potential(pub, mem, L_BOAT, pub[BOAT_HEX + i])
        return mem[M_PIECE_A] * (potential(pub, mem, L_BOAT, dest) - mem[M_PIECE_B])
    if mem[M_PIECE_KEY] != key:                  # our own explorer (R17)
        mem[M_PIECE_KEY] = key
        loc = pub[EX_LOC + i]
        at = pub[EX_AT + i]
        mem[M_PIECE_A] = own_value(pub, mine, i % SLOTS)
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
            s += own_value(pub, mine, e % SLOTS)
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
        return value(pub, mine, seat, piece, mem) * (new - now) - 20.0
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
def row_score(pub, mine, seat, kind, opts, k, mem):
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
        return (victims(pub, mine, seat, a, c, mem)
                + mem[M_GUARD] * _threat_change(pub, seat, a, start, c, mem))
    if kind == D_PICK_EXPLORER:
        return own_value(pub, mine, a)                   # the most valuable first
    if kind == D_PLACE_EXPLORER:
        h = opts[k, 1]
        return own_value(pub, mine, a) * (20.0 - DIST_TO_ACCESS[h] + 1.5 * pub[HEX_TERRAIN + h])
    if kind == D_PLACE_BOAT:
        return _score_place_boat(pub, mine, seat, a)
    if kind == D_SINK:
        return mem[M_SINKV + a]
    if kind == D_PLAY_TILE or kind == D_TILE_DEST:
        return _score_tile(pub, mine, seat, mem, a, opts[k, 1], opts[k, 2], opts[k, 3])
    if kind == D_PROTECT:
        return value(pub, mine, seat, a, mem)
    if kind == D_PLACE_SQUID:
        return _squid_score(pub, mine, seat, a, mem)
    if kind == D_SQUID_VICTIM:
        return -value(pub, mine, seat, a, mem)
    if kind == D_DEFEND:
        return float(a)                              # always save our swimmers / boat
    if kind == D_BOARD:
        return value(pub, mine, seat, a, mem)
    return 0.0


@hot
def best_row(pub, mine, seat, kind, opts, lo, hi, rng, mem):
    """Index of the best-scoring row of ``opts[lo:hi]``; exact ties are broken uniformly with
    the seat's noise stream."""
    best = -1e18
    pick = lo
    ties = 0
    for k in range(lo, hi):
        s = row_score(pub, mine, seat, kind, opts, k, mem)
        best, pick, ties = tally(s, k, best, pick, ties, rng)
    return pick


# ============================================================================ a movement point
# The scorers ``choice.whole_move`` takes: ``*_piece(pub, mine, seat, i, mem, ctx)`` -> what the
# piece is worth, its potential where it stands, and an upper bound on the score of any of its
# moves; ``*_gain(pub, mine, seat, mem, work, ctx, i, worth, here, dest, via)`` -> one move's
# score. ``ctx`` is the rung's tuple of numbers (greedy's is empty).
@hot
def explorer_here(pub, mine, e, mem):
    """What our explorer ``e`` is worth and its potential where it stands (a swimmer with a
    dolphin, X5.5, fears no serpent or shark)."""
    loc = pub[EX_LOC + e]
    at = pub[EX_AT + e]
    here = potential(pub, mem, loc, pub[BOAT_HEX + at] if loc == L_BOAT else at)
    if loc == L_SEA and pub[EX_PROT + e] >= 0:
        here += mem[Q_SWIM + at] * mem[Q_RISK]
    return own_value(pub, mine, e % SLOTS), here


@hot
def explorer_piece(pub, mine, seat, e, mem, ctx):
    """``explorer_here``, and the bound: its worth times the best potential one movement
    point can give it (``queries.best_step``), less where it stands."""
    worth, here = explorer_here(pub, mine, e, mem)
    return worth, here, worth * (best_step(pub, mem, e) - here)


@hot
def boat_piece(pub, mine, seat, b, mem, ctx):
    """What moving boat ``b`` a hex is scored against: its passengers' worth and their
    potential where it stands, and an upper bound on the score of any of its moves (a
    neighbour is at most one hex nearer an access hex, or our nearest explorer on land for an
    empty boat; no bound for a boat of other players' explorers, whose worth is negative)."""
    h = pub[BOAT_HEX + b]
    worth = 0.0
    if pub[BOAT_N + b] == 0:             # an empty boat drifts towards our explorers on land
        return worth, 0.0, (1.5 if mem[Q_N_OWN] != 0 else -0.5)
    for j in range(pub[BOAT_N + b]):
        worth += value(pub, mine, seat, pub[BOAT_P + 3 * b + j], mem)
    here = potential(pub, mem, L_BOAT, h)
    if worth < 0.0:
        return worth, here, 1e18
    return worth, here, worth * (SAFE_POT - 10.0 * (max(DIST_TO_ACCESS[h] - 1, 0) + 1) - here)


@hot
def boat_gain(pub, mine, seat, mem, work, ctx, b, worth, here, dest, via):
    """Score of moving boat ``b`` (worth ``worth``, potential ``here``) to ``dest``."""
    if pub[BOAT_N + b] > 0:
        return worth * (potential(pub, mem, L_BOAT, dest) - here)
    if mem[Q_N_OWN] != 0:
        return 2.0 * (near_own_land(mem, pub[BOAT_HEX + b]) - near_own_land(mem, dest)) - 0.5
    return -0.5


@hot
def explorer_gain(pub, mine, seat, mem, work, ctx, e, worth, here, dest, via):
    """Score of moving our explorer ``e`` (worth ``worth``, potential ``here``) to ``dest``."""
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
