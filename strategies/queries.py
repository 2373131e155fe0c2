"""The compiled questions heuristics ask about a position, in one place, so every rung asks them
the same way (and a fix reaches all of them): how far an explorer is from safety and what it is
worth there (its *potential*), which creatures can reach a hex with one die move (the danger
maps), where our explorers stand, whether a boat has room, how far each seat leads, what a tile
sunk now may turn out to be (from public counts only) -- plus the ``simulator.rules`` queries
strategies use, re-exported.

Answers that would cost a pass over the pieces per option are cached in the seat's ``mem``
row, in the block ``Q_*`` below, which every heuristic built on these queries keeps at the
start of its ``mem`` (its own cells follow from ``Q_END``). Two weights live there too
(``Q_RISK``, ``Q_SWIM_COST``): the strategy writes its parameters into them at each decision,
so one potential serves every rung with its own weights (x * 1.0 is exact: greedy's defaults
give greedy's old numbers bit for bit).
"""
from simulator.board import (
    ACCESS_ISLE,
    BALL,
    BALL_N,
    DIST_TO_ACCESS,
    HEX_DIST,
    N_HEX,
    N_NEIGHBOURS,
    NEIGHBOURS,
)
from simulator.jit import hot
from simulator.rules import (    # re-exported: the rules' own queries
    boat_moves,
    boat_occupied,
    controls,
    creature_can_move,
    creature_moves,
    die_reach,
    explorer_moves,
    free_dolphin,
    piece_hex,
    reach,
    tile_rows,
    unoccupied_sea,
    unprotected_swimmers,
)
from simulator.state import (
    B_BOAT,
    B_DEFEND_SHARK,
    B_DOLPHIN,
    B_SHARK,
    B_VOLCANO,
    B_WHALE,
    B_WHIRLPOOL,
    B_WIND,
    BACK_COUNTS,
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    CH_ATLANTIS_GONE,
    CH_DIVE,
    CH_LEAVE_NONE,
    CHALLENGES,
    CR_HEX,
    CR_SLOTS,
    CR_SUPPLY,
    DOLPHINS_PLACED,
    EX_AT,
    EX_LOC,
    EX_SEAT,
    EX_SWAM,
    HAND_TERRAIN,
    HEX_BOAT,
    HEX_TERRAIN,
    KIND_COUNT,
    L_BOAT,
    L_LAND,
    L_SAFE,
    L_SEA,
    MAX_SEATS,
    N_TERRAIN,
    SERPENT,
    SHARK,
    SLOTS,
    SQUID_ONLY,
    TERRAIN_LEFT,
    WHALE,
)

REEXPORTED = (boat_moves, boat_occupied, controls, creature_can_move, creature_moves, die_reach,
              explorer_moves, free_dolphin, piece_hex, reach, tile_rows, unoccupied_sea,
              unprotected_swimmers)

SAFE_POT = 100.0           # potential of an explorer on a safe isle
ROOM = 3                   # a boat holds three explorers (B6.3)

# mem block shared by the heuristics (float64 cells of the seat's row)
Q_DECISION = 0             # decisions taken so far (stamps the per-decision caches)
Q_RISK = 1                 # weight of creature danger in a potential (a strategy parameter)
Q_SWIM_COST = 2            # movement points a hex swum counts (a swimmer covers one a turn)
Q_STAMP = 3                # 1 once the danger maps were computed (for the hexes in Q_CR)
Q_SWIM = 4                 # danger to a swimmer in each hex
Q_BOAT = Q_SWIM + N_HEX    # danger to an occupied boat in each hex
Q_CR = Q_BOAT + N_HEX      # the creature hexes the danger maps were computed for
Q_N_OWN = Q_CR + 5 * CR_SLOTS   # how many of our explorers stand on land (this decision)
Q_OWN = Q_N_OWN + 1             # ... and their hexes
Q_N_EXP = Q_OWN + SLOTS         # how many of our explorers are exposed (swimming or in a boat)
Q_EXP_HEX = Q_N_EXP + 1         # ... their hexes
Q_EXP_SWIM = Q_EXP_HEX + SLOTS  # ... 1 for a swimmer, 0 for a passenger
Q_NEAR = Q_EXP_SWIM + SLOTS     # per hex: decision * 16 + distance to our nearest explorer on
                                # land, computed when first needed in a decision
Q_LEAD_DECISION = Q_NEAR + N_HEX  # the decision Q_LEAD was counted for
Q_LEAD = Q_LEAD_DECISION + 1      # per seat: how much hurting it is worth (1 + rescued)
Q_END = Q_LEAD + MAX_SEATS


# ============================================================================ creature danger
@hot
def reach_of(kind):
    """Hexes a serpent, shark or whale covers with one die move (B6.8-B6.10)."""
    return 1 if kind == SERPENT else (2 if kind == SHARK else 3)


@hot
def _mark(mem, region, c, steps, centre, near):
    """Add ``centre`` danger at hex ``c`` and ``near`` danger within ``steps`` of it."""
    mem[region + c] += centre
    for j in range(1, BALL_N[c, steps]):
        mem[region + BALL[c, j]] += near


@hot
def _mark_piece(mem, i, c, sign):
    """Add (``sign`` = 1) or take away (-1) the danger of creature slot ``i`` at hex ``c``:
    serpents threaten swimmers and boats, sharks swimmers, whales boats."""
    kind = i // CR_SLOTS
    if c < 0 or kind > WHALE:
        return
    if kind == SERPENT:
        _mark(mem, Q_SWIM, c, 1, sign * 100.0, sign * 12.0)
        _mark(mem, Q_BOAT, c, 1, sign * 100.0, sign * 12.0)
    elif kind == SHARK:
        _mark(mem, Q_SWIM, c, 2, sign * 100.0, sign * 12.0)
    else:
        _mark(mem, Q_BOAT, c, 3, sign * 40.0, sign * 6.0)


@hot
def danger_maps(pub, mem):
    """Danger per hex from creatures one die move away (distance ignores land: a bound), in
    ``mem[Q_SWIM:]`` (to a swimmer) and ``mem[Q_BOAT:]`` (to an occupied boat). Kept up to date
    piece by piece: only a creature that moved since the last decision is taken away and
    marked again (every danger is a whole number, so the sums are exact and equal to marking
    all creatures afresh)."""
    if mem[Q_STAMP] != 1.0:
        mem[Q_STAMP] = 1.0
        for i in range(2 * N_HEX):
            mem[Q_SWIM + i] = 0.0
        for i in range(5 * CR_SLOTS):
            c = pub[CR_HEX + i]
            mem[Q_CR + i] = c
            _mark_piece(mem, i, c, 1.0)
        return
    for i in range(5 * CR_SLOTS):
        c = pub[CR_HEX + i]
        old = int(mem[Q_CR + i])
        if c != old:
            _mark_piece(mem, i, old, -1.0)
            _mark_piece(mem, i, c, 1.0)
            mem[Q_CR + i] = c


@hot
def in_reach(mem, h, swimmer):
    """A creature can reach hex ``h`` with one die move and attack a swimmer (or a boat) there
    (the danger maps must be current)."""
    return mem[(Q_SWIM if swimmer else Q_BOAT) + h] > 0.0


@hot
def attackers(pub, h, swimmer):
    """How many serpents, sharks (swimmers) or whales (boats) are within one die move of hex
    ``h`` (distance ignores land: a bound), counted from the pieces."""
    n = 0
    for i in range(3 * CR_SLOTS):
        c = pub[CR_HEX + i]
        kind = i // CR_SLOTS
        if c < 0 or (swimmer and kind == WHALE) or (not swimmer and kind == SHARK):
            continue
        n += HEX_DIST[c, h] <= reach_of(kind)
    return n


# ============================================================================ potential
@hot
def potential(pub, mem, loc, h):
    """Potential of one explorer at a location (``h`` = hex, or the isle code when safe): 100
    on a safe isle, less 10 per movement point still needed (a hex swum counts
    ``Q_SWIM_COST``), less ``Q_RISK`` times the danger where it stands."""
    if loc == L_SAFE or h >= N_HEX:
        return SAFE_POT
    if loc == L_BOAT:
        return SAFE_POT - 10.0 * (DIST_TO_ACCESS[h] + 1) - mem[Q_BOAT + h] * mem[Q_RISK]
    if loc == L_SEA:
        return (SAFE_POT - 10.0 * (mem[Q_SWIM_COST] * DIST_TO_ACCESS[h] + 1)
                - mem[Q_SWIM + h] * mem[Q_RISK])
    if loc == L_LAND:
        return SAFE_POT - 10.0 * (DIST_TO_ACCESS[h] + 2) - 6.0 + 2.0 * pub[HEX_TERRAIN + h]
    return 0.0


@hot
def best_step(pub, mem, e):
    """The highest potential one movement point can give explorer ``e`` with danger left out
    (danger only lowers a potential; a dolphin at most gives it back): an upper bound used to
    skip pieces. A neighbour is at most one hex nearer an access hex."""
    loc = pub[EX_LOC + e]
    at = pub[EX_AT + e]
    swim = mem[Q_SWIM_COST]
    if loc == L_LAND:                     # a neighbouring boat with room, land or sea
        top = -1e18
        for j in range(N_NEIGHBOURS[at]):
            x = NEIGHBOURS[at, j]
            b = pub[HEX_BOAT + x]
            d = DIST_TO_ACCESS[x]
            if b >= 0 and pub[BOAT_N + b] < ROOM:
                v = SAFE_POT - 10.0 * (d + 1)
            elif pub[HEX_TERRAIN + x] >= 0:
                v = SAFE_POT - 10.0 * (d + 2) - 6.0 + 2.0 * pub[HEX_TERRAIN + x]
            else:
                v = SAFE_POT - 10.0 * (swim * d + 1)
            top = v if v > top else top
        return top
    if loc == L_BOAT:                     # an isle, a neighbouring boat with room, the sea
        hb = pub[BOAT_HEX + at]
        if ACCESS_ISLE[hb] >= 0:
            return SAFE_POT
        top = SAFE_POT - 10.0 * (swim * DIST_TO_ACCESS[hb] + 1)
        for j in range(N_NEIGHBOURS[hb]):
            x = NEIGHBOURS[hb, j]
            b = pub[HEX_BOAT + x]
            if b >= 0 and pub[BOAT_N + b] < ROOM:
                v = SAFE_POT - 10.0 * (DIST_TO_ACCESS[x] + 1)
                top = v if v > top else top
        return top
    d = DIST_TO_ACCESS[at]
    if pub[EX_SWAM + e] != 0:             # a swimmer that swam: only the boat here
        return SAFE_POT - 10.0 * (d + 1)
    if ACCESS_ISLE[at] >= 0:              # ... else also an isle or a sea hex
        return SAFE_POT
    return SAFE_POT - 10.0 * (min(swim * max(d - 1, 0), d) + 1)


# ============================================================================ boats and seats
@hot
def has_room(pub, b):
    """Boat ``b`` has room for one more explorer."""
    return pub[BOAT_N + b] < ROOM


@hot
def own_aboard(pub, seat, b):
    """How many of ``seat``'s explorers are in boat ``b``."""
    n = 0
    for j in range(pub[BOAT_N + b]):
        n += pub[EX_SEAT + pub[BOAT_P + 3 * b + j]] == seat
    return n


@hot
def rescued(pub, s):
    """Explorers seat ``s`` has on safe isles (public)."""
    n = 0
    for slot in range(SLOTS):
        n += pub[EX_LOC + s * SLOTS + slot] == L_SAFE
    return n


@hot
def afloat(pub, s):
    """Explorers seat ``s`` has in boats (public: the ones closest to being rescued)."""
    n = 0
    for slot in range(SLOTS):
        n += pub[EX_LOC + s * SLOTS + slot] == L_BOAT
    return n


@hot
def lead(pub, s, mem):
    """1 + explorers seat ``s`` has rescued: the weight of hurting it (the leader suffers
    most). Counted once per decision, when first needed; a strategy may fill ``Q_LEAD`` with
    its own weights and stamp ``Q_LEAD_DECISION`` itself."""
    if mem[Q_LEAD_DECISION] != mem[Q_DECISION]:
        mem[Q_LEAD_DECISION] = mem[Q_DECISION]
        for x in range(MAX_SEATS):
            n = 1.0
            for slot in range(SLOTS):
                if pub[EX_LOC + x * SLOTS + slot] == L_SAFE:
                    n += 1.0
            mem[Q_LEAD + x] = n
    return mem[Q_LEAD + s]


# ============================================================================ our own explorers
@hot
def list_own_land(pub, seat, mem):
    """Note the hexes of our explorers on land once per decision (the empty-boat score)."""
    n = 0
    for slot in range(SLOTS):
        e = seat * SLOTS + slot
        if pub[EX_LOC + e] == L_LAND:
            mem[Q_OWN + n] = pub[EX_AT + e]
            n += 1
    mem[Q_N_OWN] = n


@hot
def near_own_land(mem, h):
    """Distance from hex ``h`` to the nearest of our explorers on land (9 if none), cached per
    decision: many empty-boat moves share their hexes."""
    stamp = mem[Q_DECISION] * 16.0
    cached = mem[Q_NEAR + h]
    if cached >= stamp:
        return cached - stamp
    best = 9.0
    for j in range(int(mem[Q_N_OWN])):
        d = HEX_DIST[h, int(mem[Q_OWN + j])]
        if d < best:
            best = d
    mem[Q_NEAR + h] = stamp + best
    return best


@hot
def list_exposed(pub, seat, mem):
    """Note once per decision where our swimmers and passengers are (creature threats)."""
    n = 0
    for slot in range(SLOTS):
        e = seat * SLOTS + slot
        loc = pub[EX_LOC + e]
        if loc == L_SEA or loc == L_BOAT:
            at = pub[EX_AT + e]
            mem[Q_EXP_HEX + n] = at if loc == L_SEA else pub[BOAT_HEX + at]
            mem[Q_EXP_SWIM + n] = 1.0 if loc == L_SEA else 0.0
            n += 1
    mem[Q_N_EXP] = n


@hot
def threat_to_own(mem, kind, c):
    """How many of our exposed explorers a creature of ``kind`` at hex ``c`` threatens (the
    list made by ``list_exposed``)."""
    steps = reach_of(kind)
    t = 0.0
    for j in range(int(mem[Q_N_EXP])):
        swimmer = mem[Q_EXP_SWIM + j] == 1.0
        if (swimmer and kind == WHALE) or (not swimmer and kind == SHARK):
            continue
        if HEX_DIST[c, int(mem[Q_EXP_HEX + j])] <= steps:
            t += 1.0
    return t


@hot
def threat_to_seat(pub, s, kind, c):
    """How many of seat ``s``'s swimmers and passengers a creature of ``kind`` at hex ``c``
    threatens (public: any seat's pieces)."""
    steps = reach_of(kind)
    t = 0
    for slot in range(SLOTS):
        e = s * SLOTS + slot
        loc = pub[EX_LOC + e]
        if loc == L_SEA and kind != WHALE:
            t += HEX_DIST[c, pub[EX_AT + e]] <= steps
        elif loc == L_BOAT and kind != SHARK:
            t += HEX_DIST[c, pub[BOAT_HEX + pub[EX_AT + e]]] <= steps
    return t


# ============================================================================ a sunk tile's back
# what a sunk tile's back does at once (``back_odds``, in this order)
SUNK_SHARK, SUNK_WHALE, SUNK_BOAT, SUNK_WHIRL, SUNK_DOLPHIN, SUNK_NONE = range(6)


@hot
def revealed(pub, kind, back, t):
    """Tiles of ``back`` revealed from terrain ``t``: every piece of ``kind`` out of the supply
    came from one (the pieces match the tiles, B1.3-B1.4, X5.2), and every tile of a lower
    terrain is gone (B5.5)."""
    out = 0
    for k in range(KIND_COUNT[kind]):
        out += pub[CR_HEX + kind * CR_SLOTS + k] != CR_SUPPLY
    for lower in range(t):
        out -= BACK_COUNTS[back, lower]
    return min(max(out, 0), BACK_COUNTS[back, t])


@hot
def back_odds(pub, t):
    """The odds of what a tile of terrain ``t`` does when sunk, from public counts only: the
    shark and whale tiles left are known exactly (their pieces on the table; the dolphin's too
    with the dive dice); the rest split as the terrain's other tiles do, the red ones less
    those seen going into hands (``HAND_TERRAIN``). A volcano ends the game the same way
    whichever tile sinks (left out) unless a challenge makes it a whirlpool (X2.2, X2.4).
    Returns the odds of ``SUNK_SHARK`` ... ``SUNK_NONE``, in that order."""
    left = pub[TERRAIN_LEFT + t]
    dive = (pub[CHALLENGES] & CH_DIVE) != 0
    shark = BACK_COUNTS[B_SHARK, t] - revealed(pub, SHARK, B_SHARK, t)
    whale = 0
    red = 0
    for b in range(B_WIND, B_DEFEND_SHARK + 2):      # wind, move and defend tiles
        red += BACK_COUNTS[b, t]
    if pub[SQUID_ONLY] != 0:
        red += BACK_COUNTS[B_WHALE, t]               # X7.6: no whale comes (its squid aside)
    else:
        whale = BACK_COUNTS[B_WHALE, t] - revealed(pub, WHALE, B_WHALE, t)
    dolphin = 0
    if dive:
        dolphin = BACK_COUNTS[B_DOLPHIN, t]
        for lower in range(t):
            dolphin += BACK_COUNTS[B_DOLPHIN, lower]
        dolphin = min(max(dolphin - pub[DOLPHINS_PLACED], 0), BACK_COUNTS[B_DOLPHIN, t])
    else:
        red += BACK_COUNTS[B_DOLPHIN, t]
    for s in range(MAX_SEATS):
        red -= pub[HAND_TERRAIN + s * N_TERRAIN + t]
    red = max(red, 0)
    boat = BACK_COUNTS[B_BOAT, t]
    whirl = BACK_COUNTS[B_WHIRLPOOL, t]
    volcano = BACK_COUNTS[B_VOLCANO, t]
    rest = max(left - shark - whale - dolphin, 0)
    other = boat + whirl + volcano + red
    if left <= 0 or other == 0:
        return shark / max(left, 1), whale / max(left, 1), 0.0, 0.0, dolphin / max(left, 1), 0.0
    f = rest / (other * left)
    if pub[CHALLENGES] & (CH_LEAVE_NONE | CH_ATLANTIS_GONE):
        whirl += volcano
    return shark / left, whale / left, boat * f, whirl * f, dolphin / left, red * f
