"""An example plug-in strategy: ``homing`` heads for the nearest safe isle and plays the rest at
random. Run it with

    survive-sim simulate --plugin examples/homing_bot.py --players 4 --games 2000 \
        --strategies homing,greedy,greedy,greedy

The file is all a plug-in needs: the fields below and a ``choose`` compiled with
``strategies.api.compiled``. It may use anything of ``simulator`` and ``strategies`` that is
compiled (board tables, state offsets, ``strategies.queries``, the random streams). See
docs/writing-a-strategy.md for what each argument holds.
"""
from simulator.board import DIST_TO_ACCESS, N_HEX
from simulator.rng import randint, uniform
from simulator.state import D_MOVE
from strategies.api import Param, compiled

NAME = "homing"
DESCRIPTION = "moves every piece toward the nearest safe isle; everything else at random"
PARAMS = (Param("wander", 0.0, 0.0, 1.0, "chance of a random move instead of the homeward one"),)
MEM_W = 0                     # it keeps no memory between decisions


@compiled
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    if kind != D_MOVE or uniform(rng, 0) < par[0]:
        return randint(rng, 0, n)
    best, best_d = 0, 1 << 30
    for k in range(n):          # D_MOVE rows: (what, id, dest, boat); an isle is >= N_HEX
        dest = opts[k, 2]
        d = 0 if dest >= N_HEX else DIST_TO_ACCESS[dest]
        if d < best_d:
            best, best_d = k, d
    return best
