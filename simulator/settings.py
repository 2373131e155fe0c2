"""What a run is played under: player count, seats, strategies, boat allocation and rule flags.

``Settings`` is validated once, in Python, so that the compiled core never sees bad input; every
problem raises ``SettingsError`` with one line that names the accepted values (the CLI turns it
into exit code 2).
"""
from __future__ import annotations

from dataclasses import dataclass

from strategies import STRATEGY_CODES

from .scoring import TIEBREAKS

SUPPORTED_PLAYERS = (2, 3, 4, 5, 6)
CHALLENGES = (1, 2, 3, 4, 5, 6)                          # X2.1-X2.4, X5 (= dolphins), X6
RULES_BOATS = {2: (2, 2, 2, 2), 3: (2, 2, 2), 4: (2, 2, 2, 2),     # B4.4, B4.5
               5: (1, 1, 2, 2, 2), 6: (1, 1, 1, 1, 2, 2)}          # X1.1, X1.2


class SettingsError(ValueError):
    """Bad input: the message is one line naming the problem and the accepted values."""


def seats_for(players: int) -> int:
    """B4.5: two players sit as four seats A,B,A,B; otherwise one seat per player."""
    return 4 if players == 2 else players


@dataclass(frozen=True)
class Settings:
    players: int = 4
    strategies: tuple[str, ...] = ()          # one code per seat; empty = "random" everywhere
    boats: tuple[int, ...] = ()               # per seat; empty = the rules' allocation
    lagoon_is_sea: bool = True                # R1
    creatures_must_move: bool = False         # R2 / R21
    max_turns: int = 400                      # R10
    tiebreak: str = ""                        # B7.3 / X1.6; empty = chain for 5-6, else shared
    challenges: tuple[int, ...] = ()          # X2-X4 Challenges 1-4, X5 Challenge 5, X6
    dolphins: bool = False                    # X5 Dolphins & Dive Dice (= Challenge 5)
    squid: bool = False                       # X7 the Giant Squid
    squid_only: bool = False                  # X7.6 squid instead of whales (needs squid)

    def __post_init__(self):
        if self.players not in SUPPORTED_PLAYERS:
            raise SettingsError(f"players must be one of {', '.join(map(str, SUPPORTED_PLAYERS))}, "
                                f"got {self.players}")
        n = seats_for(self.players)
        strategies = tuple(self.strategies) or ("random",) * n
        if len(strategies) == 1 and n > 1:
            strategies = strategies * n
        if len(strategies) != n:
            raise SettingsError(f"--strategies needs 1 or {n} comma-separated names for "
                                f"{self.players} players ({n} seats), got {len(strategies)}")
        for s in strategies:
            if s not in STRATEGY_CODES:
                raise SettingsError(f"unknown strategy {s!r}; accepted: "
                                    f"{', '.join(STRATEGY_CODES)}")
        object.__setattr__(self, "strategies", strategies)
        challenges = tuple(sorted(set(self.challenges) | ({5} if self.dolphins else set())))
        for c in challenges:
            if c not in CHALLENGES:
                raise SettingsError(f"unknown challenge {c!r}; accepted: "
                                    f"{', '.join(map(str, CHALLENGES))}")
        if 6 in challenges and self.players < 5:
            raise SettingsError(f"challenge 6 (Overpopulated) needs 5 or 6 players, got "
                                f"{self.players}")
        object.__setattr__(self, "challenges", challenges)
        object.__setattr__(self, "dolphins", 5 in challenges)
        if self.squid_only and not self.squid:
            raise SettingsError("--squid-only (X7.6: squid instead of whales) needs --squid")
        # X6.1: with Challenge 6 everyone keeps 10 explorers and gets 2 boats
        boats = tuple(self.boats) or ((2,) * n if 6 in challenges else RULES_BOATS[self.players])
        if len(boats) != n or any(not 0 <= b <= 3 for b in boats) or sum(boats) > 12:
            raise SettingsError(f"boats must be {n} numbers of 0-3 (one per seat, at most 12 "
                                f"in all), got {','.join(map(str, boats))}")
        object.__setattr__(self, "boats", boats)
        if self.max_turns < 1:
            raise SettingsError(f"max_turns must be a positive number, got {self.max_turns}")
        tiebreak = self.tiebreak or ("chain" if self.players >= 5 else "shared")
        if tiebreak not in TIEBREAKS:
            raise SettingsError(f"tiebreak must be one of {', '.join(TIEBREAKS)}, got {tiebreak!r}")
        object.__setattr__(self, "tiebreak", tiebreak)

    @property
    def seats(self) -> int:
        return seats_for(self.players)

    @property
    def player_of_seat(self) -> tuple[int, ...]:
        return tuple(s % self.players for s in range(self.seats))

    @property
    def challenge_bits(self) -> int:
        """The ``CH_*`` bits of ``simulator.state`` (bit ``c - 1`` for Challenge ``c``)."""
        return sum(1 << (c - 1) for c in self.challenges)

    @property
    def squid_mode(self) -> int:
        """0 no squid, 1 the Giant Squid (X7), 2 squid instead of whales (X7.6)."""
        return 2 if self.squid_only else int(self.squid)

    @property
    def strategy_ids(self) -> tuple[int, ...]:
        return tuple(STRATEGY_CODES[s] for s in self.strategies)

    def as_dict(self) -> dict:
        return {"players": self.players, "seats": self.seats,
                "player_of_seat": list(self.player_of_seat),
                "boats_per_seat": list(self.boats), "lagoon_is_sea": self.lagoon_is_sea,
                "creatures_must_move": self.creatures_must_move, "max_turns": self.max_turns,
                "tiebreak": self.tiebreak, "challenges": list(self.challenges),
                "dolphins": self.dolphins, "squid": self.squid, "squid_only": self.squid_only}
