"""The game loop: setup, the four turn steps, the end, and the per-game record.

``play_game`` drives one complete game over the flat state ``S``; every choice goes to the seat's
strategy through ``ask`` with the legal options ``rules`` enumerated, every chance outcome comes
from the game's own random streams. ``run_games`` plays a block of games in parallel; game ``i``
depends only on (root seed, i, settings), so results never depend on threads or chunking.

With ``log_on`` the game also writes one event row per decision or chance outcome, and a copy of
the state after it, which ``play.record`` turns into the replay log.
"""
import numpy as np
from numba import njit, prange

from strategies.dispatch import MEM_W, PAR0, choose
from strategies.registry import PLUGIN_CODE

from simulator.board import ISLAND_HEXES, N_HEX, SERPENT_STARTS
from simulator.jit import ENGINE_INLINING, hot, inlining
from simulator.rng import randint, seed_streams
from simulator.rules import (
    MT_BOAT,
    MT_SWIMMER,
    W_PATH,
    W_SUNK,
    W_SUNK_N,
    W_SWIM,
    W_SIZE,
    add_to_hand,
    apply_move,
    attack_pending,
    defence_back,
    die_reach,
    face_kinds,
    free_dolphin,
    kill,
    may_defend,
    mover_type,
    options_place_squid,
    piece_hex,
    protect,
    protect_candidates,
    release,
    squid_victims,
    creature_can_move,
    creature_moves,
    options_creature_pieces,
    options_move_pieces,
    explorer_moves,
    piece_moves,
    options_pick_explorer,
    options_place_boat,
    options_bonus_pieces,
    options_placement,
    options_tile_pieces,
    options_tile_reach,
    options_sink,
    options_tile_dest,
    path_to,
    place_explorer,
    put_boat,
    put_creature,
    remove_all_at,
    reach,
    reset_work,
    resolve_hex,
    sink,
    supply_boat,
    supply_slot,
    swimmers_in,
    via_path,
    take_from_hand,
    whirlpool,
)
from simulator.state import (
    B_BOAT,
    B_DOLPHIN,
    B_MOVE_SERPENT,
    B_SHARK,
    B_VOLCANO,
    B_WHALE,
    B_WHIRLPOOL,
    B_WIND,
    BACK_COUNTS,
    BACKS_REMOVED,
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    BOATS_ALLOC,
    BONUS_MOVES,
    CH_ATLANTIS_GONE,
    CH_DIVE,
    CH_EQUAL,
    CH_LEAVE_NONE,
    CH_OVERPOP,
    CHALLENGES,
    CR_GONE,
    CR_HEX,
    CR_SLOTS,
    CUR_SEAT,
    D_BOARD,
    D_CREATURE,
    D_CREATURE_PIECE,
    D_DEFEND,
    D_MOVE,
    D_MOVE_PIECE,
    D_PICK_EXPLORER,
    D_PLACE_BOAT,
    D_PLACE_EXPLORER,
    D_PLACE_SQUID,
    D_PLAY_TILE,
    D_PROTECT,
    D_SINK,
    D_SQUID_VICTIM,
    D_TAKE_BOAT,
    D_TILE_DEST,
    DIVE_D,
    DIVE_FACES,
    DIVE_NUMBERS,
    DOL_PROT,
    DOLPHIN,
    DOLPHINS_PLACED,
    E_ISLAND_GONE,
    E_NO_EXPLORERS,
    E_TURN_CAP,
    E_VOLCANO,
    END_REASON,
    END_SEAT,
    EX_AT,
    EX_FATE,
    EX_LOC,
    EX_PROT,
    EX_SEAT,
    EX_SWAM,
    EX_VALUE,
    F_SQUID,
    F_STRANDED,
    HEX_BOAT,
    HEX_NLAND,
    HEX_TERRAIN,
    KIND_COUNT,
    L_BOAT,
    L_LAND,
    L_OFF,
    L_SAFE,
    L_SEA,
    L_UNPLACED,
    LAGOON_SEA,
    MAX_EX,
    MAX_OPTS,
    MAX_SEATS,
    MAX_TURNS,
    MP_LEFT,
    MUST_MOVE,
    MV_STOP,
    N_BACKS,
    N_BOATS,
    N_KINDS,
    N_PLAYERS,
    N_SEATS,
    N_STREAMS,
    OPT_W,
    OVER,
    P_VALUE,
    PK_BOAT,
    PLAYER_OF,
    PRIV,
    PRIV_W,
    PROTECT_PENDING,
    PUB_SIZE,
    RNG_DICE,
    ROLL_FACE,
    ROLL_NUMBER,
    RNG_SEAT0,
    RNG_SETUP,
    SERPENT,
    SHARK,
    SLOT_REMOVED,
    SLOT_VALUES,
    SLOTS,
    SQUID,
    SQUID_ON,
    SQUID_ONLY,
    SQUID_PLACED,
    STATE_SIZE,
    TERRAIN_LEFT,
    TILE_BACK,
    TILES_LEFT,
    TURN,
    TURNS,
    VIA_JUMP,
    VIA_SWITCH,
    WHALE,
)

# ---- settings vector handed to the compiled core (one int64 array: one signature) ---------
(ST_PLAYERS, ST_SEATS, ST_LAGOON_SEA, ST_MUST_MOVE, ST_MAX_TURNS) = range(5)
ST_BOATS = 5                      # 6 cells: boats per seat
ST_SIDS = ST_BOATS + MAX_SEATS    # 6 cells: strategy id per seat
ST_CHALLENGES = ST_SIDS + MAX_SEATS   # CH_* bits
ST_SQUID = ST_CHALLENGES + 1      # X7: 0 off, 1 the Giant Squid, 2 squid instead of whales
ST_SIZE = ST_SQUID + 1

# ---- event log ---------------------------------------------------------------------------
(EV_LAYOUT, EV_PLACE_EXPLORER, EV_PLACE_BOAT, EV_TURN, EV_PLAY_TILE, EV_MOVE, EV_SINK,
 EV_ROLL, EV_CREATURE, EV_END, EV_BONUS, EV_SQUID) = range(12)
EV_NAMES = ("layout", "place_explorer", "place_boat", "turn_start", "play_tile", "move", "sink",
            "roll", "creature", "end", "bonus", "squid")
EV_W = 10                         # type, seat, turn, then up to 7 fields
# ctx cells (int64): events written, error code, logging on, and who gave a bad answer
C_NEV, C_ERR, C_LOG, C_BAD_KIND, C_BAD_SEAT = 0, 1, 2, 3, 4
CTX_W = 5
ERR_BAD_CHOICE, ERR_LOG_FULL, ERR_NO_OPTION, ERR_PLUGIN_CHOICE = 1, 2, 3, 4

# ---- per-game record ------------------------------------------------------------------------
REC_GAME = ("players", "seats", "end_reason", "end_seat", "turns", "tiles_removed",
            "bonus_moves", "dolphins_placed", "squid_placed")
REC_SEAT = ("score", "rescued", "rescued_value", "lost", "turns", "lost_serpent", "lost_shark",
            "lost_whale", "lost_whirlpool", "lost_squid", "lost_stranded")
R_BACKS = len(REC_GAME)
R_SEAT0 = R_BACKS + N_BACKS
REC_W = R_SEAT0 + MAX_SEATS * len(REC_SEAT)
_RS = len(REC_SEAT)


@hot
def log_event(S, ctx, ev, snaps, etype, seat, a, b, c, d, e, f, g):
    if ctx[C_LOG] == 0:
        return
    i = ctx[C_NEV]
    if i >= ev.shape[0]:
        ctx[C_ERR] = ERR_LOG_FULL
        return
    ev[i, 0] = etype
    ev[i, 1] = seat
    ev[i, 2] = S[TURN]
    ev[i, 3] = a
    ev[i, 4] = b
    ev[i, 5] = c
    ev[i, 6] = d
    ev[i, 7] = e
    ev[i, 8] = f
    ev[i, 9] = g
    for j in range(S.shape[0]):
        snaps[i, j] = S[j]
    ctx[C_NEV] = i + 1


@hot
def ask(S, st, rng, ctx, mem, W, fns, seat, kind, opts, n):
    """Ask the seat's strategy to pick one of ``n`` legal options. It sees only the public part
    of the state and its own private row (R11), and may use ``W`` as scratch for rules queries
    (so the engine never keeps a search result across a question). One option needs no
    question."""
    if n <= 1:
        return 0
    pub = S[:PUB_SIZE]
    mine = S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W]
    row = mem[seat]
    sid = st[ST_SIDS + seat]
    noise = rng[RNG_SEAT0 + seat:RNG_SEAT0 + seat + 1]
    if sid >= PLUGIN_CODE:      # a plug-in or a built-in outside the switch: its seat function
        k = fns[seat](np.int64(S.ctypes.data), np.int64(opts.ctypes.data),
                      np.int64(W.ctypes.data), np.int64(rng.ctypes.data),
                      np.int64(mem.ctypes.data), np.int64(seat), np.int64(kind), np.int64(n))
        if k < 0 or k >= n:
            ctx[C_ERR] = ERR_PLUGIN_CHOICE
            ctx[C_BAD_KIND] = kind
            ctx[C_BAD_SEAT] = seat
            return 0
        return k
    k = choose(sid, pub, mine, seat, kind, opts, n, noise, row[:PAR0], W, row[PAR0:])
    if k < 0 or k >= n:
        ctx[C_ERR] = ERR_BAD_CHOICE
        return 0
    return k


# ============================================================================ setup
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
    for s in range(MAX_SEATS):
        S[PLAYER_OF + s] = s % st[ST_PLAYERS] if s < nseats else -1
        S[BOATS_ALLOC + s] = st[ST_BOATS + s] if s < nseats else 0
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
        put_creature(S, SERPENT, k, SERPENT_STARTS[k])
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
    n = options_pick_explorer(S, seat, opts)
    if n == 0:
        return 0
    slot = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_PICK_EXPLORER, opts, n), 0]
    n = options_placement(S, seat, slot, opts)
    if n == 0:                         # cannot happen with the rules' counts
        ctx[C_ERR] = ERR_NO_OPTION
        return 0
    k = ask(S, st, rng, ctx, mem, W, fns, seat, D_PLACE_EXPLORER, opts, n)
    e = seat * SLOTS + slot
    place_explorer(S, e, L_LAND, opts[k, 1])
    log_event(S, ctx, ev, snaps, EV_PLACE_EXPLORER, seat, e, opts[k, 1], 0, 0, 0, 0, 0)
    return 1


@hot
def place_pieces(S, st, rng, ctx, mem, W, fns, opts, ev, snaps):
    """B4.3 then B4.4: explorers one at a time in seat order, then boats one at a time in seat
    order, skipping seats whose allocation is placed (X1.4)."""
    nseats = S[N_SEATS]
    remaining = 0
    for e in range(MAX_EX):
        if S[EX_LOC + e] == L_UNPLACED:
            remaining += 1
    while remaining > 0 and ctx[C_ERR] == 0:
        for seat in range(nseats):
            remaining -= place_next_explorer(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat)
    if ctx[C_ERR] != 0:
        return
    boat = 0
    for rnd in range(3):
        for seat in range(nseats):
            if S[BOATS_ALLOC + seat] <= rnd:
                continue
            n = options_place_boat(S, opts)
            if n == 0:
                continue
            k = ask(S, st, rng, ctx, mem, W, fns, seat, D_PLACE_BOAT, opts, n)
            put_boat(S, boat, opts[k, 0])
            log_event(S, ctx, ev, snaps, EV_PLACE_BOAT, seat, boat, opts[k, 0], 0, 0, 0, 0, 0)
            boat += 1


# ============================================================================ turn steps
@hot
def end_game(S, reason, seat):
    S[OVER] = 1
    S[END_REASON] = reason
    S[END_SEAT] = seat


@hot
def challenge_end(S, seat):
    """X2.2, X2.4, X2.5: with Leave No One Behind the game ends once no explorer is on the
    board; with Atlantis is Gone, once the last land tile is removed. Checked after every
    action that can bring either about; returns True when the game is over."""
    if S[OVER] != 0:
        return True
    ch = S[CHALLENGES]
    if ch & CH_LEAVE_NONE:
        on_board = 0
        for e in range(MAX_EX):
            loc = S[EX_LOC + e]
            on_board += np.int64((loc == L_LAND) | (loc == L_BOAT) | (loc == L_SEA))
        if on_board == 0:
            end_game(S, E_NO_EXPLORERS, seat)
            return True
    if (ch & CH_ATLANTIS_GONE) and S[TILES_LEFT] == 0:
        end_game(S, E_ISLAND_GONE, seat)
        return True
    return False


@hot
def settle(S, st, rng, ctx, mem, W, fns, opts, seat):
    """X5.9: a whale threw more swimmers into a hex than it has free dolphins; ``seat``, whose
    action caused it, picks who each free dolphin protects, then the hex's resolution goes on
    (``rules.resolve_hex`` left it pending)."""
    while S[PROTECT_PENDING] >= 0:
        h = S[PROTECT_PENDING]
        d = free_dolphin(S, h)
        while d >= 0:
            n = protect_candidates(S, h, True, d, opts)
            if n == 0:
                break
            protect(S, d, opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_PROTECT, opts, n), 0])
            d = free_dolphin(S, h)
        resolve_hex(S, h)


@hot
def protect_one(S, st, rng, ctx, mem, W, fns, opts, seat, h, d):
    """X5.5 / X5.9: free dolphin ``d`` has come to hex ``h``: it protects one unprotected
    swimmer there, the one ``seat`` picks when there are several. Returns it, or -1."""
    n = protect_candidates(S, h, False, d, opts)
    if n == 0:
        return -1
    e = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_PROTECT, opts, n), 0]
    protect(S, d, e)
    return e


@hot
def squid_attack(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat, k, placed):
    """X7.1 / X7.4: after a squid is placed or moved (staying counts), every whale in its hex
    is removed, then ``seat`` removes exactly one explorer: from a land tile next to it or from an
    occupied boat in its hex. Logged as a ``squid`` event."""
    h = S[CR_HEX + SQUID * CR_SLOTS + k]
    whales = remove_all_at(S, WHALE, h)
    n = squid_victims(S, h, opts)
    victim = -1
    if n > 0:
        victim = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_SQUID_VICTIM, opts, n), 0]
        kill(S, victim, F_SQUID)
    challenge_end(S, S[CUR_SEAT])
    log_event(S, ctx, ev, snaps, EV_SQUID, seat, k, h, whales, victim, placed, 0, 0)


@hot
def place_squid(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat):
    """X7.1: a whale tile that brought a whale into play (under squid-only: any whale tile)
    also brings a squid, placed by the revealer on an unoccupied sea hex next to land."""
    k = supply_slot(S, SQUID)
    if k < 0:
        return
    n = options_place_squid(S, opts)
    if n == 0:
        return
    h = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_PLACE_SQUID, opts, n), 0]
    put_creature(S, SQUID, k, h)
    S[SQUID_PLACED] += 1
    squid_attack(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat, k, 1)


@hot
def step_play_tile(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps, seat):
    """Step 1 (B5.1): optionally play one red tile from the hand, asked in two decisions:
    which tile on which piece (or none), then where the piece goes."""
    n = options_tile_pieces(S, seat, opts)
    if n <= 1:
        return
    k = ask(S, st, rng, ctx, mem, W, fns, seat, D_PLAY_TILE, opts, n)
    back = opts[k, 0]
    if back < 0:
        return
    piece = opts[k, 1]
    kind = opts[k, 3]                         # move tiles: the creature's kind (X7.2: squid)
    if back == B_DOLPHIN or back == B_WIND:
        n = options_tile_reach(S, W, back, piece, opts)
    else:
        n = options_tile_dest(S, back, piece, kind, opts)
    if n == 0:                                # no unoccupied sea hex at all (R9): keep it
        return
    dest = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_TILE_DEST, opts, n), 2]
    take_from_hand(S, seat, back)
    path[0] = dest
    path[1] = -1
    path[2] = -1
    if back == B_DOLPHIN:                     # B3.6, R7, R12, R13
        e = piece
        reach(S, W, MT_SWIMMER, S[EX_AT + e], 3)
        m = path_to(W, dest, path)
        for i in range(m):
            x = path[i]
            if x >= 133:
                place_explorer(S, e, L_SAFE, x)
                break
            place_explorer(S, e, L_SEA, x)
            if resolve_hex(S, x) > 0 and S[EX_LOC + e] != L_SEA:
                break
        S[EX_SWAM + e] = 1
    elif back == B_WIND:                      # B3.7, R12
        b = piece
        reach(S, W, MT_BOAT, S[BOAT_HEX + b], 3)
        m = path_to(W, dest, path)
        for i in range(m):
            put_boat(S, b, path[i])
            resolve_hex(S, path[i])
            if S[BOAT_HEX + b] != path[i]:
                break
        settle(S, st, rng, ctx, mem, W, fns, opts, seat)
    else:                                     # B3.8-B3.10: to an unoccupied hex, no attack
        put_creature(S, kind, piece, dest)
    log_event(S, ctx, ev, snaps, EV_PLAY_TILE, seat, back, piece, path[0], path[1], path[2],
              kind if back >= B_MOVE_SERPENT else 0, 0)
    if back >= B_MOVE_SERPENT and kind == SQUID:              # X7.2, X7.4
        squid_attack(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat, piece, 0)


@hot
def step_move(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat):
    """Step 2 (B5.2): up to 3 movement points, one at a time. Each is asked in two decisions:
    which piece (or stop), then where it goes."""
    S[MP_LEFT] = 3
    while S[MP_LEFT] > 0:
        n = options_move_pieces(S, seat, opts)
        k = ask(S, st, rng, ctx, mem, W, fns, seat, D_MOVE_PIECE, opts, n)
        if opts[k, 0] == MV_STOP:
            break
        n = piece_moves(S, seat, opts[k, 0], opts[k, 1], opts)
        k = ask(S, st, rng, ctx, mem, W, fns, seat, D_MOVE, opts, n)
        what, i, dest, boat = opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3]
        apply_move(S, seat, what, i, dest, boat)
        settle(S, st, rng, ctx, mem, W, fns, opts, seat)
        S[MP_LEFT] -= 1
        over = challenge_end(S, seat)
        log_event(S, ctx, ev, snaps, EV_MOVE, seat, what, i, dest, boat, 0, 0, 0)
        if over:
            break
    S[MP_LEFT] = 0


@hot
def step_sink(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps, seat):
    """Step 3 (B5.3-B5.7): sink an eligible tile and resolve a green back or keep a red one."""
    n = options_sink(S, opts)
    if n == 0:
        return
    k = ask(S, st, rng, ctx, mem, W, fns, seat, D_SINK, opts, n)
    h = opts[k, 0]
    terrain = S[HEX_TERRAIN + h]
    m = 0                                     # X6.3: who stood on the tile
    if (S[CHALLENGES] & CH_OVERPOP) and S[HEX_NLAND + h] > 0:
        for e in range(MAX_EX):
            if S[EX_LOC + e] == L_LAND and S[EX_AT + e] == h:
                W[W_SUNK + m] = e
                m += 1
    W[W_SUNK_N] = m
    back = sink(S, h)
    path[0] = -1
    path[1] = -1
    path[2] = -1
    taken = -1
    protected = -1
    squid = False
    if (S[CHALLENGES] & CH_ATLANTIS_GONE) and S[TILES_LEFT] == 0:
        end_game(S, E_ISLAND_GONE, seat)      # R20: before the last tile's back is resolved
    elif back == B_VOLCANO:                     # B5.7 / B7.1; X2.2, X2.4: a whirlpool
        if S[CHALLENGES] & (CH_LEAVE_NONE | CH_ATLANTIS_GONE):
            whirlpool(S, h)
        else:
            end_game(S, E_VOLCANO, seat)
    elif back == B_WHALE:                     # B3.1: swimmers unharmed
        slot = supply_slot(S, WHALE)
        if slot >= 0:
            put_creature(S, WHALE, slot, h)
            resolve_hex(S, h)
        squid = S[SQUID_ON] != 0 and (slot >= 0 or S[SQUID_ONLY] != 0)      # X7.1, X7.8
    elif back == B_DOLPHIN and (S[CHALLENGES] & CH_DIVE):     # X5.2: a dolphin, at once
        d = supply_slot(S, DOLPHIN)
        if d >= 0:
            put_creature(S, DOLPHIN, d, h)
            S[DOLPHINS_PLACED] += 1
            protected = protect_one(S, st, rng, ctx, mem, W, fns, opts, seat, h, d)
    elif back == B_SHARK:                     # B3.2: every swimmer there is eaten
        slot = supply_slot(S, SHARK)
        if slot >= 0:
            put_creature(S, SHARK, slot, h)
            resolve_hex(S, h)
    elif back == B_BOAT:                      # B3.3, R5, R6
        b = supply_boat(S)
        if b < 0:
            m = 0
            for x in range(N_BOATS):
                if S[BOAT_HEX + x] >= 0 and S[BOAT_N + x] == 0:
                    opts[m, 0] = x
                    m += 1
            if m > 0:
                b = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_TAKE_BOAT, opts, m), 0]
                taken = b
        if b >= 0:
            put_boat(S, b, h)
            swim = W[W_SWIM:W_SWIM + MAX_EX]
            m = swimmers_in(S, h, swim)
            if m <= 3:
                for i in range(m):
                    path[i] = swim[i]
            else:
                # the revealer chooses which three board, one at a time
                for j in range(3):
                    cnt = 0
                    for i in range(m):
                        if swim[i] >= 0:
                            opts[cnt, 0] = swim[i]
                            cnt += 1
                    pick = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_BOARD, opts, cnt), 0]
                    path[j] = pick
                    for i in range(m):
                        if swim[i] == pick:
                            swim[i] = -1
            for i in range(3):
                if path[i] >= 0:
                    place_explorer(S, path[i], L_BOAT, b)
            resolve_hex(S, h)
    elif back == B_WHIRLPOOL:                 # B3.4
        whirlpool(S, h)
    else:                                     # red and red-X backs go to the hand (B5.6)
        add_to_hand(S, seat, back, terrain)
    challenge_end(S, seat)
    log_event(S, ctx, ev, snaps, EV_SINK, seat, h, back, path[0], path[1], path[2], taken,
              protected)
    if squid and S[OVER] == 0:
        place_squid(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat)
    if (S[CHALLENGES] & CH_OVERPOP) and S[OVER] == 0 and W[W_SUNK_N] > 0:
        bonus_round(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat)


@hot
def bonus_round(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat):
    """X6.3 / X6.6 (Challenge 6): after the sunk tile's effect and before the creature roll,
    each seat with explorers from that tile still on the board, in turn order from the active
    seat, may move one of them one step (one movement point, never a boat)."""
    nseats = S[N_SEATS]
    for j in range(nseats):
        s = (seat + j) % nseats
        n = options_bonus_pieces(S, s, W, opts)
        if n <= 1:
            continue
        k = ask(S, st, rng, ctx, mem, W, fns, s, D_MOVE_PIECE, opts, n)
        if opts[k, 0] == MV_STOP:
            continue
        n = explorer_moves(S, opts[k, 1], opts, 0, False)   # X5.7: no dolphin along here
        k = ask(S, st, rng, ctx, mem, W, fns, s, D_MOVE, opts, n)
        what, i, dest, boat = opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3]
        apply_move(S, s, what, i, dest, boat)
        settle(S, st, rng, ctx, mem, W, fns, opts, s)
        S[BONUS_MOVES] += 1
        over = challenge_end(S, seat)
        log_event(S, ctx, ev, snaps, EV_BONUS, s, what, i, dest, boat, 0, 0, 0)
        if over:
            return


@hot
def move_creature(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps, seat, kind, slot, dest, via):
    """Die move of one piece (B6.8-B6.12, R12, R16, X5.4-X5.7, X7.2-X7.5): walk the path, open
    the defence window if an attack is pending, then resolve the hex (B6.7). ``via`` is the path
    code of the option row (``rules.creature_moves``): a path, a dive-dice jump, a dolphin's
    protection switch; -1 = find the path here."""
    start = piece_hex(S, kind, slot)
    path[0] = -1
    path[1] = -1
    path[2] = -1
    m = 0
    protected = -1
    if via >= VIA_SWITCH:                          # X5.7: switch instead of moving
        protected = via - VIA_SWITCH
        release(S, slot)
        protect(S, slot, protected)
        resolve_hex(S, start)                      # the one it left may be eaten (X5.6)
    elif dest != start:
        if via == VIA_JUMP:                        # X5.4: a D, to an unoccupied hex
            path[0] = dest
            m = 1
        elif via < 0:
            reach(S, W, mover_type(kind), start, 3)
            m = path_to(W, dest, path)
        else:
            m = via_path(start, dest, via, path)
        if kind == PK_BOAT:
            put_boat(S, slot, dest)
        else:
            if kind == DOLPHIN:
                release(S, slot)
            put_creature(S, kind, slot, dest)
            if kind == DOLPHIN:
                resolve_hex(S, start)              # X5.6: its swimmer is eaten at once
            elif kind == WHALE:
                remove_all_at(S, SQUID, dest)      # X7.5, X7.8: before the boat capsizes
    defender = -1
    if m > 0 and attack_pending(S, kind, dest):
        nseats = S[N_SEATS]
        for j in range(1, nseats):
            other = (seat + j) % nseats
            if may_defend(S, other, seat, kind, dest):
                opts[0, 0] = 0
                opts[1, 0] = 1
                if opts[ask(S, st, rng, ctx, mem, W, fns, other, D_DEFEND, opts, 2), 0] == 1:
                    take_from_hand(S, other, defence_back(kind))
                    put_creature(S, kind, slot, CR_GONE)
                    defender = other
                    break
    if m > 0:
        if kind == DOLPHIN:                        # X5.5, X5.9
            protected = protect_one(S, st, rng, ctx, mem, W, fns, opts, seat, dest, slot)
        resolve_hex(S, dest)
        settle(S, st, rng, ctx, mem, W, fns, opts, seat)
    log_event(S, ctx, ev, snaps, EV_CREATURE, seat, kind, slot, path[0], path[1], path[2],
              defender, protected)
    if kind == SQUID:                              # X7.4: after any squid move, staying too
        squid_attack(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat, slot, 0)


@hot
def step_creature(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps, seat):
    """Step 4 (B5.4, X5.1, X5.3): roll the creature die -- or both dive dice -- and move one
    piece of the kind(s) shown, asked in two decisions: which piece (with the starfish this is
    also the choice of kind), then where (R2, R21: staying is offered unless creatures must
    move and one can; never on a D)."""
    dive = (S[CHALLENGES] & CH_DIVE) != 0
    if dive:
        face = DIVE_FACES[randint(rng, RNG_DICE, 6)]
        number = DIVE_NUMBERS[randint(rng, RNG_DICE, 6)]
    else:
        face = randint(rng, RNG_DICE, 6) // 2  # B1.6: 2 serpent, 2 shark, 2 whale faces
        number = 0
    S[ROLL_FACE] = face
    S[ROLL_NUMBER] = number
    log_event(S, ctx, ev, snaps, EV_ROLL, seat, face, number, np.int64(dive), 0, 0, 0, 0)
    must = S[MUST_MOVE] != 0
    jump = dive and number == DIVE_D
    n = options_creature_pieces(S, face_kinds(S, face), must and not jump, opts)
    if n == 0:                                 # no piece of that kind on the board
        return
    j = ask(S, st, rng, ctx, mem, W, fns, seat, D_CREATURE_PIECE, opts, n)
    kind = opts[j, 0]
    slot = opts[j, 1]
    must = must and creature_can_move(S, kind, slot)
    n = creature_moves(S, W, kind, slot, die_reach(S, kind), must, opts, 0)
    if n == 0:                                 # a D with no unoccupied sea hex at all
        return
    k = ask(S, st, rng, ctx, mem, W, fns, seat, D_CREATURE, opts, n)
    move_creature(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps, seat, kind, slot,
                  opts[k, 2], opts[k, 3])


@hot
def play_turn(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps):
    seat = S[CUR_SEAT]
    S[TURN] += 1
    S[TURNS + seat] += 1
    for e in range(MAX_EX):
        S[EX_SWAM + e] = 0
    log_event(S, ctx, ev, snaps, EV_TURN, seat, 0, 0, 0, 0, 0, 0, 0)
    step_play_tile(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps, seat)
    if challenge_end(S, seat):
        return
    step_move(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat)
    if S[OVER] != 0:
        return
    step_sink(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps, seat)
    if S[OVER] != 0:
        return
    step_creature(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps, seat)
    if challenge_end(S, seat):
        return
    if S[TURN] >= S[MAX_TURNS]:               # R10
        end_game(S, E_TURN_CAP, seat)
        return
    S[CUR_SEAT] = (seat + 1) % S[N_SEATS]


@hot
def play_game(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, root, game):
    """One complete game, from the seeds to the final position."""
    seed_streams(rng, root, game)
    reset_work(W)
    new_game(S, st, rng)
    log_event(S, ctx, ev, snaps, EV_LAYOUT, -1, 0, 0, 0, 0, 0, 0, 0)
    path = W[W_PATH:W_PATH + 3]
    place_pieces(S, st, rng, ctx, mem, W, fns, opts, ev, snaps)
    while S[OVER] == 0 and ctx[C_ERR] == 0:
        play_turn(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps)
    for e in range(MAX_EX):                   # B7.2: whoever is not on an isle is stranded
        loc = S[EX_LOC + e]
        if loc == L_LAND or loc == L_BOAT or loc == L_SEA:
            S[EX_FATE + e] = F_STRANDED
    log_event(S, ctx, ev, snaps, EV_END, S[END_SEAT], S[END_REASON], 0, 0, 0, 0, 0, 0)


@hot
def write_record(S, row):
    """The per-game row (names in ``REC_GAME``/``REC_SEAT``); absent seats are -1."""
    nseats = S[N_SEATS]
    equal = (S[CHALLENGES] & CH_EQUAL) != 0
    for i in range(row.shape[0]):
        row[i] = -1
    row[0] = S[N_PLAYERS]
    row[1] = nseats
    row[2] = S[END_REASON]
    row[3] = S[END_SEAT]
    row[4] = S[TURN]
    total = 0
    for b in range(N_BACKS):
        row[R_BACKS + b] = S[BACKS_REMOVED + b]
        total += S[BACKS_REMOVED + b]
    row[5] = total
    row[6] = S[BONUS_MOVES]
    row[7] = S[DOLPHINS_PLACED]
    row[8] = S[SQUID_PLACED]
    for s in range(nseats):
        base = R_SEAT0 + s * _RS
        for i in range(_RS):
            row[base + i] = 0
        row[base + 4] = S[TURNS + s]
    for e in range(MAX_EX):
        s = e // SLOTS
        if s >= nseats or S[EX_LOC + e] == L_OFF:
            continue
        base = R_SEAT0 + s * _RS
        fate = S[EX_FATE + e]
        if S[EX_LOC + e] == L_SAFE:
            row[base + 0] += 1 if equal else S[EX_VALUE + e]     # X2.3: every explorer is 1
            row[base + 1] += 1
            row[base + 2] += S[EX_VALUE + e]
        elif fate > 0:
            row[base + 3] += 1
            row[base + 4 + fate] += 1     # lost_serpent .. lost_stranded follow F_* order


@hot
def start_memory(mem, par):
    """A seat's float row at the start of a game: zero scratch, then its parameters."""
    for s in range(MAX_SEATS):
        for i in range(PAR0):
            mem[s, i] = 0.0
        for i in range(par.shape[1]):
            mem[s, PAR0 + i] = par[s, i]


RUN_BLOCK = 32                    # games per parallel work item (scratch allocated once)


def play_games(st, par, fns, root, first, lo, hi, out, err, ev, snaps, S, log):
    """Play games ``first+lo .. first+hi-1`` of root seed ``root`` into ``out`` rows ``lo..hi-1``,
    each seat with its parameters ``par`` (6 x PAR_W) and, for a seat outside the switch, its
    function in ``fns``; ``err`` gets (code, decision kind, seat) per game. With ``log`` the
    games write the event log into ``ev``/``snaps``. ``S`` is the state (the last game's final
    position). Returns the number of events written. Compiled by ``game_function``."""
    rng = np.empty(N_STREAMS, np.uint64)
    ctx = np.zeros(CTX_W, np.int64)
    ctx[C_LOG] = log
    mem = np.empty((MAX_SEATS, MEM_W), np.float64)
    W = np.empty(W_SIZE, np.int32)
    opts = np.empty((MAX_OPTS, OPT_W), np.int32)
    for j in range(lo, hi):
        ctx[C_ERR] = 0
        start_memory(mem, par)
        play_game(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, root, first + j)
        write_record(S, out[j])
        err[j, 0] = ctx[C_ERR]
        err[j, 1] = ctx[C_BAD_KIND]
        err[j, 2] = ctx[C_BAD_SEAT]
    return ctx[C_NEV]


def _game_signature():
    from numba import types

    from strategies.seat_call import signature
    i32, i64 = types.int32, types.int64

    def arr(dtype, ndim):
        return types.Array(dtype, ndim, "C")
    fns = types.UniTuple(types.FunctionType(signature()), 6)
    return i64(arr(i64, 1), arr(types.float64, 2), fns, i64, i64, i64, i64, arr(i32, 2),
               arr(i64, 2), arr(i32, 2), arr(i32, 2), arr(i32, 1), i64)


_GAMES = []


def game_function():
    """``play_games`` compiled, once per process (from numba's disk cache after the first
    time). Both entry points reach the game code through it, as a first-class function: numba
    otherwise links the whole game, every strategy included, into each caller and optimises and
    compiles it again there -- five times for ``run_games`` (its parallel loop is four LLVM
    modules) and ``replay_game``."""
    if not _GAMES:
        with inlining(ENGINE_INLINING):
            _GAMES.append(njit(_game_signature(), cache=True, nogil=True)(play_games))
    return _GAMES[0]


@njit(cache=True, parallel=True, nogil=True)
def _run_blocks(st, par, fns, games, root, first, count, out, err):
    nblocks = (count + RUN_BLOCK - 1) // RUN_BLOCK
    for blk in prange(nblocks):
        S = np.empty(STATE_SIZE, np.int32)
        ev = np.empty((1, EV_W), np.int32)
        snaps = np.empty((1, 1), np.int32)
        games[0](st, par, fns, root, first, np.int64(blk * RUN_BLOCK),
                 np.int64(min(count, (blk + 1) * RUN_BLOCK)), out, err, ev, snaps, S, np.int64(0))


def run_games(st, par, fns, root, first, count, out, err):
    """Play games ``first .. first+count-1`` of root seed ``root`` into ``out`` rows, each seat
    with its parameters ``par`` (6 x PAR_W) and, for a plug-in seat, its function in ``fns``.
    ``err`` gets (code, decision kind, seat) per game. Work is handed out in blocks of
    ``RUN_BLOCK`` games that share scratch arrays; every game starts from its own seeds, so the
    blocking never changes a result. The GIL is released while it runs, so a sweep writes one
    chunk while the next one plays (only one Python thread may call it at a time: numba's
    parallel pool is not re-entrant)."""
    _run_blocks(st, par, fns, (game_function(),), root, first, count, out, err)


def replay_game(st, par, fns, root, game, ev, snaps, S):
    """Play one game with the event log on; returns (events written, error code, and the
    decision kind and seat of a plug-in's bad answer)."""
    out = np.empty((1, REC_W), np.int32)
    err = np.zeros((1, 3), np.int64)
    n = game_function()(st, par, fns, root, game, np.int64(0), np.int64(1), out, err, ev, snaps,
                        S, np.int64(1))
    return int(n), int(err[0, 0]), int(err[0, 1]), int(err[0, 2])
