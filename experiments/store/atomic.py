"""The one I/O module: every file the project writes appears whole or not at all.

A file is written to a hidden temporary name beside its target (``.NAME.XXXX.tmp``), flushed,
synced, given the mode the umask implies and renamed into place, and the folder is synced;
any exception (Ctrl-C and SIGTERM too, once ``survive_sim.cli.files.signals_unwind`` turns
them into exceptions) removes the temporary file. A folder is built whole in a hidden sibling
(``.NAME.tmp-XXXX``, ``build_folder``) and swapped in (``replace_folder``). ``ParquetChunks``
writes a table chunk by chunk, so that memory does not grow with the table.

An ``OSError`` raised while writing (a full disk, a quota, a read-only file system) leaves
nothing behind either, and carries the output it was writing as ``error.target``
(``failed_target``) for the one line the command prints. Once a command was interrupted
(``interrupt_arrived``), nothing more is put in place: every rename checks first
(``check_interrupt``), so that a Ctrl-C that some code swallowed -- a ``__del__`` or a weakref
callback that ran when the signal came prints and drops its exception -- cannot end in a
finished output and exit code 0.

Standard library only at import: pyarrow is imported when a Parquet file is first written
(the command line imports this module at start-up).
"""
from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

ROW_GROUP = 10_000                   # Parquet rows per row group, at least (small chunks merge)


# ---------------------------------------------------------------------------- interruptions
# What a command's signal handler (``survive_sim.cli.files.signals_unwind``) reports: the
# exception the signal stands for, kept until the command ends, and how deep the main thread
# is in ``interrupts_held`` blocks.
_INTERRUPT: dict = {"error": None, "held": 0}


def interrupt_arrived(error: Callable[[], BaseException]) -> bool:
    """Record that the command was interrupted (``error()`` makes the exception: a
    ``KeyboardInterrupt``, ...). True when the handler should raise it at once; False inside
    ``interrupts_held``, whose end raises it."""
    if _INTERRUPT["error"] is None:
        _INTERRUPT["error"] = error
    return _INTERRUPT["held"] == 0


def check_interrupt() -> None:
    """Raise the recorded interrupt again, if there is one: called before every rename that
    puts an output in place, at the end of ``interrupts_held`` and when a command returns."""
    error = _INTERRUPT["error"]
    if error is not None:
        raise error()


def interrupted() -> bool:
    """Whether an interrupt was recorded (and not forgotten)."""
    return _INTERRUPT["error"] is not None


def forget_interrupt() -> None:
    """The command is over (``signals_unwind`` ends): later work in this process (tests that
    run several commands) starts uninterrupted."""
    _INTERRUPT["error"] = None


@contextlib.contextmanager
def interrupts_held():
    """A few steps that a signal must not split (in the main thread, where Python runs signal
    handlers): making a temporary folder and remembering its name, starting a worker process.
    A signal that arrives meanwhile is recorded, and raised when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _INTERRUPT["held"] += 1
    try:
        yield
    finally:
        _INTERRUPT["held"] -= 1
    if _INTERRUPT["held"] == 0:
        check_interrupt()


# ---------------------------------------------------------------------------- failures
def name_target(error: BaseException, path) -> None:
    """Remember on an ``OSError`` which output was being written (``error.target``) unless it
    names one already (the innermost writer knows best; a report names its folder first)."""
    if isinstance(error, OSError) and getattr(error, "target", None) is None:
        with contextlib.suppress(AttributeError, TypeError):
            error.target = os.fspath(path)


def failed_target(error: BaseException) -> str | None:
    """The output an ``OSError`` was raised writing (``name_target``), or None."""
    return getattr(error, "target", None)


# ---------------------------------------------------------------------------- modes
def umask() -> int:
    """The process's umask. Read from ``/proc/self/status`` where there is one (Linux: the
    umask is not changed, not even for an instant another thread could see); elsewhere set
    and restored at once (``os.umask``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode a new file would get from ``open``: ``mkstemp`` makes 0600, and a result file
    is not secret."""
    return 0o666 & ~umask()


def folder_mode() -> int:
    """The mode a new folder would get from ``mkdir`` (``mkdtemp`` makes 0700)."""
    return 0o777 & ~umask()


# ---------------------------------------------------------------------------- syncing
def fsync_dir(path) -> None:
    """Sync a folder (the names in it: a rename is durable once its folder is synced). A folder
    that cannot be opened or synced (some file systems) is skipped."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def fsync_file(path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_tree(root) -> None:
    """Sync every file and folder under ``root`` (a folder built to be swapped in)."""
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            fsync_file(os.path.join(dirpath, name))
        fsync_dir(dirpath)


# ---------------------------------------------------------------------------- files
def _temporary(path) -> tuple[int, str]:
    directory = os.path.dirname(os.path.abspath(path))
    return tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")


def _settle(tmp: str, path) -> None:
    """Give the finished temporary file its mode, rename it to ``path``, sync the folder
    (not after an interrupt: ``check_interrupt``)."""
    os.chmod(tmp, file_mode())
    check_interrupt()
    os.replace(tmp, path)
    fsync_dir(os.path.dirname(os.path.abspath(path)))


@contextlib.contextmanager
def atomic_file(path, mode: str = "wb", **open_args):
    """An open temporary file beside ``path`` (``.NAME.XXXX.tmp``); flushed, synced and renamed
    to ``path`` when the block ends normally, removed when it raises anything. ``open_args``
    as for ``open`` (``encoding``, ``newline``)."""
    tmp = f = fd = None
    try:
        with interrupts_held():                     # the name is known before a signal cuts in
            fd, tmp = _temporary(path)
        f = os.fdopen(fd, mode, **open_args)
        yield f
        f.flush()
        os.fsync(f.fileno())
        f.close()
        _settle(tmp, path)
    except BaseException as e:
        if f is not None:
            with contextlib.suppress(Exception):
                f.close()
        elif fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        name_target(e, path)
        raise


@contextlib.contextmanager
def atomic_path(path):
    """A temporary file name beside ``path`` for a writer that wants a name, not a file (an
    external program); synced and renamed to ``path`` when the block ends normally, removed
    otherwise."""
    tmp = None
    try:
        with interrupts_held():
            fd, tmp = _temporary(path)
            os.close(fd)
    except BaseException as e:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        name_target(e, path)
        raise
    try:
        yield tmp
        fsync_file(tmp)
        _settle(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        name_target(e, path)
        raise


def write_bytes(path, data: bytes) -> None:
    with atomic_file(path, "wb") as f:
        f.write(data)


def write_text(path, text: str, encoding: str = "utf-8") -> None:
    """``text`` as it is (``\\n`` stays ``\\n`` on every system)."""
    with atomic_file(path, "w", encoding=encoding, newline="") as f:
        f.write(text)


# ---------------------------------------------------------------------------- folders
def build_folder(final, tag: str | None = None) -> Path:
    """A new, empty hidden sibling of ``final`` to build it in (``.NAME.tmp-[TAG-]XXXX``: a
    ``runs.writer_tag`` lets a later run tell a killed writer's leftovers from a live one's),
    with the mode ``mkdir`` would give. ``OSError`` when the parent does not accept it."""
    final = Path(os.path.abspath(final))
    head = f".{final.name}.tmp-" + (f"{tag}-" if tag else "")
    try:
        tmp = Path(tempfile.mkdtemp(prefix=head, dir=final.parent))
    except OSError as e:
        name_target(e, final)
        raise
    try:
        os.chmod(tmp, folder_mode())
    except BaseException as e:
        shutil.rmtree(tmp, ignore_errors=True)
        name_target(e, final)
        raise
    return tmp


def replace_folder(built, final, *, replace: bool = True, tag: str | None = None) -> None:
    """Swap the fully built (and synced: ``fsync_tree``) folder ``built`` in at ``final``.

    A missing or empty ``final`` is renamed over. With ``replace`` (the caller has checked
    that what is at ``final`` may go: an earlier folder of ours), a ``final`` with something
    in it is first renamed away (``.NAME.old-[TAG-]XXXX``, ``tag`` as for ``build_folder``),
    ``built`` renamed in -- or, if that fails, the old folder put back and the error raised --
    and the old folder removed: at every moment ``final`` is the old folder or the new one,
    and killed between the two renames the old one is still whole beside it
    (``reports.page.tidy_after_kill`` puts it back). Without ``replace`` (``final`` was missing
    or empty when checked), a ``final`` that has filled up meanwhile makes the rename fail
    (``OSError``) and nothing is touched. The parent folder is synced. On an error ``built`` is
    left for the caller to remove."""
    built, final = Path(built), Path(os.path.abspath(final))
    fsync_dir(built)
    check_interrupt()                       # nothing is swapped in after an interrupt
    if replace and final.is_dir() and not final.is_symlink() and any(os.scandir(final)):
        old = final.parent / (f".{final.name}.old-" + (f"{tag}-" if tag else "")
                              + secrets.token_hex(4))
        os.rename(final, old)
        try:
            os.rename(built, final)
        except BaseException:
            os.rename(old, final)
            raise
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(built, final)             # over an empty folder, or a new name
    fsync_dir(final.parent)


# ---------------------------------------------------------------------------- Parquet
class ParquetChunks:
    """``write(frame)`` pandas frames, one after another, into one Parquet file (``where``: a
    path or an open binary file), as row groups of at least ``row_group`` rows: the schema is
    fixed by the first frame (every chunk of ``play.simulate.records_frame`` has the same
    columns, dtypes and categories), so the file reads back as one write would. ``close()``
    when done; ``abandon()`` when the file is about to be removed."""

    def __init__(self, where, row_group: int = ROW_GROUP, **writer_args):
        self.where, self.row_group, self.writer_args = where, row_group, writer_args
        self.schema = self.writer = None
        self.pending: list = []
        self.pending_rows = 0
        self.rows = 0                        # rows written so far (pending included)

    def write(self, frame) -> None:
        import pyarrow as pa                 # not at start-up: 0.2 s the command line saves
        import pyarrow.parquet as pq
        if self.schema is None:
            table = pa.Table.from_pandas(frame, preserve_index=False)
            self.schema = table.schema
            self.writer = pq.ParquetWriter(self.where, self.schema, **self.writer_args)
        else:
            table = pa.Table.from_pandas(frame, schema=self.schema, preserve_index=False)
        self.pending.append(table)
        self.pending_rows += len(frame)
        self.rows += len(frame)
        if self.pending_rows >= self.row_group:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            import pyarrow as pa
            self.writer.write_table(pa.concat_tables(self.pending))
            self.pending, self.pending_rows = [], 0

    def close(self) -> None:
        self.flush()
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    def abandon(self) -> None:
        """Close without writing what is pending."""
        self.pending, self.pending_rows = [], 0
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()
            self.writer = None
