"""What a long command says on stderr while it runs: the compile note and the progress.

On a terminal the progress is a tqdm bar. Anywhere else (a log file, a pipe, a batch job) a bar's
carriage-return updates would fill the log, so ``Progress`` writes a plain line at most every
``every`` seconds and one when the work is done. ``quiet`` (``--no-progress``) silences both.
"""
from __future__ import annotations

import os
import sys
import time

import click


class Progress:
    """``update(n)`` as work is done, ``close()`` at the end (or use it as a context manager).

    ``total`` units of work named ``unit`` (``game``), shown under ``desc`` (the command)."""

    def __init__(self, total: int, unit: str = "game", desc: str = "", quiet: bool = False,
                 stream=None, every: float = 10.0, clock=time.monotonic):
        self.total, self.unit, self.desc, self.quiet = total, unit, desc, quiet
        self.stream = stream if stream is not None else sys.stderr
        self.every, self.clock = every, clock
        self.done = 0
        self.start = self.last = clock()
        self.bar = None
        if not quiet and _isatty(self.stream):
            from tqdm import tqdm
            self.bar = tqdm(total=total, unit=unit, unit_scale=True, file=self.stream,
                            desc=desc or None, dynamic_ncols=True)

    def update(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif not self.quiet and self.done < self.total:
            now = self.clock()
            if now - self.last >= self.every:
                self.last = now
                self._line(now)

    def ended_early(self) -> None:
        """The work stopped short of ``total`` by design (a tournament's stop rule): what was
        done becomes the total, so the bar and the last line read complete."""
        self.total = self.done
        if self.bar is not None:
            self.bar.total = self.done
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        elif not self.quiet and self.total and self.done >= self.total:
            self._line(self.clock())
            self.quiet = True                              # once

    def _line(self, now: float) -> None:
        elapsed = max(now - self.start, 1e-9)
        where = f"{self.desc}: " if self.desc else ""
        print(f"{where}{self.done:,}/{self.total:,} {self.unit}s "
              f"({100 * self.done / max(self.total, 1):.0f}%) in {elapsed:.1f} s, "
              f"{self.done / elapsed:,.0f} {self.unit}s/s", file=self.stream, flush=True)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is None:
            self.close()
        elif self.bar is not None:                         # leave the bar where it stopped
            self.bar.close()


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def compile_note(entry: str, quiet: bool) -> None:
    """Say so on stderr when the engine is about to compile (no cache for these sources)."""
    if quiet:
        return
    import glob

    import simulator
    if not glob.glob(os.path.join(simulator.CACHE_DIR, "**", f"engine.{entry}-*.nbi"),
                     recursive=True):
        click.echo(f"survive-sim: compiling the engine for these sources (a few minutes, once; "
                   f"cached in {simulator.CACHE_DIR})", err=True)


def threads_used(threads: int | None) -> int:
    import numba
    return min(threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS)
