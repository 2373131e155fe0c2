"""The order of events (B4 setup, then B5's four steps), the turns and the end of the game
(B5.7, B7.1, R10, R18), and the challenge end rules checked after every event (X2.2, X2.4).

``apply`` is the referee's entry for one event: it checks that the event may come now
(``_sequence``), hands it to its rule family's handler, then checks the turn count.
"""
from __future__ import annotations

from .failure import Fail
from .state import PositionState


class Turns(PositionState):
    """Event dispatch, the phase machine, turn starts and the end (mixin of ``Position``)."""

    _HANDLERS: dict      # event type -> its handler, named by ``Position``

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
