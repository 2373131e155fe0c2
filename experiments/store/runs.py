"""A run folder: a Parquet dataset of finished chunks, a manifest that says what it is, a lock.

::

    runs/five-six/
      _manifest.json                            the spec's identity, versions, games per setting
      p5-boats_rules-base-tb_chain-greedy.c000003.parquet   one chunk of one setting
      .p5-...c000003.parquet.x8k2.tmp           a chunk being written (readers skip it)
      .lock                                     the process writing here (pid, start, boot)

``pandas.read_parquet("runs/five-six")`` reads every game of a complete run: Parquet readers
skip names that start with ``_`` or ``.``. A chunk is written to a temporary name, flushed,
synced and renamed, so a reader never sees half of one; each carries its own identity in the
file's metadata (run, setting, chunk, first game, count), so a resumed sweep can tell a finished
chunk from a stale or damaged one by reading the footer alone. (A run stopped while it was
extended can hold an old, short last chunk, which ``finished_chunks`` leaves out and a glob
reads: docs/opening-a-run.md.) A folder written by another spec or by other engine sources is
refused, never mixed. ``--force-new`` removes only what a sweep wrote (``RunFolder.ours``): a
user's own files in the folder stay.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import re
import time
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import simulator

from .atomic import ROW_GROUP, atomic_file, write_text  # (ROW_GROUP: games per row group)
from .provenance import commit_info, commit_text  # noqa: F401  (commit_text: for report headers)

FORMAT = "survive-sim-run/1"
TABLE_VERSION = 1          # the per-game columns (play.simulate.records_frame) + setting
MANIFEST = "_manifest.json"
LOOKS = "_looks.json"                      # the verdicts' looks (experiments.verdicts.looks)
LOCK = ".lock"
META_KEY = b"survive-sim"
STALE_LOOKS = 600                           # seconds: an older temporary of the looks is dead


class RunError(ValueError):
    """A run folder that cannot be used as asked: the message is one line."""


# ------------------------------------------------------------------------------ identity
def engine_hash() -> str:
    return simulator.SOURCE_HASH


def run_id(identity: dict) -> str:
    """A short hash of everything that decides the games: the spec's identity, the engine's
    sources and the table layout."""
    blob = json.dumps({"spec": identity, "engine": engine_hash(), "table": TABLE_VERSION},
                      sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def versions() -> dict:
    """Package, libraries, Python, machine, and the git commit of the code: from the checkout
    it runs in, else from the record written when the package was built, else None with the
    reason (``experiments.store.provenance.commit_info``; ``commit_text`` says it in words)."""
    out = {}
    for name in ("survive-sim", "numba", "numpy", "pandas", "pyarrow"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    out["python"] = platform.python_version()
    out["machine"] = f"{platform.system()} {platform.machine()}"
    out.update(commit_info())
    return out


# ------------------------------------------------------------------------------ files
def chunk_name(label: str, k: int) -> str:
    return f"{label}.c{k:06d}.parquet"


def write_chunk(path: Path, table, meta: dict) -> None:
    """One chunk's Arrow table, its identity in the Parquet footer, page checksums on. zstd
    (a quarter smaller than snappy here, at the same speed); statistics for ``game`` only
    (what ``chunk_ok`` reads; the rest cost a sixth of the writing time); row groups of at most
    ``ROW_GROUP`` games, so that a reader (``experiments.verdicts.analysis``) holds that many rows
    of a setting at a time whatever the chunk size."""
    import pyarrow.parquet as pq
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           META_KEY: json.dumps(meta).encode()})
    with atomic_file(path) as f:
        pq.write_table(table, f, compression="zstd", row_group_size=ROW_GROUP,
                       write_statistics=["game"], write_page_checksum=True)


def chunk_ok(path: Path, meta: dict) -> bool:
    """The file is a complete chunk with exactly this identity: footer readable, metadata
    equal, the right number of rows, and its ``game`` column spanning the right indices."""
    import pyarrow.parquet as pq
    try:
        md = pq.read_metadata(path)
        found = json.loads(md.metadata[META_KEY])
        if found != meta or md.num_rows != meta["count"]:
            return False
        col = md.schema.names.index("game")
        lo = min(md.row_group(g).column(col).statistics.min for g in range(md.num_row_groups))
        hi = max(md.row_group(g).column(col).statistics.max for g in range(md.num_row_groups))
        return lo == meta["first"] and hi == meta["first"] + meta["count"] - 1
    except Exception:               # any unreadable footer is a chunk to play again
        return False


def chunk_holds(path: Path, meta: dict, need: int) -> bool:
    """The file is a complete chunk of this identity written when the run asked for fewer
    games (a smaller ``count``: a round of ``study --until-settled`` before the next round
    rewrote it), and it holds at least the chunk's first ``need`` games. A reader of a
    prefix of the run can use it as it is: game ``i`` is the same game whatever the run's
    size."""
    import pyarrow.parquet as pq
    try:
        found = json.loads(pq.read_metadata(path).metadata[META_KEY])
        count = int(found.get("count", 0))
    except Exception:
        return False
    if not need <= count < meta["count"]:
        return False
    return chunk_ok(path, {**meta, "count": count})


# ------------------------------------------------------------------------------ the folder
@dataclass
class RunFolder:
    path: Path

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    def read_manifest(self) -> dict | None:
        """The manifest, checked: None when there is none; ``RunError`` (one line naming the
        file and what is wrong) when it cannot be read, is not JSON, or lacks the fields that
        say which run the folder holds."""
        try:
            text = self.manifest_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as e:
            raise RunError(f"{self.manifest_path} cannot be read "
                           f"({getattr(e, 'strerror', None) or e}); {DAMAGED}") from None
        try:
            manifest = json.loads(text)
        except ValueError as e:
            raise RunError(f"{self.manifest_path} is not valid JSON ({e}); {DAMAGED}") from None
        problem = manifest_problem(manifest)
        if problem:
            raise RunError(f"{self.manifest_path} is not a sweep manifest ({problem}); "
                           f"{DAMAGED}")
        return manifest

    def write_manifest(self, manifest: dict) -> None:
        write_text(self.manifest_path, json.dumps(manifest, indent=1) + "\n")

    def ours(self, labels=()) -> list[Path]:
        """Files a sweep wrote here: the manifest, the looks, the lock, the sweep's own
        temporaries (``TEMPORARY``), and chunk files -- named exactly ``LABEL.cNNNNNN.parquet``
        for a setting of ``labels`` (or of the manifest, when it can be read), or carrying a
        sweep chunk's identity in their footer. Nothing else: a user's ``my.cleaned.parquet``
        or ``notes.txt`` is never one of them."""
        try:
            manifest = self.read_manifest()
        except RunError:
            manifest = None
        known = set(labels)
        if manifest is not None:
            known |= {p["label"] for p in manifest["identity"]["points"]}
        out = []
        for p in self.path.iterdir():
            if p.name in (MANIFEST, LOCK, LOOKS) or TEMPORARY.match(p.name):
                if p.is_file() or p.is_symlink():
                    out.append(p)
                continue
            m = CHUNK.match(p.name)
            if m and p.is_file() and chunk_name(m["label"], int(m["k"])) == p.name and \
                    (m["label"] in known or _chunk_identity(p) == (m["label"], int(m["k"]))):
                out.append(p)
        return out

    def chunk_path(self, label: str, k: int) -> Path:
        return self.path / chunk_name(label, k)

    def remove_temporaries(self) -> list[str]:
        """Stale temporaries of an interrupted write: files named as ``atomic.atomic_file``
        names the temporaries of a chunk or the manifest (``TEMPORARY``), nothing else. Only the lock
        holder calls this, and only a sweep holding the lock writes those, so every one it
        finds belongs to a writer that is gone. The looks (``_looks.json``) are written by
        ``report`` without the lock, in milliseconds: their temporaries go only when older than
        ``STALE_LOOKS`` seconds, so a live report's is never removed."""
        removed = []
        now = time.time()
        for p in self.path.iterdir():
            if not TEMPORARY.match(p.name) or not (p.is_file() or p.is_symlink()):
                continue
            with contextlib.suppress(OSError):
                if p.name.startswith(f".{LOOKS}.") and \
                        now - p.lstat().st_mtime < STALE_LOOKS:
                    continue
                p.unlink()
                removed.append(p.name)
        return removed

    # -- the lock: one sweep writes a folder at a time; a dead holder's lock is taken over
    @contextlib.contextmanager
    def locked(self):
        """Hold ``.lock`` while writing. The lock names its process by pid, start time (field
        22 of ``/proc/PID/stat``) and boot id, so a lock left by a killed sweep is taken over
        even when its pid now belongs to another process."""
        lock = self.path / LOCK
        for _ in range(3):
            try:
                fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileNotFoundError:
                raise RunError(f"{self.path} is gone; choose another --out") from None
            except FileExistsError:
                try:
                    text = lock.read_text(encoding="utf-8", errors="replace")
                except FileNotFoundError:
                    continue
                except OSError as e:
                    raise RunError(f"cannot read the lock {lock} ({e.strerror or e})") from None
                pid = lock_holder(text, lock)
                if pid is not None:
                    raise RunError(f"{self.path} is being written by process {pid}; wait for "
                                   f"it or stop it") from None
                with contextlib.suppress(OSError):           # stale: take it over
                    if lock.read_text(encoding="utf-8", errors="replace") == text:
                        lock.unlink()
                continue
            except OSError as e:
                raise RunError(f"cannot write in {self.path} ({e.strerror or e}); choose "
                               f"another --out") from None
            try:
                with os.fdopen(fd, "w") as f:
                    f.write(lock_text())
            except OSError as e:                              # a full disk: no lock left
                with contextlib.suppress(OSError):
                    lock.unlink()
                e.target = str(self.path)
                raise
            break
        else:
            raise RunError(f"cannot lock {self.path}: {lock} keeps coming back; is another "
                           f"sweep starting there?")
        try:
            yield self
        finally:
            with contextlib.suppress(OSError):
                lock.unlink()


DAMAGED = ("run the sweep again with --force-new to start the run over (it replaces only "
           "what a sweep wrote there)")
CHUNK = re.compile(r"^(?P<label>[^./_][^/]*)\.c(?P<k>[0-9]{6,})\.parquet$")
# ``atomic.atomic_file``'s temporaries: ``.NAME.XXXXXXXX.tmp`` for a chunk, the manifest or the looks
TEMPORARY = re.compile(r"^\.(?:[^./_][^/]*\.c[0-9]{6,}\.parquet|_manifest\.json|_looks\.json)"
                       r"\.[A-Za-z0-9_]+\.tmp$")


def _chunk_identity(path: Path) -> tuple[str, int] | None:
    """``(setting, chunk)`` from a sweep chunk's footer, or None when it is not one."""
    try:
        import pyarrow.parquet as pq
        meta = json.loads(pq.read_metadata(path).metadata[META_KEY])
        return meta["setting"], meta["chunk"]
    except Exception:
        return None


def manifest_problem(m) -> str | None:
    """What makes ``m`` (a parsed ``_manifest.json``) unusable, in words; None if nothing."""
    def whole(v, low=0):
        return isinstance(v, int) and not isinstance(v, bool) and low <= v <= 2**63 - 1

    if not isinstance(m, dict):
        return f"a JSON {_json_kind(m)}, not an object"
    for key, ok, what in (("format", lambda v: isinstance(v, str), "a string"),
                          ("run", lambda v: isinstance(v, str) and v, "a string"),
                          ("games", whole, "a whole number"),
                          ("identity", lambda v: isinstance(v, dict), "an object")):
        if key not in m:
            return f"no {key!r}"
        if not ok(m[key]):
            return f"{key!r} is not {what}"
    ident = m["identity"]
    for key, low in (("seed", 0), ("chunk", 1)):
        if not whole(ident.get(key), low):
            return f"identity.{key} is missing or not a whole number"
    points = ident.get("points")
    if not isinstance(points, list) or not points:
        return "identity.points is missing or not a list of settings"
    for i, p in enumerate(points):
        if not isinstance(p, dict) or not isinstance(p.get("label"), str) or \
                not CHUNK.match(chunk_name(p["label"], 0)) or \
                not isinstance(p.get("settings"), dict):
            return f"identity.points[{i}] is not a setting with a label and settings"
    for key in ("versions", "claims"):
        if m.get(key) is not None and not isinstance(m[key], dict):
            return f"{key!r} is not an object"
    return None


def _json_kind(v) -> str:
    return {list: "list", str: "string", bool: "boolean", type(None): "null"}.get(
        type(v), "number")


# ------------------------------------------------------------------------------ the lock
def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return "-"


def _start_time(pid: int) -> str | None:
    """Field 22 of ``/proc/PID/stat`` (the process's start, in clock ticks since boot); None
    when there is no such process or no /proc."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    try:
        return stat[stat.rindex(")") + 2:].split()[19]      # fields 3.. follow "(comm) "
    except (ValueError, IndexError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def writer_tag() -> str:
    """``PID-START``: put into the name of a temporary folder, so that a later writer can tell
    one of a killed process (``tag_alive``) from one of a process still writing."""
    return f"{os.getpid()}-{_start_time(os.getpid()) or 0}"


def tag_alive(tag: str) -> bool:
    """The process a ``writer_tag`` names is still running (the same pid *and* start time: a
    reused pid is another process)."""
    try:
        pid, start = (int(x) for x in tag.split("-")[:2])
    except ValueError:
        return True                                 # not ours to judge: keep it
    if pid == os.getpid() or not _alive(pid):
        return pid == os.getpid()
    now = _start_time(pid)
    return now is None or start == 0 or int(now) == start


def lock_text(pid: int | None = None) -> str:
    pid = os.getpid() if pid is None else pid
    return f"{pid} {_start_time(pid) or '-'} {_boot_id()} {time.time():.0f}\n"


def lock_holder(text: str, lock: Path | None = None) -> int | None:
    """The pid of the live process that holds a lock with this content, or None when the lock
    is stale: its process is gone, or the pid is now another process's (another start time or
    another boot), or it is this process's own. A lock of an older version (``PID TIME``) is
    held only by a live process of that pid that started before the lock was written and runs
    Python."""
    parts = text.split()
    try:
        pid = int(parts[0])
    except (ValueError, IndexError):
        return None
    if pid <= 0 or pid == os.getpid() or not _alive(pid):
        return None
    if len(parts) >= 4:                                # PID START BOOT TIME
        start, boot = parts[1], parts[2]
        now = _start_time(pid)
        if boot != "-" and boot != _boot_id():
            return None
        if start != "-" and now is not None and start != now:
            return None
        return pid
    # an older lock: only the pid; judge by the process's start and its program
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return pid                                       # no /proc: trust the pid
    if b"python" not in cmdline and b"survive-sim" not in cmdline:
        return None
    try:
        ticks = int(_start_time(pid) or "")
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        started = time.time() - uptime + ticks / os.sysconf("SC_CLK_TCK")
        if lock is not None and started > lock.stat().st_mtime + 2:
            return None                                  # started after the lock was written
    except (OSError, ValueError):
        pass
    return pid


def existing_ancestor(path: Path) -> Path:
    """The nearest of ``path`` and its parents that exists (a folder or not)."""
    parent = path
    while not os.path.lexists(parent) and parent != parent.parent:
        parent = parent.parent
    return parent


def prepare(path: str | Path, identity: dict, force_new: bool) -> tuple[RunFolder, dict | None]:
    """Check that ``path`` can hold this run: a new or empty folder, or one this very spec on
    these engine sources wrote (returned with its manifest), or with ``force_new`` any folder
    a sweep wrote, even one whose manifest is damaged (its sweep-written files are replaced,
    nothing else). Nothing is written here."""
    path = Path(path)
    if os.path.lexists(path) and not path.is_dir():
        raise RunError(f"{path} is a file; --out needs a folder for the run")
    parent = existing_ancestor(path)
    if not parent.is_dir():
        raise RunError(f"{parent} is a file, so {path} cannot be made under it; --out needs a "
                       f"folder for the run")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise RunError(f"{parent} is not writable; choose another --out")
    folder = RunFolder(path)
    if not path.exists():
        return folder, None
    try:
        manifest = folder.read_manifest()
    except RunError:
        if not force_new:
            raise
        return folder, None                        # damaged: --force-new starts it over
    try:
        ours = set(folder.ours())
        others = [p.name for p in path.iterdir() if p not in ours]
    except OSError as e:
        raise RunError(f"{path} cannot be read ({e.strerror or e}); choose another "
                       f"--out") from None
    if manifest is None:
        if others or any(folder.path.glob("*.parquet")):
            raise RunError(f"{path} is not empty and holds no sweep manifest; choose a new "
                           f"folder for --out")
        return folder, None
    if force_new:
        return folder, None
    want = run_id(identity)
    if manifest.get("format") != FORMAT or manifest.get("run") != want:
        why = _mismatch(manifest, identity)
        raise RunError(f"{path} holds another run ({why}); use --force-new to replace it or "
                       f"choose another --out")
    return folder, manifest


def _mismatch(manifest: dict, identity: dict) -> str:
    """Which part differs, in words."""
    if manifest.get("format") != FORMAT:
        return f"format {manifest.get('format')!r}, this version writes {FORMAT!r}"
    if manifest.get("engine") != engine_hash():
        return (f"made by other engine sources ({manifest.get('engine')}; these are "
                f"{engine_hash()})")
    if manifest.get("table") != TABLE_VERSION:
        return f"table layout {manifest.get('table')}, this version writes {TABLE_VERSION}"
    old = manifest.get("identity", {})
    for key in ("seed", "chunk"):
        if old.get(key) != identity[key]:
            return f"{key} {old.get(key)} there, {identity[key]} here"
    mine = [p["label"] for p in identity["points"]]
    theirs = [p.get("label") for p in old.get("points", [])]
    if mine != theirs:
        extra = sorted(set(mine) - set(theirs)) or sorted(set(theirs) - set(mine))
        return f"different settings, e.g. {extra[0] if extra else 'their order'}"
    return "different settings"


def clear(folder: RunFolder, labels=()) -> None:
    """``--force-new``: remove what an earlier sweep wrote (``RunFolder.ours``: the manifest,
    the looks, temporaries, and chunk files of the old manifest's settings, of ``labels`` --
    the new run's -- or carrying a sweep chunk's footer); nothing else."""
    for p in folder.ours(labels):
        if p.name != LOCK:
            with contextlib.suppress(FileNotFoundError):
                p.unlink()


# ------------------------------------------------------------------------------ reading
def finished_chunks(path: str | Path, games: int | None = None
                    ) -> tuple[dict[str, list[str]], dict[str, tuple[int, int]]]:
    """The finished chunk files of each setting of a run folder, in grid and game order, and
    the account ``{label: (games present, games asked)}``: asked is the manifest's games, or
    a setting's limit (``limits``: it stopped early, its verdicts settled). With ``games``,
    only the chunks holding the first ``games`` games (the last one may hold more: readers
    cut it). Chunks whose footer does not match the manifest (left by an interrupted sweep)
    are left out."""
    path = Path(path)
    folder = RunFolder(path)
    if not path.is_dir():
        raise RunError(f"{path} is not a run folder (no such directory)")
    manifest = folder.read_manifest()
    if manifest is None:
        raise RunError(f"{path} is not a run folder (no {MANIFEST}); make one with "
                       f"`survive-sim sweep`")
    labels = [p["label"] for p in manifest["identity"]["points"]]
    chunk, asked, seed = manifest["identity"]["chunk"], manifest["games"], \
        manifest["identity"]["seed"]
    limits = manifest.get("limits") or {}     # settings stopped early (settled verdicts)
    try:
        names = set(os.listdir(path))
    except OSError as e:
        raise RunError(f"{path} cannot be read ({e.strerror or e})") from None
    present: dict[str, list[int]] = {}
    for name in names:
        m = CHUNK.match(name)
        if m and chunk_name(m["label"], int(m["k"])) == name:
            present.setdefault(m["label"], []).append(int(m["k"]))
    files, account = {}, {}
    for label in labels:
        own = min(asked, int(limits.get(label, asked)))
        upto = own if games is None else min(games, own)
        have, mine = 0, []
        for k in sorted(present.get(label, ())):
            first = k * chunk
            if first >= upto:
                break
            count = min(chunk, own - first)
            p = folder.chunk_path(label, k)
            meta = {"run": manifest["run"], "setting": label, "chunk": k, "first": first,
                    "count": count, "seed": seed}
            if chunk_ok(p, meta) or (upto < first + count
                                     and chunk_holds(p, meta, upto - first)):
                mine.append(str(p))
                have += min(count, upto - first)
        files[label] = mine
        account[label] = (have, upto)
    return files, account
