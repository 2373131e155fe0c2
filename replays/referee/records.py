"""The end of the log and the per-game record (B7, R18, X1.6): the referee's own final tallies,
scores and tie-break step, and the check of the log's ``record`` against them."""
from __future__ import annotations

import math

from .components import BACKS, CAUSES, MAX_SEATS
from .failure import Fail
from .state import PositionState


class Records(PositionState):
    """``finish``, ``expected_record`` and ``decided_by`` (mixin of ``Position``)."""

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
        if self.v.komi:                                   # C1.3: only when a bonus is set
            for s in range(self.v.seats):
                rec[f"komi_{s}"] = self.v.komi[s]
        if self.v.setup_order != ("forward", "forward"):   # C2.1: likewise
            rec["setup_order_explorers"], rec["setup_order_boats"] = self.v.setup_order
        rec["tiebreak"] = self.v.tiebreak
        rec["decided_by"] = self.decided_by(rec)
        return rec

    def decided_by(self, rec: dict) -> str:
        """B7.3 / X1.6: the step that decides the winner. Players' keys are the sums over their
        seats (B4.5). ``score`` when one player has the top score plus bonus (C1.2); under
        the chain (a) most explorers rescued, (b) highest value rescued (only with Challenge
        3), (c) fewest turns taken; ``shared`` when a tie stands."""
        players = range(self.v.players)

        def total(name, p):
            return sum(rec[f"{name}_{s}"] for s in range(self.v.seats)
                       if self.v.player_of_seat[s] == p)

        def points(p):                                    # C1.2: score plus bonus
            return total("score", p) + sum(self.v.komi[s] for s in range(self.v.seats)
                                           if self.v.komi and self.v.player_of_seat[s] == p)

        top = max(points(p) for p in players)
        alive = [p for p in players if points(p) == top]
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
    if col.startswith("komi_"):
        return "C1.3"
    if col.startswith("setup_order_"):
        return "C2.1"
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


def check_record(log: dict, pos: Records):
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
    for col, val in rec.items():          # a lever the record shows but the settings do not
        if col.startswith(("komi_", "setup_order_")) and col not in want and not _is_null(val):
            raise Fail(_record_rule(col), f"record: {col} is {val!r}, but the settings set no "
                                          f"{'komi' if col.startswith('komi') else 'setup order'}")
    for s in range(pos.v.seats, MAX_SEATS):
        for c in _SEAT_COLS:
            col = f"{c}_{s}"
            if col in rec and not _is_null(rec[col]):
                raise Fail("format", f"record: {col} should be null (no seat {s}), found {rec[col]!r}", s)
