"""Files the commands write and read: never half-written, never left behind.

Every file is written to a temporary name beside its target (``.NAME.*.tmp``), flushed to disk
and renamed into place only when complete (``experiments.store.atomic``). Any exception removes the
temporary file, and so do Ctrl-C and SIGTERM: ``signals_unwind`` turns both into exceptions, so that
the clean-up code runs. The per-game table is written chunk by chunk as the games are played
(``table_writer``), so that its size in memory does not grow with the run.

Before any work a command checks its outputs: ``distinct_paths(inputs=..., outputs=...)``
refuses an output that is one of its inputs (the same file by any name: a symbolic or hard
link, ``./``, ``..``) and two outputs that are one file; ``check_output(path, param)`` refuses
an existing file that survive-sim did not write (``experiments.store.outputs.replaceable``: only our
own files, recognised by their signature, and empty files are replaced) and checks that the
folder accepts a new file. Both raise the usage error (exit 2, one line).
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

from experiments.store import atomic
from experiments.store.atomic import (  # noqa: F401  (atomic_file ...: what the commands import here)
    ROW_GROUP,
    ParquetChunks,
    atomic_file,
    atomic_path,
    write_text,
)
from experiments.store.outputs import not_ours_message, replaceable, unwritable, unwritable_folder

from .options import bad

OUT_FORMATS = {".parquet": "parquet", ".csv": "csv"}


# ---------------------------------------------------------------------------- signals
class Terminated(BaseException):
    """SIGTERM arrived: raised in the main thread so that ``finally`` and clean-up code run.
    A ``BaseException`` like ``KeyboardInterrupt``, so that ``except Exception`` ignores it."""

    def __init__(self, signum: int):
        super().__init__(f"signal {signum}")
        self.code = 128 + signum       # the shell's convention: 143 for SIGTERM


@contextlib.contextmanager
def signals_unwind():
    """While the block runs, SIGINT raises ``KeyboardInterrupt`` and SIGTERM ``Terminated``,
    once each: a second signal during the clean-up is ignored. Signals the process inherited
    as ignored (``nohup``, background jobs) stay ignored.

    The interrupt is also recorded (``experiments.store.atomic.interrupt_arrived``) and not lost:
    inside ``atomic.interrupts_held`` it waits for the block's end; swallowed on its way (by a
    ``__del__`` or a weakref callback that ran when the signal came), it is raised again
    before any output is put in place (``atomic.check_interrupt``) and when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    wanted = (signal.SIGINT, signal.SIGTERM)

    def handler(signum, frame):
        for s in wanted:
            if s in old:
                signal.signal(s, signal.SIG_IGN)
        error = KeyboardInterrupt if signum == signal.SIGINT else lambda: Terminated(signum)
        if atomic.interrupt_arrived(error):
            raise error()

    def unraisable(info):
        # the interrupt a finaliser swallowed: recorded, and raised again -- no traceback
        if not (isinstance(info.exc_value, (KeyboardInterrupt, Terminated))
                and atomic.interrupted()):
            old_hook(info)

    old = {s: signal.getsignal(s) for s in wanted}
    old = {s: h for s, h in old.items() if h is not None and h != signal.SIG_IGN}
    old_hook = sys.unraisablehook
    atomic.forget_interrupt()
    for s in old:
        signal.signal(s, handler)
    sys.unraisablehook = unraisable
    try:
        yield
        atomic.check_interrupt()                # one that was swallowed: the command ends here
    finally:
        sys.unraisablehook = old_hook
        for s, h in old.items():
            signal.signal(s, h)
        atomic.forget_interrupt()


def quiet_signals() -> None:
    """Ignore SIGINT and SIGTERM from now on: the command has said why it ends and is leaving
    (a second Ctrl-C must not print a traceback while the interpreter shuts down)."""
    for s in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(OSError, ValueError):
            signal.signal(s, signal.SIG_IGN)


def io_problem(e: OSError) -> str:
    """The one line for an ``OSError`` that ended a command: ``could not write PATH: No space
    left on device`` for an output (``experiments.store.atomic.failed_target``), else the reason and
    the file it names."""
    reason = e.strerror or (str(e) or type(e).__name__)
    target = atomic.failed_target(e)
    if target:
        return f"could not write {target}: {reason}"
    names = " -> ".join(str(n) for n in (e.filename, e.filename2) if n is not None)
    return f"{reason}: {names}" if names else reason


# ---------------------------------------------------------------------------- checks
def out_format(path: str, param: str | None = "--out") -> str:
    """``parquet`` or ``csv`` from the file name; a directory or another extension is bad
    input."""
    if os.path.isdir(path):
        bad(f"{path} is a directory; give a file name ending in "
            f"{' or '.join(OUT_FORMATS)}", param)
    ext = os.path.splitext(path)[1].lower()
    if ext not in OUT_FORMATS:
        bad(f"unknown table extension {ext or '(none)'!r} in {path}; accepted: "
            f"{', '.join(OUT_FORMATS)}", param)
    return OUT_FORMATS[ext]


def check_extension(path: str, param: str, accepted: tuple[str, ...]) -> str:
    """The lower-case extension of ``path`` when it is one of ``accepted`` (".png" ...)."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in accepted:
        bad(f"unknown file extension {ext or '(none)'!r} in {path}; accepted: "
            f"{', '.join(accepted)}", param)
    return ext


def _same_file(a: str, b: str) -> bool:
    """Whether the paths name one file: ``os.path.samefile`` when both exist (symbolic and
    hard links included), else the same resolved path (a file not made yet)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def _named(paths) -> list[str]:
    if paths is None:
        return []
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths if p is not None]


def distinct_paths(inputs: dict | None = None, outputs: dict | None = None) -> None:
    """Refuse (usage error, exit 2) an output that is one of the inputs, or two outputs that
    are one file, before any work is done.

    ``inputs`` and ``outputs`` map an option's name (``"--html"``, ``"LOG"``) to a path, a list
    of paths (``--plugin``) or None (not given). Paths are compared as files: the same file
    through a symbolic link, a hard link, ``./`` or ``..`` is the same; a path that does not
    exist yet is compared by its resolved name. Typical use, right after parsing::

        distinct_paths(inputs={"LOG": log_path, "--plugin": plugins},
                       outputs={"--json": json_path, "--html": html_path})
    """
    ins = [(param, p) for param, ps in (inputs or {}).items() for p in _named(ps)]
    outs = [(param, p) for param, ps in (outputs or {}).items() for p in _named(ps)]
    for k, (oparam, out) in enumerate(outs):
        for iparam, src in ins:
            if _same_file(out, src):
                bad(f"{out} is the input {iparam} {src}" + ("" if out == src else
                    " (the same file)") + "; writing it would destroy the input: give another "
                    "output name", oparam)
        for oparam2, out2 in outs[:k]:
            if _same_file(out, out2):
                bad(f"{out} is also the output {oparam2} {out2}" + ("" if out == out2 else
                    " (the same file)") + "; give each output its own name", oparam)


def check_output(path: str, param: str) -> None:
    """``check_writable``, and the ownership rule (``experiments.store.outputs.replaceable``): an
    existing file is replaced only when survive-sim wrote it (or it is empty); any other is a
    usage error naming it."""
    if os.path.lexists(path) and not replaceable(path):
        bad(not_ours_message(path), param)
    check_writable(path, param)


def check_writable(path: str, param: str) -> None:
    """The file ``path`` can be created: its directory exists and accepts a new file
    (``experiments.store.outputs.unwritable``)."""
    problem = unwritable(path)
    if problem is not None:
        bad(problem, param)


def check_folder_writable(path: str, param: str) -> None:
    """The folder ``path`` can be written: it accepts a new file, or (not there yet) can be
    made in its nearest existing parent (``experiments.store.outputs.unwritable_folder``). For the
    commands that write a folder, before anything heavy (the engine, the games)."""
    problem = unwritable_folder(path)
    if problem is not None:
        bad(problem, param)


# ---------------------------------------------------------------------------- writing
class _CsvSink:
    def __init__(self, f):
        self.f, self.header = f, True

    def write(self, df) -> None:
        df.to_csv(self.f, index=False, header=self.header)
        self.header = False

    def close(self) -> None:
        pass

    def abandon(self) -> None:
        pass


class TableWriter:
    """What ``table_writer`` yields: ``write(chunk)``; ``games`` and ``columns`` so far."""

    def __init__(self, sink):
        self.sink, self.games, self.columns = sink, 0, 0

    def write(self, df) -> None:
        self.sink.write(df)
        self.games += len(df)
        self.columns = df.shape[1]


@contextlib.contextmanager
def table_writer(path: str):
    """Write a per-game table chunk by chunk (``.parquet`` or ``.csv`` by its name) into an
    ``atomic_file``: the file appears, complete, when the block ends without an error."""
    fmt = out_format(path)
    mode, args = ("wb", {}) if fmt == "parquet" else ("w", {"newline": "", "encoding": "utf-8"})
    with atomic_file(path, mode, **args) as f:
        sink = ParquetChunks(f, ROW_GROUP) if fmt == "parquet" else _CsvSink(f)
        try:
            yield TableWriter(sink)
        except BaseException:
            sink.abandon()                            # the file is removed anyway
            raise
        sink.close()


# ---------------------------------------------------------------------------- reading
def read_table(path: str):
    """A saved per-game table (Parquet or CSV by its name) as a pandas frame."""
    import pandas as pd
    fmt = out_format(path, None)
    return pd.read_parquet(path) if fmt == "parquet" else pd.read_csv(path)

