"""Options of step 2, the movement points (B5.2, B6.1-B6.6, R17; a dolphin along X5.7): as one
list (``options_move``) or in the engine's two halves, which piece (``options_move_pieces``)
then where (``piece_moves``); and Challenge 6's bonus point (X6.3, X6.6). The row loops are
written with few unpredictable branches: they run for every movement point."""
import numpy as np

from simulator.board import ACCESS_ISLE, N_NEIGHBOURS, NEIGHBOURS
from simulator.jit import hot
from simulator.state import (
    BOAT_HEX,
    BOAT_N,
    EX_AT,
    EX_LOC,
    EX_PROT,
    EX_SEAT,
    EX_SWAM,
    HEX_BOAT,
    HEX_TERRAIN,
    L_BOAT,
    L_LAND,
    L_SEA,
    MV_BOAT,
    MV_EXPLORER,
    MV_STOP,
    N_BOATS,
    SLOTS,
    SWIM_WITH_DOLPHIN,
)

from .layout import W_SUNK, W_SUNK_N, add_row
from .queries import controls, sea_next_to


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
                n = add_row(opts, n, MV_EXPLORER, e, x, b)
            n = add_row(opts, n, MV_EXPLORER, e, x, -1)
    elif loc == L_BOAT:                            # B6.4
        hb = S[BOAT_HEX + h]
        for i in range(N_NEIGHBOURS[hb]):
            x = NEIGHBOURS[hb, i]
            b = S[HEX_BOAT + x]
            if b >= 0 and S[BOAT_N + b] < 3:
                n = add_row(opts, n, MV_EXPLORER, e, x, b)
        n = add_row(opts, n, MV_EXPLORER, e, hb, -1)
        if ACCESS_ISLE[hb] >= 0:
            n = add_row(opts, n, MV_EXPLORER, e, ACCESS_ISLE[hb], -1)
    elif loc == L_SEA:                             # B6.5
        swam = S[EX_SWAM + e] != 0
        if not swam:
            for i in range(N_NEIGHBOURS[h]):
                x = NEIGHBOURS[h, i]
                add_row(opts, n, MV_EXPLORER, e, x, -1)
                n += np.int64(S[HEX_TERRAIN + x] < 0)
            if with_dolphin and S[EX_PROT + e] >= 0:   # X5.7: the same swims, with its dolphin
                for i in range(N_NEIGHBOURS[h]):
                    x = NEIGHBOURS[h, i]
                    add_row(opts, n, MV_EXPLORER, e, x, SWIM_WITH_DOLPHIN)
                    n += np.int64(S[HEX_TERRAIN + x] < 0)
        b = S[HEX_BOAT + h]
        if b >= 0 and S[BOAT_N + b] < 3:
            n = add_row(opts, n, MV_EXPLORER, e, h, b)
        if not swam and ACCESS_ISLE[h] >= 0:
            n = add_row(opts, n, MV_EXPLORER, e, ACCESS_ISLE[h], -1)
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
        add_row(opts, n, MV_BOAT, b, x, -1)
        n += np.int64((S[HEX_TERRAIN + x] < 0) & (S[HEX_BOAT + x] < 0))
    return n


@hot
def move_rows(S, seat, opts, n):
    """Every movement point of ``seat`` from row ``n``: 'stop moving' first, then each own
    explorer's rows (R17), then each movable boat's. Returns the new row count."""
    n = add_row(opts, n, MV_STOP, -1, -1, -1)
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
def options_move_pieces(S, seat, opts):
    """First half of a movement point: ``(0, -1, -1, -1)`` = stop, then ``(1, e, -1, -1)`` for
    each own explorer and ``(2, b, -1, -1)`` for each boat with at least one legal move."""
    n = add_row(opts, 0, MV_STOP, -1, -1, -1)
    for slot in range(SLOTS):                      # rows written always, counted if movable
        e = seat * SLOTS + slot
        loc = S[EX_LOC + e]
        ok = (loc == L_LAND) | (loc == L_BOAT)     # always a neighbour / the water below
        if loc == L_SEA:
            ok = swimmer_can_move(S, e)
        add_row(opts, n, MV_EXPLORER, e, -1, -1)
        n += np.int64(ok)
    for b in range(N_BOATS):
        add_row(opts, n, MV_BOAT, b, -1, -1)
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
def options_bonus_pieces(S, seat, W, opts):
    """X6.3 / X6.6, first half: ``(0, -1, -1, -1)`` = pass, then ``(1, e, -1, -1)`` for each of
    the seat's explorers that stood on the tile just sunk (``W_SUNK``), is still on the board
    (swimming or in a boat) and can move one step."""
    n = add_row(opts, 0, MV_STOP, -1, -1, -1)
    for j in range(W[W_SUNK_N]):
        e = W[W_SUNK + j]
        if S[EX_SEAT + e] != seat:
            continue
        loc = S[EX_LOC + e]
        if loc == L_BOAT or (loc == L_SEA and swimmer_can_move(S, e)):
            n = add_row(opts, n, MV_EXPLORER, e, -1, -1)
    return n
