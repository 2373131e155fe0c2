"""``tuned``: a named preset of ``racer`` -- racer's play, with the parameters CMA-ES found
against the ladder as its defaults (``api.preset``).

Found by (2-core VM, 2026-12-01, 136,000 games in 403 s):

    survive-sim tune racer --against greedy,careful,racer,saboteur --players 4 \
        --budget 120000 --games 150 --popsize 8 --holdout 2000 --seed 11

On 2,000 held-out game indices (x 4 seats, paired with racer's defaults on the same games):
win share 38.2% [37.2, 39.2] against racer's 33.2% [32.3, 34.2] with the same opponents, a gain
of +4.99 pp [+3.61, +6.36] (paired t, p = 2e-12). What changed: explorers' worth grows with
value to the power 3.95 (racer: 2), danger weighs 0.79 (racer: 0.25) and a hex swum counts
1.21 movement points (racer: 2). The parameters stay tunable: ``tuned:risk=1`` and so on.
"""
from simulator.jit import hot
from strategies import racer
from strategies.api import preset

NAME = "tuned"
CODE = 5
DESCRIPTION = "racer with the weights CMA-ES found against the ladder (survive-sim tune)"
TUNED = {"focus": 3.949, "risk": 0.79, "swim": 1.213}
PARAMS = preset(racer, TUNED)
MEM_W = racer.MEM_W


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    """racer's answer (under the parameters the seat was given: these defaults, or others)."""
    return racer.choose(pub, mine, seat, kind, opts, n, rng, mem, work, par)
