"""The one decorator the rules core uses.

``hot`` = ``njit(cache=True, _nrt=False)``: compiled, cached on disk, and without numba's
reference counting. Every call between jitted functions that passes arrays otherwise pays
atomic increments and decrements (measured here: ~60 ns for a call with three array arguments,
against ~10 ns without), which dominated the game loop. The price: a ``hot`` function must not
allocate arrays; the few entry points that do (``engine.run_games``, ``engine.replay_game``)
use plain ``njit(cache=True)`` and hand scratch buffers down.

The rules are many small functions that pass several arrays each, and numba flattens every
array into about seven scalar arguments, so a call that is not inlined is dear. numba leaves
LLVM's inlining threshold at its -O3 default (250); the core is compiled with 3000, which cut
game time by a few per cent here (about 6% for ``greedy``, 10% for ``random``: both builds
loaded in one process, alternating, each order once; repeats ranged from 0% to 18%), for the
same compile time and identical results. The option is process-wide: other numba code
compiled in the same process inlines more too (harmless; it is set in this file, so the cache
key changes with it).
"""
import llvmlite.binding as llvm
from numba import njit

INLINE_THRESHOLD = 3000
llvm.set_option("survive-sim", f"-inline-threshold={INLINE_THRESHOLD}")


def hot(fn):
    return njit(cache=True, _nrt=False)(fn)

