"""A bonus confirmed by play: fresh games played *with* the score bonus, beside the komi screen's
reading of the same games played without it (RULES.md C1.3).

The screen (``screen``) is exact for a komi-blind strategy; one that sees the score (the search
rung) may play differently once it knows the bonus -- a player who is given half a point can
play safer, one who owes it must take risks. ``confirm`` measures that reaction: the same game
indices (common random numbers) played twice, with the bonus and without it, and per player
the played share, the screened share and their paired difference (the game index the unit; a
paired t interval, or Newcombe's where the differences do not vary, as every paired
difference of the statistics). For a komi-blind strategy the difference is exactly zero.

The games are played and read chunk by chunk into exact sums: memory is flat in their number.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from play.settings import Settings
from play.simulate import iter_frames, numba_threads
from simulator.scoring import decide

from ..tables.games import prepare
from ..tables.moments import ALPHA, Sums, wilson
from ..tables.stats import paired_from

CHUNK = 5_000                    # games played and read at once


def _shares60(df: pd.DataFrame, settings: Settings, komi) -> np.ndarray:
    """(games, players): each game's tie-split win share times 60 under ``komi`` (half points
    per player, or None), the settings' own tie-break deciding equal totals."""
    d = prepare("confirm", df)
    win, _ = decide(d.score, d.rescued, d.value, d.turns, rule=settings.tiebreak,
                    equal=3 in settings.challenges, komi=komi)
    k = np.maximum(win.sum(axis=1, keepdims=True), 1)
    return win.astype(np.int64) * (60 // k)


def confirm(settings: Settings, games: int, seed: int, first: int = 0,
            threads: int | None = None, alpha: float = ALPHA) -> pd.DataFrame:
    """Play games ``first .. first+games-1`` of ``seed`` under ``settings`` (which carry the
    bonus) and without the bonus; one row per player: ``played`` (share with the bonus seen),
    ``screened`` (the screen's share: the bonus-free games, counted with it), each with its
    Wilson interval, and ``difference`` = played - screened with its paired interval, ``n``."""
    if not settings.komi:
        raise ValueError("confirm needs settings with a score bonus (komi); these have none")
    plain = replace(settings, komi=())
    komi = np.asarray(settings.player_komi_halves, np.int64)
    p = settings.players
    diff = [Sums() for _ in range(p)]
    played, screened = np.zeros(p, np.int64), np.zeros(p, np.int64)
    n = 0
    with numba_threads(threads):
        for a, b in zip(iter_frames(settings, games, seed, first=first, chunk=CHUNK),
                        iter_frames(plain, games, seed, first=first, chunk=CHUNK)):
            sa, sb = _shares60(a, settings, komi), _shares60(b, settings, komi)
            for q in range(p):
                diff[q].add(sa[:, q] - sb[:, q])
            played += sa.sum(axis=0)
            screened += sb.sum(axis=0)
            n += len(a)
    rows = []
    for q in range(p):
        pl, (pl_lo, pl_hi) = played[q] / 60 / n, wilson(played[q] / 60, n, alpha)
        sc, (sc_lo, sc_hi) = screened[q] / 60 / n, wilson(screened[q] / 60, n, alpha)
        d = paired_from(diff[q], float(played[q]), float(screened[q]), 1.0, scale=60.0,
                        alpha=alpha)
        rows.append({"player": q, "komi": sum(settings.komi[s] for s in range(settings.seats)
                                              if settings.player_of_seat[s] == q),
                     "played": pl, "played_low": pl_lo, "played_high": pl_hi,
                     "screened": sc, "screened_low": sc_lo, "screened_high": sc_hi,
                     "difference": d["value"], "difference_low": d["low"],
                     "difference_high": d["high"], "difference_method": d["method"], "n": n})
    return pd.DataFrame(rows)
