"""The one decorator the rules core uses.

``hot`` = ``njit(cache=True, _nrt=False)``: compiled, cached on disk, and without numba's
reference counting. Every call between jitted functions that passes arrays otherwise pays
atomic increments and decrements (measured here: ~60 ns for a call with three array arguments,
against ~10 ns without), which dominated the game loop. The price: a ``hot`` function must not
allocate arrays; the few entry points that do (``engine.run_games``, ``engine.replay_game``)
use plain ``njit(cache=True)`` and hand scratch buffers down.
"""
from numba import njit


def hot(fn):
    return njit(cache=True, _nrt=False)(fn)

