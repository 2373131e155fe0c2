"""Which existing files survive-sim may replace: the files it wrote itself, and no others.

The rule every command follows for a single-file output (``--out``, ``--json``, ``--html``,
``--gif`` ...), decided by ``replaceable(path)`` before any work:

* no file there: write it;
* an empty regular file (``mktemp``'s placeholder): nothing can be lost, replace it;
* a regular file that ``written_by_us(path)``: replace it (atomically, ``.NAME.*.tmp`` and a
  rename);
* anything else -- a file of another program or of the user, a symbolic link, a folder, a
  device -- is refused with one line naming it: ``PATH exists and was not written by
  survive-sim; choose another name or remove it``.

``written_by_us`` recognises the signature each writer puts in its files (``sign_*`` below add
them where the file's own format does not already carry one):

==========  ==============================================================================
.json       a JSON object whose ``format`` starts with ``survive-sim`` (the replay log's
            ``survive-sim-log/N``, a run's ``_manifest.json``, a report's ``_report.json``)
.html       ``<meta name="generator" content="survive-sim ...">`` in its head
.md         ``<!-- generator: survive-sim ... -->`` in its first lines
.png        a ``tEXt`` chunk ``Software`` whose text starts with ``survive-sim`` (matplotlib's
            own charts say ``Matplotlib``: a report's figures are kept by the report's list)
.svg        the comment ``<!-- generator: survive-sim ... -->`` in its first 4 KB
.gif        a comment extension whose text starts with ``survive-sim``
.csv        a first line ``# generator: survive-sim ...``, or one of ``CSV_HEADERS`` (the
            per-game table's columns)
.parquet    a key-value metadata key starting with ``survive-sim`` in the footer, or the
            per-game table's leading columns
.mp4        ``survive-sim`` in its first MB (ffmpeg's ``-metadata comment=survive-sim ...``)
==========  ==============================================================================

A folder the program writes as a whole (a report, a run, a tournament) is not a "file" here: it
carries its own marker and its own list of what it wrote (``reports.page``).

Only the standard library is imported at module level (pyarrow for ``.parquet`` only).
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import struct
import tempfile
import zlib
from pathlib import Path

GENERATOR = "survive-sim"
HEAD = 65536                                 # bytes read to find a signature at the start

CSV_HEADERS = ("game,seed,players,seats,end_reason",          # the per-game table
               "setting,seat,metric,value,low,high,n,method")  # `stats --out`, the tidy table
TABLE_COLUMNS = ("game", "seed", "players", "seats", "end_reason")

_HTML_META = re.compile(rb"""<meta\s+name=["']generator["']\s+content=["']survive-sim""", re.I)
_COMMENT = re.compile(rb"<!--\s*generator:\s*survive-sim")
_JSON_FORMAT = re.compile(rb'^\s*\{\s*"format"\s*:\s*"survive-sim')
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def generator(version: str | None = None) -> str:
    """``survive-sim VERSION`` (the installed package's version when known)."""
    if version is None:
        try:
            from importlib.metadata import version as _version
            version = _version("survive-sim")
        except Exception:                                   # not installed: a plain checkout
            version = ""
    return f"{GENERATOR} {version}".strip()


# ------------------------------------------------------------------------------ the predicate
def written_by_us(path: str | os.PathLike) -> bool:
    """Whether the regular file ``path`` carries survive-sim's signature for its extension
    (the table in the module's docstring). False for anything unreadable, missing, not a
    regular file, or of an extension survive-sim does not write."""
    path = os.fspath(path)
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    ext = os.path.splitext(path)[1].lower()
    check = _CHECKS.get(ext)
    if check is None:
        return False
    try:
        return bool(check(path))
    except (OSError, ValueError, struct.error, UnicodeDecodeError):
        return False
    except Exception:                                       # a broken parquet footer, ...
        return False


def replaceable(path: str | os.PathLike) -> bool:
    """Whether an output may be written at ``path``: nothing there, an empty regular file, or
    a regular file ``written_by_us``. A symbolic link is never replaced (the link is the
    user's, whatever it points to)."""
    path = os.fspath(path)
    try:
        st = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    return st.st_size == 0 or written_by_us(path)


def not_ours_message(path: str | os.PathLike) -> str:
    """The one line a command prints when ``replaceable(path)`` is False."""
    path = os.fspath(path)
    if os.path.islink(path):
        return (f"{path} is a symbolic link and was not written by survive-sim; choose another "
                f"name or remove it")
    if os.path.isdir(path):
        return f"{path} is a directory; give a file name"
    return f"{path} exists and was not written by survive-sim; choose another name or remove it"


def unwritable(path: str | os.PathLike) -> str | None:
    """Why a file cannot be created at ``path`` (one line), or None: its folder exists and
    accepts a new file (probed with a temporary file, removed at once)."""
    path = os.fspath(path)
    if os.path.isdir(path):
        return f"{path} is a directory; give a file name"
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        return f"directory {directory} does not exist; create it or choose an existing one"
    try:
        fd, probe = tempfile.mkstemp(dir=directory, prefix=".survive-sim-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return (f"directory {directory} is not writable ({e.strerror or e}); "
                f"choose a writable directory")
    return None


def unwritable_folder(path: str | os.PathLike) -> str | None:
    """Why the folder ``path`` cannot be written (one line), or None: an existing folder must
    accept a new file; a missing one is made with its missing parents in the nearest existing
    folder above it, which must accept a new folder (both probed, and the probe removed at
    once: a read-only mount or a folder of another user is found before any work, also by
    root, whom the mode bits do not stop)."""
    path = os.path.abspath(os.fspath(path))
    at = path
    while not os.path.lexists(at) and os.path.dirname(at) != at:
        at = os.path.dirname(at)
    if not os.path.isdir(at):
        if at == path:
            return f"{path} is a file, not a folder; choose another folder"
        return f"cannot make the folder {path}: {at} is a file; choose another folder"
    try:
        probe = tempfile.mkdtemp(dir=at, prefix=".survive-sim-probe-")
        os.rmdir(probe)
    except OSError as e:
        if at != path:
            return (f"cannot make the folder {path}: {at} is not writable "
                    f"({e.strerror or e}); choose a writable folder")
        return f"the folder {at} is not writable ({e.strerror or e}); choose a writable folder"
    return None


def _head(path: str, n: int = HEAD) -> bytes:
    with open(path, "rb") as f:
        return f.read(n)


def _json(path: str) -> bool:
    head = _head(path)
    if _JSON_FORMAT.match(head):                # "format" is the first key we write
        return True
    if os.path.getsize(path) > 64 * 2**20:
        return False
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return isinstance(data, dict) and str(data.get("format", "")).startswith(GENERATOR)


def _html(path: str) -> bool:
    return bool(_HTML_META.search(_head(path, 8192)))


def _comment(path: str) -> bool:
    return bool(_COMMENT.search(_head(path, 4096)))


def _csv(path: str) -> bool:
    first = _head(path, 4096).split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8")
    first = first.lstrip("\ufeff")
    return (bool(_COMMENT_CSV.match(first))
            or any(first.startswith(h) for h in CSV_HEADERS))


_COMMENT_CSV = re.compile(r"#\s*generator:\s*survive-sim")


def png_software(data: bytes) -> str | None:
    """The text of the PNG's ``Software`` tEXt chunk, or None."""
    if data[:8] != PNG_MAGIC:
        return None
    at = 8
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"tEXt":
            body = data[at + 8:at + 8 + length]
            key, _, text = body.partition(b"\0")
            if key == b"Software":
                return text.decode("latin-1")
        if kind in (b"IDAT", b"IEND"):
            return None
        at += 12 + length
    return None


def _png(path: str) -> bool:
    return (png_software(_head(path)) or "").startswith(GENERATOR)


def gif_comment(data: bytes) -> str | None:
    """The text of the first comment extension before the GIF's first image, or None."""
    if data[:6] not in (b"GIF87a", b"GIF89a") or len(data) < 13:
        return None
    at = 13
    if data[10] & 0x80:
        at += 3 * 2 ** ((data[10] & 7) + 1)
    while at + 2 <= len(data) and data[at] == 0x21:
        label, at = data[at + 1], at + 2
        blocks = []
        while at < len(data) and data[at]:
            blocks.append(data[at + 1:at + 1 + data[at]])
            at += 1 + data[at]
        at += 1
        if label == 0xFE:
            return b"".join(blocks).decode("latin-1")
    return None


def _gif(path: str) -> bool:
    return (gif_comment(_head(path)) or "").startswith(GENERATOR)


def _parquet(path: str) -> bool:
    import pyarrow.parquet as pq
    md = pq.read_metadata(path)
    keys = (md.metadata or {}).keys()
    if any(k.startswith(GENERATOR.encode()) for k in keys):
        return True
    names = md.schema.names
    return tuple(names[:len(TABLE_COLUMNS)]) == TABLE_COLUMNS


def _mp4(path: str) -> bool:
    """An MP4 whose metadata (``ffmpeg -metadata comment=...``; with ``+faststart`` the
    ``moov`` box is at the start) names survive-sim."""
    return b"survive-sim" in _head(path, 2**20)


_CHECKS = {".mp4": _mp4, ".json": _json, ".html": _html, ".htm": _html, ".md": _comment, ".svg": _comment,
           ".png": _png, ".gif": _gif, ".csv": _csv, ".parquet": _parquet}


# ------------------------------------------------------------------------------ the signatures
def sign_html(page: str, version: str | None = None) -> str:
    """``page`` with ``<meta name="generator" content="survive-sim ...">`` after its
    ``<head>`` (or at the start when it has none); a page already signed is returned as is."""
    if _HTML_META.search(page[:8192].encode("utf-8", "replace")):
        return page
    meta = f'<meta name="generator" content="{generator(version)}">'
    m = re.search(r"<head\b[^>]*>", page[:8192], re.I)
    if m is None:
        return meta + "\n" + page
    return page[:m.end()] + "\n" + meta + page[m.end():]


def sign_svg(svg: str, version: str | None = None) -> str:
    """``svg`` with ``<!-- generator: survive-sim ... -->`` after its XML declaration."""
    comment = f"<!-- generator: {generator(version)} -->"
    if svg.startswith("<?xml"):
        end = svg.index("?>") + 2
        nl = "\n" if svg[end:end + 1] == "\n" else ""
        return svg[:end + len(nl)] + comment + "\n" + svg[end + len(nl):]
    return comment + "\n" + svg


def sign_md(text: str, version: str | None = None) -> str:
    return f"<!-- generator: {generator(version)} -->\n" + text


def sign_png(data: bytes, version: str | None = None) -> bytes:
    """``data`` (a PNG) with a ``Software`` tEXt chunk right after IHDR; the pixels are the
    same bytes."""
    if data[:8] != PNG_MAGIC or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    end = 8 + 12 + struct.unpack(">I", data[8:12])[0]
    body = b"tEXt" + b"Software\0" + generator(version).encode("latin-1", "replace")
    chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
    return data[:end] + chunk + data[end:]


def sign_gif(data: bytes, version: str | None = None) -> bytes:
    """``data`` (a GIF89a) with a comment extension right after the global colour table."""
    if data[:6] != b"GIF89a" or len(data) < 13:
        raise ValueError("not a GIF89a")
    at = 13 + (3 * 2 ** ((data[10] & 7) + 1) if data[10] & 0x80 else 0)
    text = generator(version).encode("latin-1", "replace")[:255]
    return data[:at] + b"\x21\xfe" + bytes([len(text)]) + text + b"\x00" + data[at:]


class SignedGif:
    """A binary file wrapper for a GIF writer that writes in pieces: the bytes pass through
    unchanged except that ``sign_gif``'s comment goes in once the header and the global colour
    table have gone by. Only ``write`` is offered."""

    def __init__(self, fp, version: str | None = None):
        self.fp, self.version, self.head, self.done = fp, version, b"", False

    def write(self, data) -> int:
        data = bytes(data)
        if self.done:
            return self.fp.write(data)
        self.head += data
        if len(self.head) >= 13:
            at = 13 + (3 * 2 ** ((self.head[10] & 7) + 1) if self.head[10] & 0x80 else 0)
            if len(self.head) >= at:
                self.fp.write(sign_gif(self.head, self.version) if self.head[:6] == b"GIF89a"
                              else self.head)
                self.head, self.done = b"", True
        return len(data)

    def flush(self) -> None:
        if not self.done and self.head:
            self.fp.write(self.head)
            self.head, self.done = b"", True
        flush = getattr(self.fp, "flush", None)
        if flush is not None:
            flush()


# ------------------------------------------------------------------------------ whole folders
REPORT_MARKER, REPORT_FAMILY = "_report.json", "survive-sim-report"     # reports.page's

# A folder a command writes as a whole (a report) carries a marker file, a JSON object with a
# ``format`` (``survive-sim-report/1``) and ``files``: every file it wrote, relative, with ``/``.
# A re-run replaces those files only; the rest of the folder is the user's and is kept.

def _fail(message: str):
    raise ValueError(" ".join(str(message).split()))


def folder_marker(folder, marker: str, family: str) -> dict | None:
    """The marker ``folder/marker`` when it is a JSON object whose ``format`` is of ``family``
    (``"survive-sim-report"``), else None."""
    try:
        with open(os.path.join(os.fspath(folder), marker), encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError):
        return None
    ok = isinstance(meta, dict) and str(meta.get("format", "")).startswith(family + "/")
    return meta if ok else None


def check_folder_target(folder, marker: str, family: str, what: str = "report"):
    """``(absolute folder, whether it holds an earlier one to replace)``, or ``ValueError``
    (one line) when the ``what`` cannot be written there: no folder name, a missing or
    unwritable parent, a symbolic link, a file, or an existing folder that is neither empty nor
    marked as one of ours. Standard library only: a command calls it at parse time."""
    out = Path(os.path.abspath(os.fspath(folder)))
    parent = out.parent
    if not out.name or out == parent:
        _fail(f"cannot write a {what} to {out}: give a folder name")
    if not parent.is_dir():
        _fail(f"cannot write the {what}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        _fail(f"cannot write the {what}: the folder {parent} is not writable")
    if out.is_symlink():
        _fail(f"refusing to write the {what} to {out}: it is a symbolic link")
    if not out.exists():
        return out, False
    if not out.is_dir():
        _fail(f"refusing to write the {what} to {out}: it is a file, not a folder")
    try:
        entries = os.listdir(out)
    except OSError as e:
        _fail(f"refusing to write the {what} to {out}: cannot list it ({e.strerror or e})")
    if entries and folder_marker(out, marker, family) is None:
        _fail(f"refusing to write the {what} to {out}: the folder is not empty and holds no "
              f"{what} made by this writer (no valid {marker}); choose another folder or "
              f"remove it")
    return out, True


_LOCKS_HELD: dict[str, int] = {}              # the folder locks this process holds (depth)


@contextlib.contextmanager
def folder_lock(folder, what: str = "report"):
    """Hold ``.NAME.lock`` beside the folder ``folder`` while a ``what`` is built for it and
    swapped in: another writer of the same folder -- a second command started meanwhile -- is
    refused with one line naming the live holder (``ValueError``) instead of colliding with it
    in the swap. The lock holds the writer's pid, start time and boot (``runs.lock_text``): one
    left by a killed writer is taken over. Taken again by the process that holds it (a report
    checks early and writes late), it is held once. An ``OSError`` making it names ``folder``
    (``error.target``, as ``experiments.store.atomic`` does)."""
    from .runs import lock_holder, lock_text   # here: runs loads the simulator package
    out = Path(os.path.abspath(os.fspath(folder)))
    lock = out.parent / f".{out.name}.lock"
    key = str(lock)
    if _LOCKS_HELD.get(key):
        _LOCKS_HELD[key] += 1
        try:
            yield lock
        finally:
            _LOCKS_HELD[key] -= 1
        return
    from .atomic import interrupts_held     # here, beside the lock's other helpers above
    with interrupts_held():                  # made and known, or not made: never left behind
        _take_lock(lock, out, what, lock_holder, lock_text)
        _LOCKS_HELD[key] = 1
    try:
        yield lock
    finally:
        _LOCKS_HELD.pop(key, None)
        with contextlib.suppress(OSError):
            lock.unlink()


def _take_lock(lock: Path, out: Path, what: str, lock_holder, lock_text) -> None:
    for _ in range(3):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                text = lock.read_text(encoding="utf-8", errors="replace")
            except FileNotFoundError:
                continue                             # its holder just finished
            except OSError as e:
                _fail(f"cannot read the lock {lock} ({e.strerror or e})")
            pid = lock_holder(text, lock)
            if pid is not None:
                _fail(f"{out} is being written by another survive-sim (pid {pid}); wait for "
                      f"it to finish or choose another folder")
            with contextlib.suppress(OSError):      # its writer is gone: take it over
                if lock.read_text(encoding="utf-8", errors="replace") == text:
                    lock.unlink()
            continue
        except OSError as e:                         # a full disk, a read-only folder ...
            e.target = str(out)
            raise
        try:
            with os.fdopen(fd, "w") as f:
                f.write(lock_text())
        except OSError as e:
            with contextlib.suppress(OSError):
                lock.unlink()
            e.target = str(out)
            raise
        return
    _fail(f"cannot lock {out}: {lock} keeps coming back; is another survive-sim starting "
          f"there?")


def folder_files(folder, marker: str, family: str, layout=None) -> set[str] | None:
    """What the marked ``folder`` says it wrote (its marker's ``files``, and the marker); for
    a marker without the list, the files whose relative path ``layout`` (a compiled regular
    expression) fully matches. None when the folder holds no marker of ``family``."""
    meta = folder_marker(folder, marker, family)
    if meta is None:
        return None
    files = meta.get("files")
    if isinstance(files, list) and all(isinstance(f, str) for f in files):
        return set(files) | {marker}
    ours = set()
    root = os.fspath(folder)
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            if layout is not None and layout.fullmatch(rel):
                ours.add(rel)
    return ours | {marker}


def foreign_entries(folder, ours: set[str], own_dirs=()) -> list[str]:
    """The entries of ``folder`` not in ``ours`` (relative paths with ``/``): files, links and
    whole folders of the user's, sorted. Folders that hold files of ``ours`` (and ``own_dirs``)
    are looked into; any other folder is the user's as a whole."""
    root = os.fspath(folder)
    dirs = {p.rsplit("/", 1)[0] for p in ours if "/" in p} | set(own_dirs)
    found: list[str] = []

    def walk(rel: str) -> None:
        here = os.path.join(root, rel) if rel else root
        try:
            names = sorted(os.listdir(here))
        except OSError as e:
            _fail(f"cannot list {here} ({e.strerror or e})")
        for name in names:
            r = f"{rel}/{name}" if rel else name
            p = os.path.join(root, r)
            real_dir = os.path.isdir(p) and not os.path.islink(p)
            if r in ours and not real_dir:
                continue
            if real_dir and r in dirs:
                walk(r)
            else:
                found.append(r)

    walk("")
    return found


def keep_foreign(folder, new, foreign: list[str], what: str = "report") -> None:
    """Hard-link each of the user's ``foreign`` entries of ``folder`` into the new folder
    ``new`` (folders made anew, their files linked: the same files, in one of the two folders
    at every moment), before ``new`` replaces ``folder``. ``ValueError`` (one line), with
    nothing of ``folder`` changed, when the new folder has a file of its own there or a link
    cannot be made (another file system, no hard links)."""
    root, dest = os.fspath(folder), os.fspath(new)
    for rel in foreign:
        if os.path.lexists(os.path.join(dest, rel)):
            _fail(f"refusing to write the {what} to {root}: it would replace "
                  f"{os.path.join(root, rel)}, which the {what} did not write; move it away or "
                  f"choose another folder")
    for rel in foreign:
        src, dst = os.path.join(root, rel), os.path.join(dest, rel)
        try:
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if os.path.isdir(src) and not os.path.islink(src):
                for dirpath, dirs, names in os.walk(src):
                    target = os.path.join(dst, os.path.relpath(dirpath, src))
                    os.makedirs(target, exist_ok=True)
                    for name in names + [d for d in dirs
                                         if os.path.islink(os.path.join(dirpath, d))]:
                        os.link(os.path.join(dirpath, name), os.path.join(target, name),
                                follow_symlinks=False)
            else:
                os.link(src, dst, follow_symlinks=False)
        except OSError as e:
            _fail(f"refusing to write the {what} to {root}: cannot keep {src}, which the "
                  f"{what} did not write, in the new folder ({e.strerror or e}); move it away "
                  f"or choose another folder")


def check_apart(source, out, source_what: str = "run folder", what: str = "report folder",
                default: str | None = None) -> None:
    """``ValueError`` (one line) when the output folder ``out`` is the input folder
    ``source``, is inside it, or holds it (symbolic links resolved)."""
    r = os.path.normcase(os.path.realpath(os.fspath(source)))
    o = os.path.normcase(os.path.realpath(os.fspath(out)))
    hint = f" (default: {default})" if default else ""
    if o == r:
        _fail(f"the {what} {out} is the {source_what} {source}; give it a folder of its "
              f"own{hint}")
    if o.startswith(r.rstrip(os.sep) + os.sep):
        _fail(f"the {what} {out} is inside the {source_what} {source}; put it beside "
              f"it{hint}")
    if r.startswith(o.rstrip(os.sep) + os.sep):
        _fail(f"the {what} {out} holds the {source_what} {source}; give it a folder of its "
              f"own{hint}")
