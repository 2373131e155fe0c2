"""Plug-in strategies for the skill-luck study's question "what is placement alone worth?"
(docs/claims.md K3): each delegates the setup decisions to one built-in and every other
decision to another, so that a table can hold players who differ *only* in how they place.

* ``placer``: places its explorers and boats as ``greedy`` does, then plays every later
  decision at random (uniform over the legal options, as ``random``).
* ``scatter``: places its explorers and boats at random, then plays every later decision as
  ``greedy`` does.

The setup decisions are the three kinds the engine asks before the first turn (B4): which
explorer to place next (``D_PICK_EXPLORER``), where it goes (``D_PLACE_EXPLORER``) and where a
boat goes (``D_PLACE_BOAT``). ``greedy.choose`` is called with greedy's own parameters (each
strategy here declares greedy's ``PARAMS``, so ``par`` holds greedy's defaults) and greedy's
scratch (``MEM_W``), exactly as the built-in ``greedy`` seat would be; the random half draws from
the seat's own noise stream as ``random`` does. A plug-in, not a built-in: the compiled packages
(and so the engine's source hash and every existing run) are untouched; the file compiles once
into its own cache folder (docs/writing-a-strategy.md).
"""
from simulator.rng import randint
from simulator.state import D_PICK_EXPLORER, D_PLACE_BOAT, D_PLACE_EXPLORER
from strategies import greedy
from strategies.api import compiled


@compiled
def _placer(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    if kind == D_PICK_EXPLORER or kind == D_PLACE_EXPLORER or kind == D_PLACE_BOAT:
        return greedy.choose(pub, mine, seat, kind, opts, n, rng, mem, work, par)
    return randint(rng, 0, n)


@compiled
def _scatter(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    if kind == D_PICK_EXPLORER or kind == D_PLACE_EXPLORER or kind == D_PLACE_BOAT:
        return randint(rng, 0, n)
    return greedy.choose(pub, mine, seat, kind, opts, n, rng, mem, work, par)


STRATEGIES = [
    dict(name="placer", description="places explorers and boats as greedy does, then plays "
         "every other decision at random", params=greedy.PARAMS, mem_w=greedy.MEM_W,
         choose=_placer),
    dict(name="scatter", description="places explorers and boats at random, then plays every "
         "other decision as greedy does", params=greedy.PARAMS, mem_w=greedy.MEM_W,
         choose=_scatter),
]
