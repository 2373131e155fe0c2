"""What the statistics and charts of a run need, as sums added chunk by chunk: per setting
(``SettingSums``) and per pair of settings that share their games (``PairSums``).

Every field is exact (whole numbers, ``moments.Sums`` and ``moments.Tally``; a tie-split win
share is kept times 60, a whole number since a win is split among at most six), so the tidy
statistics and the charts built from them do not depend on how the games were cut into
chunks or where a chunk was read: the same run gives the same numbers on one core, two, or a
Dask cluster. Memory is the size of the sums, whatever the number of games.
"""
from __future__ import annotations

import numpy as np

from simulator.scoring import STEPS, TIEBREAKS

from .games import LOSS_CAUSES, SettingData, explorers_per_colour, score_bound
from .moments import Sums, Tally, add_columns

END_REASONS = ("volcano", "island_gone", "no_explorers", "turn_cap", "none")


class SettingSums:
    """One setting's counts and sums (``add`` a chunk's ``SettingData`` and its per-game
    columns, ``merge`` another chunk's). ``probe``: the setting's metadata."""

    def __init__(self, probe: SettingData, charts: bool = True):
        p = probe.players
        self.label, self.probe, self.players, self.charts = probe.label, probe, p, charts
        self.n = 0
        self.win60 = {r: np.zeros(p, np.int64) for r in TIEBREAKS}
        self.outright = {r: np.zeros(p, np.int64) for r in TIEBREAKS}
        self.steps = {r: np.zeros(len(STEPS), np.int64) for r in TIEBREAKS}
        self.ties = 0
        self.top_tie = np.zeros(p, np.int64)
        self.score = [Tally() for _ in range(p)]
        self.rescued = [Sums() for _ in range(p)]          # a game's share of them rescued
        self.turns = [Tally() for _ in range(p)]
        # per game, for the charts
        self.length = Tally()                              # seat-turns (the ``turns`` column)
        self.rescued_total = Tally()
        self.lost = {c: Tally() for c in LOSS_CAUSES}
        self.end: dict[str, int] = {}
        self.transitions = np.zeros((p, p + 1), np.int64)   # tied seat -> chain's pick / shared
        self.tied = 0

    # -------------------------------------------------------------------------- adding
    def add(self, d: SettingData, cols=None, end: dict | None = None) -> SettingSums:
        """A chunk: ``d`` its arrays (``games.block_of``); ``cols`` its per-game columns
        (``turns``, ``lost_<cause>_<seat>``) and ``end`` its end-reason counts, for the
        charts."""
        if not d.n:
            return self
        self.n += d.n
        shared = d.win["shared"]
        tie = shared.sum(axis=1) > 1
        self.ties += int(tie.sum())
        self.top_tie += (shared & tie[:, None]).sum(axis=0)
        for rule in TIEBREAKS:
            w = d.win[rule]
            self.win60[rule] += d.share60(rule).sum(axis=0)
            self.outright[rule] += (w & (w.sum(axis=1) == 1)[:, None]).sum(axis=0)
            self.steps[rule] += np.bincount(d.step[rule], minlength=len(STEPS))
        played = d.explorers > 0
        for p in range(self.players):
            self.score[p].add(d.score[:, p])
            self.rescued[p].add_ratio(d.rescued[played[:, p], p], d.explorers[played[:, p], p])
            self.turns[p].add(d.turns[:, p])
        if not self.charts:
            return self
        self.rescued_total.add(d.rescued.sum(axis=1))
        chain = d.win["chain"]
        sole = chain.sum(axis=1) == 1
        pick = np.where(sole, chain.argmax(axis=1), self.players)
        self.tied += int(tie.sum())
        for p in range(self.players):
            among = tie & shared[:, p]
            self.transitions[p] += np.bincount(pick[among], minlength=self.players + 1)
        if cols is not None and "turns" in cols:
            seats = d.seats
            self.length.add(np.asarray(cols["turns"], np.int64))
            for cause in LOSS_CAUSES:
                names = [f"lost_{cause}_{s}" for s in range(seats)]
                if all(c in cols for c in names):
                    self.lost[cause].add(sum(np.asarray(cols[c], np.int64) for c in names))
                else:
                    self.lost[cause].add(np.zeros(d.n, np.int64))
        for reason, k in (end or {}).items():
            self.end[reason] = self.end.get(reason, 0) + int(k)
        return self

    def merge(self, other: SettingSums) -> SettingSums:
        self.n += other.n
        for r in TIEBREAKS:
            self.win60[r] += other.win60[r]
            self.outright[r] += other.outright[r]
            self.steps[r] += other.steps[r]
        self.ties += other.ties
        self.top_tie += other.top_tie
        for p in range(self.players):
            self.score[p].merge(other.score[p])
            self.rescued[p].merge(other.rescued[p])
            self.turns[p].merge(other.turns[p])
        self.length.merge(other.length)
        self.rescued_total.merge(other.rescued_total)
        for c in LOSS_CAUSES:
            self.lost[c].merge(other.lost[c])
        for k, v in other.end.items():
            self.end[k] = self.end.get(k, 0) + v
        self.transitions += other.transitions
        self.tied += other.tied
        return self

    def empty(self) -> SettingSums:
        return SettingSums(self.probe, self.charts)

    # -------------------------------------------------------------------------- reading
    @property
    def own(self) -> str:
        return self.probe.own

    @property
    def bound(self) -> int:
        """The most a player can score here."""
        return score_bound(self.players, self.probe.challenges)

    @property
    def in_play(self) -> int:
        """Explorers of every colour in play in one game (the bound of per-game counts)."""
        count, _ = explorers_per_colour(self.players, self.probe.challenges)
        return count * self.probe.seats

    def split_wins(self, rule: str | None = None) -> np.ndarray:
        """Each player's tie-split win count (a sum of shares)."""
        return self.win60[rule or self.own] / 60.0


class PairSums:
    """Two settings on the same games (``a`` minus ``b``, matched by game index): per player,
    the paired differences of the tie-split win share (each under its setting's own rule) and
    of the score, and whether the two played identical games by the same rule."""

    def __init__(self, a: SettingData, b: SettingData, factor: str):
        p = a.players
        self.a, self.b, self.factor, self.players = a.label, b.label, factor, p
        self.own_equal = a.own == b.own and a.komi == b.komi      # C1: the same winners' rule
        self.twins = factor == "tiebreak"
        self.bound = max(score_bound(a.players, a.challenges), score_bound(b.players,
                                                                           b.challenges))
        self.n = 0
        self.identical = True
        self.scores_equal = True
        self.share = [Sums() for _ in range(p)]           # differences x 60
        self.share_a = np.zeros(p, np.int64)
        self.share_b = np.zeros(p, np.int64)
        self.score = [Sums() for _ in range(p)]
        self.score_a = np.zeros(p, np.int64)
        self.score_b = np.zeros(p, np.int64)

    def add(self, a: SettingData, b: SettingData) -> PairSums:
        if np.array_equal(a.games, b.games):            # a chunk's common case: no search
            ia = ib = slice(None)
            if not a.n:
                return self
        else:
            _, ia, ib = np.intersect1d(a.games, b.games, assume_unique=True,
                                       return_indices=True)
            if not len(ia):
                return self
        self.n += len(a.games[ia])
        same_keys = all(np.array_equal(getattr(a, k)[ia], getattr(b, k)[ib])
                        for k in ("score", "rescued", "explorers", "turns"))
        self.identical &= self.own_equal and same_keys
        self.scores_equal &= bool(np.array_equal(a.score[ia], b.score[ib]))
        sa, sb = a.share60()[ia], b.share60()[ib]
        xa, xb = a.score[ia], b.score[ib]
        add_columns(self.share, sa - sb)
        self.share_a += sa.sum(axis=0)
        self.share_b += sb.sum(axis=0)
        add_columns(self.score, xa - xb)
        self.score_a += xa.sum(axis=0)
        self.score_b += xb.sum(axis=0)
        return self

    def merge(self, other: PairSums) -> PairSums:
        self.n += other.n
        self.identical &= other.identical
        self.scores_equal &= other.scores_equal
        for p in range(self.players):
            self.share[p].merge(other.share[p])
            self.score[p].merge(other.score[p])
        self.share_a += other.share_a
        self.share_b += other.share_b
        self.score_a += other.score_a
        self.score_b += other.score_b
        return self

    @property
    def label(self) -> str:
        return f"{self.a} vs {self.b}"
