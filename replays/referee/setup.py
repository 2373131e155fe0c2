"""Setup (B4): the layout, explorer placement (B4.3, X1.3, X2.1, X6.2) and boat placement
(B4.4, R19, X1.4), round the seats in order from seat 0, or in the setup order of C2.1."""
from __future__ import annotations

from .components import GONE, KIND_COUNT, KINDS
from .failure import Fail
from .state import PositionState


class Setup(PositionState):
    """The setup events: ``layout``, ``place_explorer``, ``place_boat`` (mixin of ``Position``)."""

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

    def _placer(self, order: str, counts: list[int], k: int) -> int:
        """B4.3, B4.4, X1.4, C2.1: the seat whose turn it is to place the ``k``-th piece (from
        0) of a phase in which seat ``s`` places ``counts[s]`` pieces, one per round, in the
        phase's order: seats 0..N-1 each round (``forward``), N-1..0 (``reverse``), or the
        one in even rounds and the other in odd ones (``snake``); a seat whose pieces are all
        placed is skipped (X1.4). -1 when the phase is over."""
        n = self.v.seats
        sequence = []
        for rnd in range(max(counts, default=0)):
            backwards = order == "reverse" or (order == "snake" and rnd % 2 == 1)
            sequence += [s for s in (range(n - 1, -1, -1) if backwards else range(n))
                         if counts[s] > rnd]
        return sequence[k] if k < len(sequence) else -1

    def _ev_place_explorer(self, ev):
        """B4.3: one explorer per seat in turn, on a land tile the rule in force allows
        (``_placement``: B4.3, X1.3, X2.1, X6.2)."""
        left = [0] * self.v.seats
        total = [0] * self.v.seats
        for row in self.ex_rows:
            if row[1] == "unplaced":
                left[self.ex_seat[row[0]]] += 1
            if row[1] != "off":
                total[self.ex_seat[row[0]]] += 1
        order = self.v.setup_order[0]
        seat = self._placer(order, total, sum(total) - sum(left))
        self._expect_seat(ev, seat, "C2.1" if order != "forward" else "B4.3",
                          f"explorer placement goes round the seats in {order} order")
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
        order = self.v.setup_order[1]
        seat = self._placer(order, list(self.v.boats_per_seat), self.next_boat)
        self._expect_seat(ev, seat, "C2.1" if order != "forward" else "B4.4",
                          f"boat placement goes round the seats in {order} order")
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
