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
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    CR_GONE,
    CR_HEX,
    CR_SLOTS,
    CR_SUPPLY,
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
    F_SHARK,
    F_WHALE,
    F_WHIRLPOOL,
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
    N_TERRAIN,
    P_HAND,
    P_HAND_T,
    PLAYER_OF,
    PRIV,
    PRIV_W,
    SERPENT,
    SHARK,
    SLOTS,
    TERRAIN_LEFT,
    TILE_BACK,
    TILES_LEFT,
    WHALE,
)

# movers for reach(): how a piece moving several hexes in one go treats each hex (R12)
MT_SERPENT, MT_SHARK, MT_WHALE, MT_SWIMMER, MT_BOAT = 0, 1, 2, 3, 4
# scratch layout of the work array W (int32): BFS distance, parent and queue
W_DIST = 0
W_PARENT = N_LOC
W_QUEUE = 2 * N_LOC
W_MARK = 3 * N_LOC            # search id that last reached each location (no per-search reset)
W_PATH = 4 * N_LOC            # 3 cells: the path of the current multi-hex move
W_SEARCH = W_PATH + 3         # id of the current search
W_SIZE = W_SEARCH + 1


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
    Control is counted per colour (seat), also with 2 players (B4.5)."""
    n = S[BOAT_N + b]
    if n == 0:
        return False
    mine = 0
    for i in range(n):
        if S[EX_SEAT + S[BOAT_P + 3 * b + i]] == seat:
            mine += 1
    if mine == 0:
        return False
    for i in range(n):
        other = S[EX_SEAT + S[BOAT_P + 3 * b + i]]
        if other != seat:
            cnt = 0
            for j in range(n):
                if S[EX_SEAT + S[BOAT_P + 3 * b + j]] == other:
                    cnt += 1
            if cnt > mine:
                return False
    return True


@hot
def creature_on_board(S, kind):
    for k in range(KIND_COUNT[kind]):
        if S[CR_HEX + kind * CR_SLOTS + k] >= 0:
            return True
    return False


@hot
def unoccupied_sea(S, h):
    """B3.8-B3.10 / R19: sea with no boat, no swimmer, no creature of any kind."""
    if S[HEX_TERRAIN + h] >= 0 or S[HEX_BOAT + h] >= 0 or S[HEX_NSWIM + h] > 0:
        return False
    for kind in range(N_KINDS):
        if S[HEX_NCR + kind * N_HEX + h] > 0:
            return False
    return True


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
def _eat_swimmers(S, h, fate, capsized):
    """Remove every unprotected swimmer in ``h``; those capsized in this resolution are lost to
    the whale (R15). Returns how many were eaten."""
    eaten = 0
    if S[HEX_NSWIM + h] == 0:
        return 0
    for e in range(MAX_EX):
        if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h and S[EX_PROT + e] < 0:
            kill(S, e, F_WHALE if (capsized >> e) & 1 else fate)
            eaten += 1
    return eaten


@hot
def resolve_hex(S, h):
    """B6.7 at-rest rule with the order of R15: serpents, whales, sharks, until nothing changes.
    Returns the number of explorers lost."""
    if h < 0 or h >= N_HEX:
        return 0
    lost = 0
    capsized = np.int64(0)            # bit e set: explorer e was thrown into the water here
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
            k = _eat_swimmers(S, h, F_SERPENT, capsized)
            lost += k
            changed = changed or k > 0
        if S[HEX_NCR + WHALE * N_HEX + h] > 0:
            b = S[HEX_BOAT + h]
            if b >= 0 and S[BOAT_N + b] > 0:
                while S[BOAT_N + b] > 0:
                    e = S[BOAT_P + 3 * b]
                    capsized |= np.int64(1) << e
                    place_explorer(S, e, L_SEA, h)
                put_boat(S, b, -1)
                changed = True
        if S[HEX_NCR + SHARK * N_HEX + h] > 0:
            k = _eat_swimmers(S, h, F_SHARK, capsized)
            lost += k
            changed = changed or k > 0
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
                        put_creature(S, kind, k, CR_GONE)


# ============================================================================ reach (R12)
@hot
def _enter_kind(S, mt, h):
    """How a mover treats hex ``h``: 0 cannot enter, 1 passes through, 2 must stop there."""
    if S[HEX_TERRAIN + h] >= 0:
        return 0
    if mt == MT_SHARK:
        return 2 if unprotected_swimmers(S, h) > 0 else 1
    if mt == MT_WHALE:
        return 2 if boat_occupied(S, h) else 1
    if mt == MT_SWIMMER:
        if S[HEX_NCR + SERPENT * N_HEX + h] > 0 or S[HEX_NCR + SHARK * N_HEX + h] > 0:
            return 2
        return 1
    if mt == MT_BOAT:
        if S[HEX_BOAT + h] >= 0:
            return 0
        if S[HEX_NCR + SERPENT * N_HEX + h] > 0 or S[HEX_NCR + WHALE * N_HEX + h] > 0:
            return 2
        return 1
    return 1


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
    head = 0
    tail = 1
    while head < tail:
        u = W[W_QUEUE + head]
        head += 1
        du = W[W_DIST + u]
        if du >= maxd or u >= N_HEX:
            continue
        if u != start and _enter_kind(S, mt, u) == 2:
            continue
        for i in range(N_NEIGHBOURS[u]):
            v = NEIGHBOURS[u, i]
            if W[W_MARK + v] == mark or _enter_kind(S, mt, v) == 0:
                continue
            W[W_MARK + v] = mark
            W[W_DIST + v] = du + 1
            W[W_PARENT + v] = u
            W[W_QUEUE + tail] = v
            tail += 1
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
def options_place_explorer(S, seat, slot, opts, per_tile):
    """B4.3, second half: an empty land tile for explorer ``slot`` (``per_tile`` explorers at
    most: 1 in the base game)."""
    n = 0
    for i in range(ISLAND_HEXES.shape[0]):
        h = ISLAND_HEXES[i]
        if S[HEX_TERRAIN + h] >= 0 and S[HEX_NLAND + h] < per_tile:
            opts[n, 0] = slot
            opts[n, 1] = h
            n += 1
    return n


@hot
def options_place_boat(S, opts):
    """B4.4 / R19: an empty sea hex with no boat and no creature, next to a land tile."""
    n = 0
    for j in range(COAST_HEXES.shape[0]):
        h = COAST_HEXES[j]
        if not unoccupied_sea(S, h):
            continue
        for i in range(N_NEIGHBOURS[h]):
            if S[HEX_TERRAIN + NEIGHBOURS[h, i]] >= 0:
                opts[n, 0] = h
                n += 1
                break
    return n


@hot
def _add(opts, n, a, b, c, d):
    opts[n, 0] = a
    opts[n, 1] = b
    opts[n, 2] = c
    opts[n, 3] = d
    return n + 1


@hot
def options_move(S, seat, opts):
    """One movement point (B5.2, B6.1-B6.6). Row 0 is 'stop moving'. Explorer rows
    ``(1, e, dest, boat)``: dest is a hex, an isle code, or the boat's hex with ``boat`` >= 0;
    boat rows ``(2, b, hex, -1)``."""
    n = _add(opts, 0, MV_STOP, -1, -1, -1)
    for slot in range(SLOTS):                      # R17: only the seat's own colour
        e = seat * SLOTS + slot
        loc = S[EX_LOC + e]
        h = S[EX_AT + e]
        if loc == L_LAND:                          # B6.2
            for i in range(N_NEIGHBOURS[h]):
                x = NEIGHBOURS[h, i]
                if S[HEX_TERRAIN + x] >= 0:
                    n = _add(opts, n, MV_EXPLORER, e, x, -1)
                else:
                    b = S[HEX_BOAT + x]
                    if b >= 0 and S[BOAT_N + b] < 3:
                        n = _add(opts, n, MV_EXPLORER, e, x, b)
                    n = _add(opts, n, MV_EXPLORER, e, x, -1)
        elif loc == L_BOAT:                        # B6.4
            hb = S[BOAT_HEX + h]
            for i in range(N_NEIGHBOURS[hb]):
                x = NEIGHBOURS[hb, i]
                b = S[HEX_BOAT + x]
                if b >= 0 and S[BOAT_N + b] < 3:
                    n = _add(opts, n, MV_EXPLORER, e, x, b)
            n = _add(opts, n, MV_EXPLORER, e, hb, -1)
            if ACCESS_ISLE[hb] >= 0:
                n = _add(opts, n, MV_EXPLORER, e, ACCESS_ISLE[hb], -1)
        elif loc == L_SEA:                         # B6.5
            swam = S[EX_SWAM + e] != 0
            if not swam:
                for i in range(N_NEIGHBOURS[h]):
                    x = NEIGHBOURS[h, i]
                    if S[HEX_TERRAIN + x] < 0:
                        n = _add(opts, n, MV_EXPLORER, e, x, -1)
            b = S[HEX_BOAT + h]
            if b >= 0 and S[BOAT_N + b] < 3:
                n = _add(opts, n, MV_EXPLORER, e, h, b)
            if not swam and ACCESS_ISLE[h] >= 0:
                n = _add(opts, n, MV_EXPLORER, e, ACCESS_ISLE[h], -1)
    for b in range(N_BOATS):                       # B6.1, B6.6
        h = S[BOAT_HEX + b]
        if h < 0 or (S[BOAT_N + b] > 0 and not controls(S, seat, b)):
            continue
        for i in range(N_NEIGHBOURS[h]):
            x = NEIGHBOURS[h, i]
            if S[HEX_TERRAIN + x] < 0 and S[HEX_BOAT + x] < 0:
                n = _add(opts, n, MV_BOAT, b, x, -1)
    return n


@hot
def _touches_sea(S, h):
    for i in range(N_NEIGHBOURS[h]):
        x = NEIGHBOURS[h, i]
        if S[HEX_TERRAIN + x] < 0 and (x != LAGOON or S[LAGOON_SEA] != 0):
            return True
    return False


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
        if S[HEX_TERRAIN + h] == terrain and _touches_sea(S, h):
            opts[n, 0] = h
            n += 1
    if n == 0:
        for i in range(ISLAND_HEXES.shape[0]):
            h = ISLAND_HEXES[i]
            if S[HEX_TERRAIN + h] == terrain:
                opts[n, 0] = h
                n += 1
    return n


@hot
def options_creature(S, W, kind, maxd, must_move, opts, n):
    """Die moves of ``kind`` (B6.8-B6.11): rows ``(kind, slot, dest)``, appended from row ``n``.
    Staying put (dest = own hex) is offered unless ``must_move`` (R2, R21 is applied by the
    caller once all kinds are listed)."""
    mt = MT_SERPENT if kind == SERPENT else (MT_SHARK if kind == SHARK else MT_WHALE)
    for k in range(KIND_COUNT[kind]):
        h = S[CR_HEX + kind * CR_SLOTS + k]
        if h < 0:
            continue
        if not must_move:
            n = _add(opts, n, kind, k, h, 0)
        m = reach(S, W, mt, h, maxd)
        for i in range(1, m + 1):
            n = _add(opts, n, kind, k, W[W_QUEUE + i], 0)
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
def options_play_tile(S, W, seat, opts):
    """Step 1 (B5.1, R4, R9, R14, R7): row 0 plays nothing; then ``(back, piece, dest, 0)`` for
    each red tile in hand with each legal target."""
    n = _add(opts, 0, -1, -1, -1, 0)
    if S[HAND_N + seat] == 0:
        return n
    if hand_count(S, seat, B_DOLPHIN) > 0:                # B3.6: own swimmer 1-3 sea hexes
        for slot in range(SLOTS):
            e = seat * SLOTS + slot
            if S[EX_LOC + e] != L_SEA:
                continue
            m = reach(S, W, MT_SWIMMER, S[EX_AT + e], 3)
            for i in range(1, m + 1):
                n = _add(opts, n, B_DOLPHIN, e, W[W_QUEUE + i], 0)
    if hand_count(S, seat, B_WIND) > 0:                   # B3.7 / R14
        for b in range(N_BOATS):
            if S[BOAT_HEX + b] >= 0 and controls(S, seat, b):
                m = reach(S, W, MT_BOAT, S[BOAT_HEX + b], 3)
                for i in range(1, m + 1):
                    n = _add(opts, n, B_WIND, b, W[W_QUEUE + i], 0)
    for back in range(B_MOVE_SERPENT, B_MOVE_WHALE + 1):  # B3.8-B3.10 / R9: which creature;
        if hand_count(S, seat, back) == 0:                # its destination is asked next
            continue
        kind = back - B_MOVE_SERPENT
        for k in range(KIND_COUNT[kind]):
            if S[CR_HEX + kind * CR_SLOTS + k] >= 0:
                n = _add(opts, n, back, k, -1, 0)
    return n


@hot
def options_tile_dest(S, back, piece, opts):
    """B3.8-B3.10 / R19: a move-creature tile sends its creature to any unoccupied sea hex."""
    n = 0
    for h in range(N_HEX):
        if unoccupied_sea(S, h):
            n = _add(opts, n, back, piece, h, 0)
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
    place_explorer(S, e, L_SEA, dest)
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
