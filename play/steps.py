"""One turn (B5): play a tile (B5.1), move (B5.2), sink a tile (B5.3-B5.7), roll and move a
creature (B5.4), each asked in two decisions, which piece then where; Challenge 6's bonus
round (X6.3, X6.6), the defence window (B6.12, R16) and the turn cap (R10)."""
import numpy as np

from simulator.jit import hot
from simulator.rng import randint
from simulator.rules import at_rest as AR
from simulator.rules import dolphins as DO
from simulator.rules import effects as EF
from simulator.rules import hand as HA
from simulator.rules import movement as MV
from simulator.rules import options_creatures as OC
from simulator.rules import options_moves as OM
from simulator.rules import options_tiles as OT
from simulator.rules import paths as PA
from simulator.rules import queries as QU
from simulator.rules.layout import W_SUNK, W_SUNK_N, W_SWIM
from simulator.rules.paths import MT_BOAT, MT_SWIMMER
from simulator.state import (
    B_BOAT,
    B_DOLPHIN,
    B_MOVE_SERPENT,
    B_SHARK,
    B_VOLCANO,
    B_WHALE,
    B_WHIRLPOOL,
    B_WIND,
    BOAT_HEX,
    BOAT_N,
    BONUS_MOVES,
    CH_ATLANTIS_GONE,
    CH_DIVE,
    CH_LEAVE_NONE,
    CH_OVERPOP,
    CHALLENGES,
    CR_GONE,
    CUR_SEAT,
    D_BOARD,
    D_CREATURE,
    D_CREATURE_PIECE,
    D_DEFEND,
    D_MOVE,
    D_MOVE_PIECE,
    D_PLAY_TILE,
    D_SINK,
    D_TAKE_BOAT,
    D_TILE_DEST,
    DIVE_D,
    DIVE_FACES,
    DIVE_NUMBERS,
    DOLPHIN,
    DOLPHINS_PLACED,
    E_ISLAND_GONE,
    E_TURN_CAP,
    E_VOLCANO,
    EX_AT,
    EX_FATE,
    EX_LOC,
    EX_SWAM,
    F_STRANDED,
    HEX_NLAND,
    HEX_TERRAIN,
    L_BOAT,
    L_LAND,
    L_SAFE,
    L_SEA,
    MAX_EX,
    MAX_TURNS,
    MP_LEFT,
    MUST_MOVE,
    MV_STOP,
    N_BOATS,
    N_SEATS,
    OVER,
    PK_BOAT,
    RNG_DICE,
    ROLL_FACE,
    ROLL_NUMBER,
    SHARK,
    SQUID,
    SQUID_ON,
    SQUID_ONLY,
    TILES_LEFT,
    TURN,
    TURNS,
    VIA_JUMP,
    VIA_SWITCH,
    WHALE,
)

from .decisions import ask, log_event
from .journal import PHASE_TURN, begin
from .layout import EV_BONUS, EV_CREATURE, EV_MOVE, EV_PLAY_TILE, EV_ROLL, EV_SINK, EV_TURN
from .reactions import challenge_end, end_game, place_squid, protect_one, settle, squid_attack


@hot
def step_play_tile(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps, seat):
    """Step 1 (B5.1): optionally play one red tile from the hand, asked in two decisions:
    which tile on which piece (or none), then where the piece goes."""
    n = OT.options_tile_pieces(S, seat, opts)
    if n <= 1:
        return
    k = ask(S, st, rng, ctx, mem, W, fns, seat, D_PLAY_TILE, opts, n)
    back = opts[k, 0]
    if back < 0:
        return
    piece = opts[k, 1]
    kind = opts[k, 3]                         # move tiles: the creature's kind (X7.2: squid)
    if back == B_DOLPHIN or back == B_WIND:
        n = OT.options_tile_reach(S, W, back, piece, opts)
    else:
        n = OT.options_tile_dest(S, back, piece, kind, opts)
    if n == 0:                                # no unoccupied sea hex at all (R9): keep it
        return
    dest = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_TILE_DEST, opts, n), 2]
    HA.take_from_hand(S, seat, back)
    path[0] = dest
    path[1] = -1
    path[2] = -1
    if back == B_DOLPHIN:                     # B3.6, R7, R12, R13
        e = piece
        PA.reach(S, W, MT_SWIMMER, S[EX_AT + e], 3)
        m = PA.path_to(W, dest, path)
        for i in range(m):
            x = path[i]
            if x >= 133:
                MV.place_explorer(S, e, L_SAFE, x)
                break
            MV.place_explorer(S, e, L_SEA, x)
            if AR.resolve_hex(S, x) > 0 and S[EX_LOC + e] != L_SEA:
                break
        S[EX_SWAM + e] = 1
    elif back == B_WIND:                      # B3.7, R12
        b = piece
        PA.reach(S, W, MT_BOAT, S[BOAT_HEX + b], 3)
        m = PA.path_to(W, dest, path)
        for i in range(m):
            MV.put_boat(S, b, path[i])
            AR.resolve_hex(S, path[i])
            if S[BOAT_HEX + b] != path[i]:
                break
        settle(S, st, rng, ctx, mem, W, fns, opts, seat)
    else:                                     # B3.8-B3.10: to an unoccupied hex, no attack
        MV.put_creature(S, kind, piece, dest)
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
        n = OM.options_move_pieces(S, seat, opts)
        k = ask(S, st, rng, ctx, mem, W, fns, seat, D_MOVE_PIECE, opts, n)
        if opts[k, 0] == MV_STOP:
            break
        n = OM.piece_moves(S, seat, opts[k, 0], opts[k, 1], opts)
        k = ask(S, st, rng, ctx, mem, W, fns, seat, D_MOVE, opts, n)
        what, i, dest, boat = opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3]
        EF.apply_move(S, seat, what, i, dest, boat)
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
    n = OT.options_sink(S, opts)
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
    back = EF.sink(S, h)
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
            AR.whirlpool(S, h)
        else:
            end_game(S, E_VOLCANO, seat)
    elif back == B_WHALE:                     # B3.1: swimmers unharmed
        slot = MV.supply_slot(S, WHALE)
        if slot >= 0:
            MV.put_creature(S, WHALE, slot, h)
            AR.resolve_hex(S, h)
        squid = S[SQUID_ON] != 0 and (slot >= 0 or S[SQUID_ONLY] != 0)      # X7.1, X7.8
    elif back == B_DOLPHIN and (S[CHALLENGES] & CH_DIVE):     # X5.2: a dolphin, at once
        d = MV.supply_slot(S, DOLPHIN)
        if d >= 0:
            MV.put_creature(S, DOLPHIN, d, h)
            S[DOLPHINS_PLACED] += 1
            protected = protect_one(S, st, rng, ctx, mem, W, fns, opts, seat, h, d)
    elif back == B_SHARK:                     # B3.2: every swimmer there is eaten
        slot = MV.supply_slot(S, SHARK)
        if slot >= 0:
            MV.put_creature(S, SHARK, slot, h)
            AR.resolve_hex(S, h)
    elif back == B_BOAT:                      # B3.3, R5, R6
        b = MV.supply_boat(S)
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
            MV.put_boat(S, b, h)
            swim = W[W_SWIM:W_SWIM + MAX_EX]
            m = EF.swimmers_in(S, h, swim)
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
                    MV.place_explorer(S, path[i], L_BOAT, b)
            AR.resolve_hex(S, h)
    elif back == B_WHIRLPOOL:                 # B3.4
        AR.whirlpool(S, h)
    else:                                     # red and red-X backs go to the hand (B5.6)
        HA.add_to_hand(S, seat, back, terrain)
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
        n = OM.options_bonus_pieces(S, s, W, opts)
        if n <= 1:
            continue
        k = ask(S, st, rng, ctx, mem, W, fns, s, D_MOVE_PIECE, opts, n)
        if opts[k, 0] == MV_STOP:
            continue
        n = OM.explorer_moves(S, opts[k, 1], opts, 0, False)   # X5.7: no dolphin along here
        k = ask(S, st, rng, ctx, mem, W, fns, s, D_MOVE, opts, n)
        what, i, dest, boat = opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3]
        EF.apply_move(S, s, what, i, dest, boat)
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
    code of the option row (``OC.creature_moves``): a path, a dive-dice jump, a dolphin's
    protection switch; -1 = find the path here."""
    start = OC.piece_hex(S, kind, slot)
    path[0] = -1
    path[1] = -1
    path[2] = -1
    m = 0
    protected = -1
    if via >= VIA_SWITCH:                          # X5.7: switch instead of moving
        protected = via - VIA_SWITCH
        DO.release(S, slot)
        DO.protect(S, slot, protected)
        AR.resolve_hex(S, start)                   # the one it left may be eaten (X5.6)
    elif dest != start:
        if via == VIA_JUMP:                        # X5.4: a D, to an unoccupied hex
            path[0] = dest
            m = 1
        elif via < 0:
            PA.reach(S, W, OC.mover_type(kind), start, 3)
            m = PA.path_to(W, dest, path)
        else:
            m = OC.via_path(start, dest, via, path)
        if kind == PK_BOAT:
            MV.put_boat(S, slot, dest)
        else:
            if kind == DOLPHIN:
                DO.release(S, slot)
            MV.put_creature(S, kind, slot, dest)
            if kind == DOLPHIN:
                AR.resolve_hex(S, start)           # X5.6: its swimmer is eaten at once
            elif kind == WHALE:
                QU.remove_all_at(S, SQUID, dest)   # X7.5, X7.8: before the boat capsizes
    defender = -1
    if m > 0 and OC.attack_pending(S, kind, dest):
        nseats = S[N_SEATS]
        for j in range(1, nseats):
            other = (seat + j) % nseats
            if OC.may_defend(S, other, seat, kind, dest):
                opts[0, 0] = 0
                opts[1, 0] = 1
                if opts[ask(S, st, rng, ctx, mem, W, fns, other, D_DEFEND, opts, 2), 0] == 1:
                    HA.take_from_hand(S, other, OC.defence_back(kind))
                    MV.put_creature(S, kind, slot, CR_GONE)
                    defender = other
                    break
    if m > 0:
        if kind == DOLPHIN:                        # X5.5, X5.9
            protected = protect_one(S, st, rng, ctx, mem, W, fns, opts, seat, dest, slot)
        AR.resolve_hex(S, dest)
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
    n = OC.options_creature_pieces(S, OC.face_kinds(S, face), must and not jump, opts)
    if n == 0:                                 # no piece of that kind on the board
        return
    j = ask(S, st, rng, ctx, mem, W, fns, seat, D_CREATURE_PIECE, opts, n)
    kind = opts[j, 0]
    slot = opts[j, 1]
    must = must and OC.creature_can_move(S, kind, slot)
    n = OC.creature_moves(S, W, kind, slot, OC.die_reach(S, kind), must, opts, 0)
    if n == 0:                                 # a D with no unoccupied sea hex at all
        return
    k = ask(S, st, rng, ctx, mem, W, fns, seat, D_CREATURE, opts, n)
    move_creature(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps, seat, kind, slot,
                  opts[k, 2], opts[k, 3])


@hot
def strand_the_rest(S):
    """B7.2, at the game's end: whoever is not on an isle is stranded."""
    for e in range(MAX_EX):
        loc = S[EX_LOC + e]
        if loc == L_LAND or loc == L_BOAT or loc == L_SEA:
            S[EX_FATE + e] = F_STRANDED


@hot
def play_turn(S, st, rng, ctx, mem, W, fns, opts, path, ev, snaps):
    begin(S, st, rng, W, PHASE_TURN)            # a clean point (play.journal)
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
