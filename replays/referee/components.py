"""The game's components and numbers as RULES.md states them (B1-B7, X1-X7), for the referee.

Written from the rules text and docs/replay-log.md, not taken from the engine's tables, so that
the referee checks the engine instead of repeating it. Also the log's location and hex codes.
"""
from __future__ import annotations

FORMAT = "survive-sim-log/2"                            # docs/replay-log.md
SLOT_VALUES = (1, 1, 1, 2, 2, 3, 3, 4, 5, 6)           # B1.2
# X1.1 / X1.2: each colour removes one 1 and one 3 (5 players), one 1, one 2 and one 3 (6)
REMOVED_VALUES = {5: (1, 3), 6: (1, 2, 3)}
RULES_BOATS = {5: (1, 1, 2, 2, 2), 6: (1, 1, 1, 1, 2, 2)}   # X1.1, X1.2 (else 2 per seat)
TIEBREAKS = ("shared", "chain")                         # B7.3, X1.6
TERRAINS = ("beach", "forest", "mountain")              # B1.1, B5.5 order
BACKS = ("whale", "shark", "boat", "whirlpool", "volcano", "dolphin", "wind",
         "move_serpent", "move_shark", "move_whale", "defend_shark", "defend_whale")
BACK_INDEX = {b: k for k, b in enumerate(BACKS)}
# B3.1-B3.12: tiles per back on (beach, forest, mountain) and the rule id of each back
BACK_TABLE = {
    "whale": ((3, 2, 0), "B3.1"), "shark": ((3, 2, 1), "B3.2"), "boat": ((1, 3, 0), "B3.3"),
    "whirlpool": ((0, 2, 4), "B3.4"), "volcano": ((0, 0, 1), "B3.5"),
    "dolphin": ((3, 1, 0), "B3.6"), "wind": ((2, 0, 0), "B3.7"),
    "move_serpent": ((1, 1, 0), "B3.8"), "move_shark": ((1, 1, 0), "B3.9"),
    "move_whale": ((1, 1, 0), "B3.10"), "defend_shark": ((1, 1, 1), "B3.11"),
    "defend_whale": ((0, 2, 1), "B3.12"),
}
BACK_RULE = {b: r for b, (_, r) in BACK_TABLE.items()}
GREEN = frozenset(("whale", "shark", "boat", "whirlpool", "volcano"))
DEFENCE = frozenset(("defend_shark", "defend_whale"))
MOVE_TILES = {"move_serpent": "serpent", "move_shark": "shark", "move_whale": "whale"}

KINDS = ("serpent", "shark", "whale", "dolphin", "squid")
KIND_COUNT = {"serpent": 5, "shark": 6, "whale": 5, "dolphin": 4, "squid": 5}   # B1.3, B1.4, B1.7
BASE_KINDS = ("serpent", "shark", "whale")
DIE_FACES = ("serpent", "shark", "whale")               # B1.6
DIE_REACH = {"serpent": 1, "shark": 2, "whale": 3}       # B6.8-B6.10
DIE_RULE = {"serpent": "B6.8", "shark": "B6.9", "whale": "B6.10", "squid": "X7.2"}
DICE_FACES = ("serpent", "shark", "whale", "dolphin", "boat", "starfish")   # X5.3
DICE_NUMBERS = (1, 2, 3, "D")                                                 # X5.3
N_BOATS = 12                                            # B1.5
BOAT_CAPACITY = 3                                       # B1.5
MP_PER_TURN = 3                                         # B5.2
CAUSES = ("serpent", "shark", "whale", "whirlpool", "squid")
LOC_KINDS = ("land", "boat", "sea", "safe", "lost", "unplaced")
SUPPLY, GONE = -1, -2                                   # creature / boat hex codes
MAX_SEATS = 6

CAUSE_RULE = {"serpent": "B6.7", "shark": "B6.7", "whale": "B6.7", "whirlpool": "B3.4",
              "squid": "X7.4"}


def is_int(x) -> bool:
    """A JSON integer (``True`` is not one)."""
    return type(x) is int
