"""``search``: information-set Monte Carlo tree search over the engine's own game, the ladder's
only rung that looks ahead to the end.

At each decision it re-enters the game from the journal (``play.journal``, ``play.reentry``)
and runs ``budget`` iterations. Each draws a world the seat cannot tell from the real one
(other seats' values and hands, the tile backs: ``play.determinize``), walks a tree of
actions shared by all those worlds, every seat choosing by UCB on its own reward (max^n;
``c`` weighs exploration), then plays on with the ``rollout`` rung in every seat for at most
``depth`` seat-turns, and backs up each seat's win share (ties split by the setting's
tie-break) or, where it stopped, a softmax over the players' estimated scores at
``temperature`` points (``play.outcome``). It answers the rollout rung's move unless the
paired rounds at the root (sequential halving over its options) show another better by ``z``
standard errors; with ``paired=0``, the most visited action (``play.tree``, ``play.search``).

Its seat function lives with the game it plays (``play.search``): this module declares the
rung and its parameters. ``choose`` is what it answers when asked outside a game, where there
is nothing to re-enter (a lone call, as the contract's hidden-information check makes):
``greedy``'s answer. In a game that never happens; if the journal cannot re-enter (a setup or
turn of more than ``J_MAX`` answers), the seat answers as its rollout rung.
"""
import numpy as np

from simulator.jit import hot
from strategies import greedy
from strategies.api import PAR_W, SCRATCH_W, Param

NAME = "search"
CODE = 8
REENTERS = True
CONTRACT = "search:budget=4,depth=2"      # the contract's 192 games, affordably
DESCRIPTION = ("information-set MCTS over the game itself: budget iterations, UCB (c), "
               "rollouts by a rung, cut at depth seat-turns")
ROLLOUTS = ("random", "greedy", "careful", "racer", "saboteur", "tuned", "lookahead", "expert")
PARAMS = (
    Param("budget", 256, 1, 100_000, "iterations per decision"),
    Param("c", 0.7, 0, 10, "UCB exploration constant, on win shares in [0, 1]"),
    Param("rollout", ROLLOUTS.index("greedy"), 0, len(ROLLOUTS) - 1,
          "the rung every seat plays after the tree", choices=ROLLOUTS),
    Param("depth", 20, 1, 10_000, "seat-turns played from the decision before the cut"),
    Param("temperature", 3, 0.1, 100, "points of estimated score per e-fold at the cut"),
    Param("risk", 0.3, 0, 10, "weight of creature danger in the estimate at the cut (the "
          "static danger map, as the lookahead's risk)"),
    Param("blend", 0, 0, 1, "weight of the share of points in the reward (0: win share only)"),
    Param("paired", 1, 0, 1, "1: the root's options in rounds on shared worlds, halved down "
          "to two; a move other than the rollout rung's only when its paired gain clears z "
          "standard errors"),
    Param("z", 3, 0, 10, "standard errors a paired gain must clear (paired=1)"),
    Param("plies", 1000, 0, 10_000, "decisions below the root the tree holds (0: the root's "
          "options only, each played on by the rollout rung)"),
    Param("widen", 0, 0, 1, "progressive widening: a tree node visited N times tries at most "
          "floor(N^widen) of its options, the rollout rung's first (0: every option as soon as it "
          "is reached)"),
    Param("bare", 0, 0, 2, "benchmark only: 1 plays the budget's playouts from the real table "
          "with no tree (the speed limit), 2 on drawn worlds; either answers as the rollout rung"),
)
(P_BUDGET, P_C, P_ROLLOUT, P_DEPTH, P_TEMPERATURE, P_RISK, P_BLEND, P_PAIRED, P_Z,
 P_PLIES, P_WIDEN, P_BARE) = range(len(PARAMS))
MEM_W = SCRATCH_W                 # greedy's cells below, its parameters at the top
_GREEDY = np.zeros(PAR_W, np.float64)
_GREEDY[:len(greedy.PARAMS)] = [p.default for p in greedy.PARAMS]


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    """Outside a game: ``greedy``'s answer (see the module's docstring)."""
    own = mem[SCRATCH_W - PAR_W:]
    for i in range(PAR_W):
        own[i] = _GREEDY[i]
    return greedy.choose(pub, mine, seat, kind, opts, n, rng, mem[:SCRATCH_W - PAR_W], work,
                         own)
