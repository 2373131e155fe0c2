"""The Giant Squid (X7.1, X7.4, X7.6): the squid event that follows every squid placement and
every squid move -- where a whale tile's squid goes, the whales it removes, and its victim."""
from __future__ import annotations

from .components import BASE_KINDS, GONE, SUPPLY
from .failure import Fail
from .state import PositionState


class Squid(PositionState):
    """The ``squid`` event (mixin of ``Position``)."""

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

    def _squid_spots(self) -> list[int]:
        """X7.1, R19: unoccupied sea hexes adjacent to a land tile."""
        return [h for h in range(self.board.n_hex)
                if self.is_sea(h) and any(n in self.land for n in self.board.neighbours[h])
                and self.unoccupied(h)]
