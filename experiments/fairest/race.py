"""How fair an allocation is, and when one is surely less fair than the best: exact tallies,
the measures with their intervals, and the racing rule.

**The unit is the game index.** Every candidate allocation plays the same game indices (common
random numbers); a mixed table plays each index in every rotation of its seating and counts
the index once, as the mean over its rotations. A candidate's ``Tally`` keeps, over the indices
played, whole-number sums only: for each player ``y = 60 x`` the sum over rotations of the
player's tie-split win share (a share is 1/k of a win for each of k winners, and 60/k is whole
for k <= 6), the sum of its square, and the same two sums of the game's length (turns) and of
the explorers rescued. Integer sums are exact, so a tally is the same however the games were
chunked, interrupted or resumed.

**The measure** of an allocation is ``m = max_p |share_p - 1/P|``, the largest distance of a
player's win share from the fair share (P players). Beside it, Pearson's chi-square statistic
of the tie-split wins against 1/P each (descriptive: with ties and rotations the games are not
a multinomial sample) and Ludii's balance, ``1 - (largest share - smallest share)``.

**Intervals.** Each player's share has an interval over game indices
(``experiments.verdicts.inference``, anytime-valid during a search: a confidence sequence that holds
at every look at once). If every player's interval holds, ``m`` lies between ``max_p dist(0, I_p -
1/P)`` (the nearest point of each interval to the fair share) and ``max_p max |I_p - 1/P|`` (the
farthest); at level ``alpha / P`` per player (Bonferroni over the players) that is a ``1 - alpha``
interval of ``m``.

**The racing rule** (successive elimination, Even-Dar, Mannor and Mansour 2006; racing, Maron
and Moore 1997; here on anytime-valid bounds, so looking after every round keeps the rate).
With ``K`` candidates and ``P`` players, after each round every candidate ``c`` gets

* a lower bound ``L(c)`` of ``m(c)`` from its players' intervals at level ``alpha / (2P)``;
* an upper bound ``U(c)`` from its players' intervals at level ``alpha / K``;

and ``c`` is dropped when ``L(c) > min_j U(j)``: it is then surely less fair than some
candidate. Why the true best ``b`` (smallest ``m``) survives with probability at least
``1 - alpha`` at every look of the search: if ``b``'s P intervals hold (all but ``alpha / 2``)
then ``L(b) <= m(b)``; and if, for every other ``j``, the one side that matters of the interval
of the player farthest from the fair share holds (each fails with ``alpha / (2K)``, all together
with less than ``alpha / 2``), then ``U(j) >= m(j) >= m(b)``. Together ``L(b) <= min_j U(j)``.
The intervals are confidence sequences, so the bound holds over every look of the race at
once. The error rate is checked by simulation where the truth is known
(``tests/test_fairest.py``), not only by this argument.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..verdicts.inference import ALPHA, Estimate, Look, interval

SCALE = 60                    # 60/k is whole for k = 1..6 winners: shares are counted in 60ths


@dataclass
class Tally:
    """Whole-number sums over the game indices one candidate played (see the module text).
    ``rotations`` seatings of each index (1 for self-play), ``players`` players, ``explorers``
    explorers in play per index and rotation (for the rescued fraction)."""
    players: int
    rotations: int = 1
    explorers: int = 1
    n: int = 0
    s1: list[int] = field(default_factory=list)       # per player: sum of y
    s2: list[int] = field(default_factory=list)       # per player: sum of y^2
    length: tuple[int, int] = (0, 0)                  # sum, sum of squares (turns)
    rescued: tuple[int, int] = (0, 0)                 # sum, sum of squares (explorers)

    def __post_init__(self):
        if not self.s1:
            self.s1 = [0] * self.players
            self.s2 = [0] * self.players

    def add(self, y: np.ndarray, length: np.ndarray, rescued: np.ndarray) -> Tally:
        """Add a block of indices: ``y`` (indices, players) whole 60ths summed over rotations,
        ``length`` and ``rescued`` (indices,) summed over rotations."""
        y = np.asarray(y, dtype=np.int64)
        if y.ndim != 2 or y.shape[1] != self.players:
            raise ValueError(f"a block of shares needs {self.players} columns, got {y.shape}")
        self.n += int(y.shape[0])
        for p in range(self.players):
            col = y[:, p]
            self.s1[p] += int(col.sum())
            self.s2[p] += int((col * col).sum())
        for name, v in (("length", length), ("rescued", rescued)):
            v = np.asarray(v, dtype=np.int64)
            a, b = getattr(self, name)
            setattr(self, name, (a + int(v.sum()), b + int((v * v).sum())))
        return self

    # ------------------------------------------------------------------ storage
    def to_doc(self) -> dict:
        return {"n": self.n, "s1": self.s1, "s2": self.s2, "length": list(self.length),
                "rescued": list(self.rescued)}

    @classmethod
    def from_doc(cls, doc: dict, players: int, rotations: int, explorers: int) -> Tally:
        t = cls(players, rotations, explorers, int(doc["n"]), [int(x) for x in doc["s1"]],
                [int(x) for x in doc["s2"]], tuple(int(x) for x in doc["length"]),
                tuple(int(x) for x in doc["rescued"]))
        if len(t.s1) != players or len(t.s2) != players:
            raise ValueError("a tally of another player count")
        return t

    # ------------------------------------------------------------------ estimates
    @property
    def fair(self) -> float:
        return 1.0 / self.players

    def shares(self) -> np.ndarray:
        """Each player's mean tie-split win share."""
        if not self.n:
            return np.full(self.players, math.nan)
        return np.array(self.s1, dtype=float) / (self.n * SCALE * self.rotations)

    def share(self, p: int) -> Estimate:
        """Player ``p``'s win share as an ``Estimate`` over game indices (0/1 values, read with
        Wilson at a fixed look, when no game was shared and no rotation averaged)."""
        scale = SCALE * self.rotations
        return _estimate(self.n, self.s1[p], self.s2[p], scale, 0.0, 1.0,
                         binary_top=scale if self.rotations == 1 else None)

    def mean_length(self) -> Estimate:
        """Turns per game (the mean over an index's rotations), per game index."""
        return _estimate(self.n, *self.length, self.rotations, 0.0, math.inf)

    def rescued_fraction(self) -> Estimate:
        """Explorers rescued / explorers in play, per game index."""
        return _estimate(self.n, *self.rescued, self.rotations * self.explorers, 0.0, 1.0)

    def measure(self) -> float:
        """``m``: the largest distance of a player's win share from 1/P."""
        return float(np.max(np.abs(self.shares() - self.fair))) if self.n else math.nan

    def chi2(self) -> float:
        """Pearson's chi-square of the tie-split wins against 1/P each (descriptive)."""
        if not self.n:
            return math.nan
        games = self.n * self.rotations
        wins = np.array(self.s1, dtype=float) / SCALE
        expected = games / self.players
        return float(((wins - expected) ** 2 / expected).sum())

    def ludii(self) -> float:
        """Ludii's balance: 1 - (largest share - smallest share)."""
        s = self.shares()
        return float(1 - (s.max() - s.min())) if self.n else math.nan

    def bounds(self, alpha_each: float, look: Look) -> tuple[float, float]:
        """``(lower, upper)`` of ``m`` when every player's ``1 - alpha_each`` interval holds."""
        if self.n < 2:
            return (0.0, 1.0 - self.fair)
        lower = upper = 0.0
        for p in range(self.players):
            lo, hi = interval(self.share(p), alpha_each, look)
            lo, hi = lo - self.fair, hi - self.fair
            near = 0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi))
            lower = max(lower, near)
            upper = max(upper, abs(lo), abs(hi))
        return (lower, upper)

    def interval(self, alpha: float = ALPHA, look: Look = Look()) -> tuple[float, float]:
        """The ``1 - alpha`` interval of ``m`` (Bonferroni over the players)."""
        return self.bounds(alpha / self.players, look)


def _estimate(n: int, s1: int, s2: int, scale: float, lo: float, hi: float,
              binary_top: int | None = None) -> Estimate:
    """The mean and standard deviation of ``n`` whole values with sums ``s1``, ``s2``, divided
    by ``scale``. The spread is computed in whole numbers (exact), so a constant sample is
    recognised as one; ``binary_top``: the values are 0/1 when every one is 0 or that."""
    if n == 0:
        return Estimate(math.nan, math.nan, 0, lo, hi)
    spread = n * s2 - s1 * s1                      # Python ints: exact, never overflows
    constant = spread == 0
    sd = 0.0 if constant or n < 2 else math.sqrt(spread / (n * (n - 1))) / scale
    binary = binary_top is not None and s2 == binary_top * s1
    return Estimate(s1 / (n * scale), sd, n, lo, hi, bool(binary), bool(constant),
                    bounded=math.isfinite(hi))


# ------------------------------------------------------------------ the racing rule
@dataclass(frozen=True)
class RaceRule:
    """The levels of the racing rule for ``candidates`` candidates of ``players`` players,
    erring (dropping the true best at some look) with probability at most ``alpha``."""
    candidates: int
    players: int
    alpha: float = ALPHA

    @property
    def lower_level(self) -> float:
        """Per player, two-sided, for the lower bound of ``m``."""
        return self.alpha / (2 * self.players)

    @property
    def upper_level(self) -> float:
        """Per player, two-sided, for the upper bound of ``m``."""
        return self.alpha / max(self.candidates, 1)

    def words(self, noun: str = "allocation") -> str:
        """The rule in words; ``noun``: what the candidates are (``allocation``, ``rule``)."""
        a = "an" if noun[0] in "aeiou" else "a"
        return (f"drop {a} {noun} when the lower bound of its largest seat gap (players' "
                f"anytime-valid intervals at {self.lower_level:.3g} each) exceeds the smallest "
                f"upper bound of any {noun}'s (at {self.upper_level:.3g} each): the true "
                f"fairest of the {self.candidates} is dropped with probability at most "
                f"{self.alpha:g}, however many rounds are looked at")

    def drops(self, tallies: dict[str, Tally], alive: list[str], look: Look) -> list[str]:
        """The labels of ``alive`` the rule drops at this look (every tally, alive or dropped
        earlier, lends its upper bound)."""
        upper = min(t.bounds(self.upper_level, look)[1] for t in tallies.values())
        return [c for c in alive if tallies[c].bounds(self.lower_level, look)[0] > upper]
