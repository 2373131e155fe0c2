"""The search itself: a race over the allocations of one player count and style, then a
confirmation of the best few on fresh games, each resumable from a state document.

**Race** (``race``). Round ``r`` plays every allocation still in the race on game indices up to
``spec.sizes()[r]`` (``screen``, doubled each round, up to ``max_games``), chunk by chunk and
allocation by allocation, every allocation on the same indices. After the round the racing
rule (``race.RaceRule``) drops every allocation surely less fair than another. The race ends
when one allocation is left, at ``max_games``, or when the next round would pass ``budget``
engine games. What is left is the set of allocations the games cannot tell from the fairest.

**Confirmation** (``confirm``). The best few of the race are played again on fresh games (a
root seed of their own, ``FairSpec.confirm_seed``) and judged once, at that fixed size: each
seat's win share against ``1/N +- tolerance`` (TOST per seat, intersection-union), Bonferroni
over the allocations confirmed for one player count and style, so that calling any of them fair
errs at most ``alpha / 2``. The selection cannot bias it: those games played no part in it.

**Resume.** Both keep their state in a JSON document (the tallies, whole numbers, and what each
round dropped) that ``save`` writes atomically every second or so and at every round's end.
Killed at any moment and started again from the saved document, a race replays only the
chunks not yet counted and ends with the same tallies and decisions as an uninterrupted one:
the tallies are exact sums, and every decision is a function of the tallies at a round's end.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..store.watch import watching
from ..verdicts import decisions as D
from ..verdicts.inference import FIXED, T_OPT_FACTOR, Look
from .race import RaceRule, Tally
from .space import Rule, candidate_label

SAVE_EVERY = 1.0              # seconds between state saves inside a round


@dataclass
class Race:
    """A race's outcome: every allocation's tally, the round it was dropped at (games), the
    rounds, and why it ended."""
    boats: dict[str, tuple[int, ...]]
    tallies: dict[str, Tally]
    dropped: dict[str, int]
    rounds: list[dict]
    rule: RaceRule
    screen: int
    stop: str = ""
    games_played: int = 0            # engine games this call played (not read back)
    games_counted: int = 0           # games this call counted (a komi-blind style counts a
    #                                  rule's bonuses on games it played once)

    @property
    def alive(self) -> list[str]:
        return [c for c in self.boats if c not in self.dropped]

    @property
    def look(self) -> Look:
        """The anytime-valid look the race's intervals are read at."""
        return Look(True, T_OPT_FACTOR * self.screen, max(len(self.rounds), 1))

    def ranked(self, within: list[str] | None = None) -> list[str]:
        """Allocations by their measure, fairest first (ties: more games, then the label)."""
        keys = within if within is not None else list(self.boats)
        return sorted(keys, key=lambda c: (self.tallies[c].measure(), -self.tallies[c].n, c))


def _new_tally(player) -> Tally:
    return Tally(player.players, player.rotations, player.explorers)


def _tallies(doc: dict, boats: dict, player) -> dict[str, Tally]:
    saved = doc.get("tallies", {})
    return {c: (Tally.from_doc(saved[c], player.players, player.rotations, player.explorers)
                if c in saved else _new_tally(player)) for c in boats}


class _Saver:
    """Saves the state at most every ``SAVE_EVERY`` seconds, and when told to."""

    def __init__(self, save: Callable[[dict], None] | None):
        self.save, self.last = save, time.monotonic()

    def __call__(self, doc: dict, now: bool = False) -> None:
        if self.save is not None and (now or time.monotonic() - self.last >= SAVE_EVERY):
            self.save(doc)
            self.last = time.monotonic()


def race(allocations: list[tuple[int, ...]], player, sizes: list[int], *, alpha: float,
         chunk: int, budget: int | None = None, state: dict | None = None,
         save: Callable[[dict], None] | None = None, watch=None) -> Race:
    """Race ``allocations`` with ``player`` (``players.EnginePlayer``) through the rounds of
    ``sizes`` (game indices per allocation after each round). ``state``: a document an earlier,
    interrupted call saved (its rounds are not played again); ``save(doc)`` keeps the state;
    ``watch`` (``experiments.store.watch``) sees the rounds."""
    boats = {candidate_label(b): b if isinstance(b, Rule) else tuple(b) for b in allocations}
    doc = dict(state or {})
    tallies = _tallies(doc, boats, player)
    dropped = {c: int(n) for c, n in doc.get("dropped", {}).items()}
    rounds = list(doc.get("rounds", []))
    rule = RaceRule(len(boats), player.players, alpha)
    out = Race(boats, tallies, dropped, rounds, rule, sizes[0], doc.get("stop", ""))
    saver = _Saver(save)
    w = watching(watch)

    def keep(now=False):
        doc.update(tallies={c: t.to_doc() for c, t in tallies.items()}, dropped=dropped,
                   rounds=rounds, stop=out.stop)
        saver(doc, now)

    spent = sum(t.n for t in tallies.values()) * player.rotations
    for r, n in enumerate(sizes):
        if out.stop:
            break
        if r < len(rounds):
            continue                                  # decided before the interruption
        alive = out.alive
        cost = sum(n - tallies[c].n for c in alive) * player.rotations
        if r and budget is not None and spent + cost > budget:
            out.stop = (f"budget: round {r + 1} ({n:,} games each) would pass {budget:,} "
                        f"games")
            keep(True)
            break
        start = min(tallies[c].n for c in alive)
        w.begin(f"round {r + 1} of at most {len(sizes)}: {len(alive)} allocations x "
                f"{n:,} games", sum(n - start for _ in alive) * player.rotations,
                sum(tallies[c].n - start for c in alive) * player.rotations)
        for first in range(start, n, chunk):
            count = min(chunk, n - first)
            for c in alive:
                t = tallies[c]
                if t.n != first:                      # counted before an interruption
                    continue
                b = player.play(boats[c], first, count)
                t.add(b.y, b.length, b.rescued)
                out.games_played += played_by(b, count, player)
                out.games_counted += count * player.rotations
                spent += count * player.rotations
                w.update(count * player.rotations)
                keep()
        look = Look(True, T_OPT_FACTOR * sizes[0], r + 1)
        drops = rule.drops(tallies, alive, look)
        for c in drops:
            dropped[c] = n
        rounds.append({"round": r + 1, "games": n, "alive": len(alive), "dropped": drops})
        left = len(alive) - len(drops)
        if left <= 1:
            out.stop = "one allocation left"
        elif n >= sizes[-1]:
            out.stop = f"the most games per allocation ({n:,})"
        keep(True)
    return out


@dataclass
class Confirmation:
    """The confirmation of one player count and style: each allocation's tally on fresh
    games, the rounds played (one, or doubling to the ``settle`` cap) and the games at which
    each allocation was settled (it then played no more)."""
    boats: dict[str, tuple[int, ...]]
    tallies: dict[str, Tally]
    sizes: list[int]
    rounds: list[dict] = field(default_factory=list)
    settled: dict[str, int] = field(default_factory=dict)
    games_played: int = 0
    games_counted: int = 0

    @property
    def family(self) -> int:
        """The allocations confirmed together: the Bonferroni family of the verdicts."""
        return len(self.boats)

    @property
    def games(self) -> int:
        return self.sizes[-1]

    @property
    def sequential(self) -> bool:
        """Played in several rounds: every look is read anytime-valid."""
        return len(self.sizes) > 1

    def look(self, rounds: int | None = None) -> Look:
        """The look its verdicts are read at (after ``rounds`` rounds; default: all played)."""
        if not self.sequential:
            return FIXED
        return Look(True, T_OPT_FACTOR * self.sizes[0], max(rounds or len(self.rounds), 1))


def confirm(allocations: list[tuple[int, ...]], player, sizes: list[int] | int, *, chunk: int,
            settled: Callable[[Confirmation, str], bool] | None = None,
            state: dict | None = None, save: Callable[[dict], None] | None = None,
            watch=None) -> Confirmation:
    """Play ``allocations`` on game indices ``0 .. sizes[r] - 1`` of ``player`` (a player of
    the confirmation's own root seed) round by round, chunk-major, resumable as ``race``.
    After each round but the last, ``settled(confirmation, label)`` says which allocations are
    decided (fair or unfair); they play no more."""
    sizes = [sizes] if isinstance(sizes, int) else list(sizes)
    boats = {candidate_label(b): b if isinstance(b, Rule) else tuple(b) for b in allocations}
    doc = dict(state or {})
    tallies = _tallies(doc, boats, player)
    out = Confirmation(boats, tallies, sizes, list(doc.get("rounds", [])),
                       {c: int(n) for c, n in doc.get("settled", {}).items()})
    saver = _Saver(save)
    w = watching(watch)

    def keep(now=False):
        doc.update(tallies={k: v.to_doc() for k, v in tallies.items()}, rounds=out.rounds,
                   settled=out.settled)
        saver(doc, now)

    def check(r: int, n: int, open_: list[str]) -> None:
        """After round ``r`` (not the last): which allocations are settled."""
        if settled is not None and r + 1 < len(sizes):
            for c in open_:
                if tallies[c].n == n and settled(out, c):
                    out.settled[c] = n
            out.rounds[r]["checked"] = True

    for r, n in enumerate(sizes):
        if r < len(out.rounds):                       # played before the interruption
            if not out.rounds[r].get("checked") and r + 1 < len(sizes):
                check(r, n, [c for c in boats if c not in out.settled])   # a raised cap
                keep(True)
            continue
        open_ = [c for c in boats if c not in out.settled]
        if not open_:
            break
        start = min(tallies[c].n for c in open_)
        what = (f"confirming {len(open_)} allocations x {n:,} fresh games"
                + (f" (round {r + 1} of at most {len(sizes)})" if len(sizes) > 1 else ""))
        w.begin(what, sum(n - start for _ in open_) * player.rotations,
                sum(tallies[c].n - start for c in open_) * player.rotations)
        for first in range(start, n, chunk):
            count = min(chunk, n - first)
            for c in open_:
                t = tallies[c]
                if t.n != first:
                    continue
                b = player.play(boats[c], first, count)
                t.add(b.y, b.length, b.rescued)
                out.games_played += played_by(b, count, player)
                out.games_counted += count * player.rotations
                w.update(count * player.rotations)
                keep()
        out.rounds.append({"round": r + 1, "games": n, "open": len(open_)})
        check(r, n, open_)
        keep(True)
    return out


def played_by(b, count: int, player) -> int:
    """The games the engine ran for block ``b``: fewer than its indices times rotations where a
    komi-blind style counted a bonus on games it had already played (``EnginePlayer``)."""
    return count * player.rotations if b.played is None else b.played


def judged(t: Tally, tolerance: float, alpha: float, look: Look, fresh: bool) -> D.Decision:
    """The balance rule on a confirmed allocation: every seat's win share within ``1/N +-
    tolerance`` (``experiments.verdicts.decisions.balance``). ``fresh``: the advice plans a new,
    independent confirmation (a one-round one was judged once); else the next round."""
    parts = [(f"seat {p + 1}", t.share(p).shifted(t.fair)) for p in range(t.players)]
    return D.balance(parts, tolerance, alpha, look, advice=FIXED if fresh else None)


def settles(tolerance: float, alpha: float) -> Callable[[Confirmation, str], bool]:
    """``confirm``'s ``settled``: an allocation is decided when the balance rule, at ``alpha``
    shared among the allocations confirmed (Bonferroni), calls it fair or unfair."""
    def decided(conf: Confirmation, c: str) -> bool:
        d = judged(conf.tallies[c], tolerance, alpha / conf.family, conf.look(), False)
        return d.verdict in (D.SUPPORTED, D.REFUTED)
    return decided
