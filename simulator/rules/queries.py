"""Basic queries about one hex or one boat, asked by every other rules module and by the
strategies: control of a boat (B6.1, B4.5), unprotected swimmers (X5.5), unoccupied sea (B3.8-B3.10,
R19), land or sea next to a hex (B4.4, X7.1), creatures in a hex (X7.1, X7.3-X7.5)."""
import numpy as np

from simulator.board import N_HEX, N_NEIGHBOURS, NEIGHBOURS
from simulator.jit import hot
from simulator.state import (
    BOAT_N,
    BOAT_P,
    CR_GONE,
    CR_HEX,
    CR_SLOTS,
    DOLPHIN,
    EX_AT,
    EX_LOC,
    EX_PROT,
    EX_SEAT,
    HEX_BOAT,
    HEX_NCR,
    HEX_NLAND,
    HEX_NSWIM,
    HEX_TERRAIN,
    KIND_COUNT,
    L_SEA,
    MAX_EX,
    N_KINDS,
    PLAYER_OF,
)

from .movement import put_creature


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
def sea_next_to(S, h):
    """A sea hex is adjacent to ``h``."""
    for i in range(N_NEIGHBOURS[h]):
        if S[HEX_TERRAIN + NEIGHBOURS[h, i]] < 0:
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
