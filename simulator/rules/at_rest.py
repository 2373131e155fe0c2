"""The at-rest rule (B6.7) with the order of R15 -- serpents, whales, sharks, until nothing
changes -- and the whirlpool (B3.4). A whale's capsize next to dolphins may stop the
resolution for a choice (X5.9), which the engine asks and then resolves again."""
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
    EX_FATE,
    EX_LOC,
    EX_PROT,
    F_NONE,
    F_SERPENT,
    F_SHARK,
    F_WHALE,
    F_WHIRLPOOL,
    HEX_BOAT,
    HEX_NCR,
    HEX_NSWIM,
    HEX_TERRAIN,
    KIND_COUNT,
    L_SEA,
    MAX_EX,
    N_KINDS,
    PROTECT_PENDING,
    SERPENT,
    SHARK,
    WHALE,
)

from .dolphins import protect_capsized, release
from .movement import kill, place_explorer, put_boat, put_creature


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
                if S[HEX_NCR + DOLPHIN * N_HEX + h] > 0 and protect_capsized(S, h):
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
