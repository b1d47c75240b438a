"""Where games run: local processes (the default) or a Ray cluster. The arena and the studies use one interface,
`Backend.imap_unordered(fn, items)`, so the same code path plays on one laptop or on a cluster.

`local`: `workers` processes of this machine (one: in this process). `ray`: tasks on a Ray cluster, an existing
engine (https://docs.ray.io): `address=None` starts a local cluster with `workers` CPUs, `address="auto"` joins the
cluster this machine belongs to, `ray://host:10001` a remote one. When Ray is already initialised in this process
(as the tests do once per module), that cluster is used and left running.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from tabletop.core import TabletopError

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")


class BackendError(TabletopError):
    """A backend that cannot start (Ray not installed, no cluster at the address)."""


class Backend(Protocol):
    """Runs a picklable function over items, yielding results as they finish (any order)."""

    name: str
    startup_seconds: float

    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]: ...

    def close(self) -> None: ...


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and terminates the pool


class LocalBackend:
    """`workers` local processes (forked once, reused for every call); one worker plays in this process."""

    name = "local"

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise BackendError(f"workers must be at least 1, not {workers}")
        self.workers = workers
        t0 = time.perf_counter()
        self._pool = multiprocessing.get_context().Pool(workers, initializer=_init_worker) if workers > 1 else None
        self.startup_seconds = time.perf_counter() - t0

    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        if self._pool is None:
            return map(fn, items)
        return self._drain(self._pool.imap_unordered(fn, items, chunksize=1))

    def _drain(self, results: Iterator[R]) -> Iterator[R]:
        self._busy = True
        yield from results
        self._busy = False

    _busy = False

    def close(self) -> None:
        if self._pool is not None:
            if self._busy:
                self._pool.terminate()  # stops the games still running (after Ctrl-C)
            else:
                self._pool.close()  # every game is done: the workers leave by themselves
            self._pool.join()
            self._pool = None


class RayBackend:
    """Tasks on a Ray cluster, at most `workers` in flight per CPU-slot count (default: the cluster's CPUs)."""

    name = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError("the ray backend needs Ray: pip install 'ray' (or tabletop's 'study' extra)") from None
        self._ray = ray
        t0 = time.perf_counter()
        self._owned = not ray.is_initialized()
        if self._owned:
            # Ray runs its workers 15 nice levels below the driver (to keep a driver responsive); a study's driver
            # only waits, and on a busy machine niced workers starve: they run at the driver's priority.
            os.environ.setdefault("RAY_worker_niceness", "0")
            kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": "ERROR", "log_to_driver": False}
            if address is None:
                kwargs["num_cpus"] = workers or 1
            try:
                ray.init(address=address, **kwargs)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise BackendError(f"cannot start or reach a Ray cluster at {address or 'this machine'}: {e}") from None
        self.startup_seconds = time.perf_counter() - t0
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        self.workers = workers or cpus
        self._remote: dict[Any, Any] = {}

    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        ray = self._ray
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = ray.remote(num_cpus=1, max_retries=2)(fn)
        todo = iter(items)
        pending: list[Any] = []
        limit = 2 * self.workers  # a few queued per worker: results stream back, memory stays flat
        try:
            for item in todo:
                pending.append(remote.remote(item))
                if len(pending) >= limit:
                    done, pending = ray.wait(pending, num_returns=1)
                    yield ray.get(done[0])
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
        finally:
            for ref in pending:  # interrupted: the games in flight are dropped
                ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()
        self._owned = False


def make_backend(name: str, workers: int | None = None, address: str | None = None) -> Backend:
    """The backend called `name` (`local` or `ray`); `workers` None: one local process, or the cluster's CPUs
    (a local Ray cluster without an address gets one CPU)."""
    if name == "local":
        if address is not None:
            raise BackendError("--address is for the ray backend (--backend ray)")
        return LocalBackend(workers or 1)
    if name == "ray":
        return RayBackend(workers, address)
    raise BackendError(f"unknown backend {name!r}; the backends are: {', '.join(BACKENDS)}")
