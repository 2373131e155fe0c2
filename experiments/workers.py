"""Worker processes for the work a run's readers split by chunk, chart or sample game.

Reading a chunk, drawing a chart and replaying a sample game are Python-heavy (the GIL keeps
threads from helping), and independent, so they go to processes: one per core. A ``Pool`` is
started once and serves every phase of a command (a report reads the run, then draws its
charts and sample games with the same processes), so the cost of starting them is paid once.

The processes are *spawned* (pyarrow's threads make a fork unsafe): a script that uses them
must keep its own work under ``if __name__ == "__main__":``, as for any spawned process. Each
runs numpy's BLAS on one thread (the processes are the parallelism). Results come back in the
order the work was given (``ordered``), so nothing computed depends on which process did what.
"""
from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import pickle
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


class WorkerError(RuntimeError):
    """The worker processes could not start or one died (one line)."""


@contextlib.contextmanager
def single_threaded():
    """Processes started inside this block run numpy's BLAS on one thread each."""
    saved = {k: os.environ.get(k) for k in THREAD_VARIABLES}
    os.environ.update({k: "1" for k in THREAD_VARIABLES})
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def cores(workers: int | None) -> int:
    return workers if workers is not None else (os.cpu_count() or 1)


class Pool:
    """``n`` spawned processes (started on first use), or none for ``n <= 1`` (the work is
    then done here, in order). Use as a context manager."""

    def __init__(self, n: int):
        self.n = max(1, int(n))
        self._ex = None

    def _executor(self):
        if self._ex is None:
            with single_threaded():
                self._ex = ProcessPoolExecutor(max_workers=self.n,
                                               mp_context=mp.get_context("spawn"))
        return self._ex

    def ordered(self, fn: Callable, items: Iterable, window: int | None = None) -> Iterator:
        """``fn(item)`` for every item, in order, at most ``window`` in flight (two per
        process by default)."""
        items = list(items)
        if self.n <= 1 or len(items) < 2:
            for x in items:
                yield fn(x)
            return
        ex = self._executor()
        try:
            yield from in_order(lambda x: ex.submit(fn, x), items, window or 2 * self.n)
        except BrokenProcessPool:
            raise WorkerError("the worker processes stopped (they could not start -- a script "
                              "must keep its work under `if __name__ == \"__main__\":` -- or "
                              "one was killed); run with one worker (workers=1, --workers 1) "
                              "to do the work in this process") from None

    def close(self) -> None:
        if self._ex is not None:
            self._ex.shutdown(wait=True, cancel_futures=True)
            self._ex = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def in_order(submit: Callable, items: Iterable, window: int) -> Iterator:
    """The results of ``submit(item)`` (a future) for every item, in order, with at most
    ``window`` submitted and not yet handed out."""
    pending: deque = deque()
    it = iter(items)
    for x in it:
        pending.append(submit(x))
        if len(pending) >= window:
            break
    while pending:
        yield pending.popleft().result()
        for x in it:                        # the next item, if any (an item may be None)
            pending.append(submit(x))
            break


# a large object every task of a phase needs (a run's sums), sent as bytes and unpickled once
# per process
_SHARED: dict = {}


def share(obj) -> tuple[int, bytes]:
    """``obj`` packed for ``shared``: a token and its pickle."""
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return hash(data), data


def shared(packed: tuple[int, bytes]):
    """The object ``share`` packed, unpickled once per process."""
    token, data = packed
    if _SHARED.get("token") != token:
        _SHARED.clear()
        _SHARED.update(token=token, obj=pickle.loads(data))
    return _SHARED["obj"]
