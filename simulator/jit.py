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

numba also wraps negative indices (``x[-1]``) on every access with a signed index: a compare and
a select against the array's length, which LLVM can remove only when it can prove the index is
not negative (a ``range`` counter, not a hex number loaded from the state, as most of ours are).
The core never indexes with a negative number on purpose, so its functions, and only its
functions (chosen by their compiled names, which start with the package's name), are compiled
without the wrap: a negative index there is a bug, as it is without the wrap. That made
``greedy`` about 12% and ``random`` about 10% faster here, with identical tables. Checked by
``test_the_core_never_indexes_with_a_negative_number`` (plain Python, arrays that refuse
negative indices), and with ``NUMBA_BOUNDSCHECK=1`` any negative index raises ``IndexError``.
Other numba code in the process keeps numba's behaviour.
"""
import inspect
import warnings

import llvmlite.binding as llvm
import numba.np.arrayobj as _arrayobj
from numba import njit
from numba.core import types
from numba.core.errors import NumbaExperimentalFeatureWarning

# plug-in seats are first-class functions (strategies.dispatch), a feature numba still calls
# experimental; it is measured and tested here (tests/test_plugins.py), so say it once, here
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

INLINE_THRESHOLD = 3000
llvm.set_option("survive-sim", f"-inline-threshold={INLINE_THRESHOLD}")

_PACKAGES = ("simulator", "strategies")
_OURS = tuple(f"_ZN{len(p)}{p}" for p in _PACKAGES)        # numba's (Itanium) mangled names
_wrapping_index = getattr(_arrayobj, "fix_integer_index", None)


def _index_without_wraparound(context, builder, idxty, idx, size):
    """numba's ``fix_integer_index``, minus the negative-index wrap inside our functions."""
    if idxty.signed and builder.function.name.startswith(_OURS):
        return context.cast(builder, idx, idxty, types.intp)
    return _wrapping_index(context, builder, idxty, idx, size)


if _wrapping_index is not None and list(inspect.signature(_wrapping_index).parameters) == [
        "context", "builder", "idxty", "idx", "size"]:   # a numba that lowers indices otherwise
    _arrayobj.fix_integer_index = _index_without_wraparound   # keeps its wrap: slower, correct


def hot(fn):
    return njit(cache=True, _nrt=False)(fn)

