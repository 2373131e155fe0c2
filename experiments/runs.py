"""A run folder: a Parquet dataset of finished chunks, a manifest that says what it is, a lock.

::

    runs/five-six/
      _manifest.json                            the spec's identity, versions, games per setting
      p5-boats_rules-base-tb_chain-greedy.c000003.parquet   one chunk of one setting
      .p5-...c000003.parquet.x8k2.tmp           a chunk being written (readers skip it)
      .lock                                     the process writing here

``pandas.read_parquet("runs/five-six")`` reads every game of a complete run: Parquet readers
skip names that start with ``_`` or ``.``. A chunk is written to a temporary name, flushed,
synced and renamed, so a reader never sees half of one; each carries its own identity in the
file's metadata (run, setting, chunk, first game, count), so a resumed sweep can tell a finished
chunk from a stale or damaged one by reading the footer alone. (A run stopped while it was
extended can hold an old, short last chunk, which ``finished_chunks`` leaves out and a glob
reads: docs/opening-a-run.md.) A folder written by another spec or by other engine sources is
refused, never mixed.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .provenance import commit_info, commit_text  # noqa: F401  (commit_text: for report headers)

FORMAT = "survive-sim-run/1"
TABLE_VERSION = 1          # the per-game columns (simulator.simulate.records_frame) + setting
MANIFEST = "_manifest.json"
LOOKS = "_looks.json"                      # the verdicts' looks (experiments.looks)
LOCK = ".lock"
META_KEY = b"survive-sim"
ROW_GROUP = 10_000                          # games per Parquet row group of a chunk file


class RunError(ValueError):
    """A run folder that cannot be used as asked: the message is one line."""


# ------------------------------------------------------------------------------ identity
def engine_hash() -> str:
    import simulator
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
    reason (``experiments.provenance.commit_info``; ``commit_text`` says it in words)."""
    from importlib.metadata import PackageNotFoundError, version
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
_UMASK = os.umask(0)
os.umask(_UMASK)


def chunk_name(label: str, k: int) -> str:
    return f"{label}.c{k:06d}.parquet"


def _atomic(path: Path, write) -> None:
    """``write(file object)`` to a hidden temporary file beside ``path``, flush, fsync, rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)          # mkstemp makes 0600; a result file is not secret
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_chunk(path: Path, table, meta: dict) -> None:
    """One chunk's Arrow table, its identity in the Parquet footer, page checksums on. zstd
    (a quarter smaller than snappy here, at the same speed); statistics for ``game`` only
    (what ``chunk_ok`` reads; the rest cost a sixth of the writing time); row groups of at most
    ``ROW_GROUP`` games, so that a reader (``experiments.analysis``) holds that many rows of a
    setting at a time whatever the chunk size."""
    import pyarrow.parquet as pq
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           META_KEY: json.dumps(meta).encode()})
    _atomic(path, lambda f: pq.write_table(table, f, compression="zstd",
                                           row_group_size=ROW_GROUP,
                                           write_statistics=["game"],
                                           write_page_checksum=True))


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


# ------------------------------------------------------------------------------ the folder
@dataclass
class RunFolder:
    path: Path

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    def read_manifest(self) -> dict | None:
        try:
            return json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            raise RunError(f"{self.manifest_path} cannot be read ({e}); use --force-new to "
                           f"start the run over") from None

    def write_manifest(self, manifest: dict) -> None:
        _atomic(self.manifest_path,
                lambda f: f.write((json.dumps(manifest, indent=1) + "\n").encode()))

    def ours(self) -> list[Path]:
        """Files a sweep writes here (chunks, manifest, temporaries, lock)."""
        return [p for p in self.path.iterdir()
                if p.name in (MANIFEST, LOCK, LOOKS) or p.name.endswith(".tmp")
                or (p.suffix == ".parquet" and ".c" in p.name)]

    def chunk_path(self, label: str, k: int) -> Path:
        return self.path / chunk_name(label, k)

    def remove_temporaries(self) -> None:
        """Stale temporaries of an interrupted write (only the lock holder calls this)."""
        for p in self.path.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                p.unlink()

    # -- the lock: one sweep writes a folder at a time; a dead holder's lock is taken over
    @contextlib.contextmanager
    def locked(self):
        lock = self.path / LOCK
        for _ in range(2):
            try:
                fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                try:
                    pid = int(lock.read_text().split()[0])
                except (OSError, ValueError, IndexError):
                    pid = -1
                if pid > 0 and _alive(pid) and pid != os.getpid():
                    raise RunError(f"{self.path} is being written by process {pid}; wait for "
                                   f"it or stop it") from None
                with contextlib.suppress(OSError):
                    lock.unlink()
                continue
            with os.fdopen(fd, "w") as f:
                f.write(f"{os.getpid()} {time.time():.0f}\n")
            break
        else:
            raise RunError(f"cannot lock {self.path}")
        try:
            yield self
        finally:
            with contextlib.suppress(OSError):
                lock.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def prepare(path: str | Path, identity: dict, force_new: bool) -> tuple[RunFolder, dict | None]:
    """Check that ``path`` can hold this run: a new or empty folder, or one this very spec on
    these engine sources wrote (returned with its manifest). Nothing is written here."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise RunError(f"{path} is a file; --out needs a folder for the run")
    parent = path.parent if not path.exists() else path
    while not parent.exists():
        parent = parent.parent
    if not os.access(parent, os.W_OK | os.X_OK):
        raise RunError(f"{parent} is not writable; choose another --out")
    folder = RunFolder(path)
    if not path.exists():
        return folder, None
    manifest = folder.read_manifest()
    others = [p.name for p in path.iterdir() if p not in folder.ours()]
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


def clear(folder: RunFolder) -> None:
    """``--force-new``: remove what an earlier sweep wrote (nothing else)."""
    for p in folder.ours():
        if p.name != LOCK:
            with contextlib.suppress(OSError):
                p.unlink()


# ------------------------------------------------------------------------------ reading
def finished_chunks(path: str | Path, games: int | None = None
                    ) -> tuple[dict[str, list[str]], dict[str, tuple[int, int]]]:
    """The finished chunk files of each setting of a run folder, in grid and game order, and
    the account ``{label: (games present, games asked)}``. With ``games``, only the chunks
    holding the first ``games`` games (the last one may hold more: readers cut it). Chunks
    whose footer does not match the manifest (left by an interrupted sweep) are left out."""
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
    upto = asked if games is None else min(games, asked)
    files, account = {}, {}
    for label in labels:
        have, mine = 0, []
        for k, first in enumerate(range(0, upto, chunk)):
            count = min(chunk, asked - first)
            p = folder.chunk_path(label, k)
            meta = {"run": manifest["run"], "setting": label, "chunk": k, "first": first,
                    "count": count, "seed": seed}
            if p.exists() and chunk_ok(p, meta):
                mine.append(str(p))
                have += min(count, upto - first)
        files[label] = mine
        account[label] = (have, upto)
    return files, account
