"""Play whole games as plain Python (run with ``NUMBA_DISABLE_JIT=1``) with every array of the
core replaced by one that refuses negative indices.

Compiled, the core indexes its arrays without numba's negative-index wrap (``simulator/jit.py``),
so a negative index there would read or write outside the array instead of at its end. Here
such an index raises ``IndexError`` at the line that made it, and, the arrays being bounded
numpy views, so does any read past a strategy's view of the state (R11). Exit code 0: neither
happened. Tests run it once per session through ``played_in_plain_python``."""
import functools
import os
import subprocess
import sys

import numpy as np

from simulator.sources import PACKAGES


class NoNegative(np.ndarray):
    """An array (and every view of it) that raises on a negative index or slice bound."""

    @staticmethod
    def _check(key):
        for k in key if isinstance(key, tuple) else (key,):
            if isinstance(k, slice):
                k = min(k.start or 0, k.stop or 0)
            if isinstance(k, (int, np.integer)) and k < 0:
                raise IndexError(f"negative index {key!r}")

    def __getitem__(self, key):
        self._check(key)
        return super().__getitem__(key)

    def __setitem__(self, key, value):
        self._check(key)
        super().__setitem__(key, value)


def _refusing(make):
    return lambda *args, **kwargs: make(*args, **kwargs).view(NoNegative)


def main(games: int) -> None:
    np.empty, np.zeros = _refusing(np.empty), _refusing(np.zeros)    # the engine's scratch
    import play.simulate  # noqa: F401  (imports every compiled module)
    for name, module in list(sys.modules.items()):                   # the board's tables ...
        if name.split(".")[0] in PACKAGES:
            for attr, value in list(vars(module).items()):
                if type(value) is np.ndarray:
                    setattr(module, attr, value.view(NoNegative))
    from play.settings import Settings
    from play.simulate import run_records
    for players, strategies, challenges, extra in (
            (2, "greedy,random,greedy,random", (), ""),
            (3, "random,careful,racer", (1, 3), "d"),
            (4, "saboteur,random,random,greedy", (2, 4), "s"),
            (4, "random,tuned,careful,random", (3,), "d"),
            (5, "racer,random,greedy,random,saboteur", (), "dso"),
            (6, "greedy,random,greedy,random,greedy,random", (6,), "ds")):
        settings = Settings(players=players, strategies=tuple(strategies.split(",")),
                            challenges=challenges, dolphins="d" in extra, squid="s" in extra,
                            squid_only="o" in extra)
        rows = np.asarray(run_records(settings, 5, 0, games))
        assert (rows[:, 2] > 0).all()                                 # every game ended


@functools.cache
def played_in_plain_python(games: int = 2) -> subprocess.CompletedProcess:
    """Run this audit in a subprocess without the compiler (once per test session)."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    return subprocess.run([sys.executable, "-W", "ignore", __file__, str(games)], check=False,
                          env=env, capture_output=True, text=True, timeout=600)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
