"""What a player may see, as one fixed-shape array: the observation of the environment
(``survive_sim.environment``) and of a Python policy seated in a table (``play.policy_games``).

RULES R11: the public table, the counts and terrain of every hand, the player's own hand and
its own explorers' values; never a tile back, another hand or another player's values. The
engine keeps exactly that split (``simulator.state``): ``state[:PUB_SIZE]`` is public, and
each colour's private row is its hand and values. With 2 players a player has two colours
(B4.5) and knows both: both rows are shown.

The cells (``OBS_*``): the decision (its kind, its option count and the colour asked; -1, 0,
-1 when the player is not asked), the player's index, the public table, the private rows of
its colours (the second only with 2 players, else zeros), the option rows (zeros past n). The
action is a row of the options, ``0 <= k < n``: the action mask's ones.
"""
from __future__ import annotations

import numpy as np

from simulator.state import MAX_OPTS, OPT_W, PRIV, PRIV_W, PUB_SIZE

OBS_KIND, OBS_N, OBS_COLOUR, OBS_PLAYER = range(4)
OBS_PUBLIC = 4
OBS_PRIVATE = OBS_PUBLIC + PUB_SIZE
OBS_OPTIONS = OBS_PRIVATE + 2 * PRIV_W
OBS_SIZE = OBS_OPTIONS + MAX_OPTS * OPT_W


def colours_of(player: int, players: int, seats: int) -> list[int]:
    """The colours (seats) a player plays: one, or two with 2 players (B4.5)."""
    return [s for s in range(seats) if s % players == player]


def observe(state: np.ndarray, player: int, colours: list[int], question=None
            ) -> tuple[np.ndarray, np.ndarray]:
    """(observation, action mask) of ``player`` (who plays ``colours``) in ``state``; the
    decision's cells and the mask are filled when ``question`` (``play.stepper.Question``)
    asks one of its colours."""
    obs = np.zeros(OBS_SIZE, np.int32)
    mask = np.zeros(MAX_OPTS, np.int8)
    obs[OBS_PLAYER] = player
    obs[OBS_PUBLIC:OBS_PRIVATE] = state[:PUB_SIZE]
    for i, c in enumerate(colours):
        at = OBS_PRIVATE + i * PRIV_W
        obs[at:at + PRIV_W] = state[PRIV + c * PRIV_W:PRIV + (c + 1) * PRIV_W]
    if question is not None and question.seat in colours:
        obs[OBS_KIND], obs[OBS_N], obs[OBS_COLOUR] = question.kind, question.n, question.seat
        obs[OBS_OPTIONS:OBS_OPTIONS + question.n * OPT_W] = question.options.reshape(-1)
        mask[:question.n] = 1
    else:
        obs[OBS_KIND] = obs[OBS_COLOUR] = -1
    return obs, mask
