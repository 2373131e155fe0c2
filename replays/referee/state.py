"""The referee's own game position, and the queries and tagged mutations every rule module uses.

:class:`PositionState` holds the position in the shape of the log's ``after`` snapshot; the rule
families (``setup``, ``turns``, ``tiles``, ``movement``, ``creatures``, ``dolphins``, ``squid``)
are mixins on it and :class:`~replays.referee.position.Position` puts them together. Every
mutation records in ``tags`` the rule id of the consequence that made it, so that a snapshot
disagreeing about that piece is reported under that rule.
"""
from __future__ import annotations

from ..board import BOARD, Board
from .components import (
    BACK_INDEX,
    BACK_TABLE,
    BACKS,
    KIND_COUNT,
    KINDS,
    N_BOATS,
    SLOT_VALUES,
    SUPPLY,
    TERRAINS,
    is_int,
)
from .failure import Fail
from .variant import Variant


class PositionState:
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
            if not (is_int(s) and 0 <= s < self.v.seats and is_int(k) and 0 <= k < 10):
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

    # -------------------------------------------------------------------- event order helpers
    def _expect_seat(self, ev: dict, seat: int, rule: str, what: str):
        if ev.get("seat") != seat:
            raise Fail(rule, f"{what}: expected seat {seat}, found seat {ev.get('seat')!r}")

    def _expect_squid(self, what: str, n, then: int):
        """X7.1 / X7.4: the next event is the squid's placement or attack; then phase ``then``."""
        self.pending_squid = (what, n)
        self.after_squid = then
        self.phase = self.SQUID
