"""Tiles: playing a red tile at step 1 (B5.1, B3.6-B3.10, R4, R9) and sinking a land tile at
step 3 (B5.3, B5.5, B5.6) with the effect of its green back (B3.1-B3.5, R5, R6, R20).

The dolphin tile under Challenge 5 (X5.2) is in ``dolphins``; whether a whale tile calls a squid
(X7.1) is decided here and the squid's placement checked in ``squid``.
"""
from __future__ import annotations

from .components import (
    BACK_INDEX,
    BACK_RULE,
    BASE_KINDS,
    BOAT_CAPACITY,
    DEFENCE,
    GONE,
    GREEN,
    KIND_COUNT,
    KINDS,
    MOVE_TILES,
    N_BOATS,
    SUPPLY,
    TERRAINS,
    is_int,
)
from .failure import Fail
from .state import PositionState


class Tiles(PositionState):
    """The ``play_tile`` and ``sink`` events (mixin of ``Position``)."""

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
        if not (is_int(b) and 0 <= b < N_BOATS) or self.boat_rows[b][0] < 0:
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
        if not (is_int(n) and 0 <= n < KIND_COUNT[kind]) or self.creatures[kind][n] < 0:
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
