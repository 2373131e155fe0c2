"""The core is compiled without numba's negative-index wrap (``simulator/jit.py``): check that
it never makes a negative index, by playing whole games as plain Python on arrays that refuse
one (``support/negative_index_audit.py``)."""
import numpy as np
import pytest
from support.negative_index_audit import NoNegative, played_in_plain_python

pytestmark = pytest.mark.engine_free


def test_the_core_never_indexes_with_a_negative_number():
    """Whole games of ``random`` and ``greedy`` at 2 to 6 players, with challenges, dolphins and
    squid, index no array of the engine, the rules, the board or the strategies with a negative
    number (compiled, such an index would reach outside the array)."""
    done = played_in_plain_python()
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_audit_catches_a_negative_index():
    """The audit's arrays do refuse a negative index (so the test above can fail)."""
    a = np.arange(6).reshape(2, 3).view(NoNegative)
    assert a[1, 2] == 5 and a[1][0] == 3 and list(a[0, 1:]) == [1, 2]
    for bad in ((-1, 0), (0, -1), -1, slice(-2, None)):
        with pytest.raises(IndexError):
            a[bad]
    with pytest.raises(IndexError):
        a[0][-1] = 7


def test_other_numba_code_keeps_negative_indices():
    """Only the core's own functions lose the wrap: numba code compiled elsewhere in the same
    process (a user's, a test's) still reads ``x[-1]`` as the last element."""
    from numba import njit

    import simulator.jit  # noqa: F401  (installs the core's indexing rule)

    @njit
    def last(x, i):
        return x[i]

    assert last(np.arange(5), -1) == 4 and last(np.arange(5), -2) == 3
