"""A tournament's folder: written whole or not at all, resumable.

The folder is built in a hidden sibling (``.NAME.tmp-XXXX``, ``experiments.store.atomic``) while the
games are played -- ``games.parquet`` grows batch by batch there -- and renamed into place only when
every file is complete and synced. An existing folder is refused unless it is empty, or holds an
earlier tournament (its ``tournament.json``) and ``force`` is given and every file in it is one a
tournament writes (a file of the user's is named, and kept); any other folder is never
replaced, nor one that holds a ``--plugin`` input. The same tournament already complete there
is reported, and nothing is played. Any error, Ctrl-C or SIGTERM removes the temporary folder
and leaves the target as it was.

Each batch's engine records are saved in ``.NAME.partial/`` (beside the target, with the
tournament's ``identity`` and a lock) as it is played; a later run with the same options --
after an error, Ctrl-C or kill -9 -- reads them back instead of playing them, and gives the
same files (only the timings differ). A partial state of other options is refused, naming the
difference, unless ``force`` discards it. It is removed once the folder is in place.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
from dataclasses import dataclass
from functools import cached_property
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd

import simulator
from play import engine as E
from strategies.plugins import source_hash

from ..store.atomic import ParquetChunks, atomic_file, build_folder, fsync_tree, replace_folder
from ..store.runs import versions
from ..store.state_files import LOCK, StateLock, _plain, read_json, write_json
from .design import Tournament, TournamentError
from .run import Result
from .text import markdown

FORMAT = "survive-sim-tournament/1"
MARKER = "tournament.json"


# ---------------------------------------------------------------------------- the target
OWN_FILES = ("README.md", "games.parquet", "head_to_head.csv", "standings.csv", MARKER)
PARTIAL = "{}.partial"                  # .NAME.partial/: an unfinished tournament's batches
STATE = "_manifest.json"
PARTIAL_FORMAT = "survive-sim-tournament-partial/1"


def identity(t, plugins=()) -> dict:
    """What decides a tournament's results: its options (``Tournament.to_dict``: strategies,
    players, games, seed, batch, SPRT, stop, line-ups, rules), the plug-in sources, the engine
    sources and the package version. Thread count and progress do not."""
    try:
        package = version("survive-sim")
    except PackageNotFoundError:
        package = None
    return {"tournament": json.loads(json.dumps(t.to_dict(), default=_plain)),
            "plugins": {Path(p).name: source_hash(Path(p)) for p in plugins or ()},
            "engine": simulator.SOURCE_HASH, "version": package}


def _differs(old: dict, new: dict) -> str:
    """Which part of two identities differs, in words (the first found)."""
    if old.get("engine") != new["engine"]:
        return (f"made by other engine sources ({old.get('engine')}; these are "
                f"{new['engine']})")
    if old.get("version") != new["version"]:
        return f"survive-sim {old.get('version')} there, {new['version']} here"
    if old.get("plugins") != new["plugins"]:
        return (f"plug-in sources {sorted((old.get('plugins') or {}).items())} there, "
                f"{sorted(new['plugins'].items())} here")
    a, b = old.get("tournament") or {}, new["tournament"]
    for key in b:
        if key == "lineups":
            continue
        if key == "rules" and a.get(key) != b[key]:
            ra, rb = a.get(key) or {}, b[key]
            k = next((k for k in rb if ra.get(k) != rb[k]), None)
            if k is not None:
                return f"rule {k} {ra.get(k)!r} there, {rb[k]!r} here"
        if key == "stop" and a.get(key) != b[key]:
            said = {True: "not given", False: "given"}
            return f"--no-stop {said.get(a.get(key), '?')} there, {said[b[key]]} here"
        if a.get(key) != b[key]:
            name = f"--{key}"
            show = (lambda v: ",".join(v)) if key == "strategies" else (lambda v: v)
            return f"{name} {show(a.get(key))} there, {show(b[key])} here"
    return "other options"


def _is_inside(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def check_inputs_outside(out, plugins=()) -> None:
    """The ``--plugin`` files are neither the output folder nor inside it (nor inside its
    partial state): a replaced folder would take them along. Paths only: call it before the
    plug-ins are loaded."""
    path = Path(os.path.abspath(os.fspath(out)))
    partial = path.parent / PARTIAL.format("." + path.name)
    for p in plugins or ():
        src = Path(os.path.abspath(os.fspath(p)))
        for where in (path, partial):
            if _is_inside(src, where) or _is_inside(src.resolve(), where.resolve()):
                raise TournamentError(f"the --plugin file {p} is inside --out {path}; a "
                                      f"tournament's folder may not hold its inputs: choose "
                                      f"another --out", "--out")


def check_out(out, force: bool = False, ident: dict | None = None, plugins=()
              ) -> tuple[Path, str]:
    """``(absolute path, what is there)``: ``"new"`` (nothing, or an empty folder), ``"replace"``
    (an earlier tournament's folder and ``force``) or ``"complete"`` (this very tournament,
    finished: nothing to play). ``TournamentError`` (one line) when the folder cannot be
    written there. Call before playing anything; nothing is written here.

    ``force`` replaces a folder only when every file in it is one a tournament writes; a file
    of the user's there (``notes.txt``) is named and the folder is left alone. The folder may
    not be, or hold, a ``--plugin`` file."""
    path = Path(os.path.abspath(os.fspath(out)))
    parent = path.parent
    if not path.name or path == parent:
        raise TournamentError(f"cannot write a tournament to {path}: give a folder name", "--out")
    check_inputs_outside(out, plugins)
    if not parent.is_dir():
        raise TournamentError(f"cannot write {path}: the folder {parent} does not exist; "
                              f"create it or choose another --out", "--out")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise TournamentError(f"cannot write {path}: the folder {parent} is not writable; "
                              f"choose a writable --out", "--out")
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        raise TournamentError(f"{path} exists and is not a folder; choose a new folder name",
                              "--out")
    if not path.exists() or not os.listdir(path):
        return path, "new"
    meta = _tournament_meta(path)
    if meta is None:
        raise TournamentError(f"{path} holds something other than a tournament (no valid "
                              f"{MARKER}); --force replaces only an earlier tournament's folder",
                              "--out")
    if not force:
        if ident is not None and _finished_identity(meta) == ident:
            return path, "complete"
        raise TournamentError(f"{path} exists and is not empty; choose a new folder, or pass "
                              f"--force to replace an earlier tournament there", "--out")
    foreign = sorted(p.name for p in path.iterdir() if p.name not in OWN_FILES or
                     p.is_symlink() or not p.is_file())
    if foreign:
        raise TournamentError(f"{path} holds {foreign[0]!r}, which a tournament does not "
                              f"write; --force replaces only a tournament's own files: move it "
                              f"out or choose another --out", "--out")
    return path, "replace"


def _tournament_meta(path: Path) -> dict | None:
    try:
        meta = json.loads((path / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = isinstance(meta, dict) and str(meta.get("format", "")).startswith(
        "survive-sim-tournament/")
    return meta if ok else None


def _finished_identity(meta: dict) -> dict:
    return {"tournament": meta.get("tournament"), "plugins": meta.get("plugins", {}),
            "engine": meta.get("source_hash"),
            "version": (meta.get("versions") or {}).get("survive-sim")}


class Folder:
    """``with Folder(out, force, ident) as f:`` -- ``play(..., on_batch=f.write_games,
    store=f)``, then ``f.finish(result)``; the folder appears at ``out`` when the block ends
    normally.

    Resumable: each batch's engine records are saved, as it is played, in the hidden sibling
    ``.NAME.partial/`` (``batch-000003.npz``, each written to a temporary name, flushed,
    synced and renamed), next to ``_manifest.json`` (the tournament's ``identity``) and a
    ``.lock``. A run stopped in any way (an error, Ctrl-C, kill -9) leaves them; the same
    command finds them and plays only the batches missing. Another tournament's state there is
    refused, or with ``force`` discarded. The folder is removed once ``out`` is in place."""

    def __init__(self, out, force: bool = False, ident: dict | None = None, plugins=()):
        self.path, self.state = check_out(out, force, ident, plugins)
        self.replace = self.state == "replace"
        self.ident = ident
        self.partial = self.path.parent / PARTIAL.format("." + self.path.name)
        self.resumed = 0                        # batches read back from .NAME.partial
        self.resumed_games = 0
        self.old = None                         # the partial's manifest when it is ours
        if self.state != "complete" and ident is not None:
            self.old = self._check_partial(force)
        self.tmp: Path | None = None
        self.writer: ParquetChunks | None = None
        self.finished = False
        self._lock = None

    @property
    def complete(self) -> bool:
        return self.state == "complete"

    def tidy(self) -> None:
        """``out`` is complete: remove this tournament's saved batches, left when a run was
        stopped between putting the folder in place and removing them."""
        old = read_json(self.partial / STATE)
        if not (self.partial.is_dir() and isinstance(old, dict) and
                old.get("identity") == self.ident):
            return
        with contextlib.suppress(TournamentError, OSError), StateLock(self.partial, error=TournamentError):
            for x in self.partial.iterdir():
                if _partial_file(x.name) and x.name != LOCK:
                    x.unlink()
        with contextlib.suppress(OSError):
            self.partial.rmdir()

    def finished_meta(self) -> dict | None:
        return _tournament_meta(self.path)

    def saved(self, t: Tournament) -> Saved:
        """The complete tournament at ``out`` (``complete``), read back: nothing is played."""
        return Saved(t, self.path, self.finished_meta() or {})

    def _check_partial(self, force: bool):
        """The partial state's manifest when it is this tournament's; refuse another's."""
        p = self.partial
        if p.is_symlink() or (p.exists() and not p.is_dir()):
            raise TournamentError(f"{p} is not a folder this program made; move it away to "
                                  f"write --out {self.path}", "--out")
        if not p.exists():
            return None
        old = read_json(p / STATE)
        old = old if isinstance(old, dict) else None
        foreign = sorted(x.name for x in p.iterdir() if not _partial_file(x.name))
        if old is not None and old.get("format") == PARTIAL_FORMAT and \
                old.get("identity") == self.ident:
            return old
        if not force:
            why = (_differs(old.get("identity") or {}, self.ident) if old is not None and
                   old.get("format") == PARTIAL_FORMAT else "its state cannot be read")
            raise TournamentError(f"{p} holds an interrupted tournament with other options "
                                  f"({why}); run it with its own options to resume it, or "
                                  f"pass --force to discard it and start over", "--out")
        if foreign:
            raise TournamentError(f"{p} holds {foreign[0]!r}, which a tournament does not "
                                  f"write; move it out to start over", "--out")
        return "discard"

    def __enter__(self) -> Folder:
        made = not self.partial.exists()
        try:
            self.partial.mkdir(exist_ok=True)
            lock = StateLock(self.partial, error=TournamentError)
            lock.__enter__()
            self._lock = lock
        except OSError as e:
            self._unmake(made)
            raise TournamentError(f"cannot write in {self.path.parent}: {e.strerror or e}",
                                  "--out") from None
        except BaseException:
            self._unmake(made)
            raise
        try:
            if self.old == "discard":
                for x in self.partial.iterdir():
                    if x.name != LOCK:
                        x.unlink()
                self.old = None
            for x in self.partial.glob(".*.tmp"):          # an interrupted write's leftovers
                x.unlink()
            for x in self.path.parent.glob(f".{self.path.name}.tmp-*"):
                if x.is_dir() and not x.is_symlink():      # an interrupted run's build folder
                    shutil.rmtree(x, ignore_errors=True)
            if self.old is None:
                write_json(self.partial / STATE, {"format": PARTIAL_FORMAT,
                                                  "identity": self.ident})
            self.tmp = build_folder(self.path)
        except OSError as e:
            self._unlock()
            self._unmake(made)
            raise TournamentError(f"cannot write in {self.path.parent}: {e.strerror or e}",
                                  "--out") from None
        except BaseException:
            self._unlock()
            self._unmake(made)
            raise
        return self

    def _unmake(self, made: bool) -> None:
        """The ``.partial`` folder this call made, when it failed before saving anything in it
        (a full disk): removed, if empty."""
        if made:
            with contextlib.suppress(OSError):
                self.partial.rmdir()

    def _unlock(self) -> None:
        if self._lock is not None:
            with contextlib.suppress(Exception):
                self._lock.__exit__(None, None, None)
            self._lock = None

    # -- the saved batches
    def _batch_path(self, k: int) -> Path:
        return self.partial / f"batch-{k:06d}.npz"

    def load(self, k: int, first: int, count: int):
        """Batch ``k``'s saved records (one array per line-up), or None."""
        path = self._batch_path(k)
        if not path.exists():
            return None
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                n = meta.get("lineups")
                records = [z[f"lineup{i}"] for i in range(n)]
        except Exception:                       # unreadable: play it again
            return None
        if meta != {"first": first, "count": count, "lineups": n} or \
                (self.ident is not None and n != len(self.ident["tournament"]["lineups"])) or \
                any(r.shape != (count, E.REC_W) or r.dtype != np.int32 for r in records):
            return None
        self.resumed += 1
        self.resumed_games += count * n
        return records

    def save(self, k: int, first: int, count: int, records) -> None:
        meta = json.dumps({"first": first, "count": count, "lineups": len(records)})
        arrays = {f"lineup{i}": r for i, r in enumerate(records)}
        with atomic_file(self._batch_path(k)) as f:
            np.savez(f, meta=np.array(meta), **arrays)

    def write_games(self, frame) -> None:
        """A batch's rows of ``games.parquet`` (``play``'s ``on_batch``)."""
        if self.writer is None:
            self.writer = ParquetChunks(self.tmp / "games.parquet")
        self.writer.write(frame)

    def finish(self, result: Result) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        result.standings.to_csv(self.tmp / "standings.csv", index=False)
        result.head_to_head.to_csv(self.tmp / "head_to_head.csv", index=False)
        (self.tmp / "README.md").write_text(markdown(result), encoding="utf-8")
        result.resumed, result.resumed_games = self.resumed, self.resumed_games
        meta = manifest(result)
        if self.ident is not None:
            meta["plugins"] = self.ident["plugins"]
        (self.tmp / MARKER).write_text(json.dumps(meta, indent=2, default=_plain)
                                       + "\n", encoding="utf-8")
        self.finished = True

    def __exit__(self, kind, exc, tb) -> bool:
        done = False
        try:
            self._exit(kind)
            done = kind is None
        finally:
            self._unlock()
            if done or not any(self.partial.glob("batch-*.npz")):
                with contextlib.suppress(OSError):     # nothing left to resume
                    for x in self.partial.iterdir():
                        if _partial_file(x.name):
                            x.unlink()
                    self.partial.rmdir()
        return False

    def _exit(self, kind) -> bool:
        if kind is not None or not self.finished:
            self._abandon()
            if kind is None:
                raise TournamentError("the tournament folder was not finished")
            return False
        try:
            fsync_tree(self.tmp)
            if self.replace and self.path.exists():
                foreign = [p.name for p in self.path.iterdir() if p.name not in OWN_FILES]
                if foreign:                     # put there while the games were played
                    raise TournamentError(f"{self.path} now holds {foreign[0]!r}, which a "
                                          f"tournament does not write; it is left as it "
                                          f"was: move the file out and run again", "--out")
            replace_folder(self.tmp, self.path, replace=self.replace)
        except BaseException:
            self._abandon()
            raise
        return False

    def _abandon(self) -> None:
        """Remove the temporary folder (an error, Ctrl-C or SIGTERM); the saved batches stay
        in ``.NAME.partial`` for the next run."""
        if self.writer is not None:
            self.writer.abandon()
            self.writer = None
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)


@dataclass
class Saved:
    """A complete tournament read back from its folder, instead of played: ``out`` already
    held this very tournament. It answers what a reader asks of a played ``Result``:
    ``standings`` and ``head_to_head`` (standings.csv and head_to_head.csv, read on first use,
    floats as written), ``statement()``, ``games_played``, ``indices_played``,
    ``batches``, ``seconds``; ``played`` is False. ``meta`` is its tournament.json; the games
    are in ``path / "games.parquet"``. (No ``ratings`` or per-game arrays: the standings hold
    each rating's mu, sigma and ordinal.)"""
    tournament: Tournament
    path: Path
    meta: dict
    played: ClassVar[bool] = False
    resumed: ClassVar[int] = 0
    resumed_games: ClassVar[int] = 0
    resumed_from: ClassVar[str | None] = None

    @cached_property
    def standings(self) -> pd.DataFrame:
        return pd.read_csv(self.path / "standings.csv")

    @cached_property
    def head_to_head(self) -> pd.DataFrame:
        return pd.read_csv(self.path / "head_to_head.csv")

    @property
    def games_played(self) -> int:
        return int(self.meta.get("games_played", 0))

    @property
    def indices_played(self) -> int:
        return int(self.meta.get("indices_played", 0))

    @property
    def batches(self) -> list[dict]:
        return list(self.meta.get("batches") or [])

    @property
    def seconds(self) -> float:
        return float((self.meta.get("timing") or {}).get("seconds", 0.0))

    def statement(self) -> str:
        """The stop rule's outcome, as written when the tournament was played."""
        return (self.meta.get("outcome") or {}).get("statement", "")


def _partial_file(name: str) -> bool:
    return (name in (STATE, ".lock") or name.endswith(".tmp") or
            (name.startswith("batch-") and name.endswith(".npz")))


# ---------------------------------------------------------------------------- tournament.json
STOP_RULE = ("Wald SPRT after each batch on every pair adjacent in the rating order: per game "
             "index, the share of that index's games where the upper strategy finished above "
             "the lower (ties half); H0 p = 0.5 against p = 0.5 +- delta, two one-sided tests "
             "at alpha/2 each; settled when it accepts the order or equality within delta")


def manifest(result: Result) -> dict:
    t = result.tournament
    v = versions()
    try:
        v["openskill"] = version("openskill")
    except PackageNotFoundError:
        v["openskill"] = None
    return {"format": FORMAT, "tournament": t.to_dict(), "seed": t.seed,
            "indices_played": result.indices_played, "games_played": result.games_played,
            "lineups": len(t.lineups), "batches": result.batches,
            "stop_rule": {"rule": STOP_RULE, "used_to_stop": t.stop, "alpha": t.alpha,
                          "beta": t.beta, "delta": t.delta, "unit": "game index"},
            "outcome": {"statement": result.statement(), **result.stop.to_dict()},
            "rating": {"model": "openskill.models.PlackettLuce", "parameters": "defaults, tau = 0 (fixed programs: no skill drift)",
                       "order": "game index, then line-up; rank = standing, ties equal"},
            "source_hash": simulator.SOURCE_HASH, "versions": v,
            "timing": {"seconds": result.seconds, "seconds_playing": result.seconds_playing,
                       # this run's own games: those read back from an interrupted run's
                       # saved batches took none of these seconds
                       "games_timed": result.games_played - result.resumed_games,
                       "games_read_back": result.resumed_games,
                       "games_per_second": (result.games_played - result.resumed_games)
                       / max(result.seconds, 1e-9)}}


