"""The rules of the base game as compiled functions over the flat state array ``S``.

Three kinds of function live here, all ``@hot`` (compiled, cached, no reference counting) and
allocation-free:

* *queries*  -- who controls a boat, which hexes a piece may reach (R12), which tiles may sink;
* *options*  -- fill the option table ``opts`` with every legal choice of a decision kind and
  return how many there are (the engine asks a strategy to pick one row);
* *effects*  -- apply one step and resolve its consequences (the at-rest rule B6.7 / R15).

Occupancy arrays (``HEX_*``) are updated incrementally by the few functions that move pieces
(``_ex_leave``, ``_ex_enter``, ``put_boat``, ``put_creature``), so the frequent questions (a boat
here? swimmers? a creature of this kind?) are single lookups rather than scans.
"""
import numpy as np

from simulator.jit import hot

from .board import (
    DENSE_CAP,
    ACCESS_ISLE,
    COAST_HEXES,
    ISLAND_HEXES,
    LAGOON,
    N_HEX,
    N_LOC,
    N_NEIGHBOURS,
    NEIGHBOURS,
)
from .state import (
    B_DEFEND_SHARK,
    B_DEFEND_WHALE,
    B_DOLPHIN,
    B_MOVE_SERPENT,
    B_MOVE_WHALE,
    B_WIND,
    BACKS_REMOVED,
    CH_DENSE,
    CH_DIVE,
    CH_OVERPOP,
    CHALLENGES,
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    CR_GONE,
    CR_HEX,
    CR_SLOTS,
    CR_SUPPLY,
    DIVE_D,
    DOL_PROT,
    DOLPHIN,
    EX_AT,
    EX_FATE,
    EX_LOC,
    EX_PROT,
    EX_SEAT,
    EX_SWAM,
    EX_VALUE,
    F_SERPENT,
    F_NONE,
    F_SHARK,
    F_WHALE,
    F_WHIRLPOOL,
    FACE_STAR,
    HAND_N,
    HAND_TERRAIN,
    HEX_BOAT,
    HEX_NCR,
    HEX_NLAND,
    HEX_NSWIM,
    HEX_TERRAIN,
    KIND_COUNT,
    L_BOAT,
    L_LAND,
    L_LOST,
    L_SAFE,
    L_SEA,
    L_UNPLACED,
    LAGOON_SEA,
    MAX_EX,
    MV_BOAT,
    MV_EXPLORER,
    MV_STOP,
    N_BOATS,
    N_KINDS,
    N_PLAYERS,
    N_TERRAIN,
    P_HAND,
    P_HAND_T,
    PK_BOAT,
    PLAYER_OF,
    PRIV,
    PRIV_W,
    PROTECT_PENDING,
    ROLL_NUMBER,
    SERPENT,
    SHARK,
    SLOTS,
    SQUID,
    SQUID_ON,
    STATE_SIZE,
    SWIM_WITH_DOLPHIN,
    TERRAIN_LEFT,
    TILE_BACK,
    TILES_LEFT,
    VIA_JUMP,
    VIA_SWITCH,
    WHALE,
)

# movers for reach(): how a piece moving several hexes in one go treats each hex (R12)
MT_SERPENT, MT_SHARK, MT_WHALE, MT_SWIMMER, MT_BOAT = 0, 1, 2, 3, 4
MT_DOLPHIN, MT_SQUID, MT_EMPTY_BOAT = 5, 6, 7
# scratch layout of the work array W (int32): BFS distance, parent and queue
W_DIST = 0
W_PARENT = N_LOC
W_QUEUE = 2 * N_LOC
W_MARK = 3 * N_LOC            # search id that last reached each location (no per-search reset)
W_SEARCH = 4 * N_LOC          # id of the current search
# cells below W_ENGINE are search scratch that strategies may also use (through rules queries
# such as ``reach``); the engine's own cells above it survive a question to a strategy
W_ENGINE = W_SEARCH + 1
W_PATH = W_ENGINE             # 3 cells: the path of the current multi-hex move
W_SWIM = W_PATH + 3           # MAX_EX cells: the swimmers a boat tile may take aboard
W_SUNK_N = W_SWIM + MAX_EX    # X6.3: how many explorers stood on the tile that sank ...
W_SUNK = W_SUNK_N + 1         # ... and which (MAX_EX cells)
# a strategy's own room, never read or written by the engine: a whole state's worth of cells
# where a lookahead copies the public table and tries moves with the rules' functions
# (``strategies.lookahead``)
W_LOOK = W_SUNK + MAX_EX
W_SIZE = W_LOOK + STATE_SIZE


# ============================================================================ basic queries
@hot
def boat_occupied(S, h):
    b = S[HEX_BOAT + h]
    return b >= 0 and S[BOAT_N + b] > 0


@hot
def unprotected_swimmers(S, h):
    """Swimmers in hex ``h`` that no dolphin protects (X5.5; every swimmer in the base game)."""
    n = S[HEX_NSWIM + h]
    if n == 0 or S[HEX_NCR + DOLPHIN * N_HEX + h] == 0:
        return n
    for e in range(MAX_EX):
        if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h and S[EX_PROT + e] >= 0:
            n -= 1
    return n


@hot
def same_player(S, a, b):
    return S[PLAYER_OF + a] == S[PLAYER_OF + b]


@hot
def controls(S, seat, b):
    """B6.1: the seat with most explorers aboard controls the boat; tied seats all control it.
    Control is counted per colour (seat), also with 2 players (B4.5). A boat holds at most 3,
    so a seat aboard is outnumbered only when it has 1 of 3 and the other two share a seat."""
    n = S[BOAT_N + b]
    base = BOAT_P + 3 * b
    mine = 0
    for i in range(n):
        mine += np.int64(S[EX_SEAT + S[base + i]] == seat)
    if mine == 0:
        return False
    if mine >= 2 or n < 3:
        return True
    others = 0
    first = -1
    for i in range(3):
        s = S[EX_SEAT + S[base + i]]
        if s != seat:
            if first < 0:
                first = s
            elif s == first:
                others = 2
    return others < 2


@hot
def unoccupied_sea(S, h):
    """B3.8-B3.10 / R19: sea with no boat, no swimmer, no creature of any kind."""
    busy = (S[HEX_TERRAIN + h] >= 0) | (S[HEX_BOAT + h] >= 0) | (S[HEX_NSWIM + h] > 0)
    for kind in range(N_KINDS):
        busy = busy | (S[HEX_NCR + kind * N_HEX + h] > 0)
    return not busy


@hot
def land_next_to(S, h):
    """A land tile is next to hex ``h`` (B4.4, X7.1)."""
    for i in range(N_NEIGHBOURS[h]):
        if S[HEX_TERRAIN + NEIGHBOURS[h, i]] >= 0:
            return True
    return False


@hot
def first_at(S, kind, h):
    """The lowest-numbered creature of ``kind`` in hex ``h``, or -1."""
    for k in range(KIND_COUNT[kind]):
        if S[CR_HEX + kind * CR_SLOTS + k] == h:
            return k
    return -1


@hot
def remove_all_at(S, kind, h):
    """Every creature of ``kind`` in hex ``h`` leaves the game (X7.4: a squid's move removes
    every whale in its hex; X7.5: a whale entering removes every squid there). Returns the
    removed pieces as a bit mask (bit ``k`` = piece ``k``), 0 when there were none."""
    mask = 0
    for k in range(KIND_COUNT[kind]):
        if S[CR_HEX + kind * CR_SLOTS + k] == h:
            put_creature(S, kind, k, CR_GONE)
            mask |= 1 << k
    return mask


@hot
def land_explorers_next_to(S, h):
    """A land tile next to sea hex ``h`` holds explorers (X7.1, X7.3, X7.4)."""
    for i in range(N_NEIGHBOURS[h]):
        x = NEIGHBOURS[h, i]
        if S[HEX_TERRAIN + x] >= 0 and S[HEX_NLAND + x] > 0:
            return True
    return False


# ============================================================================ dolphins (X5)
@hot
def free_dolphin(S, h):
    """Lowest-numbered dolphin in hex ``h`` protecting nobody, or -1 (X5.5)."""
    if h < 0 or h >= N_HEX or S[HEX_NCR + DOLPHIN * N_HEX + h] == 0:
        return -1
    for d in range(KIND_COUNT[DOLPHIN]):
        if S[CR_HEX + DOLPHIN * CR_SLOTS + d] == h and S[DOL_PROT + d] < 0:
            return d
    return -1


@hot
def protect(S, d, e):
    S[DOL_PROT + d] = e
    S[EX_PROT + e] = d


@hot
def release(S, d):
    """Dolphin ``d`` stops protecting its swimmer (it moved away or switched, X5.6, X5.7)."""
    e = S[DOL_PROT + d]
    if e >= 0:
        S[EX_PROT + e] = -1
    S[DOL_PROT + d] = -1


@hot
def arrive(S, e, h):
    """X5.9: a single swimmer comes into hex ``h``: a free dolphin there protects it."""
    d = free_dolphin(S, h)
    if d >= 0:
        protect(S, d, e)


@hot
def _protect_capsized(S, h):
    """X5.9 for the passengers a whale just threw into hex ``h`` (marked ``F_WHALE`` while the
    hex resolves): with enough free dolphins each is protected; with fewer, the acting seat
    chooses -- the hex is left pending (``PROTECT_PENDING``) for the engine to ask. Returns
    True when pending."""
    free = 0
    for d in range(KIND_COUNT[DOLPHIN]):
        free += np.int64((S[CR_HEX + DOLPHIN * CR_SLOTS + d] == h) & (S[DOL_PROT + d] < 0))
    if free == 0:
        return False
    arrived = 0
    for e in range(MAX_EX):
        arrived += np.int64((S[EX_LOC + e] == L_SEA) & (S[EX_AT + e] == h)
                            & (S[EX_FATE + e] == F_WHALE) & (S[EX_PROT + e] < 0))
    if arrived > free:
        S[PROTECT_PENDING] = h
        return True
    for e in range(MAX_EX):
        if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h and S[EX_FATE + e] == F_WHALE:
            arrive(S, e, h)
    return False


@hot
def protect_candidates(S, h, capsized_only, d, opts):
    """Rows ``(e, d, -1, -1)``: the unprotected swimmers in ``h`` dolphin ``d`` may protect
    (only those a whale just threw in, with ``capsized_only``)."""
    n = 0
    for e in range(MAX_EX):
        if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h and S[EX_PROT + e] < 0 and \
                (not capsized_only or S[EX_FATE + e] == F_WHALE):
            n = _add(opts, n, e, d, -1, -1)
    return n


# ============================================================================ squid (X7)
@hot
def options_place_squid(S, opts):
    """X7.1 / R19: an unoccupied sea hex next to a land tile."""
    n = 0
    for h in range(N_HEX):
        if unoccupied_sea(S, h) and land_next_to(S, h):
            n = _add(opts, n, h, -1, -1, -1)
    return n


@hot
def squid_victims(S, h, opts):
    """X7.1 / X7.4: rows ``(e, -1, -1, -1)`` for each explorer a squid in hex ``h`` may remove:
    those on land tiles next to it and the passengers of an occupied boat in its hex."""
    n = 0
    for i in range(N_NEIGHBOURS[h]):
        x = NEIGHBOURS[h, i]
        if S[HEX_TERRAIN + x] >= 0 and S[HEX_NLAND + x] > 0:
            for e in range(MAX_EX):
                if S[EX_LOC + e] == L_LAND and S[EX_AT + e] == x:
                    n = _add(opts, n, e, -1, -1, -1)
    b = S[HEX_BOAT + h]
    if b >= 0:
        for j in range(S[BOAT_N + b]):
            n = _add(opts, n, S[BOAT_P + 3 * b + j], -1, -1, -1)
    return n


# ============================================================================ piece movement
@hot
def _boat_drop(S, b, e):
    n = S[BOAT_N + b]
    base = BOAT_P + 3 * b
    j = 0
    for i in range(n):
        x = S[base + i]
        if x != e:
            S[base + j] = x
            j += 1
    S[base + n - 1] = -1
    S[BOAT_N + b] = n - 1


@hot
def _ex_leave(S, e):
    """Take explorer ``e`` out of its place, keeping the occupancy counts right."""
    loc = S[EX_LOC + e]
    at = S[EX_AT + e]
    if loc == L_LAND:
        S[HEX_NLAND + at] -= 1
    elif loc == L_SEA:
        S[HEX_NSWIM + at] -= 1
        d = S[EX_PROT + e]
        if d >= 0:                       # a swimmer leaving its dolphin loses the protection
            S[DOL_PROT + d] = -1
            S[EX_PROT + e] = -1
    elif loc == L_BOAT:
        _boat_drop(S, at, e)


@hot
def _ex_enter(S, e, loc, at):
    S[EX_LOC + e] = loc
    S[EX_AT + e] = at
    if loc == L_LAND:
        S[HEX_NLAND + at] += 1
    elif loc == L_SEA:
        S[HEX_NSWIM + at] += 1
    elif loc == L_BOAT:
        S[BOAT_P + 3 * at + S[BOAT_N + at]] = e
        S[BOAT_N + at] += 1


@hot
def place_explorer(S, e, loc, at):
    _ex_leave(S, e)
    _ex_enter(S, e, loc, at)


@hot
def kill(S, e, fate):
    _ex_leave(S, e)
    S[EX_LOC + e] = L_LOST
    S[EX_AT + e] = -1
    S[EX_FATE + e] = fate


@hot
def put_boat(S, b, h):
    """Move boat ``b`` to hex ``h`` (``-1`` = back to the supply, R5). No resolution."""
    old = S[BOAT_HEX + b]
    if old >= 0:
        S[HEX_BOAT + old] = -1
    S[BOAT_HEX + b] = h
    if h >= 0:
        S[HEX_BOAT + h] = b


@hot
def put_creature(S, kind, slot, h):
    """Move a creature to hex ``h`` (or CR_SUPPLY / CR_GONE). No resolution."""
    i = CR_HEX + kind * CR_SLOTS + slot
    old = S[i]
    if old >= 0:
        S[HEX_NCR + kind * N_HEX + old] -= 1
    S[i] = h
    if h >= 0:
        S[HEX_NCR + kind * N_HEX + h] += 1


@hot
def supply_slot(S, kind):
    """Lowest-numbered creature of ``kind`` in the supply, or -1 (B3: supply limits)."""
    for k in range(KIND_COUNT[kind]):
        if S[CR_HEX + kind * CR_SLOTS + k] == CR_SUPPLY:
            return k
    return -1


@hot
def supply_boat(S):
    for b in range(N_BOATS):
        if S[BOAT_HEX + b] == -1:
            return b
    return -1


# ============================================================================ at-rest rule
@hot
def _eat_swimmers(S, h, fate):
    """Remove every unprotected swimmer in ``h``; those capsized in this resolution (marked
    ``F_WHALE``) are lost to the whale (R15). Returns how many were eaten."""
    eaten = 0
    if S[HEX_NSWIM + h] == 0:
        return 0
    for e in range(MAX_EX):
        if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h and S[EX_PROT + e] < 0:
            kill(S, e, F_WHALE if S[EX_FATE + e] == F_WHALE else fate)
            eaten += 1
    return eaten


@hot
def resolve_hex(S, h):
    """B6.7 at-rest rule with the order of R15: serpents, whales, sharks, until nothing changes.
    Returns the number of explorers lost."""
    if h < 0 or h >= N_HEX:
        return 0
    lost = 0
    resumed = S[PROTECT_PENDING] == h     # continuing after a protection choice (X5.9)
    S[PROTECT_PENDING] = -1
    capsized = resumed                # passengers thrown into the water here are marked F_WHALE
    changed = True
    while changed:
        changed = False
        if S[HEX_NCR + SERPENT * N_HEX + h] > 0:
            b = S[HEX_BOAT + h]
            if b >= 0 and S[BOAT_N + b] > 0:
                while S[BOAT_N + b] > 0:
                    kill(S, S[BOAT_P + 3 * b], F_SERPENT)
                    lost += 1
                put_boat(S, b, -1)
                changed = True
            k = _eat_swimmers(S, h, F_SERPENT)
            lost += k
            changed = changed or k > 0
        if S[HEX_NCR + WHALE * N_HEX + h] > 0:
            b = S[HEX_BOAT + h]
            if b >= 0 and S[BOAT_N + b] > 0:
                while S[BOAT_N + b] > 0:
                    e = S[BOAT_P + 3 * b]
                    S[EX_FATE + e] = F_WHALE
                    place_explorer(S, e, L_SEA, h)
                put_boat(S, b, -1)
                capsized = True
                changed = True
                if S[HEX_NCR + DOLPHIN * N_HEX + h] > 0 and _protect_capsized(S, h):
                    return lost                  # the engine asks, then resolves again
        if S[HEX_NCR + SHARK * N_HEX + h] > 0:
            k = _eat_swimmers(S, h, F_SHARK)
            lost += k
            changed = changed or k > 0
    if capsized:                      # survivors of the capsize carry no fate
        for e in range(MAX_EX):
            if S[EX_LOC + e] == L_SEA and S[EX_FATE + e] == F_WHALE:
                S[EX_FATE + e] = F_NONE
    return lost


@hot
def whirlpool(S, h):
    """B3.4: clear the tile's hex and every adjacent sea hex of swimmers, boats with their
    passengers and creatures. Land tiles and safe isles are untouched."""
    for i in range(N_NEIGHBOURS[h] + 1):
        x = h if i == N_NEIGHBOURS[h] else NEIGHBOURS[h, i]
        if S[HEX_TERRAIN + x] >= 0:
            continue
        b = S[HEX_BOAT + x]
        if b >= 0:
            while S[BOAT_N + b] > 0:
                kill(S, S[BOAT_P + 3 * b], F_WHIRLPOOL)
            put_boat(S, b, -1)
        if S[HEX_NSWIM + x] > 0:
            for e in range(MAX_EX):
                if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == x:
                    kill(S, e, F_WHIRLPOOL)
        for kind in range(N_KINDS):
            if S[HEX_NCR + kind * N_HEX + x] > 0:
                for k in range(KIND_COUNT[kind]):
                    if S[CR_HEX + kind * CR_SLOTS + k] == x:
                        if kind == DOLPHIN:
                            release(S, k)
                        put_creature(S, kind, k, CR_GONE)


# ============================================================================ reach (R12)
@hot
def _stops(S, mt, h):
    """A mover of type ``mt`` that enters sea hex ``h`` must end its path there (R12)."""
    if mt == MT_SHARK:
        return unprotected_swimmers(S, h) > 0
    if mt == MT_WHALE:                   # X7.5: a whale entering a squid's hex ends its move
        return boat_occupied(S, h) or S[HEX_NCR + SQUID * N_HEX + h] > 0
    if mt == MT_SERPENT:                 # only matters for dive-dice moves of 2-3 (X5.4)
        return boat_occupied(S, h) or unprotected_swimmers(S, h) > 0
    if mt == MT_SQUID:                   # X7.3
        return boat_occupied(S, h) or S[HEX_NCR + WHALE * N_HEX + h] > 0 \
            or land_explorers_next_to(S, h)
    if mt == MT_SWIMMER:
        return S[HEX_NCR + SERPENT * N_HEX + h] + S[HEX_NCR + SHARK * N_HEX + h] > 0
    if mt == MT_BOAT:
        return S[HEX_NCR + SERPENT * N_HEX + h] + S[HEX_NCR + WHALE * N_HEX + h] > 0
    return False


@hot
def reach(S, W, mt, start, maxd):
    """Breadth-first search of the hexes a mover of type ``mt`` can end on from ``start`` in
    1..maxd steps of adjacent sea hexes (R12: simple paths; a stop hex ends the path). A swimmer
    may take its last step from an access hex onto the safe isle (R7). Fills ``W[W_DIST+loc]``
    and ``W[W_PARENT+loc]`` for the locations it reaches (marked with this search's id in
    ``W_MARK``, so nothing is reset between searches); returns how many it reached, listed from
    ``W[W_QUEUE+1]`` on (the start sits at ``W[W_QUEUE]``)."""
    mark = W[W_SEARCH] + 1
    W[W_SEARCH] = mark
    W[W_MARK + start] = mark
    W[W_DIST + start] = 0
    W[W_PARENT + start] = -1
    W[W_QUEUE] = start
    boat = (mt == MT_BOAT) | (mt == MT_EMPTY_BOAT)
    head = 0
    tail = 1
    while head < tail:
        u = W[W_QUEUE + head]
        head += 1
        du = W[W_DIST + u]
        if du >= maxd or u >= N_HEX:
            continue
        if u != start and _stops(S, mt, u):
            continue
        for i in range(N_NEIGHBOURS[u]):           # enter any sea hex (a boat: without a
            v = NEIGHBOURS[u, i]                   # boat) not reached yet; branch-free
            ok = (W[W_MARK + v] != mark) & (S[HEX_TERRAIN + v] < 0)
            if boat:
                ok = ok & (S[HEX_BOAT + v] < 0)
            W[W_MARK + v] = mark if ok else W[W_MARK + v]
            W[W_DIST + v] = du + 1 if ok else W[W_DIST + v]
            W[W_PARENT + v] = u if ok else W[W_PARENT + v]
            W[W_QUEUE + tail] = v                  # kept only if ok (tail <= 38 for maxd 3)
            tail += np.int64(ok)
        if mt == MT_SWIMMER and ACCESS_ISLE[u] >= 0:
            v = ACCESS_ISLE[u]
            if W[W_MARK + v] != mark:
                W[W_MARK + v] = mark
                W[W_DIST + v] = du + 1
                W[W_PARENT + v] = u
                W[W_QUEUE + tail] = v
                tail += 1
    return tail - 1


@hot
def reset_work(W):
    """Clear the scratch array at the start of a game (search marks start from zero)."""
    for i in range(W.shape[0]):
        W[i] = 0


@hot
def path_to(W, dest, path):
    """Write the path found by ``reach`` into ``path`` (entered locations, in order); return
    its length."""
    n = W[W_DIST + dest]
    x = dest
    for i in range(n - 1, -1, -1):
        path[i] = x
        x = W[W_PARENT + x]
    return n


# ============================================================================ options
@hot
def options_pick_explorer(S, seat, opts):
    """B4.3, first half: which unplaced explorer to place (one row per distinct value: slots of
    equal value are interchangeable, the lowest is used)."""
    n = 0
    last_value = -1
    for slot in range(SLOTS):
        e = seat * SLOTS + slot
        if S[EX_LOC + e] == L_UNPLACED and S[EX_VALUE + e] != last_value:
            last_value = S[EX_VALUE + e]
            opts[n, 0] = slot
            n += 1
    return n


@hot
def options_place_explorer(S, seat, slot, opts, dense):
    """B4.3, second half: an empty land tile for explorer ``slot``; with ``dense`` (Challenge 1,
    X2.1) a tile with room: 2 explorers, 1 next to the outer sea."""
    n = 0
    for i in range(ISLAND_HEXES.shape[0]):
        h = ISLAND_HEXES[i]
        cap = DENSE_CAP[h] if dense else 1
        opts[n, 0] = slot
        opts[n, 1] = h
        n += np.int64((S[HEX_TERRAIN + h] >= 0) & (S[HEX_NLAND + h] < cap))
    return n


@hot
def options_place_stacked(S, seat, slot, opts, inland):
    """A tile already holding exactly one explorer, not of the seat's own colour (X1.3, X6.2);
    with ``inland`` only the tiles where X2.1 allows a second explorer (Challenge 1, X1.3)."""
    n = 0
    for i in range(ISLAND_HEXES.shape[0]):
        h = ISLAND_HEXES[i]
        if S[HEX_TERRAIN + h] < 0 or S[HEX_NLAND + h] != 1 or (inland and DENSE_CAP[h] < 2):
            continue
        own = False
        for e in range(seat * SLOTS, seat * SLOTS + SLOTS):
            own = own | ((S[EX_LOC + e] == L_LAND) & (S[EX_AT + e] == h))
        if not own:
            n = _add(opts, n, slot, h, 0, 0)
    return n


@hot
def unplaced(S, seat):
    """Explorers ``seat`` has still to place."""
    n = 0
    for e in range(seat * SLOTS, seat * SLOTS + SLOTS):
        n += np.int64(S[EX_LOC + e] == L_UNPLACED)
    return n


@hot
def some_tile_empty(S):
    """A land tile holds no explorer (X6.2: until then placement goes as usual)."""
    for i in range(ISLAND_HEXES.shape[0]):
        h = ISLAND_HEXES[i]
        if S[HEX_TERRAIN + h] >= 0 and S[HEX_NLAND + h] == 0:
            return True
    return False


@hot
def options_placement(S, seat, slot, opts):
    """B4.3, second half, under the rule in force: the tiles explorer ``slot`` of ``seat`` may
    go on.

    * Challenge 6 (X6.2, X6.6): as usual (one per tile; X2.1's caps with Challenge 1) while
      some tile is empty; once every tile holds an explorer, only a tile holding one explorer
      of another colour. X1.3 does not apply.
    * Otherwise, with 6 players the last explorer of the fifth and sixth seats (X1.3) goes on a
      tile holding exactly one explorer of another colour -- with Challenge 1 first such an
      inland tile (where X2.1 allows a second), then any such tile, then by the usual rule.
    * Else the usual rule: an empty tile (B4.3), or a tile with room under X2.1."""
    dense = (S[CHALLENGES] & CH_DENSE) != 0
    if S[CHALLENGES] & CH_OVERPOP:
        if some_tile_empty(S):
            return options_place_explorer(S, seat, slot, opts, dense)
        return options_place_stacked(S, seat, slot, opts, False)
    if S[N_PLAYERS] == 6 and seat >= 4 and unplaced(S, seat) == 1:
        n = 0
        if dense:
            n = options_place_stacked(S, seat, slot, opts, True)
        if n == 0:
            n = options_place_stacked(S, seat, slot, opts, False)
        if n > 0:
            return n
    return options_place_explorer(S, seat, slot, opts, dense)


@hot
def options_bonus_pieces(S, seat, W, opts):
    """X6.3 / X6.6, first half: ``(0, -1, -1, -1)`` = pass, then ``(1, e, -1, -1)`` for each of
    the seat's explorers that stood on the tile just sunk (``W_SUNK``), is still on the board
    (swimming or in a boat) and can move one step."""
    n = _add(opts, 0, MV_STOP, -1, -1, -1)
    for j in range(W[W_SUNK_N]):
        e = W[W_SUNK + j]
        if S[EX_SEAT + e] != seat:
            continue
        loc = S[EX_LOC + e]
        if loc == L_BOAT or (loc == L_SEA and swimmer_can_move(S, e)):
            n = _add(opts, n, MV_EXPLORER, e, -1, -1)
    return n


@hot
def options_place_boat(S, opts):
    """B4.4 / R19: an empty sea hex with no boat and no creature, next to a land tile."""
    n = 0
    for j in range(COAST_HEXES.shape[0]):
        h = COAST_HEXES[j]
        if unoccupied_sea(S, h) and land_next_to(S, h):
            opts[n, 0] = h
            n += 1
    return n


@hot
def _add(opts, n, a, b, c, d):
    opts[n, 0] = a
    opts[n, 1] = b
    opts[n, 2] = c
    opts[n, 3] = d
    return n + 1


@hot
def explorer_moves(S, e, opts, n, with_dolphin):
    """Append the movement-point rows of explorer ``e`` (B6.2, B6.4, B6.5) from row ``n``:
    ``(1, e, dest, boat)`` with dest a hex or an isle code, or the boat's hex with ``boat`` >= 0;
    ``boat`` = ``SWIM_WITH_DOLPHIN`` swims with the swimmer's dolphin (X5.7: offered with
    ``with_dolphin``, i.e. in step 2, not for the Overpopulated bonus point). Returns the new
    row count. Written with few unpredictable branches: a row is always
    written and only counted when it is legal (this loop runs for every movement point)."""
    loc = S[EX_LOC + e]
    h = S[EX_AT + e]
    if loc == L_LAND:                              # B6.2: every neighbour, boats too
        for i in range(N_NEIGHBOURS[h]):
            x = NEIGHBOURS[h, i]
            b = S[HEX_BOAT + x]                    # boats stand on sea hexes only
            if b >= 0 and S[BOAT_N + b] < 3:
                n = _add(opts, n, MV_EXPLORER, e, x, b)
            n = _add(opts, n, MV_EXPLORER, e, x, -1)
    elif loc == L_BOAT:                            # B6.4
        hb = S[BOAT_HEX + h]
        for i in range(N_NEIGHBOURS[hb]):
            x = NEIGHBOURS[hb, i]
            b = S[HEX_BOAT + x]
            if b >= 0 and S[BOAT_N + b] < 3:
                n = _add(opts, n, MV_EXPLORER, e, x, b)
        n = _add(opts, n, MV_EXPLORER, e, hb, -1)
        if ACCESS_ISLE[hb] >= 0:
            n = _add(opts, n, MV_EXPLORER, e, ACCESS_ISLE[hb], -1)
    elif loc == L_SEA:                             # B6.5
        swam = S[EX_SWAM + e] != 0
        if not swam:
            for i in range(N_NEIGHBOURS[h]):
                x = NEIGHBOURS[h, i]
                _add(opts, n, MV_EXPLORER, e, x, -1)
                n += np.int64(S[HEX_TERRAIN + x] < 0)
            if with_dolphin and S[EX_PROT + e] >= 0:   # X5.7: the same swims, with its dolphin
                for i in range(N_NEIGHBOURS[h]):
                    x = NEIGHBOURS[h, i]
                    _add(opts, n, MV_EXPLORER, e, x, SWIM_WITH_DOLPHIN)
                    n += np.int64(S[HEX_TERRAIN + x] < 0)
        b = S[HEX_BOAT + h]
        if b >= 0 and S[BOAT_N + b] < 3:
            n = _add(opts, n, MV_EXPLORER, e, h, b)
        if not swam and ACCESS_ISLE[h] >= 0:
            n = _add(opts, n, MV_EXPLORER, e, ACCESS_ISLE[h], -1)
    return n


@hot
def boat_moves(S, seat, b, opts, n):
    """Append the rows ``(2, b, hex, -1)`` of boat ``b`` if ``seat`` may move it (B6.1, B6.6:
    empty, or controlled): to an adjacent sea hex without a boat."""
    h = S[BOAT_HEX + b]
    if h < 0 or (S[BOAT_N + b] > 0 and not controls(S, seat, b)):
        return n
    for i in range(N_NEIGHBOURS[h]):
        x = NEIGHBOURS[h, i]
        _add(opts, n, MV_BOAT, b, x, -1)
        n += np.int64((S[HEX_TERRAIN + x] < 0) & (S[HEX_BOAT + x] < 0))
    return n


@hot
def move_rows(S, seat, opts, n):
    """Every movement point of ``seat`` from row ``n``: 'stop moving' first, then each own
    explorer's rows (R17), then each movable boat's. Returns the new row count."""
    n = _add(opts, n, MV_STOP, -1, -1, -1)
    for slot in range(SLOTS):
        n = explorer_moves(S, seat * SLOTS + slot, opts, n, True)
    for b in range(N_BOATS):
        n = boat_moves(S, seat, b, opts, n)
    return n


@hot
def options_move(S, seat, opts):
    """One movement point as a single list (B5.2, B6.1-B6.6): row 0 is 'stop moving'. The
    engine asks it in two decisions (``options_move_pieces``, then ``piece_moves``); strategies
    that weigh every movement point at once use this list."""
    return move_rows(S, seat, opts, 0)


@hot
def swimmer_can_move(S, e):
    """B6.5: a swimmer can board a boat with room in its hex; if it has not swum this turn, it
    can also swim to an adjacent sea hex or land on the isle of its access hex."""
    h = S[EX_AT + e]
    b = S[HEX_BOAT + h]
    if b >= 0 and S[BOAT_N + b] < 3:
        return True
    if S[EX_SWAM + e] != 0:
        return False
    return ACCESS_ISLE[h] >= 0 or sea_next_to(S, h)


@hot
def sea_next_to(S, h):
    """A sea hex is adjacent to ``h``."""
    for i in range(N_NEIGHBOURS[h]):
        if S[HEX_TERRAIN + NEIGHBOURS[h, i]] < 0:
            return True
    return False


@hot
def options_move_pieces(S, seat, opts):
    """First half of a movement point: ``(0, -1, -1, -1)`` = stop, then ``(1, e, -1, -1)`` for
    each own explorer and ``(2, b, -1, -1)`` for each boat with at least one legal move."""
    n = _add(opts, 0, MV_STOP, -1, -1, -1)
    for slot in range(SLOTS):                      # rows written always, counted if movable
        e = seat * SLOTS + slot
        loc = S[EX_LOC + e]
        ok = (loc == L_LAND) | (loc == L_BOAT)     # always a neighbour / the water below
        if loc == L_SEA:
            ok = swimmer_can_move(S, e)
        _add(opts, n, MV_EXPLORER, e, -1, -1)
        n += np.int64(ok)
    for b in range(N_BOATS):
        _add(opts, n, MV_BOAT, b, -1, -1)
        n += np.int64(boat_can_move(S, seat, b))
    return n


@hot
def boat_can_move(S, seat, b):
    """Boat ``b`` is on the board, ``seat`` may move it, and a neighbour is free sea."""
    h = S[BOAT_HEX + b]
    if h < 0 or (S[BOAT_N + b] > 0 and not controls(S, seat, b)):
        return False
    for i in range(N_NEIGHBOURS[h]):
        x = NEIGHBOURS[h, i]
        if S[HEX_TERRAIN + x] < 0 and S[HEX_BOAT + x] < 0:
            return True
    return False


@hot
def piece_moves(S, seat, what, i, opts):
    """Second half of a movement point: the rows of ``options_move`` for one piece."""
    if what == MV_BOAT:
        return boat_moves(S, seat, i, opts, 0)
    return explorer_moves(S, i, opts, 0, True)


@hot
def _touches_sea(S, h):
    sea = False
    lagoon_sea = S[LAGOON_SEA] != 0
    for i in range(N_NEIGHBOURS[h]):
        x = NEIGHBOURS[h, i]
        sea = sea | ((S[HEX_TERRAIN + x] < 0) & ((x != LAGOON) | lagoon_sea))
    return sea


@hot
def options_sink(S, opts):
    """B5.5 / R1: tiles of the lowest remaining terrain that touch the sea; all tiles of that
    terrain when none does."""
    terrain = 0
    while terrain < N_TERRAIN and S[TERRAIN_LEFT + terrain] == 0:
        terrain += 1
    n = 0
    if terrain == N_TERRAIN:
        return 0
    for i in range(ISLAND_HEXES.shape[0]):
        h = ISLAND_HEXES[i]
        if S[HEX_TERRAIN + h] == terrain:
            opts[n, 0] = h
            n += np.int64(_touches_sea(S, h))
    if n == 0:
        for i in range(ISLAND_HEXES.shape[0]):
            h = ISLAND_HEXES[i]
            if S[HEX_TERRAIN + h] == terrain:
                opts[n, 0] = h
                n += 1
    return n


@hot
def piece_hex(S, kind, k):
    """Where a die-moved piece stands: a creature, or with ``PK_BOAT`` an empty boat (X5.3).
    -1 when it is not on the board (or, for a boat, not empty)."""
    if kind == PK_BOAT:
        return S[BOAT_HEX + k] if S[BOAT_N + k] == 0 else -1
    return S[CR_HEX + kind * CR_SLOTS + k]


@hot
def mover_type(kind):
    """The ``reach`` mover of a die-moved piece kind."""
    if kind == DOLPHIN:
        return MT_DOLPHIN
    if kind == SQUID:
        return MT_SQUID
    if kind == PK_BOAT:
        return MT_EMPTY_BOAT
    return kind                                    # MT_SERPENT/SHARK/WHALE equal the kinds


@hot
def die_reach(S, kind):
    """How far this turn's roll lets a piece of ``kind`` go: the dive dice's number (X5.3;
    ``DIVE_D`` = anywhere unoccupied), else serpent 1, shark 2, whale and squid 3 (B6.8-B6.10,
    X7.2)."""
    if S[CHALLENGES] & CH_DIVE:
        return S[ROLL_NUMBER]
    return 3 if kind == SQUID else kind + 1


@hot
def face_kinds(S, face):
    """Bit mask of the piece kinds a roll's face lets the roller move: the kind shown; the
    dive dice's empty boat (``PK_BOAT``) or starfish (any of the five, X5.3); a squid wherever
    a whale may move (X7.2)."""
    if face == FACE_STAR:
        m = (1 << SERPENT) | (1 << SHARK) | (1 << WHALE) | (1 << DOLPHIN) | (1 << PK_BOAT)
    else:
        m = 1 << face
    if (m >> WHALE) & 1 and S[SQUID_ON] != 0:
        m |= 1 << SQUID
    return m


@hot
def creature_moves(S, W, kind, k, maxd, must_move, opts, n):
    """Die moves of piece ``k`` of ``kind`` (B6.8-B6.11, R12, X5.4, X7.2), appended from row
    ``n``: ``(kind, k, dest, via)``. Staying (dest = own hex, via 0) comes first unless
    ``must_move`` (R2; a squid may always stay, R21). ``via`` encodes the hexes passed on the way
    (see ``via_path``), so the move needs no second search. ``maxd`` = ``DIVE_D``: a jump to any
    unoccupied sea hex (via ``VIA_JUMP``). A dolphin sharing its hex with two or more swimmers
    may instead switch its protection (via ``VIA_SWITCH + e``, X5.7, X5.9)."""
    h = piece_hex(S, kind, k)
    if h < 0:
        return n
    if maxd == DIVE_D:
        for x in range(N_HEX):
            if unoccupied_sea(S, x):
                n = _add(opts, n, kind, k, x, VIA_JUMP)
    else:
        if not must_move or kind == SQUID:
            n = _add(opts, n, kind, k, h, 0)
        m = reach(S, W, mover_type(kind), h, maxd)
        for i in range(1, m + 1):
            x = W[W_QUEUE + i]
            p = W[W_PARENT + x]
            q = W[W_PARENT + p] if p != h else -1
            n = _add(opts, n, kind, k, x, (p + 1) | ((q + 1) << 8))
    if kind == DOLPHIN and S[HEX_NSWIM + h] >= 2:
        for e in range(MAX_EX):
            if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h and S[EX_PROT + e] < 0:
                n = _add(opts, n, kind, k, h, VIA_SWITCH + e)
    return n


@hot
def via_path(start, dest, via, path):
    """Decode a ``creature_moves`` row into ``path`` (hexes entered, in order); return its
    length (0 = stayed)."""
    if dest == start:
        return 0
    p = (via & 255) - 1
    q = (via >> 8) - 1
    if p == start:
        path[0] = dest
        return 1
    if q == start:
        path[0] = p
        path[1] = dest
        return 2
    path[0] = q
    path[1] = p
    path[2] = dest
    return 3


@hot
def creature_can_move(S, kind, k):
    """A piece on the board can move if a sea hex is next to it (creatures enter any sea; an
    empty boat only sea without a boat). A squid can always 'move' (staying counts, X7.2)."""
    h = piece_hex(S, kind, k)
    if h < 0:
        return False
    if kind == SQUID:
        return True
    if kind == PK_BOAT:
        for i in range(N_NEIGHBOURS[h]):
            x = NEIGHBOURS[h, i]
            if S[HEX_TERRAIN + x] < 0 and S[HEX_BOAT + x] < 0:
                return True
        return False
    return sea_next_to(S, h)


@hot
def _piece_count(kind):
    return N_BOATS if kind == PK_BOAT else KIND_COUNT[kind]


@hot
def options_creature_pieces(S, kinds, must_move, opts):
    """First half of the die move: ``(kind, k, -1, -1)`` for each piece on the board of the
    kinds in the bit mask ``kinds`` (bit ``PK_BOAT`` = empty boats; B5.4, X5.3, X7.2); with
    ``must_move``, only those that can move (R21: all of them when none can)."""
    n = 0
    for kind in range(PK_BOAT + 1):
        if (kinds >> kind) & 1:
            for k in range(_piece_count(kind)):
                if piece_hex(S, kind, k) >= 0 and \
                        (not must_move or creature_can_move(S, kind, k)):
                    n = _add(opts, n, kind, k, -1, -1)
    if n == 0 and must_move:
        for kind in range(PK_BOAT + 1):
            if (kinds >> kind) & 1:
                for k in range(_piece_count(kind)):
                    if piece_hex(S, kind, k) >= 0:
                        n = _add(opts, n, kind, k, -1, -1)
    return n


@hot
def options_creature(S, W, kind, maxd, must_move, opts, n):
    """Every die move of ``kind`` as a single list (rows as ``creature_moves``), appended from
    row ``n``; R21 is applied by the caller."""
    for k in range(KIND_COUNT[kind]):
        n = creature_moves(S, W, kind, k, maxd, must_move, opts, n)
    return n


@hot
def hand_count(S, seat, back):
    return S[PRIV + seat * PRIV_W + P_HAND + back]


@hot
def add_to_hand(S, seat, back, terrain):
    """B5.6: a red back goes, hidden, into the seat's hand; its terrain stays public."""
    mine = PRIV + seat * PRIV_W
    S[mine + P_HAND + back] += 1
    S[mine + P_HAND_T + back * N_TERRAIN + terrain] += 1
    S[HAND_N + seat] += 1
    S[HAND_TERRAIN + seat * N_TERRAIN + terrain] += 1


@hot
def take_from_hand(S, seat, back):
    """Play (remove from the game) one tile of ``back`` from the hand; which of several equal
    backs goes is immaterial, so the lowest terrain is taken."""
    mine = PRIV + seat * PRIV_W
    terrain = 0
    while S[mine + P_HAND_T + back * N_TERRAIN + terrain] == 0:
        terrain += 1
    S[mine + P_HAND + back] -= 1
    S[mine + P_HAND_T + back * N_TERRAIN + terrain] -= 1
    S[HAND_N + seat] -= 1
    S[HAND_TERRAIN + seat * N_TERRAIN + terrain] -= 1


@hot
def options_play_tile(S, W, seat, mine, opts):
    """Step 1 (B5.1, R4, R9, R14, R7) as a single list: row 0 plays nothing; then ``(back,
    piece, dest, 0)`` for each red tile in hand with each legal target (dest -1 for the
    move-creature tiles). The engine asks it in two halves (``options_tile_pieces``, then the
    destination); strategies that weigh every play at once use this list. ``S`` may be the
    public part only: the hand is read from the seat's private row ``mine`` (R11)."""
    return tile_rows(S, W, seat, mine, opts, 0)


@hot
def tile_rows(S, W, seat, mine, opts, n):
    """The rows of ``options_play_tile``, appended from row ``n``."""
    n = _add(opts, n, -1, -1, -1, 0)
    if S[HAND_N + seat] == 0:
        return n
    if mine[P_HAND + B_DOLPHIN] > 0:                      # B3.6: own swimmer 1-3 sea hexes
        for slot in range(SLOTS):
            e = seat * SLOTS + slot
            if S[EX_LOC + e] == L_SEA:
                n = tile_reach_rows(S, W, B_DOLPHIN, e, opts, n)
    if mine[P_HAND + B_WIND] > 0:                         # B3.7 / R14
        for b in range(N_BOATS):
            if S[BOAT_HEX + b] >= 0 and controls(S, seat, b):
                n = tile_reach_rows(S, W, B_WIND, b, opts, n)
    return move_tile_rows(S, mine, opts, n)


@hot
def move_tile_rows(S, mine, opts, n):
    """B3.8-B3.10 / R9: ``(back, k, -1, kind)`` for each move-creature tile in the hand (of
    the private row ``mine``) and each creature of its kind on the board -- with the squid in
    play the move-whale tile may move a squid instead (X7.2); the destination is asked next."""
    for back in range(B_MOVE_SERPENT, B_MOVE_WHALE + 1):
        if mine[P_HAND + back] == 0:
            continue
        kind = back - B_MOVE_SERPENT
        for k in range(KIND_COUNT[kind]):
            if S[CR_HEX + kind * CR_SLOTS + k] >= 0:
                n = _add(opts, n, back, k, -1, kind)
        if back == B_MOVE_WHALE and S[SQUID_ON] != 0:
            for k in range(KIND_COUNT[SQUID]):
                if S[CR_HEX + SQUID * CR_SLOTS + k] >= 0:
                    n = _add(opts, n, back, k, -1, SQUID)
    return n


@hot
def options_tile_pieces(S, seat, opts):
    """Step 1 (B5.1, R4, R9, R14), first half: row 0 plays nothing; then ``(back, piece, -1,
    0)`` for each red tile in hand and each piece it can move somewhere: an own swimmer (the
    dolphin, B3.6), a controlled boat (wind, B3.7, R14), a creature on the board (B3.8-B3.10).
    Where it goes is asked next (``options_tile_dest``)."""
    n = _add(opts, 0, -1, -1, -1, 0)
    if S[HAND_N + seat] == 0:
        return n
    if hand_count(S, seat, B_DOLPHIN) > 0:
        for slot in range(SLOTS):
            e = seat * SLOTS + slot
            h = S[EX_AT + e]
            if S[EX_LOC + e] == L_SEA and (ACCESS_ISLE[h] >= 0 or sea_next_to(S, h)):
                n = _add(opts, n, B_DOLPHIN, e, -1, 0)
    if hand_count(S, seat, B_WIND) > 0:
        for b in range(N_BOATS):
            if S[BOAT_HEX + b] >= 0 and S[BOAT_N + b] > 0 and boat_can_move(S, seat, b):
                n = _add(opts, n, B_WIND, b, -1, 0)
    return move_tile_rows(S, S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W], opts, n)


@hot
def options_tile_reach(S, W, back, piece, opts):
    """Step 1, second half for the dolphin (own swimmer 1-3 sea hexes, the last step may land
    on an isle: B3.6, R7, R12, R13) and wind (a controlled boat 1-3 sea hexes: B3.7, R12)."""
    return tile_reach_rows(S, W, back, piece, opts, 0)


@hot
def tile_reach_rows(S, W, back, piece, opts, n):
    """The rows ``(back, piece, dest, 0)`` of a dolphin or wind tile, appended from row ``n``."""
    if back == B_DOLPHIN:
        m = reach(S, W, MT_SWIMMER, S[EX_AT + piece], 3)
    else:
        m = reach(S, W, MT_BOAT, S[BOAT_HEX + piece], 3)
    for i in range(1, m + 1):
        n = _add(opts, n, back, piece, W[W_QUEUE + i], 0)
    return n


@hot
def options_tile_dest(S, back, piece, kind, opts):
    """B3.8-B3.10 / R19 / X7.2: a move-creature tile sends its creature (of ``kind``) to any
    unoccupied sea hex."""
    n = 0
    for h in range(N_HEX):                         # rows written always, counted if free
        _add(opts, n, back, piece, h, kind)
        n += np.int64(unoccupied_sea(S, h))
    return n


@hot
def seat_swimmer_in(S, seat, h):
    for slot in range(SLOTS):
        e = seat * SLOTS + slot
        if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h:
            return True
    return False


@hot
def defence_back(kind):
    return B_DEFEND_SHARK if kind == SHARK else B_DEFEND_WHALE


@hot
def may_defend(S, seat, mover, kind, h):
    """B6.12 / R16 / R8: ``seat`` may play its defence tile against this attack."""
    if same_player(S, seat, mover) or hand_count(S, seat, defence_back(kind)) == 0:
        return False
    if kind == SHARK:
        return seat_swimmer_in(S, seat, h)
    b = S[HEX_BOAT + h]
    return b >= 0 and controls(S, seat, b)


@hot
def attack_pending(S, kind, h):
    """Would a creature of ``kind`` now standing in ``h`` attack (B6.12: windows open only then)?"""
    if kind == SHARK:
        return unprotected_swimmers(S, h) > 0 and S[HEX_NCR + SERPENT * N_HEX + h] == 0
    if kind == WHALE:
        return boat_occupied(S, h) and S[HEX_NCR + SERPENT * N_HEX + h] == 0
    return False


# ============================================================================ effects
@hot
def apply_move(S, seat, what, i, dest, boat):
    """Carry out one movement point chosen from ``options_move`` and resolve its hex (B6.7)."""
    if what == MV_BOAT:
        put_boat(S, i, dest)
        resolve_hex(S, dest)
        return
    e = i
    loc = S[EX_LOC + e]
    if dest >= N_HEX:                                   # onto a safe isle (B6.4, B6.5, R3)
        place_explorer(S, e, L_SAFE, dest)
        S[EX_SWAM + e] = 1
        return
    if boat >= 0:                                       # into a boat
        place_explorer(S, e, L_BOAT, boat)
        resolve_hex(S, dest)
        return
    if S[HEX_TERRAIN + dest] >= 0:                      # land to land
        place_explorer(S, e, L_LAND, dest)
        return
    if loc == L_LAND or (loc == L_SEA and dest != S[EX_AT + e]):
        S[EX_SWAM + e] = 1                               # dive or swim: its one sea hex (B6.5)
    d = S[EX_PROT + e]
    place_explorer(S, e, L_SEA, dest)                    # leaves its dolphin behind ...
    if boat == SWIM_WITH_DOLPHIN:                        # ... unless it takes it along (X5.7)
        put_creature(S, DOLPHIN, d, dest)
        protect(S, d, e)
    elif S[HEX_NCR + DOLPHIN * N_HEX + dest] > 0:        # X5.9: meets a free dolphin
        arrive(S, e, dest)
    resolve_hex(S, dest)


@hot
def sink(S, h):
    """B5.6: remove the land tile on ``h``; its explorers become swimmers there. Returns the
    tile's back (the caller resolves it)."""
    terrain = S[HEX_TERRAIN + h]
    back = S[TILE_BACK + h]
    if S[HEX_NLAND + h] > 0:
        for e in range(MAX_EX):
            if S[EX_LOC + e] == L_LAND and S[EX_AT + e] == h:
                place_explorer(S, e, L_SEA, h)
    S[HEX_TERRAIN + h] = -1
    S[TILE_BACK + h] = -1
    S[TILES_LEFT] -= 1
    S[TERRAIN_LEFT + terrain] -= 1
    S[BACKS_REMOVED + back] += 1
    return back


@hot
def swimmers_in(S, h, out):
    """List the swimmers in ``h`` into ``out``; return how many."""
    n = 0
    for e in range(MAX_EX):
        if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h:
            out[n] = e
            n += 1
    return n
