"""Step 2, movement (B5.2, B6.1-B6.6, R3, R13, R17): explorers walk, dive, swim, board, go
overboard and land on a safe isle; boats sail; and the Overpopulated bonus move (X6.3, X6.6)."""
from __future__ import annotations

from .components import BOAT_CAPACITY, MP_PER_TURN, N_BOATS, is_int
from .failure import Fail
from .state import PositionState


class Movement(PositionState):
    """The ``move`` and ``bonus`` events (mixin of ``Position``)."""

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
        if not (is_int(b) and 0 <= b < N_BOATS) or self.boat_rows[b][0] < 0:
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
        if not (is_int(b) and 0 <= b < N_BOATS) or self.boat_rows[b][0] < 0:
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
