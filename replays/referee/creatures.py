"""Creatures (B6.7-B6.12, R2, R12, R15, R16, R21): the at-rest rule that resolves a hex, the
creature roll of step 4 with the creature's move, and defence tiles.

Under Challenge 5 the same roll is the dive dice (X5.3, X5.4: the number, D, empty boats and
dolphins moved); a squid may move instead of a whale (X7.2, X7.3, X7.5), its attack being the
squid event that follows (``squid``).
"""
from __future__ import annotations

from .components import (
    BACK_INDEX,
    BASE_KINDS,
    DICE_FACES,
    DICE_NUMBERS,
    DIE_FACES,
    DIE_REACH,
    DIE_RULE,
    GONE,
    KIND_COUNT,
    N_BOATS,
    SUPPLY,
    is_int,
)
from .failure import Fail
from .state import PositionState


class Creatures(PositionState):
    """The ``roll`` and ``creature`` events and ``_resolve_hex`` (mixin of ``Position``)."""

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

    def _shark_attack_at(self, h: int) -> bool:
        """B6.9: a shark must stop in a hex with an unprotected swimmer."""
        return any(not self.protected(e) for e in self.swimmers_at(h))

    def _whale_attack_at(self, h: int) -> bool:
        """B6.10: a whale must stop in a hex with an occupied boat."""
        b = self.boat_at.get(h)
        return b is not None and self.occupied(b)

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
            if not (is_int(n) and 0 <= n < N_BOATS) or self.boat_rows[n][0] < 0:
                raise Fail("X5.4", f"boat {n!r} is not on the board")
            if self.occupied(n):
                raise Fail("X5.4", f"boat {n} holds {self.boat_rows[n][1]}: occupied boats are "
                                   f"never moved by the dice")
            here = self.boat_rows[n][0]
        else:
            if not (is_int(n) and 0 <= n < KIND_COUNT[kind]) or self.creatures[kind][n] < 0:
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
        if not (is_int(d) and 0 <= d < self.v.seats):
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
