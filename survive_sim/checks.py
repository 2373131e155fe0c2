"""The checks of the Python API's arguments, made once at its boundary (docs/python.md).

Every public function checks what it is given before anything is played, written or loaded,
and a bad value raises a ``ValueError`` subclass whose message is one line naming the argument,
the value and what is accepted -- the CLI's rule. The layers' own exceptions are used where a
layer's concept is at fault (``SettingsError``, ``SpecError``, ``RunError``, ``LogError``,
``TournamentError``, ``TuneError``: each check takes ``error=``); a plain argument mistake is an
``ArgumentError``. ``.param`` names the argument (the CLI's option for the layers' exceptions
that carry one).

The limits are the engine's and the CLI's: seeds and game indices are int64
(``INDEX_MAX``), so ``first + games - 1`` must fit; counts are whole numbers >= 1; thread and
worker counts >= 1 (None: the default); numbers finite. An output file's folder must exist
(as for every command's output file: ``experiments.store.outputs.unwritable``), and so must the
parent of an output folder: nothing is made at a mistyped path unless ``parents=True`` says
so. The CLI calls the same functions where it makes the same check, so the words are one.

Standard library only at import: the CLI imports this module at start-up (its command modules).
"""
from __future__ import annotations

import math
import numbers
import os
import tempfile
from collections.abc import Callable, Iterable

INDEX_MAX = 2**63 - 1                 # seeds and game indices are int64 (simulator.rng)
INT32_MAX = 2**31 - 1                 # the engine's int32 fields (the turn cap, counts)

# Bytes per game held in memory. ``GAME_BYTES``: a chunk while it is played and turned into a
# table (int32 records, REC_W = 87 columns x 4 = 348 bytes, the error array, the frame and the
# writers' temporaries; measured 1.2-1.5 KB, rounded up). ``TABLE_BYTES``: one row of the
# finished per-game table (116 columns, measured 469 bytes at every player count).
GAME_BYTES = 2048
TABLE_BYTES = 469


class ArgumentError(ValueError):
    """A bad argument of the Python API: one line naming it, the value and what is accepted;
    ``param`` is the argument's name."""

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


def one_line(text) -> str:
    return " ".join(str(text).split())


def fail(message: str, name: str | None = None, error: type = ArgumentError):
    """Raise ``error(message)`` with ``.param`` set (``name``; ``--name`` for the layers'
    exceptions that name the CLI's option) unless it has one."""
    raise _error(message, name, error)


def _error(message: str, name: str | None, error: type) -> Exception:
    e = error(one_line(message))
    if getattr(e, "param", None) is None and name is not None:
        e.param = name if error is ArgumentError else "--" + name.replace("_", "-")
    return e


def refuse(check: Callable, *args, error: type = ArgumentError) -> None:
    """Raise ``error`` (as ``fail``) when ``check(*args)`` finds a problem: a rule that
    involves several arguments, whose ``(message, param)`` names them as the API spells them.
    Such a check takes the names it words last (``options``: ``{"max_games": "--max-games",
    ...}``), and the exception's ``spell(options)`` asks it again with them: one rule, checked
    once, in the words of whoever called (the CLI: ``cli.options.usage_error``)."""
    problem = check(*args)
    if problem:
        e = _error(*problem, error)
        e.spell = lambda options: check(*args, options)
        raise e


def _bound(n: int) -> str:
    return "2**63-1" if n == INDEX_MAX else f"{n:,}"


def is_whole(value) -> bool:
    """A whole number of an integer type (Python's or numpy's), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


# ---------------------------------------------------------------------------- numbers
def whole(value, name: str, low: int = 1, high: int = INDEX_MAX, *,
          error: type = ArgumentError) -> int:
    """``value`` as an int when it is a whole number ``low`` to ``high``."""
    if not is_whole(value) or not low <= value <= high:
        fail(f"{name} must be a whole number {low:,} to {_bound(high)}, got {value!r}", name,
             error)
    return int(value)


def optional_whole(value, name: str, low: int = 1, high: int = INDEX_MAX, *,
                   error: type = ArgumentError) -> int | None:
    """``whole``, or None when ``value`` is None (the default)."""
    return None if value is None else whole(value, name, low, high, error=error)


def seed(value, name: str = "seed", *, error: type = ArgumentError) -> int:
    """A root seed or a game index: 0 to 2**63-1 (int64)."""
    return whole(value, name, 0, INDEX_MAX, error=error)


def last_game_problem(first: int, games: int, first_name: str = "first",
                      games_name: str = "games") -> str | None:
    """Game indices are int64: why the last one, ``first + games - 1``, does not fit."""
    if first + games - 1 <= INDEX_MAX:
        return None
    return (f"{first_name} {first} + {games_name} {games} - 1 = {first + games - 1} is past the "
            f"last game index 2**63-1 = {INDEX_MAX}; lower {first_name} or {games_name}")


def games(value, first: int = 0, name: str = "games", *,
          error: type = ArgumentError) -> int:
    """A count of games >= 1 whose last index ``first + games - 1`` fits in an int64."""
    n = whole(value, name, 1, INDEX_MAX, error=error)
    problem = last_game_problem(first, n, games_name=name)
    if problem:
        fail(problem, name, error)
    return n


def threads(value, name: str = "threads", *, error: type = ArgumentError) -> int | None:
    """A thread (or worker) count: a whole number >= 1, or None (all of numba's threads; more
    than numba has runs on those it has)."""
    if value is not None and (not is_whole(value) or value < 1):
        fail(f"{name} must be a whole number >= 1, or None for the default, got {value!r}",
             name, error)
    return value if value is None else int(value)


def number(value, name: str, low: float | None = None, high: float | None = None, *,
           low_open: bool = False, high_open: bool = False,
           error: type = ArgumentError) -> float:
    """A finite real number (not a bool) within ``low``..``high`` (open ends excluded)."""
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and \
        math.isfinite(value)
    if ok and low is not None:
        ok = value > low if low_open else value >= low
    if ok and high is not None:
        ok = value < high if high_open else value <= high
    if not ok:
        if low is not None and high is not None:
            where = (f"strictly between {low:g} and {high:g}" if low_open and high_open else
                     f"{low:g} to {high:g}")
        elif low is not None:
            where = f"{'>' if low_open else '>='} {low:g}"
        elif high is not None:
            where = f"{'<' if high_open else '<='} {high:g}"
        else:
            where = ""
        fail(f"{name} must be a finite number {where}, got {value!r}".replace("  ", " "),
             name, error)
    return float(value)


def flag(value, name: str, *, error: type = ArgumentError) -> bool:
    """True or False (Python's or numpy's bool): a string such as ``"yes"`` is refused, since
    every non-empty string would count as True."""
    if type(value).__name__ not in ("bool", "bool_"):          # numpy's is bool_ (or bool)
        fail(f"{name} must be True or False, got {value!r}", name, error)
    return bool(value)


# ---------------------------------------------------------------------------- functions
def callback(value, name: str, *, error: type = ArgumentError) -> Callable | None:
    """A function (or None)."""
    if value is not None and not callable(value):
        fail(f"{name} must be a function or None, got {value!r}", name, error)
    return value


def watch(value, name: str = "watch", *, error: type = ArgumentError):
    """None, or what ``experiments.store.watch`` reports to: ``begin(phase, total, done, unit)`` and
    ``update(n)``."""
    if value is not None and not all(callable(getattr(value, m, None))
                                     for m in ("begin", "update")):
        fail(f"{name} must have begin(phase, total, done, unit) and update(n) "
             f"(experiments.store.watch; the CLI passes its progress bar), or be None, got "
             f"{value!r}", name, error)
    return value


# ---------------------------------------------------------------------------- names
def text(value, name: str, *, error: type = ArgumentError) -> str:
    """A non-empty string."""
    if not isinstance(value, str) or not value.strip():
        fail(f"{name} must be a non-empty string, got {value!r}", name, error)
    return value


def names(value, name: str, *, error: type = ArgumentError) -> list[str] | None:
    """None, one name (a string) or a list of names (strings)."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if isinstance(value, Iterable) and not isinstance(value, (bytes, dict)):
        value = list(value)
        if all(isinstance(v, str) for v in value):
            return value
    fail(f"{name} must be a name or a list of names (strings), got {value!r}", name, error)


def one_of(value, name: str, accepted: Iterable, *, error: type = ArgumentError):
    accepted = list(accepted)
    if not isinstance(value, str) or value not in accepted:
        fail(f"unknown {name} {value!r}; accepted: {', '.join(map(str, accepted))}", name,
             error)
    return value


# ---------------------------------------------------------------------------- paths
def path(value, name: str, *, error: type = ArgumentError) -> str:
    """A path (a non-empty ``str`` or an ``os.PathLike``) as a string."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value.strip():
        fail(f"{name} must be a path (a str or an os.PathLike), got {value!r}", name, error)
    return value


def paths(value, name: str = "plugins", *, error: type = ArgumentError) -> list[str]:
    """Files (``plugins``): one path, or a list of paths; () or None for none."""
    if value is None:
        return []
    if isinstance(value, (str, os.PathLike)):
        return [path(value, name, error=error)]
    if isinstance(value, Iterable) and not isinstance(value, (bytes, dict)):
        value = list(value)
        if all(isinstance(v, (str, os.PathLike)) for v in value):
            return [path(v, name, error=error) for v in value]
    fail(f"{name} must be a file or a list of files (paths), got {value!r}", name, error)


def same_file(a: str, b: str) -> bool:
    """Whether the paths name one file: ``os.path.samefile`` when both exist (symbolic and
    hard links included), else the same resolved path (a file not made yet)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def input_clash(out: str, src: str, input_name: str) -> str:
    """The one line for an output that is the input ``src`` (``same_file``)."""
    return (f"{out} is the input {input_name} {src}" + ("" if out == src else " (the same file)")
            + "; writing it would destroy the input: give another output name")


def extension_problem(file: str, accepted: tuple[str, ...]) -> str | None:
    """Why ``file``'s extension is not one of ``accepted`` (``.png`` ...), or None."""
    ext = os.path.splitext(file)[1].lower()
    if ext in accepted:
        return None
    return (f"unknown file extension {ext or '(none)'!r} in {file}; accepted: "
            f"{', '.join(accepted)}")


def output_file(value, name: str = "out", *, extensions: tuple[str, ...] | None = None,
                inputs: dict | None = None, error: type = ArgumentError) -> str:
    """A file to write, checked as every command checks its output files (cli/files.py): one
    of ``extensions``, not one of the ``inputs`` (name -> path), not a file survive-sim did not
    write (``experiments.store.outputs.replaceable``), in a folder that exists and accepts a
    file."""
    # start-up time: the CLI's options import this module (experiments.store.outputs is light, but
    # the CLI answers --help before any of it)
    from experiments.store.outputs import not_ours_message, replaceable, unwritable
    out = path(value, name, error=error)
    if extensions is not None:
        problem = extension_problem(out, extensions)
        if problem:
            fail(f"{name}: {problem}", name, error)
    for what, src in (inputs or {}).items():
        if isinstance(src, (str, os.PathLike)) and same_file(out, os.fspath(src)):
            fail(f"{name} {input_clash(out, os.fspath(src), what)}", name, error)
    if os.path.lexists(out) and not replaceable(out):
        fail(f"{name}: {not_ours_message(out)}", name, error)
    problem = unwritable(out)
    if problem:
        fail(f"{name}: {problem}", name, error)
    return out


def output_folder(value, name: str = "out", *, parents: bool = False,
                  error: type = ArgumentError) -> str:
    """A folder to write into (made if missing): its parent must be a folder that exists and
    accepts a new entry -- unless ``parents``, when the nearest folder that exists must."""
    out = path(value, name, error=error)
    at = os.path.dirname(os.path.abspath(out))
    if os.path.lexists(out):
        return out                              # what is there: the layer's own checks
    if parents:
        while not os.path.lexists(at) and at != os.path.dirname(at):
            at = os.path.dirname(at)
    if os.path.lexists(at) and not os.path.isdir(at):
        fail(f"{name}: {at} is a file, not a directory, so {out} cannot be made in it; choose "
             f"another {name}", name, error)
    if not os.path.isdir(at):
        fail(f"{name}: directory {at} does not exist; create it or choose an existing one"
             + ("" if parents else " (or pass parents=True to make it)"), name, error)
    try:                # probed, not asked (os.access): a read-only mount stops root too
        os.rmdir(tempfile.mkdtemp(dir=at, prefix=".survive-sim-probe-"))
    except OSError as e:
        fail(f"{name}: cannot make {out}: the directory {at} is not writable "
             f"({e.strerror or e}); choose a writable directory", name, error)
    return out


def study_folder_problem(out: str, options: dict | None = None) -> tuple[str, str] | None:
    """``(message, option)`` when ``out`` cannot take a study (which writes ``out/run`` and
    ``out/report``), else None: a study's folder is a new (or empty) folder or an earlier
    study's; a sweep's run folder would get a run nested inside it, which no Parquet reader can
    then read as one run. ``options`` spells the names (the CLI's ``--out`` and ``survive-sim
    report``; the API's ``out`` and ``Run(...).report()`` by default)."""
    o = {"out": "out", "report": "Run({run!r}).report()", **(options or {})}
    if os.path.lexists(out) and not os.path.isdir(out):
        return f"{out} is a file; {o['out']} needs a folder", o["out"]
    try:
        entries = [n for n in os.listdir(out) if not n.startswith(".")]
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"{out} cannot be read ({e.strerror or e})", o["out"]
    accepted = (f"{o['out']} must be a new folder or an earlier study's folder (one holding "
                f"run/ and report/)")
    if "_manifest.json" in entries or any(n.endswith(".parquet") for n in entries):
        return (f"{out} is a sweep's run folder, not a study's; {accepted}; to report on that "
                f"run use {o['report'].format(run=out)}", o["out"])
    if entries and not any(n in ("run", "report") and os.path.isdir(os.path.join(out, n))
                           for n in entries):
        return f"{out} is not empty and is not a study's folder; {accepted}", o["out"]
    return None


def report_folder(value, name: str = "out") -> str:
    """A report's folder (``reports.page.check_target``: a new folder in an existing one, or
    an earlier report), its one line as an ``ArgumentError``."""
    # start-up time: the CLI's options import this module (reports pulls in matplotlib)
    from reports.page import check_target
    out = path(value, name)
    try:
        check_target(out)
    except ValueError as e:
        fail(f"{name}: {e}", name)
    return out


# ---------------------------------------------------------------------------- memory
def memory_available() -> tuple[int, str] | None:
    """``(bytes, where from)``: the memory available to a new allocation, ``MemAvailable`` of
    ``/proc/meminfo``, else the free physical pages (``SC_AVPHYS_PAGES``); None when neither
    is known."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024, "MemAvailable of /proc/meminfo"
    except (OSError, ValueError, IndexError):
        pass
    try:
        return (os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"),
                "free physical pages")
    except (ValueError, OSError, AttributeError):
        return None


def size_text(n: float) -> str:
    """``1.5 GB``, ``320 MB``: a size as a person reads it."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n / 1e3:,.0f} kB"


def memory_problem(games: int, per_game: int, name: str, what: str,
                   memory: tuple[int, str] | None = None) -> str | None:
    """Why ``games`` games of ``per_game`` bytes each cannot be held at once (``what`` says
    what holds them), or None (they fit, or the memory is unknown)."""
    memory = memory_available() if memory is None else memory
    if memory is None or games * per_game <= memory[0]:
        return None
    return (f"{name} {games:,} needs about {size_text(games * per_game)} of memory ({what}, "
            f"about {per_game:,} bytes per game), and {size_text(memory[0])} is available "
            f"({memory[1]}); the largest {name} that fits is {memory[0] // per_game:,}")


# ---------------------------------------------------------------------------- studies
def settling_problem(study: str, claims, games: int | None, max_games: int | None,
                     until_settled: bool, chunk: int, settings: int,
                     options: dict | None = None) -> tuple[str, str | None] | None:
    """``(message, option)`` when a study's settling options do not go together, else None:
    ``max_games`` without ``until_settled``, nothing to settle, a first round (``games``)
    above the cap, or a cap that a run folder of ``settings`` settings cannot hold in chunks
    of ``chunk`` (``experiments.sweeps.spec.chunk_files_problem``). ``options`` spells the names
    (the CLI's ``--games`` ...; the API's by default)."""
    o = {"games": "games", "max_games": "max_games", "until_settled": "until_settled=True",
         **(options or {})}
    if not until_settled:
        if max_games is not None:
            return f"{o['max_games']} needs {o['until_settled']}", o["max_games"]
        return None
    if not claims:
        return f"study {study} names no claims: {o['until_settled']} has nothing to settle", None
    if games is not None and max_games is not None and games > max_games:
        return (f"{o['games']} {games:,} (the first round) is more than {o['max_games']} "
                f"{max_games:,}", o["games"])
    if max_games is not None:
        # start-up time: the CLI's options import this module (the spec pulls in numpy)
        from experiments.sweeps.spec import chunk_files_problem
        problem = chunk_files_problem(max_games, chunk, settings)
        if problem:
            return f"{o['max_games']}: {problem}", o["max_games"]
    return None
