"""A search's folder: its identity, its state documents, its tables, and the lock.

``OUT/_search.json`` names the search (its spec's identity, the engine's source hash, the
format); ``OUT/state/`` holds one JSON document per race and per confirmation
(``race-p5-greedy.json``), each written atomically (temporary name, flush, fsync, rename) as
the search goes; the tables (``fairest.csv``, ``confirmation.csv``, ``conclusions.csv``) are
written at the end. A folder of another search, or of another engine, is refused (one line
saying what differs) unless ``force_new`` discards its state; a folder that holds anything else
is refused too, and nothing of it is touched. A search that differs only in its confirmation
(``spec.CONFIRM_KEYS``: which allocations, how many fresh games) keeps the races and plays
the confirmation again; one whose ``settle`` cap only grew keeps everything, since the settling
rounds are judged with anytime-valid intervals. Another tolerance is another search: the
question is asked before the games are seen.
"""
from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

from ..store.atomic import write_text
from ..store.runs import RunError, engine_hash
from ..store.state_files import StateLock, read_json, write_json
from .spec import CONFIRM_KEYS, FairSpec

FORMAT = "survive-sim-fairest/1"
MANIFEST = "_search.json"
STATE = "state"
TABLES = ("fairest.csv", "confirmation.csv", "conclusions.csv")
OURS = {MANIFEST, STATE, ".lock", "report", *TABLES}


class SearchError(RunError):
    """A search folder cannot be used: one line, for ``--out``."""

    def __init__(self, message: str, param: str = "--out"):
        super().__init__(message)
        self.param = param


def identity(spec: FairSpec) -> dict:
    return {"format": FORMAT, "spec": spec.identity(), "engine": engine_hash()}


def _without(ident: dict, keys) -> dict:
    return {**ident, "spec": {k: v for k, v in (ident.get("spec") or {}).items()
                              if k not in keys}}


def kept_state(old: dict | None, new: dict) -> str:
    """What of an old search's state a new one keeps: ``all`` (the same search), ``settle``
    (all: only the confirmation's cap grew -- anytime-valid rounds may go on), ``races``
    (only the confirmation differs: its games restart, the races stay) or ``none``."""
    if old == new:
        return "all"
    if not isinstance(old, dict) or _without(old, CONFIRM_KEYS) != _without(new, CONFIRM_KEYS):
        return "none"
    a, b = old.get("spec") or {}, new.get("spec") or {}
    if a.get("settle") and (b.get("settle") or 0) >= a["settle"] and \
            _without(old, ("settle",)) == _without(new, ("settle",)):
        return "settle"
    return "races"


def _differs(old: dict, new: dict) -> str:
    if old.get("engine") != new.get("engine"):
        return "made by another version of the engine"
    a, b = old.get("spec") or {}, new.get("spec") or {}
    keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    return "other " + ", ".join(keys) if keys else "another search"


class SearchFolder:
    """``with SearchFolder(out, spec, force_new) as f:`` -- the state documents of the search
    ``spec`` in ``out``, under its lock."""

    def __init__(self, out, spec: FairSpec, force_new: bool = False):
        self.path = Path(out)
        self.ident = identity(spec)
        self.force_new = force_new
        self._lock = None
        if self.path.exists() and not self.path.is_dir():
            raise SearchError(f"{out} is a file; --out needs a folder")
        if self.path.is_dir():
            names = {p.name for p in self.path.iterdir()}
            foreign = sorted(n for n in names - OURS if not n.startswith("."))
            if foreign:
                raise SearchError(f"{out} holds files that are not a search's (e.g. "
                                  f"{foreign[0]}); choose a new or empty --out")
            old = read_json(self.path / MANIFEST) if MANIFEST in names else None
            if MANIFEST in names and not isinstance(old, dict):
                raise SearchError(f"{self.path / MANIFEST} cannot be read; pass --force-new "
                                  f"to start the search over")
            if old is not None and kept_state(old, self.ident) == "none" and not force_new:
                raise SearchError(f"{out} holds a search with {_differs(old, self.ident)}; "
                                  f"run it with its own settings to resume it, or pass "
                                  f"--force-new to start over")

    def __enter__(self) -> SearchFolder:
        created = not self.path.exists()
        self.path.mkdir(parents=True, exist_ok=True)
        try:
            self._lock = StateLock(self.path, "--out", error=SearchError).__enter__()
            return self._prepare()
        except BaseException:
            # a folder this search made and could not even start in (a full disk, a signal)
            # is not left behind, empty
            self.__exit__(None, None, None)
            if created:
                shutil.rmtree(self.path, ignore_errors=True)
            raise

    def _prepare(self) -> SearchFolder:
        old = read_json(self.path / MANIFEST)
        keep = "none" if self.force_new else kept_state(old, self.ident)
        if keep != "all":                      # new, force_new, or another confirmation
            if keep == "none":
                with contextlib.suppress(FileNotFoundError):
                    shutil.rmtree(self.path / STATE)
            elif keep == "races":              # the confirmation's games start over
                for p in (self.path / STATE).glob("confirm-*.json"):
                    p.unlink()
            for name in TABLES:
                with contextlib.suppress(FileNotFoundError):
                    (self.path / name).unlink()
            write_json(self.path / MANIFEST, self.ident)
        (self.path / STATE).mkdir(exist_ok=True)
        return self

    def __exit__(self, *exc) -> bool:
        if self._lock is not None:
            self._lock.__exit__(*exc)
            self._lock = None
        return False

    def _state_path(self, kind: str, players: int, key: str) -> Path:
        return self.path / STATE / f"{kind}-p{players}-{key}.json"

    def state(self, kind: str, players: int, key: str) -> dict | None:
        doc = read_json(self._state_path(kind, players, key))
        return doc if isinstance(doc, dict) else None

    def saver(self, kind: str, players: int, key: str):
        path = self._state_path(kind, players, key)
        return lambda doc: write_json(path, doc)

    def write_tables(self, tables: dict) -> None:
        """``name -> DataFrame``, each written atomically as CSV."""
        for name, frame in tables.items():
            write_text(self.path / name, frame.to_csv(index=False))

