"""The rules in force, read from the log's ``settings`` (B4.5, X1, X2-X7, R1, R2/R21, R10, and
the compensation levers C1 komi and C2 setup order).

A setting the referee does not implement is refused (rule ``X``) instead of being checked as if
it were the base game.
"""
from __future__ import annotations

from dataclasses import dataclass

from .components import (
    BASE_KINDS,
    KINDS,
    N_BOATS,
    REMOVED_VALUES,
    RULES_BOATS,
    SLOT_VALUES,
    TIEBREAKS,
    is_int,
)
from .failure import Fail

_KNOWN_SETTINGS = {"players", "seats", "player_of_seat", "boats_per_seat", "lagoon_is_sea",
                   "creatures_must_move", "max_turns", "tiebreak", "challenges", "dolphins",
                   "squid", "squid_only", "komi", "setup_order"}
SETUP_ORDERS = ("forward", "reverse", "snake")  # C2.1
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
    komi: tuple[float, ...] = ()        # C1.1: score bonus per seat in points; () none
    setup_order: tuple[str, str] = ("forward", "forward")   # C2.1: explorers', boats'

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
        if len(boats) != seats or any(not is_int(b) or not 0 <= b <= 3 for b in boats) \
                or sum(boats) > N_BOATS:
            raise Fail("X1.5", f"boats_per_seat must be {seats} numbers 0-3 totalling at most "
                               f"{N_BOATS}, found {list(boats)}")
        max_turns = s.get("max_turns", 400)
        if not is_int(max_turns) or max_turns < 1:
            raise Fail("R10", f"max_turns must be a positive integer, found {max_turns!r}")
        challenges = s.get("challenges") or []
        if not isinstance(challenges, list) or any(not is_int(c) for c in challenges):
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
        komi = s.get("komi") or []
        if not isinstance(komi, list) or (komi and len(komi) != seats) or any(
                isinstance(k, bool) or not isinstance(k, (int, float)) or abs(k) > 30
                or (2 * k) != int(2 * k) for k in komi):
            raise Fail("C1.1", f"komi must be {seats} bonuses in whole or half points, -30 to "
                               f"30, found {komi!r}")
        order = s.get("setup_order") or ["forward", "forward"]
        if not isinstance(order, list) or len(order) != 2 or any(o not in SETUP_ORDERS
                                                                  for o in order):
            raise Fail("C2.1", f"setup_order must be two of {', '.join(SETUP_ORDERS)}, found "
                               f"{order!r}")
        return cls(players=players, seats=seats, player_of_seat=pos, boats_per_seat=boats,
                   lagoon_is_sea=bool(s.get("lagoon_is_sea", True)),
                   creatures_must_move=bool(s.get("creatures_must_move", False)),
                   max_turns=max_turns, tiebreak=tiebreak,
                   challenges=tuple(sorted(set(challenges))), squid=squid,
                   squid_only=squid_only, kinds_in_play=kinds,
                   komi=tuple(float(k) for k in komi), setup_order=tuple(order))
