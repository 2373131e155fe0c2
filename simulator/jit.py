"""How the rules core is compiled: the one decorator, the inlining, the negative-index wrap.

``hot`` = ``njit(cache=True, _nrt=False)``: compiled, cached on disk, and without numba's
reference counting. Every call between jitted functions that passes arrays otherwise pays
atomic increments and decrements (measured here: ~60 ns for a call with three array arguments,
against ~10 ns without), which dominated the game loop. The price: a ``hot`` function must not
allocate arrays; the functions that do (``engine.play_games``, ``engine._run_blocks``) use plain
``njit`` and hand scratch buffers down.

numba compiles every jitted function into an LLVM module of its own, links into it the modules
of everything it calls, and optimises and compiles the whole again: code is compiled once for
every function above it, and once more for each literal value of a constant argument
(``ask(..., D_SINK, ...)``). With every strategy inlined into the engine's switch that cost
7-9 minutes of CPU on a 2-core VM (``ask`` alone came in 21 copies, each holding all eight
strategies, linked again into ~20 engine functions and the five modules of the two entry
points). So the compiled code has separate roots, called through first-class functions,
which numba does not link: the game (``engine.game_function``, one module for both entry
points) and each strategy outside the switch (its seat function, ``strategies.seat_call``).
Measured on that VM (docs/performance.md, "Cold compile"): the engine 85 s, then the first
strategy of the greedy family 73 s and each further one 12-18 s, ``lookahead`` 70 s; 302 s for
everything against 527 s, and games as fast or faster (A/B in one process; tables identical).

The rules are many small functions that pass several arrays each, and numba flattens every
array into about seven scalar arguments, so a call that is not inlined is dear. LLVM's inlining
threshold (250 at -O3) is raised to 3000 for the strategies' roots, whose scoring loops then
run inside one function (at 250 ``greedy`` ran about 7% and ``lookahead`` about 10% slower);
the engine keeps 250 (at 3000 ``random`` games ran about 15% slower). Either way the compile
time is within 10%. The option is process-wide: ``inlining`` sets it around one compile.

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
from contextlib import contextmanager

import llvmlite.binding as llvm
import numba.np.arrayobj as _arrayobj
from numba import njit
from numba.core import types
from numba.core.errors import NumbaExperimentalFeatureWarning

from .sources import PACKAGES

# plug-in seats are first-class functions (strategies.dispatch), a feature numba still calls
# experimental; it is measured and tested here (tests/test_plugins.py), so say it once, here
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

ENGINE_INLINING = 250            # LLVM's own -O3 threshold: the engine and its switch
STRATEGY_INLINING = 3000         # a strategy's seat function (strategies.seat_call)


@contextmanager
def inlining(threshold: int):
    """Compile what is compiled inside with LLVM's inline threshold ``threshold``. The option is
    process-wide, so it is set around one explicit compile (numba compiles under one lock, and
    nothing here compiles from two threads) and set back to ``ENGINE_INLINING``."""
    llvm.set_option("survive-sim", f"-inline-threshold={threshold}")
    try:
        yield
    finally:
        llvm.set_option("survive-sim", f"-inline-threshold={ENGINE_INLINING}")

_OURS = tuple(f"_ZN{len(p)}{p}" for p in PACKAGES)        # numba's (Itanium) mangled names
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
