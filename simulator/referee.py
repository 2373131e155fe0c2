"""The referee: an independent, plain-Python re-check of one replay log against docs/RULES.md.

It is written from the rules text and the log format (docs/replay-log.md) alone; it imports
nothing from the engine and reads only ``data/board.json`` from the package. ``check(log)``
rebuilds the game from the log's ``settings``, ``tiles`` and ``explorers`` and walks its
``events`` in order. For every event it

(a) checks that the decision or chance outcome is legal in the position the referee holds,
(b) applies it and computes every consequence itself (at-rest rule, green tiles, defence, ...),
(c) compares its own position with the event's ``after`` snapshot,

and at the end checks the ``record`` against its own final position. The first disagreement is
returned as a :class:`Discrepancy` naming the rule id (RULES.md) that the failed check or the
mis-computed consequence belongs to; ``None`` means the log agrees with the rules everywhere.

Conventions of the returned :class:`Discrepancy`:

* ``event`` is the index of the offending event; ``-1`` for a problem in the log's header
  (settings, tiles, explorers) or in its final ``record`` (the message then starts with
  ``header:`` or ``record:``).
* ``turn`` is the number of seat-turns begun so far in the referee's position.
* ``seat`` is the event's acting seat as logged (``-1`` if none); for the record, the seat whose
  column is wrong (or -1).
* ``rule`` is a RULES.md id (``B6.5``, ``R15``, ...), or ``format`` when the log itself is
  malformed (missing fields, unknown event type, wrong event index), or ``X`` when the log uses a
  setting the referee does not implement yet (covered: the base game B1-B8, R1-R21, the
  5-6 player rules, boat allocations and tie-breaks of X1, Challenges 1-4 and 6 of X2-X4 and
  X6, Challenge 5 -- Dolphins & Dive Dice, X5 -- and the Giant Squid with its squid-only
  option, X7).

Where RULES.md is silent about X5/X7 the referee follows the simulator's published rulings
(docs/replay-log.md): protection is bookkept as swimmer -> dolphin (``after.protect``) and
assigned only when a swimmer and a free dolphin come together (X5.9); a dolphin leaving its
swimmer, or switching away from it, resolves the old hex at once (X5.6); a squid event follows
every squid placement and every squid move (X7.1, X7.4).

Extending to the X rules: settings are parsed into :class:`Variant`; each rule area is one method
of :class:`Position` (``_resolve_hex``, ``_sink_eligible``, ``_green_*``, ``_creature_*``,
``_end_*`` ...), so an expansion adds a flag to ``Variant`` and a branch or a new method there.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Discrepancy", "Position", "Variant", "check", "check_file", "BOARD"]


# ---------------------------------------------------------------------------------------------
# Constants from RULES.md
# ---------------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------------
# Board (B2)
# ---------------------------------------------------------------------------------------------

def _load_board_json() -> dict:
    path = Path(__file__).resolve().parent / "data" / "board.json"
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class Board:
    """B2: hexes (offset even-r), neighbours, island, lagoon, serpent starts, safe isles."""

    ISLE_NAMES = ("NW", "NE", "SW", "SE")

    def __init__(self, data: dict):
        self.rc = [tuple(rc) for rc in data["hexes"]]
        self.n_hex = len(self.rc)
        index = {rc: i for i, rc in enumerate(self.rc)}
        self.index = index

        def around(r: int, c: int):
            # board.json "coordinates": even rows are shifted half a hex right
            if r % 2 == 0:
                cand = ((r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1))
            else:
                cand = ((r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c))
            return tuple(index[x] for x in cand if x in index)

        self.neighbours = [around(r, c) for r, c in self.rc]
        self.adjacent = [frozenset(n) for n in self.neighbours]
        self.island = frozenset(index[tuple(rc)] for rc in data["island"])
        self.lagoon = index[tuple(data["lagoon"])]
        self.serpent_starts = [index[tuple(rc)] for rc in data["serpent_starts"]]
        self.isle0 = self.n_hex                 # location codes 133..136 are the safe isles
        self.isle_access: dict[int, tuple[int, ...]] = {}
        self.access: dict[int, int] = {}        # access hex -> isle code (B2.2)
        for k, name in enumerate(self.ISLE_NAMES):
            code = self.isle0 + k
            hexes = tuple(index[tuple(rc)] for rc in data["safe_isles"][name])
            self.isle_access[code] = hexes
            for h in hexes:
                self.access[h] = code
        assert self.n_hex == data["counts"]["hexes"] and len(self.island) == data["counts"]["island"]
        for h in range(self.n_hex):             # the neighbour rule must be symmetric
            assert all(h in self.adjacent[n] for n in self.neighbours[h])

    def is_hex(self, loc) -> bool:
        return type(loc) is int and 0 <= loc < self.n_hex

    def is_isle(self, loc) -> bool:
        return type(loc) is int and self.isle0 <= loc < self.isle0 + len(self.ISLE_NAMES)

    def name(self, loc) -> str:
        """Readable name of a location code: ``(r,c)`` for a hex, ``isle NW`` for an isle."""
        if self.is_hex(loc):
            r, c = self.rc[loc]
            return f"({r},{c})"
        if self.is_isle(loc):
            return f"isle {self.ISLE_NAMES[loc - self.isle0]}"
        return repr(loc)


BOARD = Board(_load_board_json())


# ---------------------------------------------------------------------------------------------
# Result and internal failure
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Discrepancy:
    """The first point where a log disagrees with the rules (see the module docstring)."""
    event: int
    turn: int
    seat: int
    rule: str
    message: str

    def __str__(self) -> str:
        where = "record/header" if self.event < 0 else f"event {self.event}"
        return f"[{self.rule}] {where}, turn {self.turn}, seat {self.seat}: {self.message}"


class Fail(Exception):
    """Raised inside the referee when a check fails; turned into a Discrepancy by check()."""

    def __init__(self, rule: str, message: str, seat: int | None = None):
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message
        self.seat = seat


def _int(x) -> bool:
    return type(x) is int


# ---------------------------------------------------------------------------------------------
# Settings
# ---------------------------------------------------------------------------------------------

_KNOWN_SETTINGS = {"players", "seats", "player_of_seat", "boats_per_seat", "lagoon_is_sea",
                   "creatures_must_move", "max_turns", "tiebreak", "challenges", "dolphins",
                   "squid", "squid_only"}
CHALLENGES = (1, 2, 3, 4, 5, 6)                 # X2.1-X2.4, X5, X6 (the referee's coverage)
# settings that do not change what is legal in a game
_IGNORED_SETTINGS = {"strategies"}


@dataclass(frozen=True)
class Variant:
    """The rules in force, parsed from the log's ``settings`` (B4.5, X1, R1, R2/R21, R10)."""
    players: int
    seats: int
    player_of_seat: tuple[int, ...]
    boats_per_seat: tuple[int, ...]
    lagoon_is_sea: bool = True          # R1
    creatures_must_move: bool = False   # R2 / R21
    max_turns: int = 400                # R10
    tiebreak: str = "shared"            # B7.3 / X1.6
    challenges: tuple[int, ...] = ()    # X2-X4, X5 (5), X6
    squid: bool = False                 # X7
    squid_only: bool = False            # X7.6
    kinds_in_play: tuple[str, ...] = BASE_KINDS

    @property
    def dolphins(self) -> bool:
        """X5: Challenge 5, Dolphins & Dive Dice."""
        return 5 in self.challenges

    def slot_values(self) -> list[int]:
        """B1.2, X1.1, X1.2: the values of one colour's explorers in play, by slot order (the
        removed ones are the first of their value)."""
        values = list(SLOT_VALUES)
        if 6 in self.challenges:                         # X6.1: everyone keeps all 10
            return values
        for v in REMOVED_VALUES.get(self.players, ()):
            values[values.index(v)] = None
        return values

    @classmethod
    def from_settings(cls, s) -> "Variant":
        if not isinstance(s, dict):
            raise Fail("format", "settings missing or not an object")
        for key, value in s.items():
            if key not in _KNOWN_SETTINGS | _IGNORED_SETTINGS \
                    and value not in (None, False, 0, "", [], {}):
                raise Fail("X", f"setting {key}={value!r} is not implemented by the referee "
                                f"(base game only)")
        players = s.get("players")
        if players not in (2, 3, 4, 5, 6):
            raise Fail("B4.5", f"players must be 2 to 6, found {players!r}")
        seats = 4 if players == 2 else players
        if s.get("seats", seats) != seats:
            raise Fail("B4.5", f"{players} players sit as {seats} seats, found seats={s.get('seats')}")
        pos = tuple(k % players for k in range(seats))
        if tuple(s.get("player_of_seat", pos)) != pos:
            raise Fail("B4.5", f"player_of_seat expected {list(pos)}, found {s.get('player_of_seat')}")
        default = (2,) * seats if 6 in (s.get("challenges") or []) else \
            RULES_BOATS.get(players, (2,) * seats)                     # X6.1, X1.1, X1.2
        boats = tuple(s.get("boats_per_seat") or default)
        if len(boats) != seats or any(not _int(b) or not 0 <= b <= 3 for b in boats) \
                or sum(boats) > N_BOATS:
            raise Fail("X1.5", f"boats_per_seat must be {seats} numbers 0-3 totalling at most "
                               f"{N_BOATS}, found {list(boats)}")
        max_turns = s.get("max_turns", 400)
        if not _int(max_turns) or max_turns < 1:
            raise Fail("R10", f"max_turns must be a positive integer, found {max_turns!r}")
        challenges = s.get("challenges") or []
        if not isinstance(challenges, list) or any(not _int(c) for c in challenges):
            raise Fail("X2", f"challenges must be a list of numbers, found {challenges!r}")
        for c in challenges:
            if c not in CHALLENGES:
                raise Fail("X", f"Challenge {c} is not implemented by the referee")
        if 6 in challenges and players < 5:
            raise Fail("X6.1", f"Challenge 6 is for 5-6 players, found {players} players")
        if "dolphins" in s and bool(s["dolphins"]) != (5 in challenges):
            raise Fail("X5.1", f"settings: dolphins={s['dolphins']!r} but challenges "
                               f"{challenges!r} (Dolphins & Dive Dice is Challenge 5)")
        squid, squid_only = bool(s.get("squid", False)), bool(s.get("squid_only", False))
        if squid_only and not squid:
            raise Fail("X7.6", "settings: squid_only needs squid")
        kinds = tuple(k for k in KINDS if (k in BASE_KINDS and not (k == "whale" and squid_only))
                      or (k == "dolphin" and 5 in challenges) or (k == "squid" and squid))
        tiebreak = s.get("tiebreak") or ("chain" if players >= 5 else "shared")
        if tiebreak not in TIEBREAKS:
            raise Fail("B7.3", f"tiebreak must be one of {', '.join(TIEBREAKS)}, found {tiebreak!r}")
        return cls(players=players, seats=seats, player_of_seat=pos, boats_per_seat=boats,
                   lagoon_is_sea=bool(s.get("lagoon_is_sea", True)),
                   creatures_must_move=bool(s.get("creatures_must_move", False)),
                   max_turns=max_turns, tiebreak=tiebreak,
                   challenges=tuple(sorted(set(challenges))), squid=squid,
                   squid_only=squid_only, kinds_in_play=kinds)


# ---------------------------------------------------------------------------------------------
# The position
# ---------------------------------------------------------------------------------------------

class Position:
    """The referee's own game position, kept in the same shape as the log's ``after`` snapshot.

    ``ex_rows`` / ``boat_rows`` / ``creatures`` / ``hands`` / ``fates`` are exactly the
    snapshot's lists and dicts, mutated in place, so that comparing with ``after`` is a plain
    equality test in the common case.
    """

    # phases of the game: what kind of event may come next
    (LAYOUT, EXPLORERS, BOATS, BETWEEN, STEP, ROLL, CREATURE, VOLCANO, OVER, ENDING,
     SQUID) = range(11)

    def __init__(self, settings, tiles, explorers, board: Board = BOARD):
        self.board = board
        self.v = Variant.from_settings(settings)
        n = self.v.seats
        # tiles (B4.1, B1.1, B3)
        self.terrain_of: dict[int, int] = {}
        self.back_of: dict[int, str] = {}
        self._read_tiles(tiles)
        # explorers (B1.2)
        self.ex_seat: dict[int, int] = {}
        self.ex_value: dict[int, int] = {}
        self._read_explorers(explorers)
        ids = sorted(self.ex_seat)
        self.ex_rows = [[e, "unplaced", -1] for e in ids]
        self.ex = {row[0]: row for row in self.ex_rows}          # id -> its row (shared)
        self.fates: dict[str, str] = {}
        self.swam: set[int] = set()                               # used its sea hex (B6.5, R13)
        # boats (B1.5)
        self.boat_rows = [[SUPPLY, []] for _ in range(N_BOATS)]
        self.boat_at: dict[int, int] = {}                         # hex -> boat
        # creatures (B1.3, B1.4); kinds not in play stay in the supply
        self.creatures = {k: [SUPPLY] * KIND_COUNT[k] for k in KINDS}
        # land tiles still on the board: hex -> terrain index
        self.land: dict[int, int] = {}
        self.hands = [[0] * len(BACKS) for _ in range(n)]
        # turn bookkeeping
        self.phase = self.LAYOUT
        self.turn = 0
        self.turns_of = [0] * n
        self.seat = -1                # seat whose turn it is (R18)
        self.last_placer = n - 1      # B4.3 / B4.4 / X1.4: placement goes round from seat 0
        self.boats_placed = [0] * n
        self.next_boat = 0
        self.mp_used = 0
        self.tile_played = False
        self.face: str | None = None
        self.removed_backs = {b: 0 for b in BACKS}
        self.tiles_removed = 0
        self.bonus_moves = 0                      # X6.3: bonus points used (record)
        self.end_reason: str | None = None
        self.end_seat = -1
        self.pending_end: tuple[str, str] | None = None    # (end reason, rule) once met
        self.sunk_from: set[int] = set()          # X6.3: explorers on the tile just sunk
        self.bonus_done = -1                      # X6.6: position in turn order of the last bonus
        self.tags: dict = {}          # entity -> rule id of the consequence that last changed it
        # X5: dive dice, dolphin protection (swimmer -> dolphin), dolphins put into play
        self.number = None                        # the number die (1, 2, 3 or "D") this turn
        self.prot: dict[int, int] = {}
        self.dolphins_placed = 0
        # X7: squid placed; the squid event the rules call for next (see _ev_squid)
        self.squid_placed = 0
        self.pending_squid: tuple | None = None   # ("place", None) or ("attack", squid number)
        self.after_squid = self.BETWEEN           # the phase once that squid event is done
        self.after_hint: dict = {}                # the event's ``after`` (choices shown only there)

    # -------------------------------------------------------------------- header (B4.1, B1)
    def _read_tiles(self, tiles):
        """B4.1, B1.1, B3.1-B3.12: 40 tiles, one per island hex, with the published backs."""
        b = self.board
        if not isinstance(tiles, list):
            raise Fail("format", "tiles missing or not a list")
        counts = {}
        for t in tiles:
            h = t.get("hex")
            if h not in b.island:
                raise Fail("B4.1", f"tile on {b.name(h)}, which is not an island hex")
            if h in self.terrain_of:
                raise Fail("B4.1", f"two tiles on {b.name(h)}")
            if "rc" in t and tuple(t["rc"]) != b.rc[h]:
                raise Fail("format", f"tile hex {h} has rc {t['rc']}, board.json says {list(b.rc[h])}")
            terrain, back = t.get("terrain"), t.get("back")
            if terrain not in TERRAINS or back not in BACK_INDEX:
                raise Fail("B3", f"tile on {b.name(h)} has terrain {terrain!r} / back {back!r}")
            self.terrain_of[h] = TERRAINS.index(terrain)
            self.back_of[h] = back
            counts[back, terrain] = counts.get((back, terrain), 0) + 1
        if len(self.terrain_of) != len(b.island):
            raise Fail("B1.1", f"expected {len(b.island)} tiles, found {len(self.terrain_of)}")
        for back, (per_terrain, rule) in BACK_TABLE.items():
            for k, terrain in enumerate(TERRAINS):
                if counts.get((back, terrain), 0) != per_terrain[k]:
                    raise Fail(rule, f"expected {per_terrain[k]} {terrain} tile(s) with back {back}, "
                                     f"found {counts.get((back, terrain), 0)}")

    def _read_explorers(self, explorers):
        """B1.2: 10 explorers per colour, id = seat*10 + slot, values 1,1,1,2,2,3,3,4,5,6; with 5
        and 6 players the removed ones are not in play (X1.1, X1.2)."""
        if not isinstance(explorers, list):
            raise Fail("format", "explorers missing or not a list")
        values = self.v.slot_values()
        rule = "X1.1" if self.v.players == 5 else "X1.2" if self.v.players == 6 else "B1.2"
        for x in explorers:
            e, s, k, val = x.get("id"), x.get("seat"), x.get("slot"), x.get("value")
            if not (_int(s) and 0 <= s < self.v.seats and _int(k) and 0 <= k < 10):
                raise Fail("B1.2", f"explorer {e}: bad seat/slot {s}/{k}")
            if e != s * 10 + k or e in self.ex_seat:
                raise Fail("format", f"explorer id {e} should be seat*10+slot = {s * 10 + k} and unique")
            if values[k] is None:
                raise Fail(rule, f"explorer {e}: slot {k} (value {SLOT_VALUES[k]}) is removed with "
                                 f"{self.v.players} players")
            if val != SLOT_VALUES[k]:
                raise Fail("B1.2", f"explorer {e}: slot {k} has value {SLOT_VALUES[k]}, found {val}")
            self.ex_seat[e] = s
            self.ex_value[e] = val
        want = sum(v is not None for v in values)
        for s in range(self.v.seats):
            have = sum(1 for e in self.ex_seat if self.ex_seat[e] == s)
            if have != want:
                raise Fail(rule, f"seat {s} should have {want} explorers, found {have}")

    # -------------------------------------------------------------------- small queries
    def name(self, loc) -> str:
        return self.board.name(loc)

    def is_sea(self, h) -> bool:
        """B2.1, B2.3: a hex that holds no land tile (the lagoon is always a sea hex)."""
        return self.board.is_hex(h) and h not in self.land

    def swimmers_at(self, h: int) -> list[int]:
        return [row[0] for row in self.ex_rows if row[2] == h and row[1] == "sea"]

    def explorers_on_land(self, h: int) -> list[int]:
        return [row[0] for row in self.ex_rows if row[2] == h and row[1] == "land"]

    def creatures_at(self, kind: str, h: int) -> int:
        return self.creatures[kind].count(h)

    def on_board(self, kind: str) -> bool:
        return any(h >= 0 for h in self.creatures[kind])

    def occupied(self, b: int) -> bool:
        return bool(self.boat_rows[b][1])

    def protected(self, e: int) -> bool:
        """X5.5: a swimmer protected by a dolphin in its hex (never in the base game)."""
        return e in self.prot

    def free_dolphins(self, h: int) -> list[int]:
        """X5.9: the dolphins in hex h protecting nobody, lowest-numbered first."""
        busy = set(self.prot.values())
        return [d for d, x in enumerate(self.creatures["dolphin"]) if x == h and d not in busy]

    def swimmer_of(self, d: int):
        """The swimmer dolphin d protects, or None."""
        return next((e for e, x in self.prot.items() if x == d), None)

    def set_prot(self, e: int, d: int | None, rule: str):
        if d is None:
            self.prot.pop(e, None)
        else:
            self.prot[e] = d
        self.tags[("prot", e)] = rule

    def controllers(self, b: int) -> set[int]:
        """B6.1, B4.5: the seats (colours) with the most explorers aboard; empty boat: nobody (R14)."""
        count: dict[int, int] = {}
        for e in self.boat_rows[b][1]:
            s = self.ex_seat[e]
            count[s] = count.get(s, 0) + 1
        if not count:
            return set()
        top = max(count.values())
        return {s for s, c in count.items() if c == top}

    def player(self, seat: int) -> int:
        return self.v.player_of_seat[seat]

    def unoccupied(self, h: int) -> bool:
        """B3 note, R19: no boat, no swimmer, no creature of any kind (dolphins, squid included)."""
        return (h not in self.boat_at and not self.swimmers_at(h)
                and not any(self.creatures_at(k, h) for k in KINDS))

    # -------------------------------------------------------------------- mutations (tagged)
    def set_ex(self, e: int, loc: str, at: int, rule: str):
        row = self.ex[e]
        if e in self.prot and (loc != "sea" or at != row[2]):
            self.set_prot(e, None, rule)            # X5.9: leaving its hex frees the dolphin
        if row[1] == "boat":
            self.boat_rows[row[2]][1].remove(e)
        row[1] = loc
        row[2] = at
        if loc == "boat":
            self.boat_rows[at][1].append(e)
        self.tags[("ex", e)] = rule

    def lose(self, e: int, cause: str, rule: str):
        self.set_ex(e, "lost", -1, rule)
        self.fates[str(e)] = cause
        self.swam.discard(e)

    def put_boat(self, b: int, h: int, rule: str):
        old = self.boat_rows[b][0]
        if old >= 0:
            del self.boat_at[old]
        self.boat_rows[b][0] = h
        if h >= 0:
            self.boat_at[h] = b
        self.tags[("boat", b)] = rule

    def put_creature(self, kind: str, n: int, h: int, rule: str):
        if kind == "dolphin" and h != self.creatures[kind][n]:
            e = self.swimmer_of(n)
            if e is not None:                       # X5.6 / B3.4: the swimmer is unprotected
                self.set_prot(e, None, rule)
        self.creatures[kind][n] = h
        self.tags[("cr", kind, n)] = rule

    # -------------------------------------------------------------------- B6.7 / R15
    def _resolve_hex(self, h: int, rule: str = "B6.7"):
        """B6.7 at-rest rule, R15 order: serpents, then whales, then sharks, until nothing changes.

        A serpent removes unprotected swimmers and an occupied boat with its passengers; a whale
        capsizes an occupied boat (passengers become swimmers); a shark removes unprotected
        swimmers. Passengers capsized and then eaten are lost to the whale (R15). Removed boats
        return to the supply (R5). Empty boats are never harmed.
        """
        capsized: set[int] = set()
        while True:
            changed = False
            if self.creatures_at("serpent", h):
                for e in self.swimmers_at(h):
                    if not self.protected(e):
                        if e in capsized:
                            self.lose(e, "whale", "R15")
                        else:
                            self.lose(e, "serpent", rule)
                        changed = True
                b = self.boat_at.get(h)
                if b is not None and self.occupied(b):
                    for e in list(self.boat_rows[b][1]):
                        self.lose(e, "serpent", rule)
                    self.put_boat(b, SUPPLY, rule)
                    changed = True
            if self.creatures_at("whale", h):
                b = self.boat_at.get(h)
                if b is not None and self.occupied(b):
                    passengers = list(self.boat_rows[b][1])          # boarding order
                    for e in passengers:
                        self.set_ex(e, "sea", h, rule)
                        capsized.add(e)
                    self.put_boat(b, SUPPLY, rule)
                    self._capsize_protect(h, passengers)
                    changed = True
            if self.creatures_at("shark", h):
                for e in self.swimmers_at(h):
                    if not self.protected(e):
                        if e in capsized:
                            self.lose(e, "whale", "R15")
                        else:
                            self.lose(e, "shark", rule)
                        changed = True
            if not changed:
                return

    def _capsize_protect(self, h: int, passengers: list[int]):
        """X5.9: capsized passengers come together with the free dolphins of the hex. With enough
        of them, passengers in boarding order get the lowest-numbered free dolphins; with fewer,
        the acting seat chooses which passengers (the choice is read from ``after.protect``)."""
        free = self.free_dolphins(h)
        if not free:
            return
        if len(free) >= len(passengers):
            for e, d in zip(passengers, free):
                self.set_prot(e, d, "X5.9")
            return
        shown = self.after_hint.get("protect") if isinstance(self.after_hint, dict) else None
        shown = shown if isinstance(shown, dict) else {}
        chosen = {e: shown.get(str(e)) for e in passengers if shown.get(str(e)) in free}
        if len(chosen) != len(free) or sorted(chosen.values()) != free:
            raise Fail("X5.9", f"a boat capsized at {self.name(h)} into {len(free)} free "
                               f"dolphin(s) {free}: each must protect one of the passengers "
                               f"{passengers} (the mover's choice), after.protect shows "
                               f"{ {e: d for e, d in chosen.items()} }")
        for e, d in chosen.items():
            self.set_prot(e, d, "X5.9")

    def _arrive(self, e: int, h: int):
        """X5.9: a swimmer entering a hex with a free dolphin is protected by the lowest-numbered
        one, before the hex is resolved (B6.7)."""
        if e not in self.prot:
            free = self.free_dolphins(h)
            if free:
                self.set_prot(e, free[0], "X5.9")

    def _shark_attack_at(self, h: int) -> bool:
        """B6.9: a shark must stop in a hex with an unprotected swimmer."""
        return any(not self.protected(e) for e in self.swimmers_at(h))

    def _whale_attack_at(self, h: int) -> bool:
        """B6.10: a whale must stop in a hex with an occupied boat."""
        b = self.boat_at.get(h)
        return b is not None and self.occupied(b)

    # -------------------------------------------------------------------- event dispatch
    def apply(self, ev: dict, i: int) -> str:
        """Check and apply one event; return the default rule id for snapshot mismatches."""
        self.tags = {}
        self.after_hint = ev.get("after")
        if ev.get("i", i) != i:
            raise Fail("format", f"event index field i={ev.get('i')!r}, expected {i}")
        typ = ev.get("type")
        handler = self._HANDLERS.get(typ)
        if handler is None:
            raise Fail("format", f"unknown event type {typ!r}")
        self._sequence(typ)
        rule = handler(self, ev)
        if ev.get("turn") != self.turn:
            raise Fail("R18", f"turn field: expected {self.turn} seat-turns begun, found {ev.get('turn')!r}")
        self._challenge_end()
        return rule

    def _challenge_end(self):
        """X2.2, X2.4, X2.5: the game ends as soon as an end rule in force is met -- no explorer
        left on the board (Leave No One Behind; reported first when both hold) or no land tile
        left (Atlantis is Gone). The next event must be the end."""
        if self.phase in (self.OVER, self.ENDING, self.LAYOUT, self.EXPLORERS, self.BOATS):
            return
        if 2 in self.v.challenges and not any(r[1] in ("land", "boat", "sea") for r in self.ex_rows):
            self.phase, self.pending_end = self.ENDING, ("no_explorers", "X2.2")
        elif 4 in self.v.challenges and not self.land:
            self.phase, self.pending_end = self.ENDING, ("island_gone", "X2.4")

    def _expect_seat(self, ev: dict, seat: int, rule: str, what: str):
        if ev.get("seat") != seat:
            raise Fail(rule, f"{what}: expected seat {seat}, found seat {ev.get('seat')!r}")

    def _sequence(self, typ: str):
        """B4 setup order, then B5: turn_start, [tile], moves, sink, roll, [creature]; B5.7, B7.1, R10."""
        p = self.phase
        if p == self.OVER:
            raise Fail("B5.7" if self.end_reason == "volcano" else "B7.1",
                       f"{typ} event after the game ended ({self.end_reason})")
        if p == self.VOLCANO and typ != "end":
            raise Fail("B5.7", f"the volcano was revealed: the game ends at once, found a {typ} event")
        if p == self.ENDING and typ != "end":
            reason, rule = self.pending_end
            raise Fail(rule, f"the game ends at once ({reason}), found a {typ} event")
        if p == self.SQUID and typ != "squid":
            what, _ = self.pending_squid
            raise Fail("X7.1" if what == "place" else "X7.4",
                       "a squid event must follow ("
                       + ("the whale tile places a squid" if what == "place"
                          else "after a squid move it attacks") + f"), found a {typ} event")
        if typ == "squid" and p != self.SQUID:
            raise Fail("X7.1" if self.v.squid else "X7",
                       "squid event without a squid placement or squid move before it"
                       + ("" if self.v.squid else " (the Giant Squid is not in play)"))
        if (p == self.LAYOUT) != (typ == "layout"):
            raise Fail("B4.1", "the log must start with exactly one layout event" if p == self.LAYOUT
                       else "a second layout event")
        if p == self.EXPLORERS and typ != "place_explorer":
            left = sum(1 for r in self.ex_rows if r[1] == "unplaced")
            raise Fail("B4.3", f"{left} explorer(s) still to place, found a {typ} event")
        if p == self.BOATS and typ != "place_boat":
            raise Fail("B4.4", f"{sum(self.v.boats_per_seat) - self.next_boat} boat(s) still to "
                               f"place, found a {typ} event")
        if typ == "place_explorer" and p != self.EXPLORERS:
            raise Fail("B4.3", "explorer placement after every explorer was placed")
        if typ == "place_boat" and p != self.BOATS:
            raise Fail("B4.4", "boat placement outside the boat-placement phase (after explorers, "
                               "until every allocation is placed)")
        if p == self.ROLL and typ not in ("roll", "bonus"):
            raise Fail("B5.4", f"step 4 is mandatory: expected the creature roll, found a {typ} event")
        if p == self.CREATURE and typ != "creature":
            raise Fail("B5.4", f"the die shows {self.face} and one is on the board: expected its "
                               f"creature move (possibly staying, R2), found a {typ} event")
        if p == self.STEP and not self.land and typ in ("turn_start", "end", "roll"):
            p = self.phase = self.ROLL if typ == "roll" else self.BETWEEN   # X2.2: no step 3
        if typ == "roll" and p != self.ROLL:
            raise Fail("B5.3" if p == self.STEP else "B5.4",
                       "roll before the mandatory sink of step 3" if p == self.STEP
                       else "roll outside step 4")
        if typ == "creature" and p != self.CREATURE:
            raise Fail("B5.4", "creature move without a roll of a kind on the board")
        if p == self.STEP and typ in ("turn_start", "end"):
            raise Fail("B5.3", f"step 3 is mandatory: the turn ended without a sink ({typ} event)")
        if typ == "bonus" and (p != self.ROLL or 6 not in self.v.challenges):
            raise Fail("X6.3", "a bonus move only follows a sinking under Challenge 6, before "
                               "the creature roll")
        if typ in ("play_tile", "move", "sink") and p != self.STEP:
            rule = {"play_tile": "B5.1", "move": "B5.2", "sink": "B5.3"}[typ]
            raise Fail(rule, f"{typ} event outside steps 1-3 of a turn")

    # -------------------------------------------------------------------- setup (B4)
    def _ev_layout(self, ev):
        """B4.1: land tiles on the island, serpents 0..4 on their starts, everything else in supply."""
        self._expect_seat(ev, -1, "B4.1", "layout")
        for h, t in self.terrain_of.items():
            self.land[h] = t
        for n, h in enumerate(self.board.serpent_starts):
            self.creatures["serpent"][n] = h
        if self.v.squid_only:                       # X7.6: no whales are used
            for n in range(KIND_COUNT["whale"]):
                self.put_creature("whale", n, GONE, "X7.6")
        self.phase = self.EXPLORERS
        return "B4.1"

    def _next_placer(self, left: list[int]) -> int:
        """B4.3, B4.4, X1.4: next seat after the last placer that still has something to place."""
        n = self.v.seats
        for k in range(1, n + 1):
            s = (self.last_placer + k) % n
            if left[s] > 0:
                return s
        return -1

    def _ev_place_explorer(self, ev):
        """B4.3: one explorer per seat in turn, on a land tile the rule in force allows
        (``_placement``: B4.3, X1.3, X2.1, X6.2)."""
        left = [0] * self.v.seats
        for row in self.ex_rows:
            if row[1] == "unplaced":
                left[self.ex_seat[row[0]]] += 1
        seat = self._next_placer(left)
        self._expect_seat(ev, seat, "B4.3", "explorer placement goes round the seats in order")
        e, h = ev["explorer"], ev["hex"]
        if e not in self.ex or self.ex_seat[e] != seat:
            raise Fail("B4.3", f"seat {seat} may place only its own explorers, found explorer {e}")
        if self.ex[e][1] != "unplaced":
            raise Fail("B4.3", f"explorer {e} was already placed")
        if h not in self.land:
            raise Fail("B4.3", f"explorer {e} placed on {self.name(h)}, which is not a land tile")
        rule, tiles, why = self._placement(seat, left[seat] == 1)
        if h not in tiles:
            here = self.explorers_on_land(h)
            raise Fail(rule, f"explorer {e} placed on {self.name(h)}, which holds "
                             f"{here or 'no explorer'}; {why}")
        self.set_ex(e, "land", h, "B4.3")
        self.last_placer = seat
        if sum(left) == 1:
            self.last_placer = self.v.seats - 1
            self.phase = self.BOATS if sum(self.v.boats_per_seat) else self.BETWEEN
        return "B4.3"

    def _placement(self, seat, last) -> tuple[str, list, str]:
        """Where ``seat``'s next explorer may go at setup: (rule id, the tiles, the rule in
        words), from RULES.md B4.3, X1.3, X2.1 and X6.2 as written.

        * X6.2 (Challenge 6): placement as usual until every tile is occupied; then on occupied
          tiles, at most 2 per tile, never onto one holding one's own colour -- inland tiles
          too, with Challenge 1. X1.3 does not apply (X6.6).
        * X1.3 (6 players): the last explorer of the fifth and sixth seats goes on a tile
          holding exactly one explorer, not of its own colour; with Challenge 1 on such a tile
          where X2.1 allows a second explorer, else any such tile, else by the usual rule.
        * The usual rule: one explorer per tile (B4.3); with Challenge 1 up to X2.1's cap."""
        on = {t: [] for t in self.land}
        for e, loc, at in self.ex_rows:
            if loc == "land":
                on[at].append(e)
        ch = self.v.challenges
        if 1 in ch:
            usual = ("X2.1", [t for t in on if len(on[t]) < self._cap(t)],
                     "Challenge 1 allows 2 explorers on a tile, 1 next to the outer sea")
        else:
            usual = ("B4.3", [t for t in on if not on[t]], "one explorer per tile")
        if 6 in ch:
            if all(on.values()):
                return ("X6.2", [t for t in on if len(on[t]) < 2
                                 and all(self.ex_seat[x] != seat for x in on[t])],
                        "every tile is occupied, so it joins a tile holding one explorer, "
                        "not of its own colour (at most 2 per tile)")
            return usual
        if self.v.players == 6 and seat >= 4 and last:
            lone = [t for t in on if len(on[t]) == 1 and self.ex_seat[on[t][0]] != seat]
            inland = [t for t in lone if 1 in ch and self._dense_cap(t) == 2]
            if inland:
                return ("X1.3", inland, f"seat {seat}'s last explorer goes on a tile holding "
                                        f"exactly one explorer of another colour where "
                                        f"Challenge 1 allows a second (inland)")
            if lone:
                return ("X1.3", lone, f"seat {seat}'s last explorer goes on a tile holding "
                                      f"exactly one explorer of another colour")
        return usual

    def _dense_cap(self, h) -> int:
        """X2.1: a tile next to the outer sea (every non-island hex but the lagoon) holds 1
        explorer at setup, any other 2."""
        outer = any(n not in self.board.island and n != self.board.lagoon
                    for n in self.board.neighbours[h])
        return 1 if outer else 2

    def _cap(self, h) -> int:
        """B4.3: one explorer per tile at setup; X2.1: two, one next to the outer sea (every
        non-island hex but the lagoon)."""
        return self._dense_cap(h) if 1 in self.v.challenges else 1

    def _ev_place_boat(self, ev):
        """B4.4, R19, X1.4: boats in seat order, on an empty sea hex next to land, no boat or creature."""
        left = [a - p for a, p in zip(self.v.boats_per_seat, self.boats_placed)]
        seat = self._next_placer(left)
        self._expect_seat(ev, seat, "B4.4", "boat placement goes round the seats in order")
        b, h = ev["boat"], ev["hex"]
        if b != self.next_boat:
            raise Fail("B4.4", f"boats are numbered in placement order: expected boat "
                               f"{self.next_boat}, found {b!r}")
        if not self.is_sea(h):
            raise Fail("B4.4", f"boat {b} placed on {self.name(h)}, which is not a sea hex")
        if not any(n in self.land for n in self.board.neighbours[h]):
            raise Fail("B4.4", f"boat {b} placed on {self.name(h)}, not adjacent to a land tile")
        if h in self.boat_at:
            raise Fail("R19", f"boat {b} placed on {self.name(h)}, which holds boat {self.boat_at[h]}")
        for k in KINDS:
            if self.creatures_at(k, h):
                raise Fail("R19", f"boat {b} placed on {self.name(h)}, which holds a {k}")
        if self.swimmers_at(h):
            raise Fail("B4.4", f"boat {b} placed on {self.name(h)}, which is not empty")
        self.put_boat(b, h, "B4.4")
        self.boats_placed[seat] += 1
        self.next_boat += 1
        self.last_placer = seat
        if self.next_boat == sum(self.v.boats_per_seat):
            self.phase = self.BETWEEN
        return "B4.4"

    # -------------------------------------------------------------------- turns (B5, R10, R18)
    def _ev_turn_start(self, ev):
        """B4.2, B5, R10, R18: seats take turns 0,1,2,... ; at most max_turns turns."""
        if self.turn >= self.v.max_turns:
            raise Fail("R10", f"the turn cap of {self.v.max_turns} turns was reached: the game must "
                              f"end (turn_cap), found a new turn")
        seat = 0 if self.turn == 0 else (self.seat + 1) % self.v.seats
        self._expect_seat(ev, seat, "B4.2", "turn order")
        self.seat = seat
        self.turn += 1
        self.turns_of[seat] += 1
        self.swam.clear()
        self.mp_used = 0
        self.tile_played = False
        self.face = self.number = None
        self.phase = self.STEP
        return "B5"

    def _ev_end(self, ev):
        """B5.7, B7.1, R10, R18: volcano ends at once; the turn cap ends after turn max_turns."""
        reason = ev.get("reason")
        if ev.get("seat") not in (self.seat, -1):
            raise Fail("R18", f"end: expected seat {self.seat} (whose turn it was), found {ev.get('seat')!r}")
        if self.phase == self.VOLCANO:
            if reason != "volcano":
                raise Fail("B7.1", f"end reason: expected 'volcano', found {reason!r}")
        elif self.phase == self.ENDING:
            want, rule = self.pending_end
            if reason != want:
                raise Fail(rule, f"end reason: expected {want!r}, found {reason!r}")
        elif reason == "turn_cap":
            if self.phase != self.BETWEEN or self.turn != self.v.max_turns:
                raise Fail("R10", f"turn_cap end after {self.turn} turns (cap {self.v.max_turns}); "
                                  f"the cap ends the game once turn {self.v.max_turns} is complete")
        elif reason == "volcano":
            raise Fail("B7.1", "end reason 'volcano' but the volcano was not revealed")
        elif reason in ("no_explorers", "island_gone"):
            rule = "X2.2" if reason == "no_explorers" else "X2.4"
            raise Fail(rule, f"end reason {reason!r}, but that end rule is not met (or not in force)")
        else:
            raise Fail("B7.1", f"end reason {reason!r} is not possible in the base game here")
        self.end_reason = reason
        self.end_seat = self.seat
        self.phase = self.OVER
        return "B7.1"

    # -------------------------------------------------------------------- step 1 (B5.1, B3.6-B3.10)
    def _ev_play_tile(self, ev):
        """B5.1, R4: at most one red non-defence tile from the hand, before any movement."""
        seat = self.seat
        self._expect_seat(ev, seat, "B5.1", "play_tile")
        if self.tile_played:
            raise Fail("R4", "a second tile in one turn (one red tile per turn)")
        if self.mp_used:
            raise Fail("B5.1", "a tile may be played only at step 1, before moving")
        back = ev["back"]
        if back not in BACK_INDEX:
            raise Fail("format", f"unknown back {back!r}")
        if back in DEFENCE:
            raise Fail("B6.12", f"{back} is a defence tile: played only against another player's "
                                f"attack, not at step 1")
        if back in GREEN:
            raise Fail(BACK_RULE[back], f"{back} is a green tile: it is never kept in a hand")
        if self.hands[seat][BACK_INDEX[back]] <= 0:
            raise Fail("B5.1", f"seat {seat} plays {back} but holds none")
        piece, path = ev.get("piece"), ev.get("path")
        if not isinstance(path, list):
            raise Fail("format", "play_tile path missing")
        if back == "dolphin":
            self._tile_dolphin(seat, piece, path)
        elif back == "wind":
            self._tile_wind(seat, piece, path)
        else:
            self._tile_move_creature(back, piece, path, ev.get("kind"))
        self.hands[seat][BACK_INDEX[back]] -= 1
        self.tags[("hand", seat)] = "B5.1"
        self.tile_played = True
        return BACK_RULE[back]

    def _tile_dolphin(self, seat, e, path):
        """B3.6, R7, R12, R13: move your swimmer 1-3 sea hexes along a simple path (isle as a step)."""
        if e not in self.ex or self.ex_seat[e] != seat:
            raise Fail("R17", f"Dolphin: explorer {e!r} is not seat {seat}'s")
        row = self.ex[e]
        if row[1] != "sea":
            raise Fail("B3.6", f"Dolphin: explorer {e} is not a swimmer ({row[1]})")
        if not 1 <= len(path) <= 3:
            raise Fail("B3.6", f"Dolphin moves 1 to 3 hexes, path has {len(path)}")
        here = row[2]
        seen = {here}
        for k, loc in enumerate(path):
            if k and self.ex[e][1] != "sea":
                raise Fail("R12", f"Dolphin: the path goes on after the swimmer "
                                  f"{'landed' if self.ex[e][1] == 'safe' else 'was lost'} at step {k}")
            if self.board.is_isle(loc):
                if self.board.access.get(here) != loc:
                    raise Fail("R7", f"Dolphin: {self.name(loc)} is reached only from its access "
                                     f"hexes, the swimmer is at {self.name(here)}")
                self.set_ex(e, "safe", loc, "R7")
                continue
            if not self.is_sea(loc) or loc not in self.board.adjacent[here]:
                raise Fail("B3.6", f"Dolphin: step {k + 1} to {self.name(loc)} is not an adjacent "
                                   f"sea hex of {self.name(here)}")
            if loc in seen:
                raise Fail("R12", f"Dolphin: the path enters {self.name(loc)} twice")
            seen.add(loc)
            self.set_ex(e, "sea", loc, "B3.6")
            self._resolve_hex(loc)
            here = loc
        self.swam.add(e)            # R13: it has used its one sea hex this turn

    def _tile_wind(self, seat, b, path):
        """B3.7, R14, B6.6, R12: move a boat you control (with passengers) 1-3 sea hexes."""
        if not (_int(b) and 0 <= b < N_BOATS) or self.boat_rows[b][0] < 0:
            raise Fail("B3.7", f"Wind: boat {b!r} is not on the board")
        if not self.occupied(b):
            raise Fail("R14", f"Wind: boat {b} is empty and nobody controls it")
        if seat not in self.controllers(b):
            raise Fail("R14", f"Wind: seat {seat} does not control boat {b} "
                              f"(controllers {sorted(self.controllers(b))})")
        if not 1 <= len(path) <= 3:
            raise Fail("B3.7", f"Wind moves 1 to 3 hexes, path has {len(path)}")
        here = self.boat_rows[b][0]
        seen = {here}
        for k, h in enumerate(path):
            if k and self.boat_rows[b][0] < 0:
                raise Fail("R12", f"Wind: the path goes on after boat {b} was destroyed at step {k}")
            if not self.is_sea(h) or h not in self.board.adjacent[here]:
                raise Fail("B6.6", f"Wind: step {k + 1} to {self.name(h)} is not an adjacent sea "
                                   f"hex of {self.name(here)}")
            if h in seen:
                raise Fail("R12", f"Wind: the path enters {self.name(h)} twice")
            if h in self.boat_at:
                raise Fail("B6.6", f"Wind: {self.name(h)} holds boat {self.boat_at[h]} (one boat per hex)")
            seen.add(h)
            self.put_boat(b, h, "B3.7")
            self._resolve_hex(h)
            here = h

    def _tile_move_creature(self, back, n, path, kind=None):
        """B3.8-B3.10, R9, R19: move one creature of the kind to an unoccupied sea hex; X7.2,
        X7.6: the move-whale tile may move a squid instead (a squid event follows)."""
        kinds = [MOVE_TILES[back]]
        if back == "move_whale" and self.v.squid:
            kinds.append("squid")
        rule = BACK_RULE[back]
        if not any(self.on_board(k) for k in kinds):
            raise Fail("R9", f"{back} played with no {' or '.join(kinds)} on the board (the tile "
                             f"must be kept)")
        if kind is None:
            kind = kinds[0]
        if kind not in kinds:
            raise Fail("X7.2" if kind == "squid" else rule,
                       f"{back} moves a {' or '.join(kinds)}, the event says {kind!r}")
        if kind == "squid":
            rule = "X7.2"
        if not self.on_board(kind):
            raise Fail("R9", f"{back} played on a {kind}, but none is on the board")
        if not (_int(n) and 0 <= n < KIND_COUNT[kind]) or self.creatures[kind][n] < 0:
            raise Fail(rule, f"{back}: {kind} {n!r} is not on the board")
        if len(path) != 1:
            raise Fail("format", f"{back}: path must hold the destination only, found {path}")
        h = path[0]
        if not self.is_sea(h):
            raise Fail(rule, f"{back}: destination {self.name(h)} is not a sea hex")
        if not self.unoccupied(h):
            base_occupied = (h in self.boat_at or self.swimmers_at(h)
                             or any(self.creatures_at(k, h) for k in BASE_KINDS))
            raise Fail(rule if base_occupied else "R19",
                       f"{back}: destination {self.name(h)} is occupied (boat, swimmer or creature)")
        self.put_creature(kind, n, h, rule)
        self._resolve_hex(h)
        if kind == "squid":
            self._expect_squid("attack", n, self.STEP)          # X7.4

    def _expect_squid(self, what: str, n, then: int):
        """X7.1 / X7.4: the next event is the squid's placement or attack; then phase ``then``."""
        self.pending_squid = (what, n)
        self.after_squid = then
        self.phase = self.SQUID

    # -------------------------------------------------------------------- step 2 (B5.2, B6.1-B6.6)
    def _ev_move(self, ev):
        """B5.2: one movement point; at most 3 per turn."""
        seat = self.seat
        self._expect_seat(ev, seat, "B5.2", "move")
        if self.mp_used >= MP_PER_TURN:
            raise Fail("B5.2", f"a 4th movement point in one turn (at most {MP_PER_TURN})")
        what = ev["what"]
        if what == "explorer":
            rule = self._move_explorer(seat, ev)
        elif what == "boat":
            rule = self._move_boat(seat, ev)
        else:
            raise Fail("format", f"move: unknown what={what!r}")
        self.mp_used += 1
        return rule

    def _ev_bonus(self, ev):
        """X6.3 / X6.6: after a sinking, seats in turn order from the active one may each move
        one of their explorers from the sunk tile one step (an explorer, never a boat)."""
        s = ev.get("seat")
        order = [(self.seat + j) % self.v.seats for j in range(self.v.seats)]
        if s not in order or order.index(s) <= self.bonus_done:
            raise Fail("X6.6", f"bonus move by seat {s!r}: seats are asked once each, in turn "
                               f"order from seat {self.seat}")
        self.bonus_done = order.index(s)
        self.bonus_moves += 1
        if ev.get("what") != "explorer":
            raise Fail("X6.6", "the bonus point moves an explorer, never a boat")
        e = ev.get("id")
        if e not in self.sunk_from:
            raise Fail("X6.3", f"bonus move of explorer {e!r}, which did not stand on the tile "
                               f"just sunk")
        if self.ex[e][1] not in ("sea", "boat"):
            raise Fail("X6.3", f"bonus move of explorer {e}, which is no longer on the board")
        if ev.get("with_dolphin"):
            raise Fail("X5.7", "a swimmer takes its dolphin along only in step 2, not in a "
                               "bonus move")
        return self._move_explorer(s, ev)

    def _move_explorer(self, seat, ev) -> str:
        """B6.1-B6.5, R3, R13, R17: one step of one of the seat's own explorers."""
        e, mode, to = ev["id"], ev["mode"], ev.get("to")
        if e not in self.ex:
            raise Fail("format", f"move: unknown explorer {e!r}")
        if self.ex_seat[e] != seat:
            raise Fail("R17", f"seat {seat} moves explorer {e} of seat {self.ex_seat[e]} "
                              f"(only your own colour)")
        loc, at = self.ex[e][1], self.ex[e][2]
        if ev.get("with_dolphin") and mode != "swim":
            raise Fail("X5.7", f"only a swimmer swimming takes its dolphin along, found mode "
                               f"{mode!r}")
        if loc == "safe":
            raise Fail("B2.4", f"explorer {e} is on {self.name(at)}: out of play")
        if loc not in ("land", "boat", "sea"):
            raise Fail("B6.1", f"explorer {e} is {loc} and cannot move")
        adj = self.board.adjacent
        if mode == "walk":
            if loc != "land":
                raise Fail("B6.3", f"explorer {e} ({loc}) has left land and never returns to it")
            if to not in self.land or to not in adj[at]:
                raise Fail("B6.2", f"walk from {self.name(at)} to {self.name(to)}: not an adjacent land tile")
            self.set_ex(e, "land", to, "B6.2")
            return "B6.2"
        if mode == "dive":
            if loc != "land":
                raise Fail("B6.2", f"dive: explorer {e} is not on land ({loc})")
            if not self.is_sea(to) or to not in adj[at]:
                raise Fail("B6.2", f"dive from {self.name(at)} to {self.name(to)}: not an adjacent sea hex")
            self.set_ex(e, "sea", to, "B6.2")
            self.swam.add(e)                        # B6.5: a diver has used its one sea hex
            self._arrive(e, to)
            self._resolve_hex(to)
            return "B6.2"
        if mode == "board":
            return self._board(seat, e, loc, at, ev)
        if mode == "overboard":
            if loc != "boat":
                raise Fail("B6.4", f"overboard: explorer {e} is not in a boat ({loc})")
            h = self.boat_rows[at][0]
            if to is not None and to != h:
                raise Fail("B6.4", f"overboard goes into the boat's own hex {self.name(h)}, "
                                   f"found {self.name(to)}")
            self.set_ex(e, "sea", h, "B6.4")        # R13: does not use its sea hex
            self._arrive(e, h)
            self._resolve_hex(h)
            return "B6.4"
        if mode == "swim":
            if loc != "sea":
                raise Fail("B6.3" if loc == "boat" else "B6.2",
                           f"swim: explorer {e} is not a swimmer ({loc})")
            if e in self.swam:
                raise Fail("B6.5", f"swimmer {e} already used its one sea hex this turn "
                                   f"(dived, swam or was moved by the Dolphin, R13)")
            if not self.is_sea(to) or to not in adj[at]:
                raise Fail("B6.5", f"swim from {self.name(at)} to {self.name(to)}: not an adjacent sea hex")
            if ev.get("with_dolphin"):
                # X5.7: a protected swimmer takes its dolphin along and stays protected
                if not self.v.dolphins:
                    raise Fail("X5.7", "with_dolphin, but dolphins (Challenge 5) are not in play")
                d = self.prot.get(e)
                if d is None:
                    raise Fail("X5.7", f"swimmer {e} takes a dolphin along, but no dolphin "
                                       f"protects it")
                self.set_ex(e, "sea", to, "X5.7")
                self.put_creature("dolphin", d, to, "X5.7")
                self.set_prot(e, d, "X5.7")
                self.swam.add(e)
                self._resolve_hex(to)
                return "X5.7"
            self.set_ex(e, "sea", to, "B6.5")
            self.swam.add(e)
            self._arrive(e, to)
            self._resolve_hex(to)
            return "B6.5"
        if mode == "land":
            if not self.board.is_isle(to):
                raise Fail("B2.2", f"land: {self.name(to)} is not a safe isle")
            if loc == "land":
                raise Fail("B2.2", f"explorer {e} on land cannot reach {self.name(to)} "
                                   f"(only from its access hexes)")
            h = at if loc == "sea" else self.boat_rows[at][0]
            if self.board.access.get(h) != to:
                raise Fail("B2.2", f"{self.name(to)} is reached only from its access hexes "
                                   f"{[self.name(x) for x in self.board.isle_access[to]]}, explorer "
                                   f"{e} is at {self.name(h)}")
            if loc == "sea" and e in self.swam:
                raise Fail("R13", f"swimmer {e} swam this turn and may not also land (B6.5)")
            self.set_ex(e, "safe", to, "B6.4" if loc == "boat" else "B6.5")
            return "B6.4" if loc == "boat" else "B6.5"
        raise Fail("format", f"move: unknown explorer mode {mode!r}")

    def _board(self, seat, e, loc, at, ev) -> str:
        """B6.2 (from land), B6.4 (from a boat), B6.5 (swimmer, own hex): into a non-full boat."""
        rule = {"land": "B6.2", "boat": "B6.4", "sea": "B6.5"}[loc]
        b = ev.get("boat")
        if not (_int(b) and 0 <= b < N_BOATS) or self.boat_rows[b][0] < 0:
            raise Fail(rule, f"board: boat {b!r} is not on the board")
        h = self.boat_rows[b][0]
        if ev.get("to") is not None and ev["to"] != h:
            raise Fail("format", f"board: 'to' {self.name(ev['to'])} is not boat {b}'s hex {self.name(h)}")
        if len(self.boat_rows[b][1]) >= BOAT_CAPACITY:
            raise Fail(rule, f"board: boat {b} is full ({BOAT_CAPACITY} explorers)")
        if loc == "land":
            if h not in self.board.adjacent[at]:
                raise Fail(rule, f"board from {self.name(at)}: boat {b} at {self.name(h)} is not adjacent")
        elif loc == "boat":
            if at == b:
                raise Fail(rule, f"explorer {e} is already in boat {b}")
            if h not in self.board.adjacent[self.boat_rows[at][0]]:
                raise Fail(rule, f"board from boat {at} at {self.name(self.boat_rows[at][0])}: boat "
                                 f"{b} at {self.name(h)} is not adjacent")
        else:
            if h != at:
                raise Fail(rule, f"swimmer {e} at {self.name(at)} may board only a boat in its own "
                                 f"hex; boat {b} is at {self.name(h)}")
        self.set_ex(e, "boat", b, rule)
        self._resolve_hex(h)
        return rule

    def _move_boat(self, seat, ev) -> str:
        """B6.1, B6.6: a boat you control, or an empty boat, one sea hex; one boat per hex."""
        b, to = ev["id"], ev.get("to")
        if ev.get("mode", "sail") != "sail":
            raise Fail("format", f"move boat: unknown mode {ev.get('mode')!r}")
        if not (_int(b) and 0 <= b < N_BOATS) or self.boat_rows[b][0] < 0:
            raise Fail("B6.6", f"boat {b!r} is not on the board")
        if self.occupied(b) and seat not in self.controllers(b):
            raise Fail("B6.1", f"seat {seat} does not control boat {b} "
                               f"(controllers {sorted(self.controllers(b))})")
        h = self.boat_rows[b][0]
        if not self.is_sea(to) or to not in self.board.adjacent[h]:
            raise Fail("B6.6", f"boat {b} from {self.name(h)} to {self.name(to)}: not an adjacent sea hex")
        if to in self.boat_at:
            raise Fail("B6.6", f"boat {b} into {self.name(to)}, which holds boat {self.boat_at[to]}")
        self.put_boat(b, to, "B6.6")
        self._resolve_hex(to)
        return "B6.6"

    # -------------------------------------------------------------------- step 3 (B5.5, B5.6, B3)
    def _sink_eligible(self) -> set[int]:
        """B5.5, R1: lowest remaining terrain, touching sea (the lagoon counts unless R1 is off)."""
        if not self.land:
            return set()
        low = min(self.land.values())
        tiles = [h for h, t in self.land.items() if t == low]
        lagoon, lagoon_sea = self.board.lagoon, self.v.lagoon_is_sea

        def touches_sea(h):
            return any(n not in self.land and (lagoon_sea or n != lagoon)
                       for n in self.board.neighbours[h])

        coastal = {h for h in tiles if touches_sea(h)}
        return coastal or set(tiles)

    def _ev_sink(self, ev):
        """B5.3, B5.5, B5.6: remove one eligible land tile; its explorers swim; resolve its back."""
        seat = self.seat
        self._expect_seat(ev, seat, "B5.3", "sink")
        h, back = ev["hex"], ev.get("back")
        if h not in self.land:
            raise Fail("B5.5", f"sink {self.name(h)}: no land tile there")
        eligible = self._sink_eligible()
        if h not in eligible:
            t = TERRAINS[self.land[h]]
            low = TERRAINS[min(self.land.values())]
            why = (f"a {t} tile while {low} tiles remain" if t != low else
                   f"a {t} tile that touches no sea"
                   + ("" if self.v.lagoon_is_sea else " (the lagoon does not count, R1 off)")
                   + " while others do")
            raise Fail("B5.5", f"sink {self.name(h)}: {why}; eligible "
                               f"{sorted(self.name(x) for x in eligible)}")
        if back != self.back_of[h]:
            raise Fail("B5.6", f"sink {self.name(h)}: the tile laid there has back "
                               f"{self.back_of[h]}, the event says {back!r}")
        board_ids = ev.get("board") or []
        take = ev.get("take_boat")
        protect = ev.get("protect")
        if back != "boat" and (board_ids or take is not None):
            raise Fail("B3.3", f"boarding/take_boat given for a {back} tile")
        if protect is not None and not (back == "dolphin" and self.v.dolphins):
            raise Fail("X5.2", f"sink protect={protect!r}, but only a dolphin tile under "
                               f"Challenge 5 puts a dolphin (protecting a swimmer) into play")
        # B5.6: the tile leaves; its explorers become swimmers in the hex
        del self.land[h]
        self.tags[("land", h)] = "B5.6"
        self.tiles_removed += 1
        self.removed_backs[back] += 1
        self.sunk_from = set(self.explorers_on_land(h))      # X6.3
        self.bonus_done = -1
        for e in self.explorers_on_land(h):
            self.set_ex(e, "sea", h, "B5.6")
        self._resolve_hex(h)
        self.pending_squid = None
        if 4 in self.v.challenges and not self.land:
            # R20: the last tile under Atlantis is Gone: the game ends before its back is
            # resolved (the back is still counted; its explorers stay, stranded)
            if board_ids or take is not None or protect is not None:
                raise Fail("R20", f"the last land tile ends the game (X2.4) before its {back} "
                                  f"back is resolved: no boarding, boat or dolphin")
            for e in self.sunk_from:
                self.tags[("ex", e)] = "R20"
            self.tags[("land", h)] = "R20"
            self.tags[("hand", seat)] = "R20"
            self.phase = self.ROLL
            return "R20"
        if back in GREEN:
            getattr(self, "_green_" + back)(h, board_ids, take)
        elif back == "dolphin" and self.v.dolphins:
            self._x5_dolphin_tile(h, protect)
        else:
            self.hands[seat][BACK_INDEX[back]] += 1
            self.tags[("hand", seat)] = "B5.6"
        if back == "volcano" and {2, 4} & set(self.v.challenges):
            self.phase = self.ROLL                      # X2.2 / X2.4: resolved as a whirlpool
        else:
            self.phase = self.VOLCANO if back == "volcano" else self.ROLL
        if self.pending_squid is not None:
            self._expect_squid(*self.pending_squid, then=self.phase)
        return "B5.6"

    def _x5_dolphin_tile(self, h, protect):
        """X5.2: the dolphin tile is immediate: a dolphin from the supply (the lowest-numbered;
        none left -> nothing) goes on the hex and protects one of the tile's swimmers (X5.5, the
        revealer's choice); the tile is removed from the game, not kept."""
        self.tags[("hand", self.seat)] = "X5.2"
        free = [d for d, x in enumerate(self.creatures["dolphin"]) if x == SUPPLY]
        if not free:
            if protect is not None:
                raise Fail("X5.2", f"no dolphin left in the supply, yet protect={protect!r}")
            return
        d = free[0]
        self.put_creature("dolphin", d, h, "X5.2")
        self.dolphins_placed += 1
        self._take_up(d, h, self.swimmers_at(h), protect, "X5.2")
        self._resolve_hex(h, "X5.2")

    def _place_from_supply(self, kind: str, h: int, rule: str):
        """replay-log conventions: the lowest-numbered piece in the supply; none left -> nothing."""
        pieces = self.creatures[kind]
        for n, x in enumerate(pieces):
            if x == SUPPLY:
                self.put_creature(kind, n, h, rule)
                self._resolve_hex(h, rule)
                return

    def _green_whale(self, h, board_ids, take):
        """B3.1: a whale on the tile's hex; swimmers there are unharmed. X7.1, X7.8: a squid
        follows when a whale came into play; X7.6: under squid-only no whale, always a squid
        (while squid remain and a hex for it exists)."""
        if self.v.squid_only:
            came = False
            for n in range(KIND_COUNT["whale"]):          # a whale shown here breaks X7.6
                self.tags[("cr", "whale", n)] = "X7.6"
        else:
            came = SUPPLY in self.creatures["whale"]
            self._place_from_supply("whale", h, "B3.1")
        if self.v.squid and (came or self.v.squid_only) and SUPPLY in self.creatures["squid"] \
                and self._squid_spots():
            self.pending_squid = ("place", None)

    def _squid_spots(self) -> list[int]:
        """X7.1, R19: unoccupied sea hexes adjacent to a land tile."""
        return [h for h in range(self.board.n_hex)
                if self.is_sea(h) and any(n in self.land for n in self.board.neighbours[h])
                and self.unoccupied(h)]

    def _green_shark(self, h, board_ids, take):
        """B3.2: a shark on the tile's hex; every swimmer there is eaten (no defence, B6.12)."""
        self._place_from_supply("shark", h, "B3.2")

    def _green_boat(self, h, board_ids, take):
        """B3.3, R5, R6: a boat on the hex (supply, else an unoccupied boat from the board); up to
        3 swimmers there board it (all of them when 3 or fewer)."""
        supply = [b for b in range(N_BOATS) if self.boat_rows[b][0] == SUPPLY]
        if supply:
            if take is not None:
                raise Fail("R6", f"take_boat={take} although boat {supply[0]} is in the supply")
            b = supply[0]
        else:
            free = [b for b in range(N_BOATS) if self.boat_rows[b][0] >= 0 and not self.occupied(b)]
            if take is None:
                if free:
                    raise Fail("R6", f"the boat supply is empty: an unoccupied boat from the board "
                                     f"(one of {free}) must be taken")
                b = None
            elif take not in free:
                raise Fail("R6", f"take_boat={take!r} is not an unoccupied boat on the board ({free})")
            else:
                b = take
        swimmers = self.swimmers_at(h)
        if b is None:
            if board_ids:
                raise Fail("B3.3", "swimmers board although no boat came into play")
            return
        self.put_boat(b, h, "B3.3" if supply else "R6")
        want = min(BOAT_CAPACITY, len(swimmers))
        if len(board_ids) != want or len(set(board_ids)) != want \
                or any(e not in swimmers for e in board_ids):
            raise Fail("B3.3", f"boat tile at {self.name(h)}: {want} of the swimmers there "
                               f"{sorted(swimmers)} board, found {board_ids}")
        for e in board_ids:
            self.set_ex(e, "boat", b, "B3.3")
        self._resolve_hex(h, "B3.3")

    def _green_whirlpool(self, h, board_ids, take):
        """B3.4, R5: remove everything in the hex and the adjacent sea hexes (boats to the supply,
        creatures out of the game); land, its explorers and isles are untouched."""
        for x in (h,) + tuple(n for n in self.board.neighbours[h] if n not in self.land):
            for e in self.swimmers_at(x):
                self.lose(e, "whirlpool", "B3.4")
            b = self.boat_at.get(x)
            if b is not None:
                for e in list(self.boat_rows[b][1]):
                    self.lose(e, "whirlpool", "B3.4")
                self.put_boat(b, SUPPLY, "B3.4")        # R5: back to the supply
            for k in KINDS:
                for n, y in enumerate(self.creatures[k]):
                    if y == x:
                        self.put_creature(k, n, GONE, "B3.4")

    def _green_volcano(self, h, board_ids, take):
        """B3.5, B5.7, B7.1: the game ends at once (no creature roll); with Challenge 2 or 4 the
        volcano is a whirlpool instead (X2.2, X2.4)."""
        if {2, 4} & set(self.v.challenges):
            self._green_whirlpool(h, board_ids, take)

    # -------------------------------------------------------------------- step 4 (B5.4, B6.8-B6.12)
    def _ev_roll(self, ev):
        """B5.4, B1.6: the die shows serpent, shark or whale. X5.1, X5.3: under Challenge 5 the
        dive dice instead (symbol and number). A creature event follows iff a piece of the
        rolled kind(s) is on the board."""
        self._expect_seat(ev, self.seat, "B5.4", "roll")
        face, number = ev.get("face"), ev.get("number")
        if self.v.dolphins:
            if face not in DICE_FACES:
                raise Fail("X5.3", f"the symbol die has no face {face!r}")
            if isinstance(number, bool) or number not in DICE_NUMBERS:
                raise Fail("X5.3", f"the number die shows 1, 2, 3 or D, found {number!r}")
        else:
            if face not in DIE_FACES:
                raise Fail("B1.6", f"the creature die has no face {face!r}")
            if number is not None:
                raise Fail("X5.1", f"a number {number!r} was rolled, but the dive dice are used "
                                   f"only under Challenge 5")
        self.face, self.number = face, number
        live = any(self._pieces(k) for k in self._face_kinds(face))
        self.phase = self.CREATURE if live else self.BETWEEN
        return "X5.3" if self.v.dolphins else "B5.4"

    def _face_kinds(self, face) -> list[str]:
        """B5.4, X5.3, X7.2: the kinds of piece the roll may move ('boat' = an empty boat)."""
        if face == "starfish":                              # X5.3: wild
            kinds = ["serpent", "shark", "whale", "dolphin", "boat"]
        else:
            kinds = [face]
        if self.v.squid and "whale" in kinds:
            kinds.append("squid")                           # X7.2: a squid instead of a whale
        return kinds

    def _pieces(self, kind) -> list[tuple[int, int]]:
        """(number, hex) of the pieces of ``kind`` on the board; 'boat' = empty boats (X5.3)."""
        if kind == "boat":
            return [(b, h) for b, (h, ps) in enumerate(self.boat_rows) if h >= 0 and not ps]
        return [(n, h) for n, h in enumerate(self.creatures[kind]) if h >= 0]

    def _can_move(self, h: int, kind: str = "serpent") -> bool:
        """B6.11: a piece can take a step (a boat not into another boat's hex, B6.6)."""
        return any(self.is_sea(n) and not (kind == "boat" and n in self.boat_at)
                   for n in self.board.neighbours[h])

    def _stops_at(self, kind: str, h: int) -> bool:
        """B6.9, B6.10, X5.4, X7.3, X7.5: must a piece of ``kind`` stop on entering hex h?"""
        if kind == "shark":
            return self._shark_attack_at(h)
        if kind == "serpent":
            return self._shark_attack_at(h) or self._whale_attack_at(h)
        if kind == "whale":
            return self._whale_attack_at(h) or self.creatures_at("squid", h) > 0
        if kind == "squid":
            return (self._whale_attack_at(h) or self.creatures_at("whale", h) > 0
                    or any(n in self.land and self.explorers_on_land(n)
                           for n in self.board.neighbours[h]))
        return False                                        # dolphins and empty boats never stop

    def _ev_creature(self, ev):
        """B6.8-B6.12, R2, R12, R16, R21; X5.4-X5.9 (dive dice, dolphins, empty boats), X7.2,
        X7.3, X7.5 (squid): move one piece of the rolled kind(s) along a legal path."""
        seat = self.seat
        self._expect_seat(ev, seat, "B5.4", "creature")
        kind, n, path = ev.get("kind"), ev.get("piece"), ev.get("path")
        dice = self.v.dolphins
        kinds = self._face_kinds(self.face)
        if kind not in kinds:
            raise Fail("X5.4" if dice else ("X7.2" if kind == "squid" else "B5.4"),
                       f"the {'dice show' if dice else 'die shows'} {self.face}: a "
                       f"{' / '.join(kinds)} moves, the event moves a {kind!r}")
        rule = "X7.2" if kind == "squid" else ("X5.4" if dice else DIE_RULE[kind])
        if kind == "boat":
            if not (_int(n) and 0 <= n < N_BOATS) or self.boat_rows[n][0] < 0:
                raise Fail("X5.4", f"boat {n!r} is not on the board")
            if self.occupied(n):
                raise Fail("X5.4", f"boat {n} holds {self.boat_rows[n][1]}: occupied boats are "
                                   f"never moved by the dice")
            here = self.boat_rows[n][0]
        else:
            if not (_int(n) and 0 <= n < KIND_COUNT[kind]) or self.creatures[kind][n] < 0:
                raise Fail(rule, f"{kind} {n!r} is not on the board")
            here = self.creatures[kind][n]
        if not isinstance(path, list):
            raise Fail("format", "creature path missing")
        protect = ev.get("protect")
        if protect is not None and kind != "dolphin":
            raise Fail("X5.5", f"a {kind} protects nobody, found protect={protect!r}")
        attack_hex = None
        if not path:
            if kind == "dolphin" and protect is not None:
                self._dolphin_switch(n, here, protect)
            else:
                self._stay_check(kind, kinds)
        elif self.number == "D":
            self._dive(kind, n, here, path)
            if protect is not None:
                raise Fail("X5.5", f"dolphin {n} dived to an unoccupied hex: it protects nobody, "
                                   f"found protect={protect!r}")
        else:
            attack_hex = self._walk(kind, n, here, path, rule, dice)
        self._defence(ev, kind, n, attack_hex)
        if attack_hex is not None and self.creatures[kind][n] >= 0:
            self._resolve_hex(attack_hex)
        if kind == "dolphin" and path and self.number != "D":
            self._dolphin_arrives(n, path[-1], protect)
        self.phase = self.BETWEEN
        if kind == "squid":
            self._expect_squid("attack", n, self.BETWEEN)       # X7.4 (staying included)
        return rule

    def _stay_check(self, kind, kinds):
        """R2, R21: a piece may stay (0 hexes) -- not on a D (it must jump), and with
        creatures_must_move only when no piece of the rolled kind(s) can move; a squid may
        always stay (X7.2)."""
        if self.number == "D":
            raise Fail("R21", f"the dice show D: the {kind} must dive to another hex (X5.4)")
        if kind == "squid" or not self.v.creatures_must_move:
            return
        for k in kinds:
            if k == "squid":
                continue
            for m, h in self._pieces(k):
                if self._can_move(h, k):
                    raise Fail("R21", f"creatures_must_move: {k} {m} can move, a zero move is "
                                      f"illegal")

    def _relocate(self, kind, n, h, rule):
        """Put the moving piece on h; X5.6: a dolphin leaving its swimmer unprotects it, and the
        old hex is resolved at once (before anything happens where the dolphin arrives)."""
        if kind == "boat":
            self.put_boat(n, h, rule)
            return
        if kind == "dolphin":
            old, e = self.creatures["dolphin"][n], self.swimmer_of(n)
            self.put_creature(kind, n, h, "X5.6" if e is not None else rule)
            if e is not None:
                self._resolve_hex(old, "X5.6")
            return
        self.put_creature(kind, n, h, rule)

    def _dive(self, kind, n, here, path):
        """X5.4, R19: on a D the piece jumps to any unoccupied sea hex (it must move)."""
        if len(path) != 1:
            raise Fail("X5.4", f"after a D the path is the one hex jumped to, found {path}")
        h = path[0]
        if not self.is_sea(h):
            raise Fail("X5.4", f"{kind} {n} dives to {self.name(h)}, which is not a sea hex")
        if not self.unoccupied(h):
            base = (h in self.boat_at or self.swimmers_at(h)
                    or any(self.creatures_at(k, h) for k in BASE_KINDS))
            raise Fail("X5.4" if base else "R19",
                       f"{kind} {n} dives to {self.name(h)}, which is occupied (boat, swimmer or "
                       f"creature, dolphins and squid included)")
        self._relocate(kind, n, h, "X5.4")
        self._resolve_hex(h)

    def _walk(self, kind, n, here, path, rule, dice):
        """B6.8-B6.11, R12, X5.4, X7.3, X7.5: a simple path of adjacent sea hexes, up to the
        die's reach or the number rolled, stopping where the piece must stop; only the end hex
        is resolved. Returns the hex attacked (shark or whale: a defence window), else None."""
        reach = self.number if dice else DIE_REACH.get(kind, 3)
        if len(path) > reach:
            raise Fail(rule, f"a {kind} moves up to {reach} hex(es) here, path has {len(path)}")
        stop_rule = "X7.3" if kind == "squid" else ("X5.4" if dice else rule)
        seen = {here}
        cur = here
        for k, h in enumerate(path):
            if k and self._stops_at(kind, path[k - 1]):
                raise Fail(stop_rule, f"the {kind} must stop at {self.name(path[k - 1])} (R12)")
            if not self.is_sea(h) or h not in self.board.adjacent[cur]:
                raise Fail("B6.11", f"{kind} {n}: step {k + 1} from {self.name(cur)} to "
                                    f"{self.name(h)} is not an adjacent sea hex")
            if h in seen:
                raise Fail("R12", f"{kind} {n}: the path enters {self.name(h)} twice")
            if kind == "boat" and h in self.boat_at:
                raise Fail("B6.6", f"boat {n} may not enter or pass {self.name(h)}, which holds "
                                   f"boat {self.boat_at[h]}")
            seen.add(h)
            cur = h
        end = path[-1]
        attack_hex = None
        if kind == "whale":
            for m, x in enumerate(self.creatures["squid"]):  # X7.5, X7.8: every squid in
                if x == end:                                # the hex goes, before the capsize
                    self.put_creature("squid", m, GONE, "X7.5")
            if self._whale_attack_at(end):
                attack_hex = end
        elif kind == "shark" and self._shark_attack_at(end):
            attack_hex = end
        self._relocate(kind, n, end, rule)
        if attack_hex is None:
            self._resolve_hex(end)
        return attack_hex

    def _dolphin_arrives(self, d, h, protect):
        """X5.5, X5.9: a dolphin moved by the dice into a hex with unprotected swimmers protects
        one of them (the mover's choice)."""
        if self.creatures["dolphin"][d] != h:
            return
        self._take_up(d, h, [e for e in self.swimmers_at(h) if e not in self.prot], protect,
                      "X5.5")

    def _take_up(self, d, h, candidates, protect, rule):
        """X5.5 / X5.9: free dolphin ``d`` has come to ``candidates`` (unprotected swimmers in
        ``h``): it protects ``protect``, which must be one of them (null when there is none)."""
        if not candidates:
            if protect is not None:
                raise Fail("X5.5", f"dolphin {d} at {self.name(h)} protects {protect!r}, but no "
                                   f"unprotected swimmer is there")
            return
        if protect not in candidates:
            raise Fail("X5.5", f"dolphin {d} came to {self.name(h)}: it must protect one of the "
                               f"unprotected swimmers {candidates}, found protect={protect!r}")
        self.set_prot(protect, d, rule)

    def _dolphin_switch(self, d, h, target):
        """X5.7, X5.9: instead of moving, a dolphin sharing its hex with two or more swimmers
        protects another one, that no dolphin protects; its former swimmer is unprotected and the
        hex resolved at once (X5.6)."""
        swimmers = self.swimmers_at(h)
        if len(swimmers) < 2:
            raise Fail("X5.9", f"dolphin {d} at {self.name(h)} switches protection, but a switch "
                               f"needs two or more swimmers in its hex ({swimmers})")
        if target not in swimmers:
            raise Fail("X5.7", f"dolphin {d} switches to {target!r}, who is not swimming at "
                               f"{self.name(h)} ({swimmers})")
        if target in self.prot:
            raise Fail("X5.5", f"swimmer {target} is already protected by dolphin "
                               f"{self.prot[target]} (one dolphin per swimmer)")
        old = self.swimmer_of(d)
        if old is not None:
            self.set_prot(old, None, "X5.6")
        self.set_prot(target, d, "X5.7")
        self._resolve_hex(h, "X5.6")

    # -------------------------------------------------------------------- X7 squid events
    def _ev_squid(self, ev):
        """X7.1 (a whale tile places a squid next to land; it takes one explorer from an
        adjacent tile) and X7.4 (after a squid move: every whale in its hex is removed, then one
        explorer from an adjacent land tile or from the occupied boat in its hex)."""
        what, n = self.pending_squid
        place = what == "place"
        rule = "X7.1" if place else "X7.4"
        self._expect_seat(ev, self.seat, rule, "squid")
        piece, h, gone, victim = ev.get("piece"), ev.get("hex"), ev["whales"], ev.get("victim")
        if not isinstance(gone, list):
            raise Fail("format", f"squid event: whales must be a list, found {gone!r}")
        if bool(ev.get("placed")) != place:
            raise Fail(rule, f"expected a squid {'placement' if place else 'attack'}, found "
                             f"placed={ev.get('placed')!r}")
        squid = self.creatures["squid"]
        if place:
            first = squid.index(SUPPLY)
            if piece != first:
                raise Fail("X7.1", f"the lowest-numbered squid in the supply ({first}) is placed, "
                                   f"found {piece!r}")
            if not self.is_sea(h) or not any(x in self.land for x in self.board.neighbours[h]):
                raise Fail("X7.1", f"squid placed on {self.name(h)}: it goes on a sea hex "
                                   f"adjacent to a land tile")
            if not self.unoccupied(h):
                base = (h in self.boat_at or self.swimmers_at(h)
                        or any(self.creatures_at(k, h) for k in BASE_KINDS))
                raise Fail("X7.1" if base else "R19",
                           f"squid placed on {self.name(h)}, which is occupied")
            if gone:
                raise Fail("X7.1", f"a placed squid removes no whale, found whales={gone!r}")
            self.put_creature("squid", piece, h, "X7.1")
            self.squid_placed += 1
            cands = [e for x in self.board.neighbours[h] if x in self.land
                     for e in self.explorers_on_land(x)]
        else:
            if piece != n or h != squid[n]:
                raise Fail("X7.4", f"the squid that moved is squid {n} at {self.name(squid[n])}, "
                                   f"found squid {piece!r} at {self.name(h)}")
            whales = [m for m, x in enumerate(self.creatures["whale"]) if x == h]
            if gone != whales:
                raise Fail("X7.4", f"the squid removes every whale in its hex ({whales}), "
                                   f"found whales={gone!r}")
            for m in whales:
                self.put_creature("whale", m, GONE, "X7.4")
            cands = [e for x in self.board.neighbours[h] if x in self.land
                     for e in self.explorers_on_land(x)]
            b = self.boat_at.get(h)
            if b is not None:
                cands += self.boat_rows[b][1]
        if cands:
            if victim not in cands:
                raise Fail(rule, f"the squid at {self.name(h)} removes exactly one explorer of "
                                 f"{sorted(cands)}, found victim={victim!r}")
            self.lose(victim, "squid", rule)
        elif victim is not None:
            raise Fail(rule, f"the squid at {self.name(h)} can reach no explorer, found "
                             f"victim={victim!r}")
        self.pending_squid = None
        self.phase = self.after_squid
        return rule

    def _defence(self, ev, kind, n, attack_hex):
        """B6.12, R16, R8: a defence tile removes the attacking shark/whale from the game."""
        d, tile = ev.get("defended_by"), ev.get("defence")
        if d is None:
            if tile is not None:
                raise Fail("format", f"defence {tile!r} without defended_by")
            return
        if attack_hex is None:
            raise Fail("R16", f"defence by seat {d} although the {kind} attacks nobody "
                              f"(the window opens only for a real attack)")
        want = "defend_shark" if kind == "shark" else "defend_whale"
        if tile != want:
            raise Fail("B6.12", f"against a {kind} only {want} helps, found {tile!r}")
        if not (_int(d) and 0 <= d < self.v.seats):
            raise Fail("format", f"defended_by={d!r} is not a seat")
        if self.player(d) == self.player(self.seat):
            raise Fail("R16", f"seat {d} defends against its own player's {kind} (seat {self.seat}); "
                              f"only another player may defend")
        if kind == "shark":
            if not any(self.ex_seat[e] == d for e in self.swimmers_at(attack_hex)):
                raise Fail("R16", f"seat {d} has no swimmer at {self.name(attack_hex)} to defend")
        else:
            b = self.boat_at[attack_hex]
            if d not in self.controllers(b):
                raise Fail("R8", f"seat {d} does not control boat {b} (controllers "
                                 f"{sorted(self.controllers(b))}) and may not play whale defence")
        if self.hands[d][BACK_INDEX[tile]] <= 0:
            raise Fail("B6.12", f"seat {d} plays {tile} but holds none")
        self.hands[d][BACK_INDEX[tile]] -= 1
        self.tags[("hand", d)] = "B6.12"
        # the defended pieces survive: a snapshot that disagrees about them breaks B6.12
        if kind == "shark":
            for e in self.swimmers_at(attack_hex):
                self.tags[("ex", e)] = "B6.12"
        else:
            b = self.boat_at[attack_hex]
            self.tags[("boat", b)] = "B6.12"
            for e in self.boat_rows[b][1]:
                self.tags[("ex", e)] = "B6.12"
        self.put_creature(kind, n, GONE, "B6.12")
        self._resolve_hex(attack_hex)

    _HANDLERS = {
        "layout": _ev_layout, "place_explorer": _ev_place_explorer, "place_boat": _ev_place_boat,
        "turn_start": _ev_turn_start, "play_tile": _ev_play_tile, "move": _ev_move,
        "bonus": _ev_bonus,
        "sink": _ev_sink, "roll": _ev_roll, "creature": _ev_creature, "end": _ev_end,
        "squid": _ev_squid,
    }

    # -------------------------------------------------------------------- snapshot comparison
    def _where(self, row) -> str:
        if row is None:
            return "absent"
        loc, at = row[0], row[1]
        if loc == "land":
            return f"on land {self.name(at)}"
        if loc == "sea":
            return f"swimming at {self.name(at)}"
        if loc == "boat":
            h = self.boat_rows[at][0] if _int(at) and 0 <= at < N_BOATS else None
            return f"in boat {at}" + (f" at {self.name(h)}" if h is not None and h >= 0 else "")
        if loc == "safe":
            return f"safe on {self.name(at)}"
        if loc == "lost":
            return "lost"
        return f"{loc} ({at})"

    def compare(self, after, default_rule: str):
        """(c) the referee's position against the event's ``after`` snapshot."""
        if not isinstance(after, dict):
            raise Fail("format", "event has no 'after' snapshot")
        tag = self.tags.get
        # explorers
        found = after.get("explorers")
        if found != self.ex_rows:
            try:
                fmap = {r[0]: (r[1], r[2]) for r in found}
            except (TypeError, IndexError, KeyError):
                raise Fail("format", "after.explorers is not a list of [id, loc, at]")
            for row in self.ex_rows:
                e = row[0]
                mine = (row[1], row[2])
                theirs = fmap.get(e)
                if theirs != mine:
                    fate = self.fates.get(str(e))
                    exp = self._where(mine) + (f" ({fate})" if fate else "")
                    got = self._where(theirs)
                    raise Fail(tag(("ex", e), default_rule),
                               f"explorer {e} (seat {self.ex_seat[e]}, value {self.ex_value[e]}): "
                               f"expected {exp}, found {got}")
            extra = set(fmap) - set(self.ex)
            if extra or len(found) != len(self.ex_rows):
                raise Fail("format", f"after.explorers lists unknown or repeated ids {sorted(extra)}")
        # fates
        ffates = after.get("fates", {})
        if ffates != self.fates:
            if not isinstance(ffates, dict):
                raise Fail("format", "after.fates is not an object")
            for k in sorted(set(ffates) | set(self.fates), key=lambda x: int(x)):
                if ffates.get(k) != self.fates.get(k):
                    raise Fail(tag(("ex", int(k)), default_rule),
                               f"fate of explorer {k}: expected {self.fates.get(k) or 'not lost'}, "
                               f"found {ffates.get(k) or 'not lost'}")
        # boats
        fboats = after.get("boats")
        if fboats != self.boat_rows:
            if not isinstance(fboats, list) or len(fboats) != N_BOATS:
                raise Fail("format", f"after.boats must have {N_BOATS} entries")
            for b, (h, ps) in enumerate(self.boat_rows):
                try:
                    fh, fps = fboats[b][0], fboats[b][1]
                except (TypeError, IndexError):
                    raise Fail("format", f"after.boats[{b}] is not [hex, passengers]")
                if fh != h:
                    rule = "R5" if (h == SUPPLY and fh == GONE) else tag(("boat", b), default_rule)
                    raise Fail(rule, f"boat {b}: expected {self._boat_where(h)}, found {self._boat_where(fh)}")
                if sorted(fps) != sorted(ps):
                    rule = tag(("boat", b), None) or next(
                        (tag(("ex", e)) for e in set(ps) ^ set(fps) if ("ex", e) in self.tags),
                        default_rule)
                    raise Fail(rule, f"boat {b} passengers: expected {sorted(ps)}, found {sorted(fps)}")
        # creatures
        fcr = after.get("creatures")
        if not isinstance(fcr, dict):
            raise Fail("format", "after.creatures is not an object")
        for kind in KINDS:
            mine = self.creatures[kind]
            theirs = fcr.get(kind)
            if theirs == mine:
                continue
            if kind not in self.v.kinds_in_play and all(x == SUPPLY for x in mine) \
                    and (theirs is None or all(x < 0 for x in theirs)):
                continue                      # pieces of expansions not in play: off the board
            if not isinstance(theirs, list):
                raise Fail("format", f"after.creatures.{kind} missing")
            for n, h in enumerate(mine):
                fh = theirs[n] if n < len(theirs) else None
                if fh != h:
                    rule = tag(("cr", kind, n)) or ("R5" if (h == GONE and fh == SUPPLY)
                                                    else default_rule)
                    raise Fail(rule, f"{kind} {n}: expected {self._cr_where(h)}, found {self._cr_where(fh)}")
            if any(x != SUPPLY and x != GONE for x in theirs[len(mine):]):
                raise Fail("format", f"after.creatures.{kind} has more pieces than the box holds")
        # hands
        fh = after.get("hands")
        if fh != self.hands:
            if not isinstance(fh, list) or len(fh) != self.v.seats:
                raise Fail("format", f"after.hands must have one row per seat ({self.v.seats})")
            for s in range(self.v.seats):
                if fh[s] != self.hands[s]:
                    diff = {BACKS[k]: (self.hands[s][k], (fh[s][k] if k < len(fh[s]) else None))
                            for k in range(len(BACKS))
                            if k >= len(fh[s]) or fh[s][k] != self.hands[s][k]}
                    raise Fail(tag(("hand", s), default_rule),
                               f"seat {s} hand (expected, found): {diff}")
        # dolphin protection (X5.5): swimmer -> dolphin
        fprot = after.get("protect", {})
        mine = {str(e): d for e, d in self.prot.items()}
        if fprot != mine:
            if not isinstance(fprot, dict):
                raise Fail("format", "after.protect is not an object")
            for k in sorted(set(fprot) | set(mine), key=lambda x: int(x)):
                if fprot.get(k) != mine.get(k):
                    raise Fail(tag(("prot", int(k)), default_rule if default_rule.startswith("X5")
                                   else "X5.5"),
                               f"protection of swimmer {k}: expected "
                               f"{'dolphin ' + str(mine[k]) if k in mine else 'none'}, found "
                               f"{'dolphin ' + str(fprot[k]) if k in fprot else 'none'}")
        # land
        fland = after.get("land")
        if fland != self._land_list():
            mine, theirs = set(self.land), set(fland or ())
            if mine != theirs or len(fland) != len(mine):
                gone, extra = sorted(mine - theirs), sorted(theirs - mine)
                h = (gone or extra or [None])[0]
                raise Fail(tag(("land", h), default_rule),
                           f"land tiles: expected {[self.name(x) for x in gone]} still on the board"
                           f" and {[self.name(x) for x in extra]} gone" if (gone or extra)
                           else "after.land lists a hex twice")

    def _land_list(self):
        # cached sorted list of the hexes holding land; recomputed only when land changes
        key = len(self.land)
        if getattr(self, "_land_key", None) != key:
            self._land_key = key
            self._land_sorted = sorted(self.land)
        return self._land_sorted

    def _boat_where(self, h):
        return "in the supply" if h == SUPPLY else ("removed from the game" if h == GONE
                                                    else f"at {self.name(h)}")

    def _cr_where(self, h):
        if h is None:
            return "absent"
        return "in the supply" if h == SUPPLY else ("removed from the game" if h == GONE
                                                    else f"at {self.name(h)}")

    # -------------------------------------------------------------------- end of log (B7, R18)
    def finish(self):
        """B7.1, R10: the log must end with the game's end."""
        if self.phase != self.OVER:
            if self.phase == self.VOLCANO:
                raise Fail("B5.7", "the volcano was revealed but the log has no end event")
            raise Fail("B7.1", "the log ends without an end event")

    def expected_record(self) -> dict:
        """B7.2, R18 and the record columns: the referee's own final tallies."""
        rec = {"players": self.v.players, "seats": self.v.seats, "end_reason": self.end_reason,
               "end_seat": self.end_seat, "turns": self.turn, "tiles_removed": self.tiles_removed,
               "bonus_moves": self.bonus_moves, "dolphins_placed": self.dolphins_placed,
               "squid_placed": self.squid_placed, "dolphins": self.v.dolphins,
               "squid": self.v.squid, "squid_only": self.v.squid_only}
        for b in BACKS:
            rec["back_" + b] = self.removed_backs[b]
        for s in range(self.v.seats):
            mine = [row for row in self.ex_rows if self.ex_seat[row[0]] == s]
            safe = [row for row in mine if row[1] == "safe"]
            lost = [row for row in mine if row[1] == "lost"]
            stranded = [row for row in mine if row[1] in ("land", "boat", "sea", "unplaced")]
            rec[f"score_{s}"] = (len(safe) if 3 in self.v.challenges       # X2.3: all worth 1
                                 else sum(self.ex_value[r[0]] for r in safe))
            rec[f"rescued_{s}"] = len(safe)
            rec[f"rescued_value_{s}"] = sum(self.ex_value[r[0]] for r in safe)
            rec[f"lost_{s}"] = len(lost) + len(stranded)
            rec[f"turns_{s}"] = self.turns_of[s]
            for cause in CAUSES:
                rec[f"lost_{cause}_{s}"] = sum(1 for r in lost if self.fates.get(str(r[0])) == cause)
            rec[f"lost_stranded_{s}"] = len(stranded)
        rec["tiebreak"] = self.v.tiebreak
        rec["decided_by"] = self.decided_by(rec)
        return rec

    def decided_by(self, rec: dict) -> str:
        """B7.3 / X1.6: the step that decides the winner. Players' keys are the sums over their
        seats (B4.5). ``score`` when one player has the top score; under the chain (a) most
        explorers rescued, (b) highest value rescued (only with Challenge 3), (c) fewest turns
        taken; ``shared`` when a tie stands."""
        players = range(self.v.players)

        def total(name, p):
            return sum(rec[f"{name}_{s}"] for s in range(self.v.seats)
                       if self.v.player_of_seat[s] == p)

        top = max(total("score", p) for p in players)
        alive = [p for p in players if total("score", p) == top]
        if len(alive) == 1:
            return "score"
        if self.v.tiebreak == "shared":
            return "shared"
        keys = [("rescued", "rescued", 1), ("turns", "turns", -1)]
        if 3 in self.v.challenges:
            keys.insert(1, ("value", "rescued_value", 1))
        for step, name, sign in keys:
            best = max(sign * total(name, p) for p in alive)
            alive = [p for p in alive if sign * total(name, p) == best]
            if len(alive) == 1:
                return step
        return "shared"


# column -> rule id, for record discrepancies
def _record_rule(col: str) -> str:
    if col in ("end_reason",):
        return "B7.1"
    if col in ("end_seat", "turns") or col.startswith("turns_"):
        return "R18"
    if col == "bonus_moves":
        return "X6.3"
    if col in ("dolphins_placed", "dolphins"):
        return "X5.2" if col == "dolphins_placed" else "X5.1"
    if col in ("squid_placed", "squid"):
        return "X7.1"
    if col == "squid_only":
        return "X7.6"
    if col == "tiles_removed" or col.startswith("back_"):
        return "B5.6"
    if col in ("players", "seats"):
        return "B4.5"
    if col in ("tiebreak", "decided_by"):
        return "X1.6"
    if col.startswith("lost_whirlpool"):
        return "B3.4"
    if col.startswith(("lost_serpent", "lost_shark", "lost_whale")):
        return "B6.7"
    if col.startswith("lost_squid"):
        return "X7.4"
    return "B7.2"      # score, rescued, rescued_value, lost, lost_stranded


_SEAT_COLS = ("score", "rescued", "rescued_value", "lost", "turns", "lost_serpent", "lost_shark",
              "lost_whale", "lost_whirlpool", "lost_squid", "lost_stranded")


def _is_null(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _same(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return not _is_null(a) and not _is_null(b) and float(a) == float(b)
    return a == b


def _check_record(log: dict, pos: Position):
    """B7.2, R18, B5.6 and the record contract: the final row against the referee's position."""
    rec = log.get("record")
    if not isinstance(rec, dict):
        raise Fail("format", "record missing or not an object")
    want = pos.expected_record()
    for col, val in (("game", log.get("game")), ("seed", log.get("seed"))):
        if col in log and not _same(rec.get(col), val):
            raise Fail("format", f"record: {col} expected {val!r}, found {rec.get(col)!r}")
    for col, val in want.items():
        if col not in rec:
            raise Fail("format", f"record: column {col} missing")
        if not _same(rec[col], val):
            seat = int(col.rsplit("_", 1)[1]) if col.rsplit("_", 1)[-1].isdigit() else -1
            raise Fail(_record_rule(col), f"record: {col} expected {val!r}, found {rec[col]!r}", seat)
    for s in range(pos.v.seats, MAX_SEATS):
        for c in _SEAT_COLS:
            col = f"{c}_{s}"
            if col in rec and not _is_null(rec[col]):
                raise Fail("format", f"record: {col} should be null (no seat {s}), found {rec[col]!r}", s)


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------

_MALFORMED = (KeyError, TypeError, IndexError, ValueError, AttributeError)


def _malformed(x: Exception) -> str:
    """The exception and the referee line where it surfaced (to tell bad logs from referee bugs)."""
    tb = x.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return f"{x!r} at referee.py line {tb.tb_lineno}" if tb is not None else repr(x)


def check(log: dict) -> Discrepancy | None:
    """Re-check one replay log (docs/replay-log.md) against RULES.md; the first discrepancy or None."""
    if not isinstance(log, dict):
        return Discrepancy(-1, 0, -1, "format", "header: the log is not a JSON object")
    if log.get("format") != FORMAT:
        return Discrepancy(-1, 0, -1, "format", f"header: format {log.get('format')!r}; this "
                           f"referee reads {FORMAT!r} (docs/replay-log.md)")
    try:
        pos = Position(log.get("settings"), log.get("tiles"), log.get("explorers"))
    except Fail as f:
        return Discrepancy(-1, 0, -1, f.rule, "header: " + f.message)
    except _MALFORMED as x:
        return Discrepancy(-1, 0, -1, "format", f"header: malformed ({_malformed(x)})")
    events = log.get("events")
    if not isinstance(events, list):
        return Discrepancy(-1, 0, -1, "format", "header: events missing or not a list")
    for i, ev in enumerate(events):
        seat = ev.get("seat", -1) if isinstance(ev, dict) else -1
        seat = seat if _int(seat) else -1
        try:
            if not isinstance(ev, dict):
                raise Fail("format", "event is not an object")
            rule = pos.apply(ev, i)
            pos.compare(ev.get("after"), rule)
        except Fail as f:
            return Discrepancy(i, pos.turn, seat, f.rule, f.message)
        except _MALFORMED as x:
            return Discrepancy(i, pos.turn, seat, "format",
                               f"malformed {ev.get('type') if isinstance(ev, dict) else ''} event "
                               f"({_malformed(x)})")
    try:
        pos.finish()
    except Fail as f:
        return Discrepancy(len(events) - 1, pos.turn, pos.seat, f.rule, f.message)
    try:
        _check_record(log, pos)
    except Fail as f:
        return Discrepancy(-1, pos.turn, -1 if f.seat is None else f.seat, f.rule, f.message)
    except _MALFORMED as x:
        return Discrepancy(-1, pos.turn, -1, "format", f"record: malformed ({_malformed(x)})")
    return None


def check_file(path) -> Discrepancy | None:
    """``check`` on a JSON log file."""
    with open(path, encoding="utf-8") as f:
        return check(json.load(f))
