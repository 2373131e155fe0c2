"""``expert``: a named preset of ``lookahead`` -- lookahead's play, with the weights CMA-ES
found against the top of the ladder as its defaults (``api.preset``); the ladder's top rung.

Found by (2-core VM, 2026-12-01; 152 candidates, 267,200 games in 706 s):

    survive-sim tune lookahead --against lookahead,tuned,racer --players 4 \
        --budget 250000 --games 400 --popsize 8 --holdout 3000 --seed 21

On 3,000 held-out game indices (x 4 seats, paired with lookahead's defaults on the same games):
win share 31.0% [30.2, 31.7] against 29.8% [29.0, 30.5], a gain of +1.19 pp [+0.15, +2.22]
(paired t, p = 0.025). In the ladder's tournament (README, 560,000 games) it finished above
``lookahead`` in 51.0% [50.6, 51.3] of their 120,000 games together, win share 43.6% [43.4,
43.9] against 42.9% [42.7, 43.2].

What changed (lookahead's default in brackets): an explorer's worth grows with value to the
power 2.55 (3.95), so the 1s and 2s are not abandoned; a hex swum counts 1.60 movement points
(1.21); a movement point fears the next roll less (``fear`` 0.15 (0.5)) while die moves and
sinks weigh it more (``guard`` 1.96 (1), ``doom`` 2.25 (1)); a capsize costs 0.87 of the
passengers' worth (0.5); the several rolls before our next turn count a little (``share``
0.22 (0)); the static danger map 0.27 (0.3). A second search from this point over all eleven
parameters, ``malice`` and ``greed`` included (seed 22, ``--games 500``, 264,000 games), found
nothing better on held-out games (+0.55 pp [-0.45, +1.55]).

The parameters stay tunable: ``expert:fear=0.5`` and so on.
"""
from simulator.jit import hot
from strategies import lookahead
from strategies.api import preset

NAME = "expert"
CODE = 7
DESCRIPTION = ("lookahead with the weights CMA-ES found against lookahead, tuned and racer "
               "(survive-sim tune)")
TUNED = {"focus": 2.546, "risk": 0.2654, "swim": 1.598, "fear": 0.147, "guard": 1.962,
         "doom": 2.25, "share": 0.2166, "late": 1.037, "capsize": 0.8741}
PARAMS = preset(lookahead, TUNED)
MEM_W = lookahead.MEM_W


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    """lookahead's answer (under the parameters the seat was given: these defaults, or
    others)."""
    return lookahead.choose(pub, mine, seat, kind, opts, n, rng, mem, work, par)
