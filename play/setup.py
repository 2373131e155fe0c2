"""Setup (B4): a new game's state from the settings vector and the setup stream (B4.1: pieces
off, serpents on their starts, the 40 tiles shuffled onto the island; X1.1, X1.2, X6.1, X7.6),
then the explorers and the boats placed in seat order (B4.3, B4.4, X1.3, X1.4, X2.1, X6.2) or
in the setup order the settings give (C2.1), and each seat's score bonus noted (C1.1)."""
import numpy as np

from simulator.board import ISLAND_HEXES, N_HEX, SERPENT_STARTS
from simulator.jit import hot
from simulator.rng import randint
from simulator.rules import movement as MV
from simulator.rules import options_setup as OS
from simulator.state import (
    BACK_COUNTS,
    BOAT_HEX,
    BOAT_P,
    BOATS_ALLOC,
    CH_OVERPOP,
    CHALLENGES,
    CR_GONE,
    CR_HEX,
    CR_SLOTS,
    D_PICK_EXPLORER,
    D_PLACE_BOAT,
    D_PLACE_EXPLORER,
    DOL_PROT,
    EX_AT,
    EX_LOC,
    EX_PROT,
    EX_SEAT,
    EX_VALUE,
    HEX_BOAT,
    HEX_TERRAIN,
    KIND_COUNT,
    KOMI,
    L_LAND,
    L_OFF,
    L_UNPLACED,
    LAGOON_SEA,
    MAX_EX,
    MAX_SEATS,
    MAX_TURNS,
    MUST_MOVE,
    N_BACKS,
    N_BOATS,
    N_KINDS,
    N_PLAYERS,
    N_SEATS,
    ORDER_BOATS,
    ORDER_EXPLORERS,
    ORDER_REVERSE,
    ORDER_SNAKE,
    P_VALUE,
    PLAYER_OF,
    PRIV,
    PRIV_W,
    PROTECT_PENDING,
    RNG_SETUP,
    SERPENT,
    SLOT_REMOVED,
    SLOT_VALUES,
    SLOTS,
    SQUID_ON,
    SQUID_ONLY,
    TERRAIN_LEFT,
    TILE_BACK,
    TILES_LEFT,
    WHALE,
)

from .decisions import ask, log_event
from .layout import (
    C_ERR,
    ERR_NO_OPTION,
    EV_PLACE_BOAT,
    EV_PLACE_EXPLORER,
    ST_BOATS,
    ST_CHALLENGES,
    ST_KOMI,
    ST_LAGOON_SEA,
    ST_MAX_TURNS,
    ST_MUST_MOVE,
    ST_ORDER,
    ST_PLAYERS,
    ST_SEATS,
    ST_SQUID,
)


@hot
def new_game(S, st, rng):
    """B4.1: empty pieces, serpents on their starts, tiles shuffled onto the island."""
    for i in range(S.shape[0]):
        S[i] = 0
    nseats = st[ST_SEATS]
    S[N_SEATS] = nseats
    S[N_PLAYERS] = st[ST_PLAYERS]
    S[LAGOON_SEA] = st[ST_LAGOON_SEA]
    S[MUST_MOVE] = st[ST_MUST_MOVE]
    S[MAX_TURNS] = st[ST_MAX_TURNS]
    S[CHALLENGES] = st[ST_CHALLENGES]
    S[SQUID_ON] = np.int64(st[ST_SQUID] > 0)
    S[SQUID_ONLY] = np.int64(st[ST_SQUID] == 2)
    S[PROTECT_PENDING] = -1
    S[ORDER_EXPLORERS] = st[ST_ORDER]
    S[ORDER_BOATS] = st[ST_ORDER + 1]
    for s in range(MAX_SEATS):
        S[PLAYER_OF + s] = s % st[ST_PLAYERS] if s < nseats else -1
        S[BOATS_ALLOC + s] = st[ST_BOATS + s] if s < nseats else 0
        S[KOMI + s] = st[ST_KOMI + s] if s < nseats else 0
    for e in range(MAX_EX):
        S[EX_AT + e] = -1
        S[EX_PROT + e] = -1
        seat = e // SLOTS
        S[EX_SEAT + e] = seat
        removed = SLOT_REMOVED[st[ST_PLAYERS], e % SLOTS] != 0 and \
            (st[ST_CHALLENGES] & CH_OVERPOP) == 0            # X1.1, X1.2; X6.1 keeps all 10
        if seat < nseats and not removed:
            slot = e % SLOTS
            S[EX_LOC + e] = L_UNPLACED
            S[EX_VALUE + e] = SLOT_VALUES[slot]
            S[PRIV + seat * PRIV_W + P_VALUE + slot] = SLOT_VALUES[slot]
        else:
            S[EX_LOC + e] = L_OFF
    for b in range(N_BOATS):
        S[BOAT_HEX + b] = -1
        for i in range(3):
            S[BOAT_P + 3 * b + i] = -1
    for kind in range(N_KINDS):
        for k in range(CR_SLOTS):
            S[CR_HEX + kind * CR_SLOTS + k] = -1 if k < KIND_COUNT[kind] else CR_GONE
            if kind == WHALE and st[ST_SQUID] == 2:
                S[CR_HEX + kind * CR_SLOTS + k] = CR_GONE     # X7.6: no whales
    for k in range(CR_SLOTS):
        S[DOL_PROT + k] = -1
    for h in range(N_HEX):
        S[HEX_TERRAIN + h] = -1
        S[HEX_BOAT + h] = -1
        S[TILE_BACK + h] = -1
    for k in range(5):
        MV.put_creature(S, SERPENT, k, SERPENT_STARTS[k])
    # the 40 tiles in a fixed order, then a Fisher-Yates shuffle from the setup stream
    n = 0
    for back in range(N_BACKS):
        for terrain in range(3):
            for _ in range(BACK_COUNTS[back, terrain]):
                S[HEX_TERRAIN + ISLAND_HEXES[n]] = terrain
                S[TILE_BACK + ISLAND_HEXES[n]] = back
                n += 1
    for i in range(n - 1, 0, -1):
        j = randint(rng, RNG_SETUP, i + 1)
        hi = ISLAND_HEXES[i]
        hj = ISLAND_HEXES[j]
        t = S[HEX_TERRAIN + hi]
        S[HEX_TERRAIN + hi] = S[HEX_TERRAIN + hj]
        S[HEX_TERRAIN + hj] = t
        t = S[TILE_BACK + hi]
        S[TILE_BACK + hi] = S[TILE_BACK + hj]
        S[TILE_BACK + hj] = t
    S[TILES_LEFT] = n
    for back in range(N_BACKS):
        for terrain in range(3):
            S[TERRAIN_LEFT + terrain] += BACK_COUNTS[back, terrain]


@hot
def place_next_explorer(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat):
    """B4.3: ``seat`` picks one of its unplaced explorers and puts it on a tile the rule in
    force allows (``rules.options_placement``: B4.3, X1.3, X2.1, X6.2). Returns 1 if it
    placed one, 0 if it had none left (or on an engine error)."""
    n = OS.options_pick_explorer(S, seat, opts)
    if n == 0:
        return 0
    slot = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_PICK_EXPLORER, opts, n), 0]
    n = OS.options_placement(S, seat, slot, opts)
    if n == 0:                         # cannot happen with the rules' counts
        ctx[C_ERR] = ERR_NO_OPTION
        return 0
    k = ask(S, st, rng, ctx, mem, W, fns, seat, D_PLACE_EXPLORER, opts, n)
    e = seat * SLOTS + slot
    MV.place_explorer(S, e, L_LAND, opts[k, 1])
    log_event(S, ctx, ev, snaps, EV_PLACE_EXPLORER, seat, e, opts[k, 1], 0, 0, 0, 0, 0)
    return 1


@hot
def seat_in_round(order, rnd, i, nseats):
    """C2.1: the ``i``-th seat to place in round ``rnd`` of a setup phase: seat ``i``
    (``forward``, the rules' B4.3 and B4.4), seat ``nseats - 1 - i`` (``reverse``), or forward
    in even rounds and reverse in odd ones (``snake``)."""
    if order == ORDER_REVERSE or (order == ORDER_SNAKE and rnd % 2 == 1):
        return nseats - 1 - i
    return i


@hot
def place_pieces(S, st, rng, ctx, mem, W, fns, opts, ev, snaps):
    """B4.3 then B4.4: explorers one at a time in the setup order (C2.1; the rules': seat
    order), then boats one at a time in theirs, skipping seats whose allocation is placed
    (X1.4). The orders are read from the state, which a re-entering search restores."""
    nseats = S[N_SEATS]
    remaining = 0
    for e in range(MAX_EX):
        if S[EX_LOC + e] == L_UNPLACED:
            remaining += 1
    rnd = 0
    while remaining > 0 and ctx[C_ERR] == 0:
        for i in range(nseats):
            seat = seat_in_round(S[ORDER_EXPLORERS], rnd, i, nseats)
            remaining -= place_next_explorer(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat)
        rnd += 1
    if ctx[C_ERR] != 0:
        return
    boat = 0
    for rnd in range(3):
        for i in range(nseats):
            seat = seat_in_round(S[ORDER_BOATS], rnd, i, nseats)
            if S[BOATS_ALLOC + seat] <= rnd:
                continue
            n = OS.options_place_boat(S, opts)
            if n == 0:
                continue
            k = ask(S, st, rng, ctx, mem, W, fns, seat, D_PLACE_BOAT, opts, n)
            MV.put_boat(S, boat, opts[k, 0])
            log_event(S, ctx, ev, snaps, EV_PLACE_BOAT, seat, boat, opts[k, 0], 0, 0, 0, 0, 0)
            boat += 1
