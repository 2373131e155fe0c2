"""Fixed-shape game state: one flat ``int32`` array, sliced into named regions.

Why one flat array: it is a single numba type (one compiled signature), copies with ``np.copy``
(snapshots for replay), and splits cleanly by what a player may know (RULES R11):

* ``pub``  = ``S[:PUB_SIZE]``           -- everything on the table, seen by every strategy;
* ``mine`` = ``S[PRIV + seat*PRIV_W:]`` -- one seat's secrets: its explorers' values, its hand;
* ``sec``  = the rest                   -- tile backs and every value; only the rules read it.

Strategies are handed ``pub`` and their own ``mine`` view and nothing else, so R11 holds by
construction. Each region is a block of ``count`` cells starting at an offset constant; numba
treats the module-level constants below as compile-time values.
"""
from __future__ import annotations

import numpy as np

from .board import N_HEX, N_LOC

# ---- sizes -------------------------------------------------------------------------------
MAX_SEATS = 6
SLOTS = 10                                   # explorers per colour
MAX_EX = MAX_SEATS * SLOTS                   # explorer id = seat * SLOTS + slot
N_BOATS = 12
N_KINDS = 5                                  # creature kinds
CR_SLOTS = 6                                 # pieces per kind, padded (sharks have 6)
N_BACKS = 12
N_TERRAIN = 3
MAX_OPTS = 2048                              # rows of the option buffer (worst case < 1,600)
OPT_W = 4                                    # columns of an option row

# explorer values by slot (B1.2); X1 removes slots from the front of each value group
SLOT_VALUES = np.array([1, 1, 1, 2, 2, 3, 3, 4, 5, 6], dtype=np.int32)
# X1.1 / X1.2: the slots each colour removes, by player count (5: a 1 and a 3; 6: a 1, a 2, a 3)
SLOT_REMOVED = np.zeros((MAX_SEATS + 1, SLOTS), dtype=np.int32)
SLOT_REMOVED[5, [0, 5]] = 1
SLOT_REMOVED[6, [0, 3, 5]] = 1

# ---- creature kinds ----------------------------------------------------------------------
SERPENT, SHARK, WHALE, DOLPHIN, SQUID = 0, 1, 2, 3, 4
KIND_NAMES = ("serpent", "shark", "whale", "dolphin", "squid")
KIND_COUNT = np.array([5, 6, 5, 4, 5], dtype=np.int32)   # B1.3, B1.4, B1.7
CR_SUPPLY = -1                               # creature hex value: in the supply
CR_GONE = -2                                 # removed from the game

# ---- tile backs (B3), in the order of the record's back_<name> columns ---------------------
(B_WHALE, B_SHARK, B_BOAT, B_WHIRLPOOL, B_VOLCANO, B_DOLPHIN, B_WIND, B_MOVE_SERPENT,
 B_MOVE_SHARK, B_MOVE_WHALE, B_DEFEND_SHARK, B_DEFEND_WHALE) = range(12)
BACK_NAMES = ("whale", "shark", "boat", "whirlpool", "volcano", "dolphin", "wind",
              "move_serpent", "move_shark", "move_whale", "defend_shark", "defend_whale")
# tiles per back and terrain (beach, forest, mountain): B3.1-B3.12
BACK_COUNTS = np.array([
    [3, 2, 0], [3, 2, 1], [1, 3, 0], [0, 2, 4], [0, 0, 1], [3, 1, 0],
    [2, 0, 0], [1, 1, 0], [1, 1, 0], [1, 1, 0], [1, 1, 1], [0, 2, 1]], dtype=np.int32)
assert tuple(BACK_COUNTS.sum(axis=0)) == (16, 16, 8)

# ---- explorer locations and fates ---------------------------------------------------------
L_OFF, L_LAND, L_BOAT, L_SEA, L_SAFE, L_LOST, L_UNPLACED = range(7)
LOC_NAMES = ("off", "land", "boat", "sea", "safe", "lost", "unplaced")
# EX_AT holds: a hex (land, sea), a boat id (boat), an isle location code (safe), -1 otherwise
F_NONE, F_SERPENT, F_SHARK, F_WHALE, F_WHIRLPOOL, F_SQUID, F_STRANDED = range(7)
FATE_NAMES = ("none", "serpent", "shark", "whale", "whirlpool", "squid", "stranded")

# ---- game end reasons ---------------------------------------------------------------------
E_NONE, E_VOLCANO, E_TURN_CAP, E_NO_EXPLORERS, E_ISLAND_GONE = range(5)

# ---- pieces a die move may name: the creature kinds, then an empty boat (X5.3) -------------
PK_BOAT = N_KINDS                            # (PK_BOAT, boat id) in creature option rows
# ---- dive dice (X5.3): symbol faces and number faces -----------------------------------------
FACE_BOAT, FACE_STAR = PK_BOAT, PK_BOAT + 1  # the other faces are the kinds SERPENT..DOLPHIN
DIVE_FACES = np.array([SERPENT, SHARK, WHALE, DOLPHIN, FACE_BOAT, FACE_STAR], dtype=np.int32)
DIVE_D = 0                                   # the number die's D: to any unoccupied sea hex
DIVE_NUMBERS = np.array([1, 1, 2, 2, 3, DIVE_D], dtype=np.int32)
FACE_NAMES = KIND_NAMES + ("boat", "starfish")
# creature option rows (kind, slot, dest, via): via codes beyond any path code (< 2**16)
VIA_JUMP = 1 << 20                           # a dive-dice D: straight to ``dest``
VIA_SWITCH = 1 << 21                         # + explorer: a dolphin switches protection (X5.7)
# movement rows (1, e, dest, boat): boat = SWIM_WITH_DOLPHIN takes the swimmer's dolphin (X5.7)
SWIM_WITH_DOLPHIN = -2
END_NAMES = ("none", "volcano", "turn_cap", "no_explorers", "island_gone")

# ---- challenge bits (X2, X5, X6) ----------------------------------------------------------
CH_DENSE, CH_LEAVE_NONE, CH_EQUAL, CH_ATLANTIS_GONE, CH_DIVE, CH_OVERPOP = (1 << i for i in range(6))

# ---- layout --------------------------------------------------------------------------------
_cursor = 0


def _block(n: int) -> int:
    global _cursor
    start = _cursor
    _cursor += n
    return start


# header: one cell each
N_SEATS = _block(1)          # seats at the table (2 players use 4 seats)
N_PLAYERS = _block(1)
CUR_SEAT = _block(1)         # whose turn it is
TURN = _block(1)             # seat-turns begun so far (0 during setup)
MP_LEFT = _block(1)          # movement points left in step 2
OVER = _block(1)             # 1 once the game has ended
END_REASON = _block(1)
END_SEAT = _block(1)
TILES_LEFT = _block(1)       # land tiles still on the board
LAGOON_SEA = _block(1)       # R1 variant flag
MUST_MOVE = _block(1)        # R2/R21 variant flag
MAX_TURNS = _block(1)        # R10
CHALLENGES = _block(1)       # CH_* bits
SQUID_ON = _block(1)         # X7
SQUID_ONLY = _block(1)       # X7.6
BONUS_MOVES = _block(1)      # X6.3: Overpopulated bonus points used (record)
DOLPHINS_PLACED = _block(1)  # X5.2 (record)
SQUID_PLACED = _block(1)     # X7.1 (record)
PROTECT_PENDING = _block(1)  # X5.9: hex whose capsized swimmers await a protection choice, or -1
ROLL_FACE = _block(1)        # step 4's roll: the die's kind or a dive-dice face (X5.3) ...
ROLL_NUMBER = _block(1)      # ... and the dive dice's number (DIVE_D for the D)
TERRAIN_LEFT = _block(N_TERRAIN)
PLAYER_OF = _block(MAX_SEATS)        # player of each seat (B4.5: seats A,B,A,B with 2 players)
BOATS_ALLOC = _block(MAX_SEATS)      # boats each seat places (B4.4, X1.5)
TURNS = _block(MAX_SEATS)            # turns each seat began (R18)
HAND_N = _block(MAX_SEATS)           # tiles in each hand (public count)
HAND_TERRAIN = _block(MAX_SEATS * N_TERRAIN)   # terrain of the tiles in each hand (public)
# explorers
EX_SEAT = _block(MAX_EX)
EX_LOC = _block(MAX_EX)
EX_AT = _block(MAX_EX)
EX_SWAM = _block(MAX_EX)     # 1 once it used its one sea hex this turn (B6.5, R13)
EX_FATE = _block(MAX_EX)
EX_PROT = _block(MAX_EX)     # dolphin slot protecting it, or -1 (X5.5)
# boats
BOAT_HEX = _block(N_BOATS)   # -1 = in the supply
BOAT_N = _block(N_BOATS)
BOAT_P = _block(N_BOATS * 3)  # passenger explorer ids, -1 padded, packed to the front
# creatures
CR_HEX = _block(N_KINDS * CR_SLOTS)
DOL_PROT = _block(CR_SLOTS)  # explorer protected by each dolphin, or -1
# occupancy by hex, kept incrementally
HEX_TERRAIN = _block(N_HEX)  # -1 sea, else terrain 0..2 of the land tile
HEX_NLAND = _block(N_HEX)    # explorers standing on the tile
HEX_BOAT = _block(N_HEX)     # boat id or -1
HEX_NSWIM = _block(N_HEX)    # swimmers in the hex
HEX_NCR = _block(N_KINDS * N_HEX)   # creatures of each kind in the hex
ORDER_EXPLORERS = _block(1)  # C2.1: the explorers' setup order (an ORDER_* code)
ORDER_BOATS = _block(1)      # C2.1: the boats' setup order
KOMI = _block(MAX_SEATS)     # C1: each seat's score bonus, in half points
PUB_SIZE = _cursor

# private, one row per seat
PRIV = _cursor
P_VALUE = 0                  # value of the seat's explorer in each slot
P_HAND = SLOTS               # tiles in hand by back
P_HAND_T = SLOTS + N_BACKS   # tiles in hand by back x terrain (back * 3 + terrain)
PRIV_W = SLOTS + N_BACKS + N_BACKS * N_TERRAIN
_block(MAX_SEATS * PRIV_W)

# secret: only the rules core reads these
TILE_BACK = _block(N_HEX)    # back of the land tile on each hex, -1 for sea
EX_VALUE = _block(MAX_EX)
BACKS_REMOVED = _block(N_BACKS)  # removed tiles by back (record)
STATE_SIZE = _cursor

ORDER_FORWARD, ORDER_REVERSE, ORDER_SNAKE = 0, 1, 2    # C2.1, in SETUP_ORDERS' order

N_STREAMS = 2 + MAX_SEATS    # random streams: setup, dice, one per seat for strategy noise
RNG_SETUP, RNG_DICE, RNG_SEAT0 = 0, 1, 2

# ---- decision kinds: what a strategy is asked (option row columns in brackets) -------------
D_PLACE_EXPLORER = 0   # (slot, hex): where the explorer chosen by D_PICK_EXPLORER goes
D_PLACE_BOAT = 1       # (hex)
D_PLAY_TILE = 2        # (back, piece, -1, 0): which red tile on which piece; back -1 = play
                       # nothing. Where the piece goes is asked next (D_TILE_DEST)
D_MOVE = 3             # (what, id, dest, boat): where the piece chosen by D_MOVE_PIECE goes;
                       # what 1 = explorer, 2 = boat; boat >= 0 = into that boat
D_SINK = 4             # (hex)
D_BOARD = 5            # (explorer) one swimmer boards the new boat (B3.3)
D_CREATURE = 6         # (kind, slot, dest, via) where the creature chosen by D_CREATURE_PIECE
                       # goes; dest = its own hex means stay (R2); via encodes the path
D_DEFEND = 7           # (play) 0 = hold, 1 = play the defence tile
D_TAKE_BOAT = 8        # (boat) the unoccupied boat a boat tile takes when the supply is empty (R6)
D_PICK_EXPLORER = 9    # (slot) which explorer to place next: one row per distinct value
D_TILE_DEST = 10       # (back, piece, dest, 0) where the tile chosen by D_PLAY_TILE sends it
D_MOVE_PIECE = 11      # (what, id, -1, -1): which piece spends this movement point; row 0 is
                       # (0, -1, -1, -1) = stop moving. Pieces with no legal move are not listed
D_CREATURE_PIECE = 12  # (kind, slot, -1, -1): which piece of the rolled kind(s) moves: the
                       # dive dice's starfish lists every kind, PK_BOAT rows are empty boats
D_PROTECT = 13         # (explorer, dolphin, -1, -1): which arriving swimmer a free dolphin
                       # protects (X5.5, X5.9)
D_PLACE_SQUID = 14     # (hex): where a whale tile's squid goes (X7.1)
D_SQUID_VICTIM = 15    # (explorer): the explorer a squid removes (X7.1, X7.4)
DECISION_NAMES = ("place_explorer", "place_boat", "play_tile", "move", "sink", "board",
                  "creature", "defend", "take_boat", "pick_explorer", "tile_dest", "move_piece",
                  "creature_piece", "protect", "place_squid", "squid_victim")
MV_STOP, MV_EXPLORER, MV_BOAT = 0, 1, 2

assert STATE_SIZE < 4096 and N_LOC == N_HEX + 4
