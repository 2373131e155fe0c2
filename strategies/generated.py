"""Modules written from the registry and imported from a file: the engine's switch
(``strategies.dispatch``) and the built-ins' seat functions (``strategies.seat_call``).

numba caches a compiled function next to its module's source file, so generated code is written
as a file -- into the numba cache folder, which is named by the hash of every compiled source,
so a module is rewritten exactly when a strategy changes -- and imported from there. Nobody
edits these files.
"""
from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path

import simulator


def _write(filename: str, text: str) -> Path:
    for folder in (Path(simulator.CACHE_DIR), Path(tempfile.gettempdir()) / "survive-sim" /
                   simulator.SOURCE_HASH):
        path = folder / filename
        try:
            if path.exists() and path.read_text(encoding="utf-8") == text:
                return path                        # unchanged: keep its time stamp (cache)
            folder.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".tmp{os.getpid()}")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
            return path
        except OSError:
            continue
    raise OSError(f"no writable folder for the generated {filename}")


def generated_module(name: str, filename: str, text: str):
    """Import module ``name`` from ``text``, written as ``filename`` into the cache folder."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, _write(filename, text))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
