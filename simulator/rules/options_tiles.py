"""Options of the tiles: which one sinks in step 3 (B5.5, R1), and step 1's play of a red tile
from the hand (B5.1, R4, R9, R14, R7): the dolphin (B3.6, R12, R13), wind (B3.7) and
move-creature tiles (B3.8-B3.10, R19; the squid X7.2), as one list or in two halves."""
import numpy as np

from simulator.board import ACCESS_ISLE, ISLAND_HEXES, LAGOON, N_HEX, N_NEIGHBOURS, NEIGHBOURS
from simulator.jit import hot
from simulator.state import (
    B_DOLPHIN,
    B_MOVE_SERPENT,
    B_MOVE_WHALE,
    B_WIND,
    BOAT_HEX,
    BOAT_N,
    CR_HEX,
    CR_SLOTS,
    EX_AT,
    EX_LOC,
    HAND_N,
    HEX_TERRAIN,
    KIND_COUNT,
    L_SEA,
    LAGOON_SEA,
    N_BOATS,
    N_TERRAIN,
    P_HAND,
    PRIV,
    PRIV_W,
    SLOTS,
    SQUID,
    SQUID_ON,
    TERRAIN_LEFT,
)

from .hand import hand_count
from .layout import W_QUEUE, add_row
from .options_moves import boat_can_move
from .paths import MT_BOAT, MT_SWIMMER, reach
from .queries import controls, sea_next_to, unoccupied_sea


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
    n = add_row(opts, n, -1, -1, -1, 0)
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
                n = add_row(opts, n, back, k, -1, kind)
        if back == B_MOVE_WHALE and S[SQUID_ON] != 0:
            for k in range(KIND_COUNT[SQUID]):
                if S[CR_HEX + SQUID * CR_SLOTS + k] >= 0:
                    n = add_row(opts, n, back, k, -1, SQUID)
    return n


@hot
def options_tile_pieces(S, seat, opts):
    """Step 1 (B5.1, R4, R9, R14), first half: row 0 plays nothing; then ``(back, piece, -1,
    0)`` for each red tile in hand and each piece it can move somewhere: an own swimmer (the
    dolphin, B3.6), a controlled boat (wind, B3.7, R14), a creature on the board (B3.8-B3.10).
    Where it goes is asked next (``options_tile_dest``)."""
    n = add_row(opts, 0, -1, -1, -1, 0)
    if S[HAND_N + seat] == 0:
        return n
    if hand_count(S, seat, B_DOLPHIN) > 0:
        for slot in range(SLOTS):
            e = seat * SLOTS + slot
            h = S[EX_AT + e]
            if S[EX_LOC + e] == L_SEA and (ACCESS_ISLE[h] >= 0 or sea_next_to(S, h)):
                n = add_row(opts, n, B_DOLPHIN, e, -1, 0)
    if hand_count(S, seat, B_WIND) > 0:
        for b in range(N_BOATS):
            if S[BOAT_HEX + b] >= 0 and S[BOAT_N + b] > 0 and boat_can_move(S, seat, b):
                n = add_row(opts, n, B_WIND, b, -1, 0)
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
        n = add_row(opts, n, back, piece, W[W_QUEUE + i], 0)
    return n


@hot
def options_tile_dest(S, back, piece, kind, opts):
    """B3.8-B3.10 / R19 / X7.2: a move-creature tile sends its creature (of ``kind``) to any
    unoccupied sea hex."""
    n = 0
    for h in range(N_HEX):                         # rows written always, counted if free
        add_row(opts, n, back, piece, h, kind)
        n += np.int64(unoccupied_sea(S, h))
    return n
