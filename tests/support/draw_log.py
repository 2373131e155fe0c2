"""A hand-built replay log for the drawing tests: a few events whose positions put one of each
piece on known hexes, so that a test can say where every piece must be drawn. Plain Python (no
engine): the log has the fields ``replays.draw`` reads (docs/replay-log.md)."""
from __future__ import annotations

import copy

from replays.board import BOARD

VALUES = (1, 1, 1, 2, 2, 3, 3, 4, 5, 6)
ISLAND = sorted(BOARD.island)
SEA = sorted(h for h in range(BOARD.n_hex) if h not in BOARD.island and h != BOARD.lagoon
             and h not in BOARD.access)
TERRAINS = ("beach", "forest", "mountain")

# the hand-built position (event 3's "after")
LAND_A = ISLAND[5]             # explorer 3 alone (it walked here from LAND_FROM)
LAND_FROM = ISLAND[6]
CROWD = ISLAND[10]             # seven explorers of four seats
EMPTY = ISLAND[12]             # a tile with nobody on it
GONE = ISLAND[14]              # a sunk tile: sea now
BOAT_HEX, SWIM_HEX, SERPENT_HEX, SHARK_HEX, WHALE_HEX, SQUID_HEX = SEA[20], SEA[30], SEA[40], SEA[45], SEA[50], SEA[55]
CROWD_IDS = (4, 5, 15, 16, 25, 26, 35)


def terrain(h: int) -> str:
    return TERRAINS[ISLAND.index(h) % 3]


def _empty_position(seats: int) -> dict:
    return {"explorers": [[s * 10 + k, "unplaced", -1] for s in range(seats) for k in range(10)],
            "fates": {}, "boats": [[-1, []] for _ in range(12)],
            "creatures": {"serpent": [-1] * 5, "shark": [-1] * 6, "whale": [-1] * 5,
                          "dolphin": [-1] * 4, "squid": [-1] * 5},
            "hands": [[0] * 12 for _ in range(seats)], "land": list(ISLAND), "protect": {}}


def _put(pos: dict, e: int, loc: str, at: int) -> None:
    for row in pos["explorers"]:
        if row[0] == e:
            row[1:] = [loc, at]


def make_log(strategy: str = "greedy") -> dict:
    seats = 4
    start = _empty_position(seats)
    mid = copy.deepcopy(start)
    for e in range(40):
        _put(mid, e, "land", ISLAND[20 + e % 15])
    _put(mid, 3, "land", LAND_FROM)
    for e in CROWD_IDS:
        _put(mid, e, "land", CROWD)
    _put(mid, 11, "boat", 4)
    _put(mid, 21, "boat", 4)
    _put(mid, 31, "sea", SWIM_HEX)
    _put(mid, 12, "safe", 134)
    _put(mid, 13, "safe", 134)
    _put(mid, 22, "safe", 134)
    _put(mid, 14, "lost", -1)
    mid["fates"] = {"14": "shark"}
    mid["boats"][4] = [BOAT_HEX, [11, 21]]
    mid["creatures"]["serpent"][0] = SERPENT_HEX
    mid["creatures"]["shark"][1] = SHARK_HEX
    mid["creatures"]["whale"][2] = WHALE_HEX
    mid["creatures"]["dolphin"][0] = SWIM_HEX
    mid["creatures"]["squid"][3] = SQUID_HEX
    mid["protect"] = {"31": 0}
    mid["land"] = [h for h in ISLAND if h != GONE]
    mid["hands"][1][6] = 2                           # seat 1 holds two wind tiles
    moved = copy.deepcopy(mid)
    _put(moved, 3, "land", LAND_A)
    sunk = copy.deepcopy(moved)
    sunk["land"] = [h for h in sunk["land"] if h != EMPTY]
    events = [
        {"type": "layout", "seat": -1, "turn": 0, "after": start},
        {"type": "turn_start", "seat": 0, "turn": 1, "after": mid},
        {"type": "roll", "seat": 0, "turn": 1, "face": "shark", "after": mid},
        {"type": "move", "seat": 0, "turn": 1, "what": "explorer", "id": 3, "mode": "walk",
         "to": LAND_A, "boat": None, "after": moved},
        {"type": "turn_start", "seat": 1, "turn": 2, "after": moved},
        {"type": "sink", "seat": 1, "turn": 2, "hex": EMPTY, "back": "wind", "board": [],
         "take_boat": None, "after": sunk},
        {"type": "end", "seat": 1, "turn": 2, "reason": "volcano", "after": sunk},
    ]
    for i, ev in enumerate(events):
        ev["i"] = i
    return {
        "format": "survive-sim-log/2", "seed": 7, "game": 3,
        "settings": {"players": 4, "seats": 4, "player_of_seat": [0, 1, 2, 3],
                     "boats_per_seat": [2, 2, 2, 2], "lagoon_is_sea": True,
                     "creatures_must_move": False, "max_turns": 400, "tiebreak": "shared",
                     "challenges": [5], "dolphins": True, "squid": True, "squid_only": False},
        "strategies": [strategy] * seats,
        "tiles": [{"hex": h, "rc": list(BOARD.rc[h]), "terrain": terrain(h), "back": "whale"}
                  for h in ISLAND],
        "explorers": [{"id": s * 10 + k, "seat": s, "slot": k, "value": VALUES[k]}
                      for s in range(seats) for k in range(10)],
        "events": events,
        "record": {},
    }
