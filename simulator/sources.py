"""Which source files numba compiles into the engine: found by reading the packages.

A module is *compiled* when it applies numba (``@hot``, ``@njit``, ``njit(``, ``@compiled``) or
when a compiled module imports it (its constants and helpers are frozen into the machine
code). The walk starts from every such module of ``PACKAGES`` and follows
their imports inside those packages, so a new compiled file or folder changes the cache key
without anyone keeping a list. Standard library only: it runs before numba is imported.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

# the one list of the packages numba compiles: the cache key (``simulator.SOURCE_HASH``) hashes
# their compiled files, and ``simulator.jit`` drops the negative-index wrap inside them
PACKAGES = ("simulator", "strategies", "play")
_COMPILES = re.compile(r"@hot\b|@njit\b|\bnjit\(|@compiled\b")


def _module_files(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the packages under ``root``."""
    out = {}
    for pkg in PACKAGES:
        for f in sorted((root / pkg).rglob("*.py")):
            rel = f.relative_to(root).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            out[".".join(parts)] = f
    return out


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package modules ``path`` imports (absolute or relative, ``from x import y`` where
    ``y`` may be a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        bases = []
        if isinstance(node, ast.Import):
            bases = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                up = package.split(".")
                up = up[:len(up) - (node.level - 1)]
                base = ".".join(up + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            bases = [base] + [f"{base}.{a.name}" for a in node.names]
        for b in bases:
            if b in known:
                found.add(b)
    return found


def compiled_files(root: Path) -> list[Path]:
    """Every file whose code can end up in compiled machine code, sorted."""
    known = _module_files(root)
    todo = [m for m, f in known.items() if _COMPILES.search(f.read_text(encoding="utf-8"))]
    seen: set[str] = set()
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        todo.extend(_imports(m, known[m], known) - seen)
    return sorted(known[m] for m in seen)
