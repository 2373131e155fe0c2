"""What a strategy is: the one compiled signature every decision maker has, and its parameters.

Every strategy, built in or a user's plug-in, is a compiled function

    choose(pub, mine, seat, kind, opts, n, rng, mem, work, par) -> int

that returns the row ``k`` (``0 <= k < n``) of the legal options ``opts[:n]`` it picks:

* ``pub``  int32, read-only -- the public table (``simulator.state``: pieces, tiles, turn ...),
  RULES R11;
* ``mine`` int32, read-only -- this seat's own secrets (its explorers' values, its tiles in hand);
* ``seat``, ``kind``, ``n`` int64 -- who decides, which decision (``simulator.state.D_*``) and
  how many legal rows there are;
* ``opts`` int32 (rows x ``OPT_W``) -- the legal options (layouts in ``simulator.state``), not to
  be changed (a plug-in's seat call checks ``opts[:n]``); rows past ``n`` are scratch;
* ``rng``  uint64[1] -- the seat's own noise stream (``simulator.rng.randint`` / ``uniform``);
* ``mem``  float64[``SCRATCH_W``] -- scratch the seat keeps for the whole game (zero at the start);
* ``work`` int32 -- scratch for asking the rules about other moves (``strategies.queries``);
* ``par``  float64[``PAR_W``] -- the seat's parameters, in the order the strategy declares them.

Built-ins are reached through an integer switch generated from the registry (no indirect call);
plug-ins are first-class functions of ``signature()`` handed to the engine in a tuple, so neither
a parameter nor a plug-in ever recompiles the engine (see docs/writing-a-strategy.md).
"""
from __future__ import annotations

import math
import linecache
import re
from dataclasses import dataclass, replace

SCRATCH_W = 1024   # float64 scratch each seat's strategy keeps for the whole game
PAR_W = 16         # parameters per seat (a strategy declares at most this many)
# the engine keeps one float64 row per seat: its scratch (``mem``), then its parameters (``par``)
# -- the whole row, not a strategy's own ``MEM_W`` (how much of that scratch it uses)
MEM_W = SCRATCH_W + PAR_W
PAR0 = SCRATCH_W


@dataclass(frozen=True)
class Param:
    """One tunable number: its default and the closed range it may take."""
    name: str
    default: float
    low: float
    high: float
    doc: str = ""
    choices: tuple[str, ...] = ()   # a named choice: the value is the index of a name

    def __post_init__(self):
        if not self.name.isidentifier():
            raise ValueError(f"parameter name {self.name!r} must be an identifier")
        if self.choices and (self.low != 0 or self.high != len(self.choices) - 1):
            raise ValueError(f"parameter {self.name}: a choice of {len(self.choices)} names "
                             f"runs from 0 to {len(self.choices) - 1}")
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low <= self.default
                <= self.high):
            raise ValueError(f"parameter {self.name}: default {self.default} must lie in "
                             f"[{self.low}, {self.high}]")

    def read(self, text: str, strategy: str) -> float:
        """``key=value``'s value: a number, or for a choice one of its names."""
        if self.choices:
            if text.strip() in self.choices:
                return float(self.choices.index(text.strip()))
            raise ValueError(f"{strategy}: {self.name}={text!r} is not one of "
                             f"{', '.join(self.choices)}")
        try:
            number = float(text)
        except ValueError:
            raise ValueError(f"{strategy}: {self.name}={text!r} is not a number") from None
        return self.check(number, strategy)

    def spell(self, value: float) -> str | None:
        """A choice's name for ``value`` (None for a number)."""
        return self.choices[int(value)] if self.choices else None

    def check(self, value: float, strategy: str) -> float:
        value = float(value)
        if self.choices and value != int(value):
            raise ValueError(f"{strategy}: {self.name}={value:g} is not one of "
                             f"{', '.join(self.choices)}")
        if not (math.isfinite(value) and self.low <= value <= self.high):
            raise ValueError(f"{strategy}: {self.name}={value:g} is outside its range "
                             f"[{self.low:g}, {self.high:g}]")
        return value


def preset(base, tuned: dict[str, float]) -> tuple[Param, ...]:
    """The ``PARAMS`` of a named preset of the strategy module ``base`` (``tuned``, ``expert``):
    ``base``'s parameters, those named in ``tuned`` with the defaults given there (their doc
    then names ``base``'s own default). A preset's module keeps its own compiled ``choose``
    that calls ``base.choose``, so the preset's file is compiled code: it is in the cache key
    (``simulator.sources``), and results of other defaults are never mixed with these."""
    known = {p.name for p in base.PARAMS}
    unknown = sorted(set(tuned) - known)
    if unknown:
        raise ValueError(f"{base.NAME} has no parameter {', '.join(unknown)}")
    out = []
    for p in base.PARAMS:
        if p.name in tuned:                  # a named choice may be given by its name
            value = tuned[p.name]
            value = p.read(value, base.NAME) if isinstance(value, str) else value
            p = replace(p, default=value,
                        doc=f"{p.doc}; {base.NAME}: {p.spell(p.default) or f'{p.default:g}'}")
        out.append(p)
    return tuple(out)


def arguments():
    """The numba types of ``choose``'s arguments (numba is imported only when this is called).
    ``pub`` and ``mine`` are read-only: they are the engine's own state, and a plug-in that
    wrote into them (``pub[:] = 0``) left a game that never ended. A write is then a compile
    error, at no cost per decision; the engine hands its (writable) state over unchanged."""
    from numba import types     # here: the registry and its specs are read without numba (0.4 s)
    arr = types.Array
    return (arr(types.int32, 1, "C", readonly=True), arr(types.int32, 1, "C", readonly=True),
            types.int64, types.int64, arr(types.int32, 2, "C"), types.int64,
            arr(types.uint64, 1, "C"), arr(types.float64, 1, "C"), arr(types.int32, 1, "C"),
            arr(types.float64, 1, "C"))


def signature():
    """The numba signature of ``choose``: ``arguments()`` -> int64."""
    from numba import types     # (numba: as in ``arguments``)
    return types.int64(*arguments())


def returns_a_row(fn) -> bool:
    """``fn`` (compiled by ``compiled``) returns an integer: numba would otherwise turn a float
    answer into an int silently (``1e30``, NaN and 2.7 became rows the engine accepted)."""
    from numba import types     # (numba: as in ``arguments``)
    return all(isinstance(sig.return_type, types.Integer) for sig in fn.nopython_signatures)


class ReadOnlyWrite(TypeError):
    """A plug-in's ``choose`` writes into ``pub`` or ``mine`` (found when it compiles)."""


def _first_write_line(fn) -> int | str:
    """The first line of ``fn`` that stores into its first two arguments (``pub``, ``mine``),
    found in its source: the last resort when numba's error says nowhere; "?" if none."""
    import ast
    import inspect
    import textwrap
    try:
        lines, start = inspect.getsourcelines(fn)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return "?"
    names = set(fn.__code__.co_varnames[:2])
    for node in ast.walk(tree):
        if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name) and node.value.id in names):
            return start + node.lineno - 1
    return "?"


def _read_only_write(fn, error) -> ReadOnlyWrite | None:
    """numba's long typing error for a write into a read-only array, as one line naming the
    line of the user's file; None for any other error."""
    text = str(error)
    if "Cannot modify readonly array" not in text:
        return None
    loc = getattr(error, "loc", None)       # numba's own record of where typing failed
    line = getattr(loc, "line", None)
    if line is None:                        # not recorded: read it from the message
        where = re.findall(r'File "[^"]*", line (\d+):', text)
        line = where[-1] if where else _first_write_line(fn)
    code = ""
    if str(line).isdigit():
        for filename in (getattr(loc, "filename", None), fn.__code__.co_filename):
            code = code or (linecache.getline(filename, int(line)) if filename else "")
    code = f" ({code.strip()})" if code.strip() else ""
    return ReadOnlyWrite(f"{fn.__name__} writes into pub or mine at line {line}"
                         f"{code}, which are read-only (the engine's own state); copy "
                         f"pub into work to try moves on it")


def compiled(fn):
    """Compile a plug-in's ``choose`` for the fixed arguments, cached on disk: the decorator a
    strategy file uses (``@compiled``). Like the core (``simulator.jit.hot``) it is compiled
    without numba's reference counting: every call that passes an array otherwise pays atomic
    counts (measured: ``greedy`` called from a counted plug-in ran 20% slower), so ``choose``
    must not allocate arrays -- ``mem`` and ``work`` are its scratch. The return type is left to
    numba, so that the loader can refuse a float (``returns_a_row``) instead of numba casting
    it to an int unseen; the engine's seat call takes any integer."""
    from numba import njit      # (numba: as in ``arguments``)
    from numba.core.errors import TypingError
    try:
        return njit(arguments(), cache=True, _nrt=False)(fn)
    except TypingError as e:
        refused = _read_only_write(fn, e)
        if refused is None:
            raise
        raise refused from None
