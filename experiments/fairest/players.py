"""What plays a candidate's games: the engine (``EnginePlayer``) or, for the tests, a synthetic
table whose truth is known (``SyntheticPlayer``). Both hand back one block of whole numbers per
call (``Block``), which a ``race.Tally`` adds up.

A style is a line-up: one strategy (self-play) or several rotated round the table, every
rotation playing every index (``experiments.tables.rotations``), the boats staying with the seats.
Game ``g`` of every candidate and rotation is engine game ``g`` of the same root seed, so the
candidates of one search share tiles, dice and noise game by game.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import play.simulate as PS          # module attributes: the tests patch them
from play.layout import R_SEAT0, REC_GAME, REC_SEAT
from play.settings import Settings, seats_for
from simulator.scoring import decide

from ..komi.screen import komi_blind
from ..tables.games import explorers_per_colour
from ..tables.rotations import base_seating, rotations
from .race import SCALE
from .space import Rule

_WIDTH = len(REC_SEAT)
_TURNS = REC_GAME.index("turns")


@dataclass(frozen=True)
class Style:
    """A style of play: ``lineup`` of one strategy (self-play) or several, rotated;
    ``max_games``: its race's own cap of games per allocation (a slow style's), else the
    search's. ``race`` False: a style too slow to race a space (the search rung) plays only
    the confirmation, of what the racing styles found (``run.confirm_list``), ``max_games``
    then capping its fresh games per candidate."""
    lineup: tuple[str, ...]
    max_games: int | None = None
    race: bool = True

    @property
    def mixed(self) -> bool:
        return len(self.lineup) > 1

    @property
    def label(self) -> str:
        if not self.mixed:
            return f"{self.lineup[0]} self-play"
        return "mixed, every seat in turn: " + ", ".join(self.lineup)

    @property
    def komi_blind(self) -> bool:
        """Every strategy of the line-up plays the same moves whatever the bonus (RULES.md
        C1.3): a rule space's bonuses then cost it no games."""
        return komi_blind(self.lineup)

    @property
    def key(self) -> str:
        """A short file-name-safe key: ``greedy``, ``mixed-greedy-careful-racer``."""
        raw = self.lineup[0] if not self.mixed else "mixed-" + "-".join(self.lineup)
        return "".join(ch if ch.isalnum() or ch in "-_.=" else "_" for ch in raw)

    def seatings(self, players: int) -> list[tuple[str, ...]]:
        seats = seats_for(players)
        if not self.mixed:
            return [(self.lineup[0],) * seats]
        if players == 2:                     # A,B,A,B: the two players' strategies, swapped
            a, b = self.lineup[:2]
            return [(a, b, a, b), (b, a, b, a)]
        return rotations(base_seating(self.lineup, seats))


@dataclass
class Block:
    """One block of game indices: ``y`` (indices, players) the tie-split win shares in 60ths
    summed over the rotations, ``length`` and ``rescued`` summed over the rotations."""
    y: np.ndarray
    length: np.ndarray
    rescued: np.ndarray
    played: int | None = None      # games the engine ran for it (None: one per index and
    #                                rotation; fewer where a komi-blind style reused its games)


def block_of_records(rows: np.ndarray, settings: Settings) -> Block:
    """A block from the engine's records of one seating: each game's winners under the
    settings' tie-break (B7.3 / X1.6), shared 60/k each; turns; explorers rescued."""
    seats, players = settings.seats, settings.players
    owner = settings.player_of_seat
    keys = []
    for name in ("score", "rescued", "rescued_value", "turns"):
        i = REC_SEAT.index(name)
        cols = rows[:, R_SEAT0 + i:R_SEAT0 + seats * _WIDTH:_WIDTH].astype(np.int64)
        keys.append(np.column_stack([cols[:, [s for s in range(seats) if owner[s] == p]]
                                     .sum(axis=1) for p in range(players)]))
    win, _ = decide(*keys, rule=settings.tiebreak, equal=3 in settings.challenges,
                    komi=settings.player_komi_halves)
    k = win.sum(axis=1, keepdims=True)
    y = win.astype(np.int64) * (SCALE // np.maximum(k, 1))
    return Block(y, rows[:, _TURNS].astype(np.int64), keys[1].sum(axis=1))


def as_rule(candidate) -> Rule:
    """A candidate as a ``Rule``: a boat list (a boat search's candidate) or a ``Rule``."""
    return candidate if isinstance(candidate, Rule) else Rule(tuple(candidate))


class EnginePlayer:
    """Plays a style's games for any allocation, or any rule (boats, komi, setup order), with
    the compiled engine. A komi-blind style (RULES.md C1.3) plays a rule's games once without
    the bonus and counts them with each bonus asked for (``experiments.komi``: the games are
    the same move for move), so the komi side of a rule space costs no games."""

    def __init__(self, players: int, style: Style, seed: int, *, tiebreak: str = "",
                 challenges: tuple[int, ...] = (), threads: int | None = None):
        self.players, self.style, self.seed = players, style, seed
        self.tiebreak, self.challenges, self.threads = tiebreak, tuple(challenges), threads
        self.seatings = style.seatings(players)
        count, _ = explorers_per_colour(players, self.challenges)
        self.explorers = seats_for(players) * count      # explorers in play per game
        self.blind = style.komi_blind
        self._rows: dict = {}                            # the last block's records, per game
        self._block = None                               # (first, count) they are of
        self._played = 0                                 # games the engine ran

    @property
    def rotations(self) -> int:
        return len(self.seatings)

    def settings(self, candidate, seating: tuple[str, ...]) -> Settings:
        rule = as_rule(candidate)
        return Settings(players=self.players, strategies=seating, boats=rule.boats,
                        tiebreak=self.tiebreak, challenges=self.challenges, komi=rule.komi,
                        setup_order=rule.order)

    def _records(self, rule: Rule, seating, first: int, count: int) -> np.ndarray:
        """The engine's records of ``rule``'s games in ``seating``; for a komi-blind style,
        those of the rule without its bonus, played once per block and kept for the block's
        other bonuses."""
        if self._block != (first, count, rule.boats):     # a rule space lists a boat
            self._rows, self._block = {}, (first, count, rule.boats)  # list's rules together
        key = (rule.boats, rule.order, seating)
        if not self.blind or key not in self._rows:
            plain = Rule(rule.boats, (), rule.order) if self.blind else rule
            self._played += count
            rows = PS.run_records(self.settings(plain, seating), self.seed, first, count)
            if not self.blind:
                return rows
            self._rows[key] = rows
        return self._rows[key]

    def play(self, candidate, first: int, count: int) -> Block:
        """Games ``first .. first + count - 1`` of ``candidate`` (a boat list or a ``Rule``)
        in every seating."""
        rule = as_rule(candidate)
        total, before = None, self._played
        with PS.numba_threads(self.threads):
            for seating in self.seatings:
                st = self.settings(rule, seating)
                b = block_of_records(self._records(rule, seating, first, count), st)
                if total is None:
                    total = b
                else:
                    total = Block(total.y + b.y, total.length + b.length,
                                  total.rescued + b.rescued)
        total.played = self._played - before
        return total


class SyntheticPlayer:
    """A table whose truth is known, for the tests: allocation ``c`` wins for player ``p`` with
    probability ``truth[c][p]``. Game ``g`` draws one uniform number from (seed, g) -- the same
    for every allocation, as common random numbers -- and the winner is where it falls in the
    allocation's cumulative shares; no game is shared."""

    rotations = 1

    def __init__(self, truth: dict[tuple[int, ...], list[float]], seed: int = 0,
                 explorers: int = 40):
        self.truth, self.seed, self.explorers = truth, seed, explorers
        self.players = len(next(iter(truth.values())))

    def uniforms(self, first: int, count: int) -> np.ndarray:
        g = np.arange(first, first + count, dtype=np.uint64)
        mix = np.uint64((self.seed * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF)
        x = g * np.uint64(0x9E3779B97F4A7C15) + mix
        for shift, mult in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):   # splitmix64
            x = (x ^ (x >> np.uint64(shift))) * np.uint64(mult)
        x = x ^ (x >> np.uint64(31))
        return (x >> np.uint64(11)).astype(np.float64) / float(1 << 53)

    def play(self, boats: tuple[int, ...], first: int, count: int) -> Block:
        u = self.uniforms(first, count)
        edges = np.cumsum(self.truth[boats])
        winner = np.minimum(np.searchsorted(edges, u, side="right"), self.players - 1)
        y = np.zeros((count, self.players), np.int64)
        y[np.arange(count), winner] = SCALE
        length = 30 + (u * 10).astype(np.int64)
        rescued = (u * self.explorers).astype(np.int64)
        return Block(y, length, rescued)
