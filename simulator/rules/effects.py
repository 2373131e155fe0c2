"""Effects: carry out one chosen movement point and resolve its hex (B6.2-B6.7, R3; a dolphin
along X5.7, met X5.9), sink a tile (B5.6), list the swimmers of a hex."""
from simulator.board import N_HEX
from simulator.jit import hot
from simulator.state import (
    BACKS_REMOVED,
    DOLPHIN,
    EX_AT,
    EX_LOC,
    EX_PROT,
    EX_SWAM,
    HEX_NCR,
    HEX_NLAND,
    HEX_TERRAIN,
    L_BOAT,
    L_LAND,
    L_SAFE,
    L_SEA,
    MAX_EX,
    MV_BOAT,
    SWIM_WITH_DOLPHIN,
    TERRAIN_LEFT,
    TILE_BACK,
    TILES_LEFT,
)

from .at_rest import resolve_hex
from .dolphins import arrive, protect
from .movement import place_explorer, put_boat, put_creature


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
