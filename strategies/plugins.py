"""User strategies from their own files, played without recompiling the engine.

A plug-in file defines the same fields as a built-in (``NAME``, ``DESCRIPTION``, ``PARAMS``,
``MEM_W``) and ``choose`` compiled with ``strategies.api.compiled`` (one fixed signature), or
several strategies as a list ``STRATEGIES`` of dicts with those keys. The engine takes a tuple
of six such functions, one per seat, so only the plug-in compiles (under a cache folder named by
the hash of its own source and the engine's, so an edit is always seen).

Or it defines ``POLICY`` instead of ``choose``: a Python callable answering the environment's
observation (``play.observation``), ``POLICY(observation, action_mask, rng) -> row``. Such a
seat's games play through ``play.stepper`` (``play.policy_games``): the same games, slowly.

The file is imported under a name made from its path and put in ``sys.modules`` before it runs
(numba's cache needs to find the module again in the next process).
"""
from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

import simulator

from .api import ReadOnlyWrite, returns_a_row, signature
from .registry import Strategy, StrategyError, register_plugin, validate

_LOADED: dict[Path, list[Strategy]] = {}


def source_hash(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def _import(path: Path):
    import numba    # here, not at the top: run folders hash plug-in files without numba (0.4 s)
    digest = source_hash(path)
    name = f"survive_plugin_{''.join(c if c.isalnum() else '_' for c in path.stem)}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    old = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(Path(simulator.CACHE_DIR) / "plugins" / digest)
    try:
        spec.loader.exec_module(module)
    except SystemExit as e:         # sys.exit() or exit() at import: the command would end
        del sys.modules[name]       # with nothing done and exit code 0
        raise StrategyError(f"plug-in {path} called sys.exit({e.code!r}) while it was imported; "
                            f"a plug-in file only defines its strategies") from None
    except ReadOnlyWrite as e:      # ``compiled`` refused a write into pub or mine
        del sys.modules[name]
        raise StrategyError(f"plug-in {path}: {e}") from None
    except Exception as e:          # a user's file: any error becomes one line
        del sys.modules[name]
        raise StrategyError(f"plug-in {path} failed to import: {type(e).__name__}: "
                            f"{str(e).splitlines()[0] if str(e) else ''}".rstrip(": ")) from None
    finally:
        numba.config.CACHE_DIR = old
    return module


def _entries(module, path: Path) -> list[dict]:
    """The strategies a plug-in file declares: its ``STRATEGIES`` list, or its top-level
    fields (``NAME``, ``DESCRIPTION``, ``PARAMS``, ``MEM_W``, ``choose``) as one entry."""
    if hasattr(module, "STRATEGIES"):
        entries = module.STRATEGIES
        if not isinstance(entries, (list, tuple)) or not all(isinstance(e, dict)
                                                             for e in entries):
            raise StrategyError(f"plug-in {path}: STRATEGIES must be a list of dicts with the "
                                f"keys name, description, params, mem_w and choose (or policy)")
        return list(entries)
    if hasattr(module, "NAME"):
        return [{"name": module.NAME, "description": getattr(module, "DESCRIPTION", ""),
                 "params": getattr(module, "PARAMS", ()), "mem_w": getattr(module, "MEM_W", 0),
                 "choose": getattr(module, "choose", None),
                 "policy": getattr(module, "POLICY", None)}]
    raise StrategyError(f"plug-in {path} defines neither NAME and choose nor STRATEGIES "
                        f"(see docs/writing-a-strategy.md)")


def _check_compiled(fn, name: str, path: Path):
    from numba.core.registry import CPUDispatcher    # (numba: as in ``_import``)
    if not isinstance(fn, CPUDispatcher):
        raise StrategyError(f"plug-in {path}: {name}'s choose must be decorated with "
                            f"@strategies.api.compiled")
    if [sig.args for sig in fn.nopython_signatures] != [signature().args]:
        raise StrategyError(f"plug-in {path}: {name}'s choose must have exactly the signature "
                            f"of strategies.api.compiled")
    if not returns_a_row(fn):
        returned = fn.nopython_signatures[0].return_type
        raise StrategyError(f"plug-in {path}: strategy {name}'s choose returns {returned}, not "
                            f"an int; it must return the row it picks, an int 0 <= k < n")
    return fn


POLICY_NOTE = "a Python policy: its games play through the environment, ~100x slower"


def _policy(entry: dict, name: str, params, path: Path) -> Strategy:
    """A plug-in whose ``POLICY(observation, action_mask, rng) -> row`` answers as an agent of
    the environment does (docs/env.md, "A policy in a table")."""
    policy = entry["policy"]
    if not callable(policy):
        raise StrategyError(f"plug-in {path}: {name}'s POLICY must be callable as "
                            f"POLICY(observation, action_mask, rng) -> row")
    if entry.get("choose") is not None:
        raise StrategyError(f"plug-in {path}: {name} defines both choose and POLICY; keep one")
    if params:
        raise StrategyError(f"plug-in {path}: {name} is a POLICY, which takes no PARAMS")
    description = str(entry.get("description", "")).strip()
    return Strategy(name, 0, None, (), 0, f"{description} ({POLICY_NOTE})".strip(), path,
                    plugin=True, policy=policy)


def load_plugin(path) -> list[Strategy]:
    """Import a plug-in file and register its strategies; the same file twice is one load."""
    try:
        path = Path(path).expanduser().resolve()
        is_file = path.is_file()
    except (OSError, RuntimeError) as e:     # a name too long, ~nosuchuser, a symlink loop
        raise StrategyError(f"plug-in {path} cannot be read ({' '.join(str(e).split())})"
                            ) from None
    if path in _LOADED:
        return _LOADED[path]
    if not is_file:
        raise StrategyError(f"plug-in {path} is not a file")
    if path.suffix != ".py":
        raise StrategyError(f"plug-in {path} must be a .py file")
    module = _import(path)
    found = []
    for entry in _entries(module, path):
        name = entry.get("name")
        params = tuple(entry.get("params", ()))
        mem_w = entry.get("mem_w", 0)
        validate(name, 0, params, mem_w, path)
        if entry.get("policy") is not None:
            s = _policy(entry, name, params, path)
        else:
            fn = _check_compiled(entry.get("choose"), name, path)
            s = Strategy(name, 0, fn, params, int(mem_w), str(entry.get("description", "")),
                         path, plugin=True)
        register_plugin(s)
        found.append(s)
    _LOADED[path] = found
    return found


def load_plugins(paths) -> list[Strategy]:
    out = []
    for p in paths or ():
        out.extend(load_plugin(p))
    return out
