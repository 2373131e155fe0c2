"""Who won: the B7.2 scores and the B7.3 / X1.6 tie-break, for a whole table at once.

The engine records every key the tie-break chain needs (score, explorers rescued, value rescued,
turns taken, per seat), so the winners of any recorded game can be recomputed under either rule
without re-simulating. Everything here is plain numpy over arrays of shape (games, players); with
2 players a player's keys are the sums over their two colours (B4.5).

Rules:

* ``shared`` (B7.3, the base game's default): every player with the top score wins.
* komi (C1): with a score bonus, "score" above is the score plus the bonus; the bonus is in half
  points, so the totals compared are twice the score plus the bonus in halves.
* ``chain`` (X1.6, the 5-6 player default): among the top scorers, (a) most explorers rescued;
  (b) with Challenge 3 (Everyone is Equal) only: highest total value rescued; (c) fewest turns
  taken; (d) whoever is still tied shares the win.
"""
from __future__ import annotations

import numpy as np

TIEBREAKS = ("shared", "chain")
# the step that decided a game: the score alone, one of the chain's keys, or nothing (shared)
STEPS = ("score", "rescued", "value", "turns", "shared")
STEP_SCORE, STEP_RESCUED, STEP_VALUE, STEP_TURNS, STEP_SHARED = range(len(STEPS))


def decide(score, rescued, value, turns, rule: str, equal=False, komi=None):
    """Winners and the deciding step of each game.

    ``score``, ``rescued``, ``value`` and ``turns`` are integer arrays (games, players); ``equal``
    (a bool or one per game) says Challenge 3 was in force, which puts step (b) in the chain.
    Returns ``(winners, step)``: a bool array (games, players) and an int array (games,) of
    indices into ``STEPS``. A game with a single top scorer is decided by ``score`` under either
    rule; a tie the rule leaves standing is ``shared`` and every remaining player wins.
    ``komi`` (C1.2): each player's bonus in half points, (players,) or (games, players); None
    or all zeros is the rules' scoring. The bonus counts before the chain, and only there.
    """
    if rule not in TIEBREAKS:
        raise ValueError(f"tiebreak must be one of {', '.join(TIEBREAKS)}, got {rule!r}")
    score, rescued, value, turns = (np.asarray(a, dtype=np.int64)
                                    for a in (score, rescued, value, turns))
    games = score.shape[0]
    total = score
    if komi is not None and np.any(komi):
        total = 2 * score + np.broadcast_to(np.asarray(komi, dtype=np.int64), score.shape)
    alive = total == total.max(axis=1, keepdims=True) if games else score.astype(bool)
    step = np.where(alive.sum(axis=1) == 1, STEP_SCORE, STEP_SHARED)
    if rule == "shared":
        return alive, step
    equal = np.broadcast_to(np.asarray(equal, dtype=bool), (games,))
    keys = ((STEP_RESCUED, rescued, None), (STEP_VALUE, value, equal), (STEP_TURNS, -turns, None))
    for code, key, only in keys:
        open_ = step == STEP_SHARED                      # games still tied before this step
        if only is not None:
            open_ &= only
        if not open_.any():
            continue
        masked = np.where(alive, key, np.iinfo(np.int64).min)
        best = masked == masked.max(axis=1, keepdims=True)
        narrowed = alive & best
        alive = np.where(open_[:, None], narrowed, alive)
        step = np.where(open_ & (narrowed.sum(axis=1) == 1), code, step)
    return alive, step
