"""``random``: uniform over the legal options of every decision. The floor of the ladder and the
opponent that shows whether a heuristic has any strength at all."""

from simulator.jit import hot
from simulator.rng import randint


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem):
    return randint(rng, 0, n)
