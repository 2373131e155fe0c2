"""Piece movement: the only functions that move explorers, boats and creatures, keeping the
occupancy counts (``HEX_*``) right, so that every other question is one lookup. No resolution
here (that is ``at_rest``). Rules: B3 (supply limits: ``supply_slot``, ``supply_boat``), R5 (a
boat back to the supply), B6.5 / X5.6 (a swimmer leaving its dolphin loses the protection)."""
from simulator.board import N_HEX
from simulator.jit import hot
from simulator.state import (
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    CR_HEX,
    CR_SLOTS,
    CR_SUPPLY,
    DOL_PROT,
    EX_AT,
    EX_FATE,
    EX_LOC,
    EX_PROT,
    HEX_BOAT,
    HEX_NCR,
    HEX_NLAND,
    HEX_NSWIM,
    KIND_COUNT,
    L_BOAT,
    L_LAND,
    L_LOST,
    L_SEA,
    N_BOATS,
)


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
