"""State folders of long commands that resume (a tournament's ``.DIR.partial/``, tune's
``.FILE.partial/``): JSON documents written atomically (``experiments.store.atomic``), and the lock
a killed writer's successor takes over."""
from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import numpy as np

from .atomic import write_text
from .runs import lock_holder, lock_text


class StateError(ValueError):
    """A state folder cannot be used (a live writer holds it): one line for ``param``."""

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


LOCK = ".lock"


def write_json(path: Path, doc) -> None:
    write_text(path, json.dumps(doc, indent=1, default=_plain) + "\n")


def read_json(path: Path):
    """The JSON document at ``path``, or None when it is missing or cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


class StateLock:
    """``with StateLock(folder, what):`` -- one process writes a state folder at a time
    (``folder/.lock`` holds its pid, start time and boot id, ``runs.lock_text``); a lock whose
    holder is gone -- or whose pid now belongs to another process -- is taken over. ``error`` (``StateError``)
    (one line, for ``param``) when a live process holds it."""

    def __init__(self, folder: Path, param: str = "--out", error=StateError):
        self.lock, self.param, self.held = Path(folder) / LOCK, param, False
        self.error = error                        # the caller's one-line error type

    def __enter__(self):
        for _ in range(2):
            try:
                fd = os.open(self.lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                try:
                    pid = lock_holder(self.lock.read_text(), self.lock)
                except OSError:
                    pid = None
                if pid is not None:              # a live holder (not a reused pid: runs.py)
                    raise self.error(f"{self.lock.parent} is being written by process "
                                          f"{pid}; wait for it or stop it", self.param) from None
                with contextlib.suppress(OSError):
                    self.lock.unlink()
                continue
            try:
                with os.fdopen(fd, "w") as f:
                    f.write(lock_text())
            except OSError as e:                  # a full disk: no lock left behind
                with contextlib.suppress(OSError):
                    self.lock.unlink()
                e.target = str(self.lock.parent)
                raise
            self.held = True
            return self
        raise self.error(f"cannot lock {self.lock.parent}", self.param)

    def __exit__(self, *exc) -> bool:
        if self.held:
            with contextlib.suppress(OSError):
                self.lock.unlink()
            self.held = False
        return False


def _plain(v):
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (set, frozenset, tuple)):
        return list(v)
    raise TypeError(f"not JSON: {type(v).__name__}")
