"""Playing a tournament batch by batch, with the stop check after each (``play``), and what
it gives (``Result``)."""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import play.simulate as PS          # module attributes: tests and the fuzz harness patch them

from ..store.watch import watching
from .design import Tournament
from .stats import (
    Games,
    PairUnits,
    Ratings,
    StopCheck,
    games_frame,
    head_to_head,
    standings,
    stop_check,
)


@dataclass
class Result:
    """A played tournament: the per-game arrays, the tables and the stop outcome.

    ``played`` is True (``folder.Saved``, a complete tournament read back from its folder
    instead of played, has it False); ``resumed`` / ``resumed_games``: the batches and games
    read back from the saved state of an interrupted run (``resumed_from``, the hidden
    ``.NAME.partial`` folder), not played by this run."""
    tournament: Tournament
    games: Games
    standings: object                   # pandas DataFrame (``stats.standings``)
    head_to_head: object                # pandas DataFrame
    ratings: Ratings
    stop: StopCheck
    batches: list[dict]
    seconds_playing: float = 0.0
    seconds: float = 0.0
    resumed: int = 0
    resumed_games: int = 0
    resumed_from: str | None = None
    played: ClassVar[bool] = True

    @property
    def indices_played(self) -> int:
        return self.games.indices

    @property
    def games_played(self) -> int:
        return self.games.n

    def statement(self) -> str:
        return self.stop.statement(self.indices_played, self.games_played,
                                   self.tournament.stop, self.tournament.games)


# ---------------------------------------------------------------------------- playing
def play(t: Tournament, threads: int | None = None,
         on_batch: Callable[[object], None] | None = None,
         progress: Callable[[int], None] | None = None, watch=None, store=None) -> Result:
    """Play ``t`` batch by batch and return its ``Result``.

    ``on_batch(frame)`` receives each batch's per-game table (``games_frame``: rows in game
    index, then line-up order) as it is played; ``progress(n)`` the games just played;
    ``watch`` (``experiments.store.watch``) the phases: playing (every game the limit allows; the
    phase is renamed per batch, with the SPRT's state), then the standings. An engine error
    raises ``RuntimeError`` naming the game.

    ``store`` (``folder.Folder``) makes it resumable: ``store.load(k, first, count)``
    gives batch ``k``'s engine records saved by an earlier, interrupted run (or None: play
    it), ``store.save(k, first, count, records)`` keeps a batch just played. Everything after
    the engine -- tables, ratings, the stop check -- is recomputed from the records in the same
    order, so a resumed tournament equals an uninterrupted one."""
    started = time.perf_counter()
    settings, lus = t.settings, t.lineups
    blocks: list[Games] = []
    pairs = PairUnits()
    ratings = Ratings(t.strategies)
    batches: list[dict] = []
    playing = 0.0
    check = None
    w = watching(watch, progress)
    w.begin("playing", t.games * len(lus))
    most = -(-t.games // t.batch)
    for first in range(0, t.games, t.batch):
        count = min(t.batch, t.games - first)
        at = f"batch {len(batches) + 1} of at most {most}"
        if check is not None:
            at += (f" ({sum(p['settled'] for p in check.pairs)} of {len(check.pairs)} adjacent "
                   f"pairs settled)")
        w.phase = f"{at}: playing"
        k = len(batches)
        records = store.load(k, first, count) if store is not None else None
        if records is None:
            t0 = time.perf_counter()
            with PS.numba_threads(threads):
                records = [PS.run_records(s, t.seed, first, count) for s in settings]
            playing += time.perf_counter() - t0
            if store is not None:
                store.save(k, first, count, records)
        w.phase = f"{at}: rating"
        frames = [PS.records_frame(r, s, t.seed, first) for r, s in zip(records, settings)]
        block = Games.from_frames(frames, t.strategies, lus, settings[0])
        blocks.append(block)
        pairs.add(block)
        ratings.feed(block)
        if on_batch is not None:
            on_batch(games_frame(frames, block, t.strategies, lus))
        w.update(count * len(lus))
        check = stop_check(pairs, ratings, t.alpha, t.beta, t.delta)
        batches.append({"batch": len(batches), "first": first, "indices": count,
                        "games": count * len(lus), "indices_so_far": first + count,
                        "settled": check.settled, "order": list(check.order),
                        "unsettled": [f"{a} vs {b}" for a, b in check.unsettled]})
        if t.stop and check.settled:
            break
    w.begin("standings and head to head")
    games = Games.concat(blocks)
    return Result(tournament=t, games=games, standings=standings(games, ratings),
                  head_to_head=head_to_head(games), ratings=ratings, stop=check,
                  batches=batches, seconds_playing=playing,
                  seconds=time.perf_counter() - started)
