"""The rules core of the balance simulator: board -> state -> rules, compiled with numba (the
bottom layer, docs/architecture.md; ``play`` runs games on it, ``strategies`` decide in it).

Importing the package points numba's on-disk cache at a folder named by a hash of the project's
compiled sources (every module of ``sources.PACKAGES`` that numba compiles, or that such a
module imports: ``simulator.sources``). numba does not notice edits to jitted functions in
*other* files than the one it compiles, so without this a cached engine could silently keep
running an old rule (docs/cache.md).
"""
import hashlib
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from .sources import compiled_files     # standard library only: numba is not imported yet


def _source_hash() -> str:
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    files = compiled_files(root.parent) + [root / "data" / "board.json"]
    for f in files:
        h.update(f.relative_to(root.parent).as_posix().encode())
        h.update(f.read_bytes())
    try:
        h.update(version("numba").encode())
    except PackageNotFoundError:
        pass
    return h.hexdigest()[:16]


# the hash of the compiled sources: names the cache, and a sweep's run folder records it so
# that results of different engine sources are never mixed
SOURCE_HASH = _source_hash()


def _cache_dir() -> str:
    base = os.environ.get("SURVIVE_SIM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache"), "survive-sim")
    return os.path.join(base, SOURCE_HASH)


CACHE_DIR = _cache_dir()
try:
    os.makedirs(CACHE_DIR, exist_ok=True)
    if "numba" in sys.modules:           # numba reads the variable at import; patch it if late
        sys.modules["numba"].config.CACHE_DIR = CACHE_DIR
    else:
        os.environ["NUMBA_CACHE_DIR"] = CACHE_DIR
except OSError:                           # unwritable home: numba falls back to its own locator
    pass
