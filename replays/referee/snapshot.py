"""(c) of every event: the referee's position against the event's ``after`` snapshot.

A disagreement is reported under the rule of the consequence that last changed the piece (the
``tags`` of the mutations), else under the rule the event's handler returned.
"""
from __future__ import annotations

from .components import BACKS, GONE, KINDS, N_BOATS, SUPPLY, is_int
from .failure import Fail
from .state import PositionState


class Snapshot(PositionState):
    """``compare(after, rule)`` and the words for where a piece is (mixin of ``Position``)."""

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
            h = self.boat_rows[at][0] if is_int(at) and 0 <= at < N_BOATS else None
            return f"in boat {at}" + (f" at {self.name(h)}" if h is not None and h >= 0 else "")
        if loc == "safe":
            return f"safe on {self.name(at)}"
        if loc == "lost":
            return "lost"
        return f"{loc} ({at})"

    def compare(self, after, default_rule: str):
        """(c) the referee's position against the event's ``after`` snapshot, part by part; a
        part that differs raises ``Fail`` under its piece's rule (``tags``) or
        ``default_rule``."""
        if not isinstance(after, dict):
            raise Fail("format", "event has no 'after' snapshot")
        self._compare_explorers(after, default_rule)
        self._compare_fates(after, default_rule)
        self._compare_boats(after, default_rule)
        self._compare_creatures(after, default_rule)
        self._compare_hands(after, default_rule)
        self._compare_protection(after, default_rule)
        self._compare_land(after, default_rule)

    def _compare_explorers(self, after: dict, default_rule: str) -> None:
        found = after.get("explorers")
        if found == self.ex_rows:
            return
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
                raise Fail(self.tags.get(("ex", e), default_rule),
                           f"explorer {e} (seat {self.ex_seat[e]}, value {self.ex_value[e]}): "
                           f"expected {exp}, found {got}")
        extra = set(fmap) - set(self.ex)
        if extra or len(found) != len(self.ex_rows):
            raise Fail("format", f"after.explorers lists unknown or repeated ids {sorted(extra)}")

    def _compare_fates(self, after: dict, default_rule: str) -> None:
        ffates = after.get("fates", {})
        if ffates == self.fates:
            return
        if not isinstance(ffates, dict):
            raise Fail("format", "after.fates is not an object")
        for k in sorted(set(ffates) | set(self.fates), key=lambda x: int(x)):
            if ffates.get(k) != self.fates.get(k):
                raise Fail(self.tags.get(("ex", int(k)), default_rule),
                           f"fate of explorer {k}: expected {self.fates.get(k) or 'not lost'}, "
                           f"found {ffates.get(k) or 'not lost'}")

    def _compare_boats(self, after: dict, default_rule: str) -> None:
        tag = self.tags.get
        fboats = after.get("boats")
        if fboats == self.boat_rows:
            return
        if not isinstance(fboats, list) or len(fboats) != N_BOATS:
            raise Fail("format", f"after.boats must have {N_BOATS} entries")
        for b, (h, ps) in enumerate(self.boat_rows):
            try:
                fh, fps = fboats[b][0], fboats[b][1]
            except (TypeError, IndexError):
                raise Fail("format", f"after.boats[{b}] is not [hex, passengers]")
            if fh != h:
                rule = "R5" if (h == SUPPLY and fh == GONE) else tag(("boat", b), default_rule)
                raise Fail(rule, f"boat {b}: expected {self._boat_where(h)}, "
                                 f"found {self._boat_where(fh)}")
            if sorted(fps) != sorted(ps):
                rule = tag(("boat", b), None) or next(
                    (tag(("ex", e)) for e in set(ps) ^ set(fps) if ("ex", e) in self.tags),
                    default_rule)
                raise Fail(rule, f"boat {b} passengers: expected {sorted(ps)}, "
                                 f"found {sorted(fps)}")

    def _compare_creatures(self, after: dict, default_rule: str) -> None:
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
                    rule = self.tags.get(("cr", kind, n)) or (
                        "R5" if (h == GONE and fh == SUPPLY) else default_rule)
                    raise Fail(rule, f"{kind} {n}: expected {self._cr_where(h)}, "
                                     f"found {self._cr_where(fh)}")
            if any(x != SUPPLY and x != GONE for x in theirs[len(mine):]):
                raise Fail("format", f"after.creatures.{kind} has more pieces than the box holds")

    def _compare_hands(self, after: dict, default_rule: str) -> None:
        fh = after.get("hands")
        if fh == self.hands:
            return
        if not isinstance(fh, list) or len(fh) != self.v.seats:
            raise Fail("format", f"after.hands must have one row per seat ({self.v.seats})")
        for s in range(self.v.seats):
            if fh[s] != self.hands[s]:
                diff = {BACKS[k]: (self.hands[s][k], (fh[s][k] if k < len(fh[s]) else None))
                        for k in range(len(BACKS))
                        if k >= len(fh[s]) or fh[s][k] != self.hands[s][k]}
                raise Fail(self.tags.get(("hand", s), default_rule),
                           f"seat {s} hand (expected, found): {diff}")

    def _compare_protection(self, after: dict, default_rule: str) -> None:
        """Dolphin protection (X5.5): swimmer -> dolphin."""
        fprot = after.get("protect", {})
        mine = {str(e): d for e, d in self.prot.items()}
        if fprot == mine:
            return
        if not isinstance(fprot, dict):
            raise Fail("format", "after.protect is not an object")
        for k in sorted(set(fprot) | set(mine), key=lambda x: int(x)):
            if fprot.get(k) != mine.get(k):
                raise Fail(self.tags.get(("prot", int(k)),
                                         default_rule if default_rule.startswith("X5")
                                         else "X5.5"),
                           f"protection of swimmer {k}: expected "
                           f"{'dolphin ' + str(mine[k]) if k in mine else 'none'}, found "
                           f"{'dolphin ' + str(fprot[k]) if k in fprot else 'none'}")

    def _compare_land(self, after: dict, default_rule: str) -> None:
        fland = after.get("land")
        if fland == self._land_list():
            return
        mine, theirs = set(self.land), set(fland or ())
        if mine != theirs or len(fland) != len(mine):
            gone, extra = sorted(mine - theirs), sorted(theirs - mine)
            h = (gone or extra or [None])[0]
            raise Fail(self.tags.get(("land", h), default_rule),
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
