"""Where a sweep's cells run: in this process, in a local process pool, or on Dask.

The driver is written against :class:`concurrent.futures.Executor`, so the choice is only
which executor :func:`open_executor` yields:

* ``local`` (default): one cell after another in this process; needs nothing.
* ``processes``: a :class:`~concurrent.futures.ProcessPoolExecutor` over this machine's cores.
* ``dask``: ``dask.distributed.Client(address).get_executor(pure=False)`` on an existing
  cluster, or on a :class:`~dask.distributed.LocalCluster` started for the sweep when no
  address is given.
  Dask is imported here, lazily, only when asked for.

Every executor gets the same jobs with the same per-cell streams, so the tables match.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from balance.errors import OptionError

EXECUTORS = ("local", "processes", "dask")


class SerialExecutor(Executor):
    """Runs each task at once, in this process, when it is submitted (the ``local`` executor).

    Because a task runs inside ``submit``, a driver that submitted every job before reading
    any result would save nothing and show no progress until the last job ended: drivers go
    through :func:`as_finished` and :func:`in_order`, which hand a serial executor one job at
    a time."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as err:  # delivered through the future, as a pool would
            if isinstance(err, KeyboardInterrupt | SystemExit):
                raise
            future.set_exception(err)
        return future


def runs_at_submit(pool: Executor) -> bool:
    """Does ``pool`` run a task inside ``submit`` (so submitting ahead gains nothing)?"""
    return isinstance(pool, SerialExecutor)


def as_finished(pool: Executor, fn: Callable[[Any], Any],
                jobs: Iterable[Any]) -> Iterator[Any]:
    """``fn(job)`` of every job, each yielded as soon as it finishes.

    A pool is handed every job here, at the call (so a forking pool starts its workers
    before the caller starts a progress bar's thread), and results come in the order they
    finish; a serial executor gets the next job only after the caller has had the last
    result, so the caller saves each result and advances its progress before the next job
    starts, under every executor alike. Jobs not yet finished are cancelled when the
    iterator is closed early (an error, Ctrl-C)."""
    if runs_at_submit(pool):
        return (pool.submit(fn, job).result() for job in jobs)
    futures = [pool.submit(fn, job) for job in jobs]
    return _collect(futures, as_completed(futures))


def in_order(pool: Executor, fn: Callable[[Any], Any], jobs: Iterable[Any]) -> Iterator[Any]:
    """``fn(job)`` of every job in the jobs' order (sums that must merge in block order), each
    yielded as soon as it and those before it are done; jobs are handed out as in
    :func:`as_finished`."""
    if runs_at_submit(pool):
        return (pool.submit(fn, job).result() for job in jobs)
    futures = [pool.submit(fn, job) for job in jobs]
    return _collect(futures, iter(futures))


def _collect(futures: list[Future], order: Iterator[Future]) -> Iterator[Any]:
    try:
        for future in order:
            yield future.result()
    finally:
        for future in futures:
            future.cancel()


@dataclass(frozen=True)
class ExecutorInfo:
    """What ran a sweep, for the manifest."""

    kind: str
    workers: int
    scheduler: str | None = None
    start_method: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "workers": self.workers, "scheduler": self.scheduler,
                "start_method": self.start_method}


def check_executor(kind: str, scheduler: str | None, workers: int | None) -> None:
    """Reject impossible combinations before any work starts."""
    if kind not in EXECUTORS:
        raise OptionError(f"executor must be one of {', '.join(EXECUTORS)}, got {kind!r}")
    if scheduler is not None and kind != "dask":
        raise OptionError("--scheduler is for --executor dask")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise OptionError(f"workers must be an integer >= 1, got {workers!r}")
    if kind == "dask" and scheduler is not None and workers is not None:
        raise OptionError("--workers starts a local Dask cluster; an existing cluster "
                          "(--scheduler) has its own workers")


@contextlib.contextmanager
def open_executor(kind: str = "local", *, scheduler: str | None = None,
                  workers: int | None = None) -> Iterator[tuple[Executor, ExecutorInfo]]:
    """Yield a ready executor of ``kind`` and what it is; shut it down afterwards."""
    check_executor(kind, scheduler, workers)
    if kind == "local":
        yield SerialExecutor(), ExecutorInfo("local", 1)
    elif kind == "processes":
        n = workers or os.cpu_count() or 1
        method = start_method()
        context = multiprocessing.get_context(method)
        if method == "forkserver":
            context.set_forkserver_preload(["balance.sweep.task"])
        pool = ProcessPoolExecutor(max_workers=n, mp_context=context)
        try:
            yield pool, ExecutorInfo("processes", n, start_method=method)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    else:
        with _dask(scheduler, workers) as pair:
            yield pair


def start_method() -> str:
    """How to start worker processes: ``fork`` from a single-threaded process on Linux (the
    workers start at once and inherit what is imported), else ``forkserver`` (a clean
    child that never inherits threads, e.g. in a Jupyter kernel), else ``spawn``.

    forkserver and spawn re-import the ``__main__`` script in every worker, so a script that
    runs sweeps on processes needs the ``if __name__ == "__main__":`` guard.
    """
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and sys.platform.startswith("linux") and \
            threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


@contextlib.contextmanager
def _dask(scheduler: str | None,
          workers: int | None) -> Iterator[tuple[Executor, ExecutorInfo]]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise OptionError("--executor dask needs dask.distributed: "
                          "pip install 'balance-lab[dask]'") from None
    cluster = None
    try:
        if scheduler is None:
            cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1,
                                   threads_per_worker=1, dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as err:
        if cluster is not None:
            cluster.close()
        raise OptionError(f"cannot reach the Dask scheduler {scheduler!r}: {err}") from None
    try:
        n = len(client.nthreads())
        address = scheduler or "local cluster"
        yield client.get_executor(pure=False), ExecutorInfo("dask", n, address)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def dask_executor(client: Any) -> tuple[Executor, ExecutorInfo]:
    """An executor on a :class:`dask.distributed.Client` you already hold (tests, notebooks).

    Both executors submit with ``pure=False``: each task gets a fresh key. With Dask's
    default (the key a hash of the function and its arguments) a job resubmitted right
    after its future was cancelled (an interrupted sweep resumed on the same client) can
    find the cancelled future under its key and fail with ``CancelledError``
    (dask/distributed#8215 and kin); the results do not depend on keys, only on each job's
    own random streams."""
    n = len(client.nthreads())
    return client.get_executor(pure=False), ExecutorInfo("dask", n, str(client.scheduler.address))
