"""What a run is played under: player count, seats, strategies, boat allocation, the
compensation levers (komi, setup order) and rule flags.

``Settings`` is validated once, in Python, so that the compiled core never sees bad input; every
problem raises ``SettingsError`` with one line that names the accepted values (the CLI turns it
into exit code 2). The command line's strings are parsed here too (``parse_strategies``,
``parse_boats``, ``parse_komi``, ``parse_setup_order``, ``parse_challenges``,
``Settings.from_options``), so that the rules of what is
accepted live in one place, and a run's settings go to and from a plain dict here alone
(``to_dict`` / ``from_dict``: the replay log and a sweep's manifest store them).
"""
from __future__ import annotations

import numbers
import re
from dataclasses import dataclass

import numpy as np

from simulator.scoring import TIEBREAKS
from strategies.api import PAR_W
from strategies.registry import (
    StrategyError,
    canonical,
    listed_names,
    param_row,
    parse_spec,
    split_specs,
)

from .layout import (
    ST_BOATS,
    ST_CHAIN,
    ST_CHALLENGES,
    ST_JOURNAL,
    ST_KOMI,
    ST_LAGOON_SEA,
    ST_MAX_TURNS,
    ST_MUST_MOVE,
    ST_ORDER,
    ST_PLAYERS,
    ST_SEATS,
    ST_SIDS,
    ST_SIZE,
    ST_SQUID,
)

SUPPORTED_PLAYERS = (2, 3, 4, 5, 6)
CHALLENGES = (1, 2, 3, 4, 5, 6)                          # X2.1-X2.4, X5 (= dolphins), X6
RULES_BOATS = {2: (2, 2, 2, 2), 3: (2, 2, 2), 4: (2, 2, 2, 2),     # B4.4, B4.5
               5: (1, 1, 2, 2, 2), 6: (1, 1, 1, 1, 2, 2)}          # X1.1, X1.2
MAX_TURNS = 2**31 - 1                    # R10: the engine keeps the turn cap in an int32
_NUMBER = re.compile(r"\s*[+-]?[0-9]+\s*")    # ASCII digits only: int() also reads '٢'
FLAGS = ("lagoon_is_sea", "creatures_must_move", "dolphins", "squid", "squid_only")
KOMI_LIMIT = 30                          # C1.1: a seat's bonus is -30 to +30 points, in halves
SETUP_ORDERS = ("forward", "reverse", "snake")                      # C2.1


class SettingsError(ValueError):
    """Bad input: the message is one line naming the problem and the accepted values.

    ``param`` names the command-line option at fault when one is (e.g. ``--boats``)."""

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


def _is_int(value) -> bool:
    """A whole number of an integer type (Python's or numpy's), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_flag(value) -> bool:
    """True or False (Python's or numpy's bool, or the integers 0 and 1)."""
    return isinstance(value, (bool, np.bool_)) or (_is_int(value) and value in (0, 1))


def is_bonus(value) -> bool:
    """A number of points whole or half, -``KOMI_LIMIT`` to ``KOMI_LIMIT`` (C1.1)."""
    return (isinstance(value, numbers.Real) and not isinstance(value, bool)
            and np.isfinite(value) and abs(value) <= KOMI_LIMIT and float(2 * value).is_integer())


def _shown(value) -> str:
    """A bonus as the user wrote it (``0.5``, ``1``), or its repr when it is not a number."""
    return f"{value:g}" if is_bonus(value) or isinstance(value, float) else repr(value)


def seats_for(players: int) -> int:
    """B4.5: two players sit as four seats A,B,A,B; otherwise one seat per player."""
    return 4 if players == 2 else players


# ---------------------------------------------------------------------------- strings
def canonical_strategy(spec: str) -> str:
    """A seat's ``name[:key=value,...]`` in the registry's one spelling (``strategies.registry``);
    an unknown name or parameter is a ``SettingsError`` that lists what exists."""
    try:
        return canonical(spec)
    except StrategyError as e:
        raise SettingsError(str(e), "--strategies") from None


def parse_strategies(text: str) -> tuple[str, ...]:
    """``"greedy:risk=2,greed=0.5,random"`` -> ``("greedy:risk=2,greed=0.5", "random")``: one
    strategy per seat (or per player, or one), each checked against the registry."""
    if not text.strip():
        raise SettingsError(f"no strategy given; accepted: {', '.join(listed_names())} (one "
                            f"name for every seat, or a comma-separated list)", "--strategies")
    return tuple(canonical_strategy(part) for part in split_specs(text))


def parse_boats(text: str) -> tuple[int, ...]:
    """``rules`` -> ``()`` (the rules' allocation); else one integer per seat (checked by
    ``Settings`` against the seat count)."""
    if text.strip() == "rules":
        return ()
    parts = text.split(",")
    if not all(_NUMBER.fullmatch(part) and len(part.strip()) < 20 for part in parts):
        raise SettingsError(f"boats must be `rules` or comma-separated numbers 0-3 (one per "
                            f"seat, at most 12 in all), got {text!r}", "--boats")
    return tuple(int(part) for part in parts)


def parse_komi(text: str) -> tuple[float, ...]:
    """C1.1: ``none`` (or ``0``) -> ``()``; else one number per seat in points, whole or half
    (``0,0,0.5,1,1.5``), checked by ``Settings`` against the seat count."""
    if text.strip() in ("none", "0", ""):
        return ()
    out = []
    for part in text.split(","):
        part = part.strip()
        if not (re.fullmatch(r"[+-]?[0-9]{1,2}(\.[05]0*)?", part)
                and abs(float(part)) <= KOMI_LIMIT):
            raise SettingsError(f"komi must be `none` or comma-separated bonuses in points, "
                                f"whole or half, -{KOMI_LIMIT} to {KOMI_LIMIT} (one per seat, "
                                f"e.g. 0,0,0.5,1,1.5), got {text!r}", "--komi")
        out.append(float(part))
    return tuple(out)


def parse_setup_order(text: str) -> tuple[str, str]:
    """C2.1: ``snake`` -> ``("snake", "snake")`` (explorers and boats alike);
    ``explorers=reverse,boats=snake`` or ``explorers=reverse`` (the other phase ``forward``)."""
    text = text.strip()
    accepted = (f"accepted: {', '.join(SETUP_ORDERS)} for both phases, or "
                f"explorers=ORDER,boats=ORDER (either alone)")
    if text in SETUP_ORDERS:
        return (text, text)
    order = {"explorers": "forward", "boats": "forward"}
    parts = [p.strip() for p in text.split(",")]
    seen = set()
    for part in parts:
        phase, eq, value = part.partition("=")
        phase, value = phase.strip(), value.strip()
        if not eq or phase not in order or value not in SETUP_ORDERS or phase in seen:
            raise SettingsError(f"bad setup order {text!r}; {accepted}", "--setup-order")
        seen.add(phase)
        order[phase] = value
    return (order["explorers"], order["boats"])


def parse_challenges(text: str) -> tuple[int, ...]:
    """``"1,3"`` -> ``(1, 3)``; ``""`` -> no challenge."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        # ASCII digits only: '²'.isdigit() holds, and int('²') raises
        if not (part.isascii() and part.isdigit() and len(part) < 3) or \
                int(part) not in CHALLENGES:
            raise SettingsError(f"unknown challenge {part!r}; accepted: "
                                f"{', '.join(map(str, CHALLENGES))} (comma-separated)",
                                "--challenge")
        out.append(int(part))
    return tuple(out)


def parse_player_counts(text: str) -> tuple[int, ...]:
    """``"2,4,6"`` -> ``(2, 4, 6)`` (bench's list of player counts)."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if part not in tuple(map(str, SUPPORTED_PLAYERS)):
            raise SettingsError(f"player counts must be a comma-separated list of "
                                f"{', '.join(map(str, SUPPORTED_PLAYERS))}; got {part!r}",
                                "--players")
        out.append(int(part))
    return tuple(out)


# ---------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class Settings:
    players: int = 4
    strategies: tuple[str, ...] = ()          # one per seat (or per player, or one); () = random
    boats: tuple[int, ...] = ()               # per seat; empty = the rules' allocation
    lagoon_is_sea: bool = True                # R1
    creatures_must_move: bool = False         # R2 / R21
    max_turns: int = 400                      # R10
    tiebreak: str = ""                        # B7.3 / X1.6; empty = chain for 5-6, else shared
    challenges: tuple[int, ...] = ()          # X2-X4 Challenges 1-4, X5 Challenge 5, X6
    dolphins: bool = False                    # X5 Dolphins & Dive Dice (= Challenge 5)
    squid: bool = False                       # X7 the Giant Squid
    squid_only: bool = False                  # X7.6 squid instead of whales (needs squid)
    komi: tuple[float, ...] = ()              # C1: score bonus per seat in points; () = none
    setup_order: tuple[str, str] = ("forward", "forward")    # C2: explorers' (B4.3), boats'

    def __post_init__(self):
        if not _is_int(self.players) or self.players not in SUPPORTED_PLAYERS:
            raise SettingsError(f"players must be one of {', '.join(map(str, SUPPORTED_PLAYERS))}, "
                                f"got {self.players}", "--players")
        n = seats_for(self.players)
        for name, param in (("strategies", "--strategies"), ("boats", "--boats"),
                            ("challenges", "--challenge"), ("komi", "--komi"),
                            ("setup_order", "--setup-order")):
            value = getattr(self, name)
            if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
                raise SettingsError(f"{name} must be a list, got {value!r}", param)
            object.__setattr__(self, name, tuple(value))
        if not all(isinstance(s, str) for s in self.strategies):
            raise SettingsError(f"strategies must be names (strings), got "
                                f"{list(self.strategies)!r}", "--strategies")
        # name a bad strategy before counting them
        strategies = tuple(canonical_strategy(s) for s in self.strategies) or ("random",)
        if len(strategies) == 1 or (self.players == 2 and len(strategies) == 2):
            strategies = strategies * (n // len(strategies))    # 2 players: A,B -> A,B,A,B
        if len(strategies) != n:
            counts = "1, 2 or 4" if self.players == 2 else f"1 or {n}"
            raise SettingsError(f"--strategies needs {counts} comma-separated names for "
                                f"{self.players} players ({n} seats), got {len(strategies)}",
                                "--strategies")
        object.__setattr__(self, "players", int(self.players))
        object.__setattr__(self, "strategies", strategies)
        for name in FLAGS:
            value = getattr(self, name)
            if not _is_flag(value):
                raise SettingsError(f"{name} must be true or false, got {value!r}",
                                    f"--{name.replace('_', '-')}")
            object.__setattr__(self, name, bool(value))
        for c in self.challenges:
            if not _is_int(c) or c not in CHALLENGES:
                raise SettingsError(f"unknown challenge {c!r}; accepted: "
                                    f"{', '.join(map(str, CHALLENGES))}", "--challenge")
        challenges = tuple(sorted({int(c) for c in self.challenges}
                                  | ({5} if self.dolphins else set())))
        for c in challenges:
            if c not in CHALLENGES:
                raise SettingsError(f"unknown challenge {c!r}; accepted: "
                                    f"{', '.join(map(str, CHALLENGES))}", "--challenge")
        if 6 in challenges and self.players < 5:
            raise SettingsError(f"challenge 6 (Overpopulated) needs 5 or 6 players, got "
                                f"{self.players}")
        object.__setattr__(self, "challenges", challenges)
        object.__setattr__(self, "dolphins", 5 in challenges)
        if self.squid_only and not self.squid:
            raise SettingsError("--squid-only (X7.6: squid instead of whales) needs --squid")
        # X6.1: with Challenge 6 everyone keeps 10 explorers and gets 2 boats
        boats = tuple(self.boats) or ((2,) * n if 6 in challenges else RULES_BOATS[self.players])
        if (len(boats) != n or any(not _is_int(b) or not 0 <= b <= 3 for b in boats)
                or sum(boats) > 12):
            raise SettingsError(f"boats must be {n} numbers of 0-3 (one per seat, at most 12 "
                                f"in all), got {','.join(map(str, boats))}", "--boats")
        object.__setattr__(self, "boats", tuple(int(b) for b in boats))
        if not _is_int(self.max_turns) or not 1 <= self.max_turns <= MAX_TURNS:
            raise SettingsError(f"max_turns (R10, the turn cap in seat-turns) must be a whole "
                                f"number 1 to {MAX_TURNS} (2**31-1, the engine's int32), got "
                                f"{self.max_turns!r}", "--max-turns")
        object.__setattr__(self, "max_turns", int(self.max_turns))
        tiebreak = self.tiebreak or ("chain" if self.players >= 5 else "shared")
        if not isinstance(tiebreak, str) or tiebreak not in TIEBREAKS:
            raise SettingsError(f"tiebreak must be one of {', '.join(TIEBREAKS)}, got {tiebreak!r}",
                                "--tiebreak")
        object.__setattr__(self, "tiebreak", tiebreak)
        komi = tuple(self.komi)
        if komi and (len(komi) != n or not all(is_bonus(k) for k in komi)):
            raise SettingsError(f"komi must be {n} bonuses in points, whole or half, "
                                f"-{KOMI_LIMIT} to {KOMI_LIMIT} (one per seat), got "
                                f"{','.join(_shown(k) for k in komi)}", "--komi")
        komi = tuple(float(k) for k in komi)
        object.__setattr__(self, "komi", komi if any(komi) else ())   # all zero = none
        order = tuple(self.setup_order)
        if len(order) != 2 or not all(isinstance(o, str) and o in SETUP_ORDERS for o in order):
            raise SettingsError(f"setup_order must be two of {', '.join(SETUP_ORDERS)} "
                                f"(explorers', boats'), got {list(order)!r}", "--setup-order")
        object.__setattr__(self, "setup_order", order)

    @classmethod
    def from_options(cls, players: int, strategies: str = "random", boats: str = "rules",
                     challenges: str = "", komi: str = "none", setup_order: str = "forward",
                     **flags) -> Settings:
        """Settings from the command line's strings (``--strategies greedy,random``,
        ``--boats 2,2,1``, ``--challenge 1,3``) and its flags (the other fields, by name;
        ``tiebreak=None`` means the rules' default)."""
        flags["tiebreak"] = flags.get("tiebreak") or ""
        return cls(players=players, strategies=parse_strategies(strategies),
                   boats=parse_boats(boats), challenges=parse_challenges(challenges),
                   komi=parse_komi(komi), setup_order=parse_setup_order(setup_order), **flags)

    @property
    def seats(self) -> int:
        return seats_for(self.players)

    @property
    def player_of_seat(self) -> tuple[int, ...]:
        return tuple(s % self.players for s in range(self.seats))

    @property
    def komi_halves(self) -> tuple[int, ...]:
        """C1: each seat's bonus in half points (zeros with no komi): what the engine adds."""
        return tuple(int(round(2 * k)) for k in self.komi) or (0,) * self.seats

    @property
    def player_komi_halves(self) -> tuple[int, ...]:
        """C1.1: each player's bonus in half points (2 players: the sum over its colours)."""
        halves = self.komi_halves
        return tuple(sum(halves[s] for s in range(self.seats) if self.player_of_seat[s] == p)
                     for p in range(self.players))

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
        """The integer the compiled switch tests, per seat (``registry.PLUGIN_CODE`` for a
        plug-in seat, which the engine calls through ``strategy_functions``)."""
        # strategies.dispatch loads numba and every strategy: +0.6-0.8 s measured on importing
        # this module, which readers of tables and sweep specs that never play would pay
        from strategies.dispatch import strategy_code
        return tuple(strategy_code(s) for s in self.strategies)

    @property
    def strategy_params(self):
        """(6 x ``PAR_W``) float64: each seat's parameters, defaults filled in (zeros for
        absent seats)."""
        par = np.zeros((6, PAR_W), np.float64)
        for seat, spec in enumerate(self.strategies):
            par[seat] = param_row(spec)
        return par

    @property
    def strategy_functions(self) -> tuple:
        """The six first-class functions the engine takes (plug-in seats; see
        ``strategies.dispatch.seat_functions``)."""
        from strategies.dispatch import seat_functions  # numba: see ``strategy_ids``
        fns = list(seat_functions(self.strategies))
        for seat, spec in enumerate(self.strategies):
            if parse_spec(spec)[0].reenters:
                from .search import seat_function     # compiles the search only when it plays
                fns[seat] = seat_function(spec)
        return tuple(fns)

    @property
    def policy_seats(self) -> tuple[int, ...]:
        """The seats a plug-in's Python ``POLICY`` plays: their games play through
        ``play.stepper`` (``play.policy_games``), not the compiled engine."""
        return tuple(seat for seat, spec in enumerate(self.strategies)
                     if parse_spec(spec)[0].policy is not None)

    @property
    def journal(self) -> bool:
        """A seat re-enters the game (``search``): the engine keeps the journal
        (``play.journal``)."""
        return any(parse_spec(spec)[0].reenters for spec in self.strategies)

    # ------------------------------------------------------------------------ plain dicts
    def as_dict(self) -> dict:
        """The settings without the strategies (the replay log's ``settings``; its keys are
        part of the log format, docs/replay-log.md). ``komi`` and ``setup_order`` (C1, C2) are
        there only when they differ from the rules, so that every earlier run keeps its
        identity and every earlier log its bytes."""
        levers = {**({"komi": list(self.komi)} if self.komi else {}),
                  **({"setup_order": list(self.setup_order)}
                     if self.setup_order != ("forward", "forward") else {})}
        return {"players": self.players, "seats": self.seats,
                "player_of_seat": list(self.player_of_seat),
                "boats_per_seat": list(self.boats), "lagoon_is_sea": self.lagoon_is_sea,
                "creatures_must_move": self.creatures_must_move, "max_turns": self.max_turns,
                "tiebreak": self.tiebreak, "challenges": list(self.challenges),
                "dolphins": self.dolphins, "squid": self.squid, "squid_only": self.squid_only,
                **levers}

    def to_dict(self) -> dict:
        """``as_dict()`` plus ``strategies`` (one per seat): everything ``from_dict`` needs."""
        return {**self.as_dict(), "strategies": list(self.strategies)}

    @classmethod
    def from_dict(cls, d: dict, strategies=None) -> Settings:
        """The ``Settings`` that ``to_dict`` (or ``as_dict`` plus ``strategies``) describes.

        The derived keys (``seats``, ``player_of_seat``) must agree with the player count;
        unknown keys are refused, so a misspelt key cannot pass for a default."""
        d = dict(d)
        if strategies is None:
            strategies = d.pop("strategies", ())
        else:
            d.pop("strategies", None)
        unknown = sorted(set(d) - _DICT_KEYS)
        if unknown:
            raise SettingsError(f"unknown settings key {unknown[0]!r}; accepted: "
                                f"{', '.join(sorted(_DICT_KEYS | {'strategies'}))}")
        if "players" not in d:
            raise SettingsError("settings need `players`")
        derived = {k: d.pop(k) for k in ("seats", "player_of_seat") if k in d}
        fields = {_FIELD_OF_KEY.get(k, k): tuple(v) if isinstance(v, list) else v
                  for k, v in d.items()}
        s = cls(strategies=tuple(strategies), **fields)
        for key, value in derived.items():
            if (list(value) if isinstance(value, (list, tuple)) else value) != s.as_dict()[key]:
                raise SettingsError(f"settings say {key} {value!r}, but {s.players} players "
                                    f"have {key} {s.as_dict()[key]!r}")
        return s


_FIELD_OF_KEY = {"boats_per_seat": "boats"}
_DICT_KEYS = set(Settings(players=4).as_dict()) | {"komi", "setup_order"}


def settings_vector(s: Settings) -> np.ndarray:
    """The int64 settings vector the compiled core reads (``layout.ST_*``)."""
    st = np.zeros(ST_SIZE, np.int64)
    st[ST_PLAYERS] = s.players
    st[ST_SEATS] = s.seats
    st[ST_LAGOON_SEA] = int(s.lagoon_is_sea)
    st[ST_MUST_MOVE] = int(s.creatures_must_move)
    st[ST_MAX_TURNS] = s.max_turns
    st[ST_CHALLENGES] = s.challenge_bits
    st[ST_SQUID] = s.squid_mode
    st[ST_BOATS:ST_BOATS + s.seats] = s.boats
    st[ST_SIDS:ST_SIDS + s.seats] = s.strategy_ids
    st[ST_JOURNAL] = int(s.journal)
    st[ST_CHAIN] = int(s.tiebreak == "chain")
    st[ST_ORDER:ST_ORDER + 2] = [SETUP_ORDERS.index(o) for o in s.setup_order]   # C2.1
    st[ST_KOMI:ST_KOMI + s.seats] = s.komi_halves                                  # C1.1
    return st
