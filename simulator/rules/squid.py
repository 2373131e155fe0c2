"""The Giant Squid (X7): where a squid may be placed (X7.1, R19) and whom it may take (X7.1,
X7.4). Its move is a creature's (``options_creatures``), its stop rule is ``paths`` (X7.3)."""
from simulator.board import N_HEX, N_NEIGHBOURS, NEIGHBOURS
from simulator.jit import hot
from simulator.state import (
    BOAT_N,
    BOAT_P,
    EX_AT,
    EX_LOC,
    HEX_BOAT,
    HEX_NLAND,
    HEX_TERRAIN,
    L_LAND,
    MAX_EX,
)

from .layout import add_row
from .queries import land_next_to, unoccupied_sea


@hot
def options_place_squid(S, opts):
    """X7.1 / R19: an unoccupied sea hex next to a land tile."""
    n = 0
    for h in range(N_HEX):
        if unoccupied_sea(S, h) and land_next_to(S, h):
            n = add_row(opts, n, h, -1, -1, -1)
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
                    n = add_row(opts, n, e, -1, -1, -1)
    b = S[HEX_BOAT + h]
    if b >= 0:
        for j in range(S[BOAT_N + b]):
            n = add_row(opts, n, S[BOAT_P + 3 * b + j], -1, -1, -1)
    return n
