"""What a long computation tells whoever watches it: which phase it is in and how far along.

The experiments never print. ``run_sweep``, ``tournament.play``, ``tune`` and
``play_until_settled`` take a *watch*: anything with

- ``begin(phase, total=None, done=0, unit=None)``: a new phase named ``phase`` of ``total``
  units (None: nothing to count), ``done`` of them finished before (a resumed run), counted in
  ``unit`` (None: the watcher's own, ``game``);
- ``update(n)``: ``n`` more units of the phase are finished;
- ``phase``: the current phase's name, writable (a rename keeps the counts: a tournament's
  batch, a tuning's generation).

``survive_sim.cli.progress.Progress`` is one (it adds the command's name, the rate, the ETA and a
heartbeat). ``None`` stands for ``SILENT``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Protocol


class Watch(Protocol):
    phase: str

    def begin(self, phase: str, total: int | None = None, done: int = 0,
              unit: str | None = None) -> None: ...

    def update(self, n: int) -> None: ...


class Silent:
    """The watch nobody reads."""
    phase = ""

    def begin(self, phase, total=None, done=0, unit=None) -> None:
        self.phase = phase

    def update(self, n) -> None:
        pass


class _Counted:
    """A watch that also hands each update to an older ``progress(n)`` callback."""

    def __init__(self, watch, progress: Callable[[int], None]):
        self.watch, self.progress = watch, progress

    @property
    def phase(self) -> str:
        return self.watch.phase

    @phase.setter
    def phase(self, text: str) -> None:
        self.watch.phase = text

    def begin(self, phase, total=None, done=0, unit=None) -> None:
        self.watch.begin(phase, total, done, unit)

    def update(self, n) -> None:
        self.watch.update(n)
        self.progress(n)


def watching(watch: Watch | None, progress: Callable[[int], None] | None = None) -> Watch:
    """``watch`` (``SILENT`` for None), also calling ``progress(n)`` on every update when given
    (the callback the functions took before they took a watch)."""
    watch = watch if watch is not None else Silent()
    return watch if progress is None else _Counted(watch, progress)


class _Prefixed:
    """A watch whose phases are named under ``prefix`` (a round of a longer job)."""

    def __init__(self, watch, prefix: str):
        self.watch, self.prefix = watch, prefix

    @property
    def phase(self) -> str:
        return self.watch.phase

    @phase.setter
    def phase(self, text: str) -> None:
        self.watch.phase = f"{self.prefix}: {text}"

    def begin(self, phase, total=None, done=0, unit=None) -> None:
        self.watch.begin(f"{self.prefix}: {phase}", total, done, unit)

    def update(self, n) -> None:
        self.watch.update(n)


def under(watch: Watch | None, prefix: str) -> Watch:
    """``watch`` with every phase it is told named ``prefix: phase``."""
    return _Prefixed(watching(watch), prefix)
