"""A Python policy plug-in: a uniform legal option (docs/env.md, "A policy in a table").

Seat it in a table like any plug-in, e.g.::

    survive-sim tournament --plugin examples/random_policy.py --strategies masked_random,random

``POLICY(observation, action_mask, rng)`` gets the player's honest view (``play.observation``),
the mask of legal rows and a generator seeded by (root seed, game, seat), and returns a row.
Its games play through the environment's stepper: about a hundred times slower than a
compiled strategy (docs/performance.md).
"""
import numpy as np

NAME = "masked_random"
DESCRIPTION = "uniform over the legal options, in Python through the environment"


def POLICY(observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(action_mask)))
