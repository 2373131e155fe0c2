"""``random``: uniform over the legal options of every decision. The floor of the ladder and the
opponent that shows whether a heuristic has any strength at all.

Decisions the engine asks in two halves are uniform at each half: a movement point picks
uniformly among 'stop' and the pieces that can move, then among that piece's moves; a die move
among the creatures of the rolled kind, then among that creature's moves."""

from simulator.jit import hot
from simulator.rng import randint


NAME = "random"
INLINE = True           # in the engine's switch: a decision costs nanoseconds, a call would show
CODE = 0
DESCRIPTION = "uniform over the legal options of every decision: the floor of the ladder"
PARAMS = ()
MEM_W = 0


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return randint(rng, 0, n)
