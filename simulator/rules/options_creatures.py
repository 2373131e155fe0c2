"""Options of step 4, the die move (B5.4, B6.8-B6.11, R2, R12, R21; the dive dice X5.3, X5.4;
dolphins X5.7, X5.9; the squid X7.2): which piece the roll lets move, and where, each row
carrying its path (``via``); and the defence window (B6.12, R8, R16)."""
from simulator.board import N_HEX, N_NEIGHBOURS, NEIGHBOURS
from simulator.jit import hot
from simulator.state import (
    B_DEFEND_SHARK,
    B_DEFEND_WHALE,
    BOAT_HEX,
    BOAT_N,
    CH_DIVE,
    CHALLENGES,
    CR_HEX,
    CR_SLOTS,
    DIVE_D,
    DOLPHIN,
    EX_AT,
    EX_LOC,
    EX_PROT,
    FACE_STAR,
    HEX_BOAT,
    HEX_NCR,
    HEX_NSWIM,
    HEX_TERRAIN,
    KIND_COUNT,
    L_SEA,
    MAX_EX,
    N_BOATS,
    PK_BOAT,
    ROLL_NUMBER,
    SERPENT,
    SHARK,
    SLOTS,
    SQUID,
    SQUID_ON,
    VIA_JUMP,
    VIA_SWITCH,
    WHALE,
)

from .hand import hand_count
from .layout import W_PARENT, W_QUEUE, add_row
from .paths import MT_DOLPHIN, MT_EMPTY_BOAT, MT_SQUID, reach
from .queries import (
    boat_occupied,
    controls,
    same_player,
    sea_next_to,
    unoccupied_sea,
    unprotected_swimmers,
)


@hot
def piece_hex(S, kind, k):
    """Where a die-moved piece stands: a creature, or with ``PK_BOAT`` an empty boat (X5.3).
    -1 when it is not on the board (or, for a boat, not empty)."""
    if kind == PK_BOAT:
        return S[BOAT_HEX + k] if S[BOAT_N + k] == 0 else -1
    return S[CR_HEX + kind * CR_SLOTS + k]


@hot
def mover_type(kind):
    """The ``reach`` mover of a die-moved piece kind."""
    if kind == DOLPHIN:
        return MT_DOLPHIN
    if kind == SQUID:
        return MT_SQUID
    if kind == PK_BOAT:
        return MT_EMPTY_BOAT
    return kind                                    # MT_SERPENT/SHARK/WHALE equal the kinds


@hot
def die_reach(S, kind):
    """How far this turn's roll lets a piece of ``kind`` go: the dive dice's number (X5.3;
    ``DIVE_D`` = anywhere unoccupied), else serpent 1, shark 2, whale and squid 3 (B6.8-B6.10,
    X7.2)."""
    if S[CHALLENGES] & CH_DIVE:
        return S[ROLL_NUMBER]
    return 3 if kind == SQUID else kind + 1


@hot
def face_kinds(S, face):
    """Bit mask of the piece kinds a roll's face lets the roller move: the kind shown; the
    dive dice's empty boat (``PK_BOAT``) or starfish (any of the five, X5.3); a squid wherever
    a whale may move (X7.2)."""
    if face == FACE_STAR:
        m = (1 << SERPENT) | (1 << SHARK) | (1 << WHALE) | (1 << DOLPHIN) | (1 << PK_BOAT)
    else:
        m = 1 << face
    if (m >> WHALE) & 1 and S[SQUID_ON] != 0:
        m |= 1 << SQUID
    return m


@hot
def creature_moves(S, W, kind, k, maxd, must_move, opts, n):
    """Die moves of piece ``k`` of ``kind`` (B6.8-B6.11, R12, X5.4, X7.2), appended from row
    ``n``: ``(kind, k, dest, via)``. Staying (dest = own hex, via 0) comes first unless
    ``must_move`` (R2; a squid may always stay, R21). ``via`` encodes the hexes passed on the way
    (see ``via_path``), so the move needs no second search. ``maxd`` = ``DIVE_D``: a jump to any
    unoccupied sea hex (via ``VIA_JUMP``). A dolphin sharing its hex with two or more swimmers
    may instead switch its protection (via ``VIA_SWITCH + e``, X5.7, X5.9)."""
    h = piece_hex(S, kind, k)
    if h < 0:
        return n
    if maxd == DIVE_D:
        for x in range(N_HEX):
            if unoccupied_sea(S, x):
                n = add_row(opts, n, kind, k, x, VIA_JUMP)
    else:
        if not must_move or kind == SQUID:
            n = add_row(opts, n, kind, k, h, 0)
        m = reach(S, W, mover_type(kind), h, maxd)
        for i in range(1, m + 1):
            x = W[W_QUEUE + i]
            p = W[W_PARENT + x]
            q = W[W_PARENT + p] if p != h else -1
            n = add_row(opts, n, kind, k, x, (p + 1) | ((q + 1) << 8))
    if kind == DOLPHIN and S[HEX_NSWIM + h] >= 2:
        for e in range(MAX_EX):
            if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h and S[EX_PROT + e] < 0:
                n = add_row(opts, n, kind, k, h, VIA_SWITCH + e)
    return n


@hot
def via_path(start, dest, via, path):
    """Decode a ``creature_moves`` row into ``path`` (hexes entered, in order); return its
    length (0 = stayed)."""
    if dest == start:
        return 0
    p = (via & 255) - 1
    q = (via >> 8) - 1
    if p == start:
        path[0] = dest
        return 1
    if q == start:
        path[0] = p
        path[1] = dest
        return 2
    path[0] = q
    path[1] = p
    path[2] = dest
    return 3


@hot
def creature_can_move(S, kind, k):
    """A piece on the board can move if a sea hex is next to it (creatures enter any sea; an
    empty boat only sea without a boat). A squid can always 'move' (staying counts, X7.2)."""
    h = piece_hex(S, kind, k)
    if h < 0:
        return False
    if kind == SQUID:
        return True
    if kind == PK_BOAT:
        for i in range(N_NEIGHBOURS[h]):
            x = NEIGHBOURS[h, i]
            if S[HEX_TERRAIN + x] < 0 and S[HEX_BOAT + x] < 0:
                return True
        return False
    return sea_next_to(S, h)


@hot
def _piece_count(kind):
    return N_BOATS if kind == PK_BOAT else KIND_COUNT[kind]


@hot
def options_creature_pieces(S, kinds, must_move, opts):
    """First half of the die move: ``(kind, k, -1, -1)`` for each piece on the board of the
    kinds in the bit mask ``kinds`` (bit ``PK_BOAT`` = empty boats; B5.4, X5.3, X7.2); with
    ``must_move``, only those that can move (R21: all of them when none can)."""
    n = 0
    for kind in range(PK_BOAT + 1):
        if (kinds >> kind) & 1:
            for k in range(_piece_count(kind)):
                if piece_hex(S, kind, k) >= 0 and \
                        (not must_move or creature_can_move(S, kind, k)):
                    n = add_row(opts, n, kind, k, -1, -1)
    if n == 0 and must_move:
        for kind in range(PK_BOAT + 1):
            if (kinds >> kind) & 1:
                for k in range(_piece_count(kind)):
                    if piece_hex(S, kind, k) >= 0:
                        n = add_row(opts, n, kind, k, -1, -1)
    return n


@hot
def options_creature(S, W, kind, maxd, must_move, opts, n):
    """Every die move of ``kind`` as a single list (rows as ``creature_moves``), appended from
    row ``n``; R21 is applied by the caller."""
    for k in range(KIND_COUNT[kind]):
        n = creature_moves(S, W, kind, k, maxd, must_move, opts, n)
    return n


@hot
def seat_swimmer_in(S, seat, h):
    for slot in range(SLOTS):
        e = seat * SLOTS + slot
        if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h:
            return True
    return False


@hot
def defence_back(kind):
    return B_DEFEND_SHARK if kind == SHARK else B_DEFEND_WHALE


@hot
def may_defend(S, seat, mover, kind, h):
    """B6.12 / R16 / R8: ``seat`` may play its defence tile against this attack."""
    if same_player(S, seat, mover) or hand_count(S, seat, defence_back(kind)) == 0:
        return False
    if kind == SHARK:
        return seat_swimmer_in(S, seat, h)
    b = S[HEX_BOAT + h]
    return b >= 0 and controls(S, seat, b)


@hot
def attack_pending(S, kind, h):
    """Would a creature of ``kind`` now standing in ``h`` attack (B6.12: windows open only then)?"""
    if kind == SHARK:
        return unprotected_swimmers(S, h) > 0 and S[HEX_NCR + SERPENT * N_HEX + h] == 0
    if kind == WHALE:
        return boat_occupied(S, h) and S[HEX_NCR + SERPENT * N_HEX + h] == 0
    return False
