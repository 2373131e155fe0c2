"""The one list of strategies: built-ins found in this package, plug-ins loaded from files.

A built-in is any module of ``strategies/`` that assigns ``NAME`` at its top level, next to
``CODE`` (the integer the compiled switch tests), ``DESCRIPTION``, ``PARAMS`` (a tuple of
``api.Param``), ``MEM_W`` (the scratch it uses) and a compiled ``choose``. Adding one is adding
that file: the switch (``strategies.dispatch``), the command line's list and
``survive-sim strategies`` all derive from here. Plug-ins (``strategies.plugins``) register
the same fields at run time.

``INLINE = True`` puts a built-in into the engine's compiled switch, where the compiler inlines
it into every decision (``random``, whose decisions cost nanoseconds, and ``scripted``, which the
scenario tests drive through the engine's own ids). Every other built-in is
compiled on its own, the first time it plays, and called like a plug-in through its seat's
function (``strategies.seat_call``): numba compiles the whole switch again into every engine
function that asks a decision, so each strategy in it costs the engine's compile many times
its own (see ``simulator.jit``), while a call through the seat function costs a decision
10-15 ns.

A seat's strategy is written ``name`` or ``name:key=value,...`` (``greedy:risk=2,greed=0.5``);
``canonical`` gives the one spelling used in tables: the name, then the parameters that differ
from their defaults, in declared order.
"""
from __future__ import annotations

import ast
import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .api import PAR_W, SCRATCH_W, Param

PLUGIN_CODE = 1000          # plug-in seats: the engine calls the seat's first-class function


class StrategyError(ValueError):
    """A strategy name, parameter or plug-in the registry refuses (one line)."""


@dataclass(frozen=True)
class Strategy:
    name: str
    code: int
    choose: object = field(repr=False)
    params: tuple[Param, ...] = ()
    mem_w: int = 0
    description: str = ""
    source: Path | None = None
    listed: bool = True         # False: internal (``scripted`` drives the scenario tests)
    plugin: bool = False
    inline: bool = False        # in the engine's compiled switch (``INLINE``); else a seat function
    reenters: bool = False      # plays the game on from its decisions (``REENTERS``: ``search``)
    contract: str = ""          # the spec the contract's games seat (``CONTRACT``), if not the name
    # a plug-in's Python ``POLICY`` (docs/env.md): it answers the environment's observation,
    # and its games play through ``play.stepper`` instead of the compiled engine (slow)
    policy: object = field(default=None, repr=False)

    def defaults(self) -> np.ndarray:
        row = np.zeros(PAR_W, np.float64)
        row[:len(self.params)] = [p.default for p in self.params]
        return row


_BUILTIN: dict[str, Strategy] = {}
_PLUGINS: dict[str, Strategy] = {}


def _declares_name(path: Path) -> bool:
    """True when the module assigns ``NAME`` at top level (read, not imported)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == "NAME" for t in node.targets) for node in tree.body)


def validate(name, code, params, mem_w, source) -> None:
    where = f"{source}: " if source else ""
    if not isinstance(name, str) or not name or not all(c.isalnum() or c in "_-" for c in name):
        raise StrategyError(f"{where}strategy NAME must be letters, digits, '_' or '-', "
                            f"got {name!r}")
    if len(params) > PAR_W:
        raise StrategyError(f"{where}{name}: at most {PAR_W} parameters, got {len(params)}")
    if not all(isinstance(p, Param) for p in params):
        raise StrategyError(f"{where}{name}: PARAMS must be strategies.api.Param entries")
    if len({p.name for p in params}) != len(params):
        raise StrategyError(f"{where}{name}: two parameters share a name")
    if not 0 <= int(mem_w) <= SCRATCH_W:
        raise StrategyError(f"{where}{name}: MEM_W must be 0..{SCRATCH_W}, got {mem_w}")


def _discover() -> dict[str, Strategy]:
    found = {}
    root = Path(__file__).resolve().parent
    for info in sorted(pkgutil.iter_modules([str(root)]), key=lambda i: i.name):
        path = root / f"{info.name}.py"
        if info.ispkg or not path.exists() or not _declares_name(path):
            continue
        mod = importlib.import_module(f"{__package__}.{info.name}")
        params = tuple(getattr(mod, "PARAMS", ()))
        validate(mod.NAME, mod.CODE, params, mod.MEM_W, path.name)
        s = Strategy(mod.NAME, int(mod.CODE), mod.choose, params, int(mod.MEM_W),
                     mod.DESCRIPTION, path, getattr(mod, "LISTED", True),
                     inline=bool(getattr(mod, "INLINE", False)),
                     reenters=bool(getattr(mod, "REENTERS", False)),
                     contract=str(getattr(mod, "CONTRACT", "")))
        for other in found.values():
            if other.code == s.code or other.name == s.name:
                raise StrategyError(f"strategies {other.name} and {s.name} share a name or CODE")
        if not 0 <= s.code < PLUGIN_CODE:
            raise StrategyError(f"{path.name}: CODE must be 0..{PLUGIN_CODE - 1}")
        found[s.name] = s
    return found


def builtins() -> dict[str, Strategy]:
    """The built-ins in the order of their codes (the ladder's order: weakest first)."""
    if not _BUILTIN:
        _BUILTIN.update(sorted(_discover().items(), key=lambda kv: kv[1].code))
    return _BUILTIN


def register_plugin(s: Strategy) -> None:
    if s.name in builtins():
        raise StrategyError(f"{s.source}: a plug-in may not reuse the built-in name {s.name!r}")
    old = _PLUGINS.get(s.name)
    if old is not None and old.source != s.source:
        if old.source.read_bytes() == s.source.read_bytes():
            return                          # the same file copied elsewhere: one strategy
        raise StrategyError(f"two plug-ins are named {s.name!r}: {old.source} and {s.source}")
    _PLUGINS[s.name] = s


def all_strategies() -> dict[str, Strategy]:
    return {**builtins(), **_PLUGINS}


def listed_names() -> list[str]:
    return [n for n, s in all_strategies().items() if s.listed]


def get(name: str) -> Strategy:
    s = all_strategies().get(name)
    if s is None:
        hint = "" if _PLUGINS else " (a plug-in's strategy needs --plugin FILE)"
        raise StrategyError(f"unknown strategy {name!r}; accepted: "
                            f"{', '.join(listed_names())}{hint}")
    return s


# ---------------------------------------------------------------------------- specs
def split_specs(text: str) -> list[str]:
    """``"greedy:risk=2,greed=0.5,random"`` -> ``["greedy:risk=2,greed=0.5", "random"]``: a
    comma-separated piece holding ``=`` but no ``:`` continues the previous strategy."""
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if "=" in part and ":" not in part and out and ":" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def parse_spec(spec: str) -> tuple[Strategy, dict[str, float]]:
    """A seat's spec -> (strategy, the parameters it sets)."""
    name, _, rest = spec.strip().partition(":")
    s = get(name.strip())
    values: dict[str, float] = {}
    known = {p.name: p for p in s.params}
    for item in filter(None, (i.strip() for i in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq:
            raise StrategyError(f"{s.name}: parameter {item!r} needs key=value")
        if key not in known:
            accepted = ", ".join(f"{p.name} [{p.low:g}, {p.high:g}]" for p in s.params)
            raise StrategyError(f"{s.name} has no parameter {key!r}; accepted: "
                                f"{accepted or 'none'}")
        try:
            values[key] = known[key].read(value, s.name)
        except ValueError as e:
            raise StrategyError(str(e)) from None
    return s, values


def canonical(spec: str) -> str:
    """The one spelling of a seat's strategy: defaults left out, declared order."""
    s, values = parse_spec(spec)
    parts = [f"{p.name}={p.spell(values[p.name]) or _number(values[p.name])}" for p in s.params
             if p.name in values and values[p.name] != p.default]
    return s.name + (":" + ",".join(parts) if parts else "")


def _number(value: float) -> str:
    """The shortest spelling that reads back as ``value``: ``2`` or ``0.5`` (``:g``), all the
    digits when ``:g`` would round (``2.0000001`` is not ``2``: two such seats are two
    strategies)."""
    short = f"{value:g}"
    return short if float(short) == value else repr(float(value))


def param_row(spec: str) -> np.ndarray:
    """The ``PAR_W`` float64 parameters the seat's ``choose`` receives as ``par``."""
    s, values = parse_spec(spec)
    row = s.defaults()
    for i, p in enumerate(s.params):
        row[i] = values.get(p.name, p.default)
    return row
