"""Unit tests of the referee (replays/referee/) on small hand-built replay logs.

The logs are built by ``Game`` below: every event's ``after`` snapshot is the test's own
statement of the position, with consequences either spelled out in the test (moves, creature
moves) or produced by a tiny oracle for tile backs (``Game.sink``). Neither numba nor the engine
is needed. Test names and docstrings cite the RULES.md ids they cover.
"""
from __future__ import annotations

import ast
import copy
import json
from pathlib import Path

import pytest

from replays import referee

pytestmark = pytest.mark.engine_free

ROOT = Path(__file__).resolve().parents[1]
# the referee's modules and the board module they read board.json through: the ``replays``
# package never imports ``simulator`` or numba, so these tests run without the engine
REFEREE_PY = sorted((ROOT / "replays" / "referee").glob("*.py")) + [
    ROOT / "replays" / "__init__.py", ROOT / "replays" / "board.py"]
Discrepancy, check, check_file = referee.Discrepancy, referee.check, referee.check_file

# ---- board facts, read independently from board.json ---------------------------------------
_BOARD = json.loads((ROOT / "simulator" / "data" / "board.json").read_text())
RC = [tuple(x) for x in _BOARD["hexes"]]
IDX = {rc: i for i, rc in enumerate(RC)}
ISLAND = sorted(IDX[tuple(x)] for x in _BOARD["island"])
LAGOON = IDX[tuple(_BOARD["lagoon"])]
SERPENT_STARTS = [IDX[tuple(x)] for x in _BOARD["serpent_starts"]]
NW, NE, SW, SE = 133, 134, 135, 136


def H(r: int, c: int) -> int:
    return IDX[(r, c)]


def nbrs(h: int) -> list[int]:
    r, c = RC[h]
    d = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1)) if r % 2 == 0 else \
        ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0))
    return [IDX[(r + a, c + b)] for a, b in d if (r + a, c + b) in IDX]


VALUES = (1, 1, 1, 2, 2, 3, 3, 4, 5, 6)
TERRAINS = ("beach", "forest", "mountain")
BACKS = ("whale", "shark", "boat", "whirlpool", "volcano", "dolphin", "wind",
         "move_serpent", "move_shark", "move_whale", "defend_shark", "defend_whale")
TABLE = {"whale": (3, 2, 0), "shark": (3, 2, 1), "boat": (1, 3, 0), "whirlpool": (0, 2, 4),
         "volcano": (0, 0, 1), "dolphin": (3, 1, 0), "wind": (2, 0, 0), "move_serpent": (1, 1, 0),
         "move_shark": (1, 1, 0), "move_whale": (1, 1, 0), "defend_shark": (1, 1, 1),
         "defend_whale": (0, 2, 1)}
COUNTS = {"serpent": 5, "shark": 6, "whale": 5, "dolphin": 4, "squid": 5}
# red backs first, so that the default layout puts harmless tiles on the coast
FILL_BACKS = ("dolphin", "wind", "move_serpent", "move_shark", "move_whale", "defend_shark",
              "defend_whale", "whale", "shark", "boat", "whirlpool", "volcano")


def _ring(h):
    if any(n not in ISLAND and n != LAGOON for n in nbrs(h)):
        return 0            # touches the outer sea
    return 1 if LAGOON in nbrs(h) else 2


FILL_ORDER = sorted(ISLAND, key=lambda h: (_ring(h), h))


def layout(overrides: dict) -> dict:
    """hex -> (terrain, back): the overrides, then beaches on the coast, forests, mountains."""
    items = [(t, b) for t in range(3) for b in FILL_BACKS for _ in range(TABLE[b][t])]
    for terrain, back in overrides.values():
        items.remove((TERRAINS.index(terrain), back))
    free = [h for h in FILL_ORDER if h not in overrides]
    tiles = dict(overrides)
    for h, (t, b) in zip(free, items):
        tiles[h] = (TERRAINS[t], b)
    return tiles


DEFAULT_BOATS = [H(10, 7), H(10, 6), H(10, 5), H(10, 4), H(10, 3), H(9, 8), H(8, 9), H(8, 8)]


class Game:
    """Builds a replay log event by event; ``after`` = a copy of this object's own position."""

    def __init__(self, players=3, tiles=None, place=None, boats=None, **settings):
        self.seats = 4 if players == 2 else players
        self.settings = {"players": players, "seats": self.seats,
                         "player_of_seat": [s % players for s in range(self.seats)],
                         "boats_per_seat": [2] * self.seats, "lagoon_is_sea": True,
                         "creatures_must_move": False, "max_turns": 400}
        self.settings.update(settings)
        self.tiles = layout(tiles or {})
        self.explorers = [{"id": s * 10 + k, "seat": s, "slot": k, "value": VALUES[k]}
                          for s in range(self.seats) for k in range(10)]
        self.value = {x["id"]: x["value"] for x in self.explorers}
        self.ex = {x["id"]: ["unplaced", -1] for x in self.explorers}
        self.fates: dict[str, str] = {}
        self.boats = [[-1, []] for _ in range(12)]
        self.cr = {k: [-1] * n for k, n in COUNTS.items()}
        self.hands = [[0] * 12 for _ in range(self.seats)]
        self.land: set[int] = set()
        self.prot: dict[int, int] = {}            # X5.5: swimmer -> dolphin
        self.placed = {"dolphin": 0, "squid": 0}   # record: dolphins_placed, squid_placed
        self.events: list[dict] = []
        self.turn, self.seat = 0, -1
        self.turns_of = [0] * self.seats
        self.removed = {b: 0 for b in BACKS}
        self.end_reason, self.end_seat = None, -1
        # B4.1 layout
        self.land = set(ISLAND)
        for n, h in enumerate(SERPENT_STARTS):
            self.cr["serpent"][n] = h
        self.emit("layout", -1)
        # B4.3 explorers, one per seat in turn
        place = dict(place or {})
        fill = [h for h in reversed(FILL_ORDER) if h not in place.values()]
        for k in range(10):
            for s in range(self.seats):
                e = s * 10 + k
                h = place[e] if e in place else fill.pop(0)
                self.put(e, "land", h)
                self.emit("place_explorer", s, explorer=e, hex=h)
        # B4.4 boats, one per seat in turn
        hexes = list(boats or DEFAULT_BOATS)
        b = 0
        for _ in range(2):
            for s in range(self.seats):
                self.boats[b][0] = hexes[b]
                self.emit("place_boat", s, boat=b, hex=hexes[b])
                b += 1

    # ---- the position ----------------------------------------------------------------------
    def snap(self) -> dict:
        return {"explorers": [[e, loc, at] for e, (loc, at) in sorted(self.ex.items())],
                "fates": dict(self.fates),
                "boats": [[h, list(p)] for h, p in self.boats],
                "creatures": {k: list(v) for k, v in self.cr.items()},
                "hands": [list(h) for h in self.hands],
                "land": sorted(self.land),
                "protect": {str(e): d for e, d in sorted(self.prot.items())}}

    def emit(self, type_, seat=None, **fields) -> int:
        i = len(self.events)
        ev = {"i": i, "type": type_, "seat": self.seat if seat is None else seat,
              "turn": self.turn, **fields, "after": self.snap()}
        self.events.append(ev)
        return i

    def put(self, e, loc, at):
        old = self.ex[e]
        if old[0] == "boat":
            self.boats[old[1]][1].remove(e)
        self.ex[e] = [loc, at]
        if loc == "boat":
            self.boats[at][1].append(e)

    def lose(self, e, cause):
        self.put(e, "lost", -1)
        self.fates[str(e)] = cause

    def swimmers(self, h):
        return sorted(e for e, (loc, at) in self.ex.items() if loc == "sea" and at == h)

    # ---- events ------------------------------------------------------------------------------
    def start(self) -> int:
        self.seat = 0 if self.turn == 0 else (self.seat + 1) % self.seats
        self.turn += 1
        self.turns_of[self.seat] += 1
        return self.emit("turn_start")

    def move(self, e, mode, to=None, boat=None, lost=None) -> int:
        loc, at = self.ex[e]
        if mode == "overboard":
            to = self.boats[at][0]
        if mode == "board":
            to = self.boats[boat][0]
            self.put(e, "boat", boat)
        elif mode == "walk":
            self.put(e, "land", to)
        elif mode == "land":
            self.put(e, "safe", to)
        else:                                   # dive, swim, overboard
            self.put(e, "sea", to)
        if lost:
            self.lose(e, lost)
        return self.emit("move", what="explorer", id=e, mode=mode, to=to, boat=boat)

    def sail(self, b, to) -> int:
        self.boats[b][0] = to
        return self.emit("move", what="boat", id=b, mode="sail", to=to, boat=None)

    def eligible(self) -> list[int]:
        """B5.5 (test oracle)."""
        low = min(TERRAINS.index(self.tiles[h][0]) for h in self.land)
        tiles = [h for h in self.land if TERRAINS.index(self.tiles[h][0]) == low]
        sea = [h for h in tiles if any(n not in self.land and (self.settings["lagoon_is_sea"]
                                                                 or n != LAGOON) for n in nbrs(h))]
        return sorted(sea or tiles)

    def sink(self, h, board=None, then=None) -> int:
        """Step 3 with a small oracle for the tile backs (B5.6, B3.1-B3.4)."""
        back = self.tiles[h][1]
        self.land.discard(h)
        self.removed[back] += 1
        for e, (loc, at) in list(self.ex.items()):
            if loc == "land" and at == h:
                self.put(e, "sea", h)
        boarded = []
        if back in ("whale", "shark"):
            n = self.cr[back].index(-1)
            self.cr[back][n] = h
            if back == "shark":
                for e in self.swimmers(h):
                    self.lose(e, "shark")
        elif back == "boat":
            b = [k for k in range(12) if self.boats[k][0] == -1][0]
            self.boats[b][0] = h
            boarded = list(board) if board is not None else self.swimmers(h)[:3]
            for e in boarded:
                self.put(e, "boat", b)
        elif back == "whirlpool":
            for x in [h] + [n for n in nbrs(h) if n not in self.land]:
                for e in self.swimmers(x):
                    self.lose(e, "whirlpool")
                for b in range(12):
                    if self.boats[b][0] == x:
                        for e in list(self.boats[b][1]):
                            self.lose(e, "whirlpool")
                        self.boats[b][0] = -1
                for k in self.cr:
                    self.cr[k] = [-2 if y == x else y for y in self.cr[k]]
        elif back != "volcano":
            self.hands[self.seat][BACKS.index(back)] += 1
        if then:
            then()
        return self.emit("sink", hex=h, back=back, board=boarded, take_boat=None)

    def roll(self, face) -> int:
        return self.emit("roll", face=face)

    def creature(self, kind, n, path, defended_by=None, defence=None, then=None) -> int:
        if path:
            self.cr[kind][n] = path[-1]
        if then:
            then()
        return self.emit("creature", kind=kind, piece=n, path=list(path),
                         defended_by=defended_by, defence=defence)

    def play(self, back, piece, path, then=None) -> int:
        self.hands[self.seat][BACKS.index(back)] -= 1
        if then:
            then()
        return self.emit("play_tile", back=back, piece=piece, path=list(path))

    def end(self, reason) -> int:
        self.end_reason, self.end_seat = reason, self.seat
        return self.emit("end", reason=reason)

    def quiet_turn(self, h=None, face="whale"):
        """A turn with no movement: sink ``h`` (default: the first eligible tile), roll ``face``
        (chosen so that no creature of that kind is on the board, unless it is the serpent, which
        then stays, R2)."""
        self.start()
        self.sink(self.eligible()[0] if h is None else h)
        self.roll(face)
        if any(x >= 0 for x in self.cr[face]):
            n = next(k for k, x in enumerate(self.cr[face]) if x >= 0)
            self.creature(face, n, [])

    # ---- the record and the log ----------------------------------------------------------------
    def record(self) -> dict:
        rec = {"game": 0, "seed": 1, "players": self.settings["players"], "seats": self.seats,
               "end_reason": self.end_reason, "end_seat": self.end_seat, "turns": self.turn,
               "tiles_removed": sum(self.removed.values()), "bonus_moves": 0,
               "dolphins_placed": self.placed["dolphin"], "squid_placed": self.placed["squid"],
               "dolphins": 5 in self.settings.get("challenges", []),
               "squid": bool(self.settings.get("squid")),
               "squid_only": bool(self.settings.get("squid_only"))}
        rec.update({f"back_{b}": n for b, n in self.removed.items()})
        for s in range(6):
            cols = ("score", "rescued", "rescued_value", "lost", "turns", "lost_serpent",
                    "lost_shark", "lost_whale", "lost_whirlpool", "lost_squid", "lost_stranded")
            if s >= self.seats:
                rec.update({f"{c}_{s}": None for c in cols})
                continue
            mine = [e for e in self.ex if e // 10 == s]
            safe = [e for e in mine if self.ex[e][0] == "safe"]
            lost = [e for e in mine if self.ex[e][0] == "lost"]
            stranded = [e for e in mine if self.ex[e][0] in ("land", "boat", "sea")]
            rec[f"score_{s}"] = rec[f"rescued_value_{s}"] = sum(self.value[e] for e in safe)
            rec[f"rescued_{s}"] = len(safe)
            rec[f"lost_{s}"] = len(lost) + len(stranded)
            rec[f"turns_{s}"] = self.turns_of[s]
            for cause in ("serpent", "shark", "whale", "whirlpool", "squid"):
                rec[f"lost_{cause}_{s}"] = sum(1 for e in lost if self.fates[str(e)] == cause)
            rec[f"lost_stranded_{s}"] = len(stranded)
        # B7.3: these hand-built games are decided under the shared rule (2-4 players)
        rec["tiebreak"] = self.settings.get("tiebreak", "shared")
        scores = [sum(rec[f"score_{s}"] for s in range(self.seats)
                      if s % self.settings["players"] == p) for p in range(self.settings["players"])]
        rec["decided_by"] = "score" if scores.count(max(scores)) == 1 else "shared"
        return rec

    def log(self) -> dict:
        return {"format": "survive-sim-log/2", "seed": 1, "game": 0,
                "settings": dict(self.settings), "strategies": ["random"] * self.seats,
                "tiles": [{"hex": h, "rc": list(RC[h]), "terrain": t, "back": b}
                          for h, (t, b) in sorted(self.tiles.items())],
                "explorers": [dict(x) for x in self.explorers],
                "events": copy.deepcopy(self.events),
                "record": self.record()}


def expect(d: Discrepancy | None, event: int, rule: str):
    assert d is not None, "the referee found nothing"
    assert (d.event, d.rule) == (event, rule), str(d)


# =============================================================================================
# Scenario A: dive, green shark, eaten diver, shark attack, serpent stays, turn cap
# =============================================================================================

def scenario_a(swim_twice=False, shark_path=None, extra_move=False):
    """T1 seat 0: explorer 0 dives 41->30, sinks the shark beach at (3,4). T2 seat 1: explorer 10
    dives into the shark's hex and is eaten; sinks a whale beach; the shark attacks explorer 0.
    T3 seat 2: sinks a dolphin (hand), the serpent stays. Turn cap 3."""
    g = Game(players=3, tiles={H(3, 4): ("beach", "shark"), H(6, 2): ("beach", "whale"),
                               H(3, 6): ("beach", "dolphin")},
             place={0: H(4, 3), 10: H(3, 5)}, max_turns=3)
    m = {}
    g.start()
    m["dive"] = g.move(0, "dive", H(3, 3))
    if swim_twice:
        m["swim"] = g.move(0, "swim", H(2, 3))
    if extra_move:
        g.move(1, "walk", g.ex[1][1])            # walk onto its own tile? (illegal: not adjacent)
    m["sink1"] = g.sink(H(3, 4))
    g.roll("whale")
    g.start()
    m["eaten"] = g.move(10, "dive", H(3, 4), lost="shark")
    g.sink(H(6, 2))
    g.roll("shark")
    path = shark_path or [H(3, 3)]
    m["shark"] = g.creature("shark", 0, path,
                            then=lambda: [g.lose(e, "shark") for e in g.swimmers(path[-1])])
    g.start()
    g.sink(H(3, 6))
    g.roll("serpent")
    g.creature("serpent", 1, [])
    m["end"] = g.end("turn_cap")
    return g, m


def test_legal_sequence_passes_B4_B5_B6_7_B3_2_R2_R10_B7_2():
    """B4.3, B4.4 setup; B5 turn steps; B6.2 dive; B3.2 green shark; B6.7 diver eaten; B6.9
    shark attack; R2 serpent stays; R10 turn cap; B7.2/R18 record."""
    g, _ = scenario_a()
    assert check(g.log()) is None


def test_B6_5_swimmer_swims_twice_is_caught():
    """B6.5: a swimmer that dived from land this turn has used its one sea hex."""
    g, m = scenario_a(swim_twice=True)
    expect(check(g.log()), m["swim"], "B6.5")


def test_B6_7_snapshot_claims_swimmer_survived_shark():
    """B6.7: a swimmer entering a shark's hex is eaten; a snapshot saying otherwise is caught."""
    g, m = scenario_a()
    log = g.log()
    after = log["events"][m["eaten"]]["after"]
    after["explorers"] = [[e, "sea", H(3, 4)] if e == 10 else [e, l, a]
                          for e, l, a in after["explorers"]]
    del after["fates"]["10"]
    d = check(log)
    expect(d, m["eaten"], "B6.7")
    assert "explorer 10" in d.message and "expected lost" in d.message


def test_B3_2_green_shark_eats_swimmers_on_its_hex():
    """B3.2: explorers on a sunk shark tile become swimmers (B5.6) and are eaten at once."""
    g = Game(players=3, tiles={H(3, 4): ("beach", "shark")}, place={0: H(3, 4)}, max_turns=1)
    g.start()
    i = g.sink(H(3, 4))
    assert g.fates == {"0": "shark"}
    g.roll("whale")
    g.end("turn_cap")
    assert check(g.log()) is None
    log = g.log()
    log["events"][i]["after"]["fates"] = {}
    log["events"][i]["after"]["explorers"][0] = [0, "sea", H(3, 4)]
    expect(check(log), i, "B3.2")


def test_B6_9_shark_must_stop_at_first_swimmer():
    """B6.9, R12: a die-moved shark stops at once in a hex with a swimmer."""
    g, m = scenario_a(shark_path=[H(3, 3), H(2, 3)])
    expect(check(g.log()), m["shark"], "B6.9")


def test_B6_2_walk_must_reach_adjacent_land():
    """B6.2: walking to a non-adjacent hex is illegal."""
    g, m = scenario_a(extra_move=True)
    d = check(g.log())
    assert d is not None and d.rule == "B6.2" and d.event == m["dive"] + 1


def test_B7_2_R18_record_columns_are_checked():
    """B7.2 scores and R18 turns in the record must match the referee's final position."""
    g, _ = scenario_a()
    log = g.log()
    log["record"]["score_1"] = 4
    d = check(log)
    assert d is not None and (d.event, d.rule, d.seat) == (-1, "B7.2", 1)
    log = g.log()
    log["record"]["turns_2"] = 2
    assert check(log).rule == "R18"
    log = g.log()
    log["record"]["lost_stranded_0"] += 1
    assert check(log).rule == "B7.2"
    log = g.log()
    log["record"]["back_shark"] = 0
    assert check(log).rule == "B5.6"
    log = g.log()                       # absent seats: null or NaN both accepted
    log["record"]["score_4"] = float("nan")
    assert check(log) is None
    log["record"]["score_4"] = 0
    assert check(log).rule == "format"


def test_B5_4_missing_creature_move_after_roll():
    """B5.4: when a creature of the rolled kind is on the board, its move must follow the roll."""
    g, m = scenario_a()
    log = g.log()
    k = m["shark"]
    del log["events"][k]
    for i, ev in enumerate(log["events"]):
        ev["i"] = i
    expect(check(log), k, "B5.4")


def test_B5_5_sink_must_be_lowest_terrain():
    """B5.5: a forest may not sink while beaches remain."""
    g = Game(players=3, max_turns=1)
    forest = next(h for h in FILL_ORDER if g.tiles[h][0] == "forest")
    g.start()
    i = g.sink(forest)
    g.roll("whale")
    g.end("turn_cap")
    expect(check(g.log()), i, "B5.5")


def test_R1_lagoon_counts_as_sea_for_sinking():
    """R1 (B5.5): a beach touching only the lagoon is eligible by default, not with lagoon_is_sea off."""
    inner = H(5, 5)
    assert [n for n in nbrs(inner) if n not in ISLAND] == [LAGOON]
    for lagoon_is_sea in (True, False):
        g = Game(players=3, tiles={inner: ("beach", "dolphin")}, max_turns=1,
                 lagoon_is_sea=lagoon_is_sea)
        g.start()
        i = g.sink(inner)
        g.roll("whale")
        g.end("turn_cap")
        d = check(g.log())
        if lagoon_is_sea:
            assert d is None, str(d)
        else:
            expect(d, i, "B5.5")


def test_B5_6_sink_back_must_match_layout():
    """B5.6: the back resolved must be the back of the tile laid on that hex."""
    g = Game(players=3, tiles={H(3, 4): ("beach", "dolphin")}, max_turns=1)
    g.start()
    i = g.sink(H(3, 4))
    g.roll("whale")
    g.end("turn_cap")
    log = g.log()
    log["events"][i]["back"] = "wind"
    expect(check(log), i, "B5.6")


def test_B4_2_turn_order_and_R10_turn_cap():
    """B4.2: seats play 0,1,2,...; R10: no turn after the cap, end only at the cap."""
    g = Game(players=3, max_turns=2)
    g.quiet_turn()
    i = g.start()
    log = g.log()
    log["events"][i]["seat"] = 2
    expect(check(log), i, "B4.2")
    g.sink(g.eligible()[0])
    g.roll("whale")
    j = g.start()                        # a third turn with max_turns = 2
    expect(check(g.log()), j, "R10")


def test_B5_2_at_most_three_movement_points():
    """B5.2: a 4th movement point in one turn is illegal."""
    g = Game(players=3, place={0: H(5, 5)}, max_turns=1)   # interior tile
    g.start()
    g.move(0, "walk", H(5, 4))
    g.move(0, "walk", H(5, 5))
    g.move(0, "walk", H(5, 4))
    i = g.move(0, "walk", H(5, 5))
    expect(check(g.log()), i, "B5.2")


def test_B4_3_placement_one_explorer_per_empty_tile():
    """B4.3: an explorer may not be placed on a tile that already holds one."""
    g = Game(players=3, place={0: H(5, 5), 10: H(5, 5)})
    expect(check(g.log()), 2, "B4.3")          # event 0 = layout, 1 = explorer 0, 2 = explorer 10


def test_B4_4_R19_boat_placement():
    """B4.4: boats next to land; R19: never on a creature (the lagoon serpent) or another boat."""
    g = Game(players=3, boats=[LAGOON] + DEFAULT_BOATS[1:])
    expect(check(g.log()), 31, "R19")
    far = H(0, 2)
    g = Game(players=3, boats=[far] + DEFAULT_BOATS[1:])
    expect(check(g.log()), 31, "B4.4")


# =============================================================================================
# Scenario B: shark defence (B6.12, R16)
# =============================================================================================

def scenario_b(defender=0, snapshot_eaten=False):
    """T1 seat 0: explorer 0 dives to (3,3), sinks a shark-defence beach. T2 seat 1: sinks the shark
    beach at (3,4); the die moves the shark onto explorer 0; seat ``defender`` defends."""
    g = Game(players=3, tiles={H(3, 4): ("beach", "shark"), H(3, 6): ("beach", "defend_shark")},
             place={0: H(4, 3)}, max_turns=2)
    g.start()
    g.move(0, "dive", H(3, 3))
    g.sink(H(3, 6))
    g.roll("whale")
    g.start()
    g.sink(H(3, 4))
    g.roll("shark")

    def defend():
        if defender is not None:
            g.hands[defender][BACKS.index("defend_shark")] -= 1
            g.cr["shark"][0] = -2
        if snapshot_eaten or defender is None:
            g.lose(0, "shark")
    i = g.creature("shark", 0, [H(3, 3)], defended_by=defender,
                   defence="defend_shark" if defender is not None else None, then=defend)
    g.end("turn_cap")
    return g, i


def test_B6_12_R16_shark_defence_legal():
    """B6.12, R16: the owner of the attacked swimmer removes the shark from the game (-2)."""
    g, _ = scenario_b()
    assert check(g.log()) is None
    g, _ = scenario_b(defender=None)         # not defending is always allowed
    assert check(g.log()) is None


def test_R16_defence_needs_a_swimmer_in_the_hex():
    """R16: only a seat (of another player) with a swimmer in the attacked hex may defend."""
    g, i = scenario_b(defender=2)
    expect(check(g.log()), i, "R16")


def test_B6_12_defended_swimmers_survive():
    """B6.12: the snapshot may not show the defended swimmer eaten."""
    g, i = scenario_b(snapshot_eaten=True)
    expect(check(g.log()), i, "B6.12")


def test_R16_two_players_compare_players_not_seats():
    """R16, B4.5: with 2 players seat 3 (player B) may not defend against seat 1 (player B)."""
    g = Game(players=2, tiles={H(3, 4): ("beach", "shark"), H(3, 6): ("beach", "defend_shark")},
             place={30: H(4, 3)}, max_turns=6)
    g.quiet_turn(H(3, 4))                  # seat 0: shark on (3,4), eats whoever stood there
    g.quiet_turn(H(3, 5))                  # seat 1
    g.quiet_turn(H(3, 7))                  # seat 2
    g.start()                              # seat 3
    g.move(30, "dive", H(3, 3))
    g.sink(H(3, 6))                        # defend_shark -> seat 3's hand
    g.roll("whale")
    g.quiet_turn(H(4, 7))                  # seat 0
    g.start()                              # seat 1 (player B)
    g.sink(H(5, 2))
    g.roll("shark")

    def defend():
        g.hands[3][BACKS.index("defend_shark")] -= 1
        g.cr["shark"][0] = -2
    i = g.creature("shark", 0, [H(3, 3)], defended_by=3, defence="defend_shark", then=defend)
    g.end("turn_cap")
    expect(check(g.log()), i, "R16")


# =============================================================================================
# Scenario C: whale capsizes a boat into a shark's hex (R15)
# =============================================================================================

def scenario_c():
    """Explorer 0 boards boat 0 at (3,3); a whale appears on (3,4), a shark on (4,3) that moves
    beside the boat; then the whale capsizes the boat and the shark eats the passenger."""
    g = Game(players=3, tiles={H(3, 4): ("beach", "whale"), H(4, 3): ("beach", "shark")},
             place={0: H(4, 3)}, boats=[H(3, 3)] + DEFAULT_BOATS[1:], max_turns=3)
    g.start()
    g.move(0, "board", boat=0)
    g.sink(H(3, 4))
    g.roll("shark")
    g.start()
    g.sink(H(4, 3))
    g.roll("shark")
    g.creature("shark", 0, [H(3, 3)])      # shares the hex with an occupied boat: no attack
    g.start()
    g.sink(H(3, 5))
    g.roll("whale")

    def capsize():
        g.boats[0] = [-1, []]
        g.ex[0] = ["sea", H(3, 3)]
        g.lose(0, "whale")
    i = g.creature("whale", 0, [H(3, 3)], then=capsize)
    g.end("turn_cap")
    return g, i


def test_R15_capsized_then_eaten_is_lost_to_the_whale():
    """R15, B6.7, B6.10, R5: capsized passengers eaten by a shark count as lost to the whale; the
    boat returns to the supply."""
    g, _ = scenario_c()
    log = g.log()
    assert check(log) is None
    assert log["record"]["lost_whale_0"] == 1


def test_R15_wrong_cause_is_caught():
    """R15: cause 'shark' for a capsized-then-eaten passenger is wrong."""
    g, i = scenario_c()
    log = g.log()
    log["events"][i]["after"]["fates"]["0"] = "shark"
    log["record"]["lost_whale_0"], log["record"]["lost_shark_0"] = 0, 1
    expect(check(log), i, "R15")


def test_R5_capsized_boat_returns_to_supply():
    """R5: a destroyed or capsized boat goes back to the supply (-1), not out of the game (-2)."""
    g, i = scenario_c()
    log = g.log()
    log["events"][i]["after"]["boats"][0][0] = -2
    for ev in log["events"][i + 1:]:
        ev["after"]["boats"][0][0] = -2
    expect(check(log), i, "R5")


def test_R8_whale_defence_needs_control_of_the_boat():
    """R8, B6.12: only a controller of the attacked boat may play whale defence."""
    g, i = scenario_c()
    log = g.log()
    log["events"][i].update(defended_by=1, defence="defend_whale")
    expect(check(log), i, "R8")


def test_B3_3_boat_tile_boards_the_swimmers_of_its_hex():
    """B3.3: a boat tile brings the lowest-numbered supply boat; the swimmers there (up to 3) board."""
    g = Game(players=3, tiles={H(3, 4): ("beach", "boat")}, place={0: H(3, 4)}, max_turns=1)
    g.start()
    i = g.sink(H(3, 4))
    assert g.boats[6] == [H(3, 4), [0]]
    g.roll("whale")
    g.end("turn_cap")
    assert check(g.log()) is None
    log = g.log()
    log["events"][i]["board"] = []
    expect(check(log), i, "B3.3")


# =============================================================================================
# Scenario D: boats, rescue, control (B6.1, B6.4, B6.6, R13, B2.2, B7.2)
# =============================================================================================

def scenario_d(variant=None):
    """Seat 0's explorers 9 (value 6) and 8 (value 5) board boat 0 at (4,2), sail to the NW access
    hex (2,0) and land; 8 jumps overboard first and lands on a later turn (R13)."""
    boats = [H(4, 2)] + DEFAULT_BOATS[1:]
    if variant == "blocked":
        boats = [H(4, 2), H(3, 3)] + DEFAULT_BOATS[2:]
    g = Game(players=3, place={9: H(4, 3), 8: H(5, 2)}, boats=boats, max_turns=7)
    m = {}
    g.start()
    g.move(9, "board", boat=0)
    g.move(8, "board", boat=0)
    m["sail1"] = g.sail(0, H(3, 2) if variant != "blocked" else H(3, 3))
    g.sink(H(3, 4))
    g.roll("whale")
    g.start()                                                   # seat 1
    if variant == "steal":
        m["steal"] = g.sail(0, H(3, 1))
    else:
        g.sail(1, H(10, 7))                                     # an empty boat: anyone may move it
    g.sink(H(3, 5))
    g.roll("whale")
    g.quiet_turn(H(3, 6))                                       # seat 2
    g.start()                                                   # seat 0
    g.sail(0, H(3, 1))
    if variant == "swim_land":
        g.move(8, "overboard")                                  # 8 swims from (3,1) at turn 7
        g.sail(0, H(2, 0))
    else:
        g.sail(0, H(2, 0))
        m["land9"] = g.move(9, "land", NW)
    g.sink(H(3, 7))
    g.roll("whale")
    g.quiet_turn(H(4, 7))
    g.quiet_turn(H(4, 3))
    g.start()                                                   # seat 0, turn 7
    if variant == "swim_land":
        g.move(8, "swim", H(2, 0))
        m["land8"] = g.move(8, "land", NW)
    else:
        g.move(8, "overboard")
        m["land8"] = g.move(8, "land", NW)
    g.sink(H(5, 2))
    g.roll("whale")
    g.end("turn_cap")
    return g, m


def test_B6_4_B2_2_R3_rescue_by_boat_and_overboard_landing_is_legal():
    """B6.4, B6.6, B2.2, R3: landing from a boat in an access hex; R13: jumping overboard does
    not use the swimmer's sea hex, so it may land the same turn; B7.2: score 6+5."""
    g, _ = scenario_d()
    log = g.log()
    assert check(log) is None
    assert log["record"]["score_0"] == 11 and log["record"]["rescued_0"] == 2


def test_R13_swimmer_that_swam_may_not_land():
    """R13, B6.5: a swimmer that swam this turn may not also land on a safe isle."""
    g, m = scenario_d("swim_land")
    expect(check(g.log()), m["land8"], "R13")


def test_B6_1_only_controllers_move_an_occupied_boat():
    """B6.1: seat 1 may not sail a boat whose passengers are all seat 0's."""
    g, m = scenario_d("steal")
    expect(check(g.log()), m["steal"], "B6.1")


def test_B6_6_one_boat_per_hex():
    """B6.6: a boat may not enter a hex holding another boat."""
    g, m = scenario_d("blocked")
    expect(check(g.log()), m["sail1"], "B6.6")


def test_B6_3_explorer_never_returns_to_land():
    """B6.3: an explorer in a boat may not walk back onto land."""
    g, _ = scenario_d()
    log = g.log()
    k = max(i for i, ev in enumerate(log["events"]) if ev["type"] == "move" and ev["id"] == 8
            and ev["mode"] == "overboard")        # explorer 8 is in boat 0 at (2,0)
    log["events"][k].update(mode="walk", to=H(4, 3), boat=None)
    expect(check(log), k, "B6.3")


# =============================================================================================
# Red tiles (B5.1, R4, R9, B3.6, B3.8)
# =============================================================================================

def test_R9_move_tile_needs_a_creature_on_the_board():
    """R9: Move Shark with no shark on the board may not be played; B3.8: Move Serpent to an
    unoccupied sea hex is fine; R4: one red tile per turn."""
    g = Game(players=3, tiles={H(3, 4): ("beach", "move_shark"), H(3, 5): ("beach", "move_serpent")},
             max_turns=4)
    g.start()
    g.sink(H(3, 4))                                 # seat 0 gets move_shark
    g.roll("whale")
    g.quiet_turn()
    g.quiet_turn()
    g.start()
    i = g.play("move_shark", 0, [H(0, 4)], then=lambda: g.cr["shark"].__setitem__(0, H(0, 4)))
    expect(check(g.log()), i, "R9")

    g = Game(players=3, tiles={H(3, 4): ("beach", "move_serpent")}, max_turns=4)
    g.start()
    g.sink(H(3, 4))
    g.roll("whale")
    g.quiet_turn()
    g.quiet_turn()
    g.start()
    g.play("move_serpent", 1, [H(0, 4)], then=lambda: g.cr["serpent"].__setitem__(1, H(0, 4)))
    g.sink(g.eligible()[0])
    g.roll("whale")
    g.end("turn_cap")
    assert check(g.log()) is None
    log = g.log()                                   # destination holding a boat: not unoccupied
    k = next(i for i, ev in enumerate(log["events"]) if ev["type"] == "play_tile")
    log["events"][k]["path"] = [DEFAULT_BOATS[0]]
    expect(check(log), k, "B3.8")


def test_B3_6_R13_R12_dolphin_moves_a_swimmer_and_uses_its_sea_hex():
    """B3.6: the Dolphin tile moves one of your swimmers up to 3 hexes; R13: it may not swim again;
    R12: its path is simple."""
    g = Game(players=3, tiles={H(3, 4): ("beach", "dolphin")}, place={0: H(4, 3)}, max_turns=4)
    g.start()
    g.move(0, "dive", H(3, 3))
    g.sink(H(3, 4))
    g.roll("whale")
    g.quiet_turn()
    g.quiet_turn()
    g.start()
    g.play("dolphin", 0, [H(3, 2), H(3, 1), H(2, 0)],
           then=lambda: g.put(0, "sea", H(2, 0)))
    i = g.move(0, "swim", H(2, 1))
    expect(check(g.log()), i, "B6.5")
    log = g.log()                                   # R12: a path entering its start again
    log["events"][i - 1]["path"] = [H(3, 2), H(3, 3), H(2, 0)]
    expect(check(log), i - 1, "R12")


def test_B5_1_tile_not_in_hand():
    """B5.1: a red tile may be played only if the seat holds it."""
    g = Game(players=3, place={0: H(4, 3)}, max_turns=1)
    g.start()
    g.move(0, "dive", H(3, 3))
    log = g.log()
    log["events"].insert(len(log["events"]) - 1, {
        "i": 0, "type": "play_tile", "seat": 0, "turn": 1, "back": "dolphin", "piece": 0,
        "path": [H(2, 3)], "after": log["events"][-1]["after"]})
    for i, ev in enumerate(log["events"]):
        ev["i"] = i
    expect(check(log), len(log["events"]) - 2, "B5.1")


# =============================================================================================
# A long game: all beaches and forests, whirlpools, the volcano (B3.4, B5.7, B7.1, B7.2)
# =============================================================================================

def long_game():
    g = Game(players=3, tiles={H(9, 5): ("mountain", "volcano")})
    marks = {"whirlpool": []}
    while True:
        h = g.eligible()
        h = next((x for x in h if g.tiles[x][1] == "volcano"), h[0])
        if g.tiles[h][1] == "volcano":
            g.start()
            marks["volcano"] = g.sink(h)
            marks["end"] = g.end("volcano")
            return g, marks
        g.start()
        i = g.sink(h)
        if g.tiles[h][1] == "whirlpool":
            marks["whirlpool"].append(i)
        g.roll("serpent")
        g.creature("serpent", 1, [])


def test_B5_7_B7_1_long_game_to_the_volcano_passes():
    """B5.5 all beaches then forests; B3.1-B3.4 green tiles; B5.7/B7.1 the volcano ends the game at
    once; B7.2 stranded explorers. (The referee's time on this log is a benchmark in
    docs/performance.md, "The referee", not a timed test.)"""
    g, m = long_game()
    log = g.log()
    assert log["record"]["back_volcano"] == 1 and log["record"]["tiles_removed"] == 33
    d = check(log)
    assert d is None, str(d)


def test_B5_7_no_creature_roll_after_the_volcano():
    """B5.7: revealing the volcano ends the game immediately; a roll after it is illegal."""
    g, m = long_game()
    log = g.log()
    k = m["end"]
    end = log["events"][k]
    roll = dict(end, type="roll", face="serpent")
    del roll["reason"]
    log["events"][k:k] = [roll]
    for i, ev in enumerate(log["events"]):
        ev["i"] = i
    expect(check(log), k, "B5.7")


def test_B3_4_whirlpool_removes_the_swimmers_of_its_hex():
    """B3.4: a whirlpool removes the swimmers of its hex (and adjacent sea hexes)."""
    g, m = long_game()
    log = g.log()
    for k in m["whirlpool"]:
        after = log["events"][k]["after"]
        lost = [e for e, c in after["fates"].items() if c == "whirlpool"
                and e not in log["events"][k - 1]["after"]["fates"]]
        if lost:
            e = int(lost[0])
            del after["fates"][str(e)]
            after["explorers"] = [[x, "sea", log["events"][k]["hex"]] if x == e else [x, l, a]
                                  for x, l, a in after["explorers"]]
            expect(check(log), k, "B3.4")
            return
    pytest.fail("no whirlpool removed anybody in the long game")


def test_B7_1_log_without_end_and_event_after_end():
    """B7.1: the log must end with an end event; nothing may follow it."""
    g, _ = scenario_a()
    log = g.log()
    del log["events"][-1]
    d = check(log)
    assert d is not None and d.rule == "B7.1"
    log = g.log()
    extra = dict(log["events"][-1], i=len(log["events"]))
    log["events"].append(extra)
    expect(check(log), len(log["events"]) - 1, "B7.1")


# =============================================================================================
# Header and API
# =============================================================================================

def test_header_B3_tile_counts_and_X_settings(tmp_path):
    """B3.1-B3.12 tile counts are checked; settings the referee does not cover (an unknown
    challenge, an unknown option) are reported as unsupported (X); check_file."""
    g, _ = scenario_a()
    log = g.log()
    log["tiles"][0]["back"] = "volcano" if log["tiles"][0]["back"] != "volcano" else "whale"
    d = check(log)
    assert d is not None and d.event == -1 and d.rule.startswith("B3.")
    log = g.log()
    log["settings"]["challenges"] = [7]
    assert check(log).rule == "X"
    log = g.log()
    log["settings"]["kraken"] = True
    assert check(log).rule == "X"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(g.log()))
    assert check_file(path) is None


def test_R21_creatures_must_move_forbids_staying():
    """R21: with creatures_must_move a die-moved creature that can move may not stay."""
    g = Game(players=3, max_turns=1, creatures_must_move=True)
    g.start()
    g.sink(g.eligible()[0])
    g.roll("serpent")
    i = g.creature("serpent", 1, [])
    g.end("turn_cap")
    expect(check(g.log()), i, "R21")


def test_referee_is_independent_plain_python():
    """The referee imports only the standard library: no numba, numpy, rules or engine (and of
    its own package only its modules and ``replays.board``, by relative imports; the board
    reads its data file as ``replays``'s own package data with ``importlib.resources``, never
    importing ``simulator`` or looking it up)."""
    names = set()
    for path in REFEREE_PY:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                names.add((node.module or "").split(".")[0] if node.level == 0 else "<relative>")
    assert names <= {"__future__", "json", "math", "dataclasses", "pathlib", "importlib",
                     "<relative>"}, names


# =============================================================================================
# Expansions, hand-built: X5 (a dolphin tile, the dive dice) and X7.6 (squid instead of whales)
# =============================================================================================

def _dolphin_game(protect=True, keep_tile=False):
    """X5.2, X5.3, X5.6: T1 seat 0 sinks a dolphin beach holding its explorer 0: a dolphin comes
    into play and protects the new swimmer (the tile is not kept); the dive dice show dolphin
    and 1; the dolphin swims off and leaves explorer 0 unprotected."""
    h = H(3, 4)
    g = Game(players=3, tiles={h: ("beach", "dolphin")}, place={0: h}, max_turns=1,
             challenges=[5], dolphins=True)
    g.start()
    g.land.discard(h)
    g.removed["dolphin"] += 1
    g.put(0, "sea", h)
    g.cr["dolphin"][0] = h
    g.placed["dolphin"] += 1
    if protect:
        g.prot[0] = 0
    if keep_tile:
        g.hands[0][BACKS.index("dolphin")] += 1
    i = g.emit("sink", hex=h, back="dolphin", board=[], take_boat=None,
               **({"protect": 0} if protect else {}))
    g.emit("roll", face="dolphin", number=1)
    to = next(n for n in nbrs(h) if n not in g.land and not g.swimmers(n)
              and all(n not in v for v in g.cr.values()) and all(b[0] != n for b in g.boats))
    g.cr["dolphin"][0] = to
    g.prot.clear()
    j = g.emit("creature", kind="dolphin", piece=0, path=[to], defended_by=None, defence=None)
    g.end("turn_cap")
    return g, i, j


def test_X5_2_X5_3_X5_6_dolphin_tile_and_dive_dice_hand_built():
    """X5.2: an immediate dolphin tile protecting its swimmer; X5.3: the dive dice; X5.6: the
    dolphin moved away unprotects it. Corrupted: no protection named (X5.5), the tile kept in
    the hand (X5.2)."""
    g, i, _ = _dolphin_game()
    assert check(g.log()) is None
    g, i, _ = _dolphin_game(protect=False)
    expect(check(g.log()), i, "X5.5")
    g, i, _ = _dolphin_game(keep_tile=True)
    expect(check(g.log()), i, "X5.2")


def test_X5_6_moved_dolphin_keeps_no_protection_hand_built():
    """X5.6 / X5.9: a snapshot where the dolphin still protects its swimmer after swimming off
    is refused."""
    g, _, j = _dolphin_game()
    log = g.log()
    log["events"][j]["after"]["protect"] = {"0": 0}
    expect(check(log), j, "X5.6")


def _squid_only_game(victim=True, far=False):
    """X7.6, X7.1, X7.4: squid instead of whales. T1 seat 0 sinks a whale beach: no whale, a
    squid is placed next to land and takes one explorer from an adjacent tile; the die's whale
    face then moves the squid (it stays, X7.2) and it takes another explorer (X7.4)."""
    h = H(3, 4)
    g = Game(players=3, tiles={h: ("beach", "whale")}, max_turns=1, squid=True, squid_only=True)
    for ev in g.events:                       # X7.6: the whales are out of the game from setup
        ev["after"]["creatures"]["whale"] = [-2] * 5
    g.cr["whale"] = [-2] * 5
    g.start()
    for e, (loc, at) in list(g.ex.items()):
        if loc == "land" and at == h:
            g.put(e, "sea", h)
    g.land.discard(h)
    g.removed["whale"] += 1
    i = g.emit("sink", hex=h, back="whale", board=[], take_boat=None)

    def free(x):
        return x not in g.land and not g.swimmers(x) and all(b[0] != x for b in g.boats) \
            and all(x not in v for v in g.cr.values())

    def takers(x):
        return [e for e, (loc, at) in sorted(g.ex.items()) if loc == "land" and at in nbrs(x)]

    if far:
        spot = next(x for x in range(133) if free(x) and not any(n in g.land for n in nbrs(x)))
    else:
        spot = max((x for x in range(133) if free(x)), key=lambda x: len(takers(x)))
    g.cr["squid"][0] = spot
    g.placed["squid"] += 1
    first = takers(spot)[0] if (victim and takers(spot)) else None
    if first is not None:
        g.lose(first, "squid")
    j = g.emit("squid", piece=0, hex=spot, whales=[], victim=first, placed=True)
    g.roll("whale")
    g.creature("squid", 0, [])
    second = takers(spot)[0] if takers(spot) else None
    if second is not None:
        g.lose(second, "squid")
    k = g.emit("squid", piece=0, hex=spot, whales=[], victim=second, placed=False)
    g.end("turn_cap")
    return g, i, j, k


def test_X7_6_X7_1_X7_4_squid_only_hand_built():
    """X7.6: no whales (removed at setup) and a whale tile places a squid; X7.1: next to land,
    taking one explorer from an adjacent tile; X7.2 / X7.4: a squid that stays still attacks.
    Corrupted: no victim (X7.1), a squid far from land (X7.1), a whale placed (X7.6)."""
    g, i, j, k = _squid_only_game()
    assert check(g.log()) is None
    log = g.log()
    assert log["record"]["lost_squid_0"] + log["record"]["lost_squid_1"] \
        + log["record"]["lost_squid_2"] == 2
    g2, _, j2, _ = _squid_only_game(victim=False)
    expect(check(g2.log()), j2, "X7.1")
    g3, _, j3, _ = _squid_only_game(far=True)
    expect(check(g3.log()), j3, "X7.1")
    log = g.log()
    log["events"][i]["after"]["creatures"]["whale"][0] = log["events"][i]["hex"]
    expect(check(log), i, "X7.6")
