"""Options of the setup (B4): which explorer to place and where (B4.3; 6 players X1.3;
Challenge 1's room X2.1; Challenge 6 X6.2, X6.6), and where a boat goes (B4.4, R19)."""
import numpy as np

from simulator.board import COAST_HEXES, DENSE_CAP, ISLAND_HEXES
from simulator.jit import hot
from simulator.state import (
    CH_DENSE,
    CH_OVERPOP,
    CHALLENGES,
    EX_AT,
    EX_LOC,
    EX_VALUE,
    HEX_NLAND,
    HEX_TERRAIN,
    L_LAND,
    L_UNPLACED,
    N_PLAYERS,
    SLOTS,
)

from .layout import add_row
from .queries import land_next_to, unoccupied_sea


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
            n = add_row(opts, n, slot, h, 0, 0)
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
def options_place_boat(S, opts):
    """B4.4 / R19: an empty sea hex with no boat and no creature, next to a land tile."""
    n = 0
    for j in range(COAST_HEXES.shape[0]):
        h = COAST_HEXES[j]
        if unoccupied_sea(S, h) and land_next_to(S, h):
            opts[n, 0] = h
            n += 1
    return n
