"""Survive: Escape from Atlantis! balance simulator: board -> state -> rules -> engine.

Importing the package points numba's on-disk cache at a folder named by a hash of the package's
own sources (simulator/ and strategies/). numba does not notice edits to jitted functions in
*other* files than the one it compiles, so without this a cached engine could silently keep
running an old rule (see the numba notes in the README).
"""
import hashlib
import os
from pathlib import Path

import numba


def _source_hash() -> str:
    h = hashlib.sha256()
    root = Path(__file__).resolve().parent
    for pkg in (root, root.parent / "strategies"):
        for f in sorted(pkg.glob("*.py")):
            h.update(f.name.encode())
            h.update(f.read_bytes())
    h.update(numba.__version__.encode())
    return h.hexdigest()[:16]


def _cache_dir() -> str:
    base = os.environ.get("SURVIVE_SIM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache"), "survive-sim")
    return os.path.join(base, _source_hash())


CACHE_DIR = _cache_dir()
try:
    os.makedirs(CACHE_DIR, exist_ok=True)
    numba.config.CACHE_DIR = CACHE_DIR
except OSError:                        # unwritable home: numba falls back to its own locator
    pass
