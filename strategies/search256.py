"""``search256``: a named preset of ``search`` -- one step of policy improvement over
``expert``, the ladder's top rung, measured to play above it (docs/search.md).

At each decision it plays the root's options on shared worlds (256 iterations, sequential
halving down to two), each option played on by ``expert`` in every seat for ``depth`` 4
seat-turns and scored by the estimate at the cut (danger weighed 0.3); it keeps expert's move
unless another's paired gain clears 3 standard errors. No tree below the root (``plies=0``):
in paired games on common seeds the full tree played worse than the root alone
(docs/search.md, "What each choice did").

The parameters stay tunable: ``search256:budget=1024`` and so on.
"""
from simulator.jit import hot
from strategies import search
from strategies.api import preset

NAME = "search256"
CODE = 10
REENTERS = True
CONTRACT = "search256:budget=4,depth=2"   # the contract's 192 games, affordably
DESCRIPTION = ("search with expert's move improved by paired rollouts of expert: 256 "
               "iterations at the root, cut at 4 seat-turns")
PARAMS = preset(search, {"budget": 256, "rollout": "expert", "depth": 4, "plies": 0})
MEM_W = search.MEM_W


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    """Outside a game: ``search``'s answer there (``greedy``'s)."""
    return search.choose(pub, mine, seat, kind, opts, n, rng, mem, work, par)
