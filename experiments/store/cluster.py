"""A Dask client for work split into tasks: a sweep's chunks played on workers, a run's chunks
read there. Connecting happens at once, so a scheduler that cannot be reached is one line
(``RunError``) before anything is written."""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator

from .runs import RunError
from .watch import Watch


class Cluster:
    """A Dask client: ``local`` starts a LocalCluster of ``workers`` processes with one thread
    each; anything else is a scheduler address. Connects at once: an address that cannot be
    reached is a ``RunError`` before anything is written."""

    def __init__(self, scheduler: str, workers: int | None, watch: Watch | None = None):
        try:
            from dask.distributed import Client, LocalCluster  # optional: the [dask] extra
        except ImportError:
            raise RunError("--scheduler needs dask.distributed: pip install "
                           "\"survive-sim[dask]\"") from None
        self.cluster = None
        if scheduler == "local":
            if watch is not None:       # (a remote scheduler is silent: bad input is one line)
                watch.begin(f"starting a local Dask cluster of "
                            f"{workers or os.cpu_count() or 1} worker(s)")
            self.cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1,
                                        threads_per_worker=1, processes=True,
                                        dashboard_address=None)
            self.client = Client(self.cluster)
        else:
            try:
                self.client = Client(scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError) as e:
                raise RunError(f"cannot reach the Dask scheduler at {scheduler} "
                               f"({' '.join(str(e).split())}); start one with `dask scheduler` "
                               f"or use --scheduler local") from None
        self.workers = workers

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def window(self, tasks: Iterator[tuple[object, Callable, tuple]]) -> Iterator:
        """``(key, fn, args)`` tasks run as ``fn(*args)``, two in flight per worker:
        ``(key, result, seconds)`` in the order they finish (a caller whose files must not
        depend on that order sorts by key). A worker that dies mid-task has it run again."""
        from dask.distributed import as_completed     # optional: the [dask] extra
        width = 2 * max(1, len(self.client.scheduler_info().get("workers", {}))
                        or (self.workers or 1))
        tasks, started_at = iter(tasks), {}

        def submit(task):
            key, fn, args = task
            fut = self.client.submit(fn, *args, pure=False, retries=3)
            started_at[fut.key] = (key, time.perf_counter())
            return fut

        window = as_completed([submit(t) for t in _take(tasks, width)])
        for fut in window:
            key, t = started_at.pop(fut.key)
            result = fut.result()
            nxt = next(tasks, None)
            if nxt is not None:
                window.add(submit(nxt))
            yield key, result, time.perf_counter() - t


def _take(it, n: int) -> list:
    out = []
    for _ in range(n):
        x = next(it, None)
        if x is None:
            break
        out.append(x)
    return out
