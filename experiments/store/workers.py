"""Worker processes for the work a run's readers split by chunk, chart or sample game.

Reading a chunk, drawing a chart and replaying a sample game are Python-heavy (the GIL keeps
threads from helping), and independent, so they go to processes: one per core. A ``Pool`` is
started once and serves every phase of a command (a report reads the run, then draws its
charts and sample games with the same processes), so the cost of starting them is paid once.

The processes are *spawned* (pyarrow's threads make a fork unsafe): a script that uses them
must keep its own work under ``if __name__ == "__main__":``, as for any spawned process. Each
runs numpy's BLAS on one thread (the processes are the parallelism). Results come back in the
order the work was given (``ordered``), so nothing computed depends on which process did what.

The command owns Ctrl-C, not its workers: a terminal sends SIGINT to the whole process group,
and a worker that took it would print its own ``KeyboardInterrupt`` traceback. So each process
is started with SIGINT blocked (the mask a new process inherits) and ignores it for good; the
command's interrupt ends the block ``with Pool(...)``, which then terminates the processes at
once (``terminate``) instead of waiting for their work. A worker whose command is gone (killed
with SIGKILL) leaves too.
"""
from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import pickle
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

from .atomic import check_interrupt, interrupts_held

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
                                               mp_context=mp.get_context("spawn"),
                                               initializer=_worker_start,
                                               initargs=(os.getpid(),))
        return self._ex

    def _submit(self, fn: Callable, x):
        """``submit``, which may start a process: with SIGINT blocked in this thread, so that
        the new process starts with it blocked (a Ctrl-C while it starts up prints nothing),
        and not cut short by a signal (``interrupts_held``: a process started and not yet
        counted would be left behind)."""
        with interrupts_held(), _sigint_blocked():
            return self._executor().submit(fn, x)

    def ordered(self, fn: Callable, items: Iterable, window: int | None = None) -> Iterator:
        """``fn(item)`` for every item, in order, at most ``window`` in flight (two per
        process by default)."""
        items = list(items)
        if self.n <= 1 or len(items) < 2:
            for x in items:
                yield fn(x)
            return
        try:
            for result in in_order(lambda x: self._submit(fn, x), items,
                                   window or 2 * self.n):
                check_interrupt()                 # one that was swallowed: stop here
                yield result
        except BrokenProcessPool:
            raise WorkerError("the worker processes stopped (they could not start -- a script "
                              "must keep its work under `if __name__ == \"__main__\":` -- or "
                              "one was killed); run with one worker (workers=1, --workers 1) "
                              "to do the work in this process") from None

    def close(self) -> None:
        """Let the processes finish what they were given and stop them."""
        if self._ex is not None:
            self._ex.shutdown(wait=True, cancel_futures=True)
            self._ex = None

    def terminate(self) -> None:
        """Stop the processes now (SIGTERM), whatever they are doing: the work is abandoned
        (an interrupt, an error)."""
        ex, self._ex = self._ex, None
        if ex is not None:
            _terminate(ex)

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is None:
            self.close()
        else:
            self.terminate()


def _sigint_blocked():
    """SIGINT blocked in this thread while the block runs (where threads have signal masks).
    multiprocessing's resource tracker is started first: its own start unblocks SIGINT."""
    if not hasattr(signal, "pthread_sigmask"):
        return contextlib.nullcontext()
    from multiprocessing import resource_tracker
    resource_tracker.ensure_running()
    return _masked({signal.SIGINT})


@contextlib.contextmanager
def _masked(signals: set):
    old = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _worker_start(parent: int) -> None:
    """First thing in a worker process: ignore SIGINT for good (the command handles it and
    terminates the pool) and leave when the command is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if hasattr(os, "getppid"):
        threading.Thread(target=_orphaned, args=(parent,), name="survive-sim-parent",
                         daemon=True).start()


def _orphaned(parent: int, every: float = 1.0) -> None:
    """Exit this worker quietly once its parent, the command, has gone (SIGKILL): nothing is
    left running that nobody waits for."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


def _terminate(ex: ProcessPoolExecutor, wait: float = 5.0) -> None:
    """Cancel what has not started, stop every process of ``ex`` with SIGTERM and wait (up to
    ``wait`` s each) for them and for the executor's manager thread. ``terminate_workers``
    where Python has it (3.14); before, the same steps on the executor's own attributes."""
    processes = dict(getattr(ex, "_processes", None) or {})
    manager = getattr(ex, "_executor_manager_thread", None)
    stop = getattr(ex, "terminate_workers", None)
    if stop is not None:
        stop()
    else:
        ex.shutdown(wait=False, cancel_futures=True)
        for p in processes.values():
            with contextlib.suppress(Exception):
                p.terminate()
    for p in processes.values():
        with contextlib.suppress(Exception):
            p.join(wait)
    if manager is not None:
        manager.join(wait)


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
        yield _result(pending.popleft())
        for x in it:                        # the next item, if any (an item may be None)
            pending.append(submit(x))
            break


STEP = 0.1                                  # seconds between two looks for a signal


def _result(future):
    """``future.result()``, waited for in short steps when it is a process's: a signal that
    the system hands to another thread of the command (any thread may take it) is then acted
    on within ``STEP`` -- a lock wait of the main thread without a timeout would sleep on
    until the work ended."""
    if not isinstance(future, Future):
        return future.result()
    while True:
        try:
            return future.result(timeout=STEP)
        except FutureTimeout:
            if future.done():               # (a TimeoutError of the work itself)
                raise


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
