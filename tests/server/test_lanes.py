"""The AI lanes (`tabletop.server.ai.Lane`): priority order, never more jobs handed to the pool than its workers,
a broken pool replaced with its jobs run again (a bounded number of times), close cancels what waits."""

from __future__ import annotations

import threading
import time
from concurrent.futures import BrokenExecutor, Executor, Future, ThreadPoolExecutor
from typing import Any

import pytest

from tabletop.server.ai import Lane


def test_a_person_s_job_goes_ahead_of_every_waiting_ai_only_job() -> None:
    gate = threading.Event()
    order: list[str] = []
    lane = Lane("test", lambda: ThreadPoolExecutor(1), 1)
    try:
        first = lane.submit(gate.wait, 10, priority=1)  # occupies the only worker
        later = [lane.submit(order.append, f"ai-only {i}", priority=1) for i in range(3)]
        person = lane.submit(order.append, "person", priority=0)
        assert lane.waiting() == 5
        gate.set()
        for f in [first, *later, person]:
            f.result(10)
        assert order == ["person", "ai-only 0", "ai-only 1", "ai-only 2"]
    finally:
        lane.close()


class Dying(Executor):
    """A pool whose worker dies under every job (as if each were killed)."""

    made = 0

    def __init__(self) -> None:
        Dying.made += 1

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        f: Future[Any] = Future()
        threading.Timer(0.01, f.set_exception, [BrokenExecutor("a worker died")]).start()
        return f


def test_a_job_that_kills_its_worker_every_time_fails_after_its_retries(caplog: pytest.LogCaptureFixture) -> None:
    Dying.made = 0
    lane = Lane("test", Dying, 1, retries=2)
    try:
        with pytest.raises(BrokenExecutor):
            lane.submit(print, "x").result(10)
        deadline = time.monotonic() + 5  # the pool that broke last is replaced just after the job failed
        while lane.replaced < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert Dying.made == 4 and lane.replaced == 3  # tried 3 times, a new pool after each death
        assert caplog.text.count("the test workers' pool broke") == 3 and "Traceback" not in caplog.text
    finally:
        lane.close()


def test_close_cancels_what_waits_and_refuses_more() -> None:
    gate = threading.Event()
    lane = Lane("test", lambda: ThreadPoolExecutor(1), 1)
    running = lane.submit(gate.wait, 5)
    while not running.running():  # handed to the pool
        time.sleep(0.001)
    waiting = lane.submit(print, "never")
    lane.close(grace=0.1)
    gate.set()
    assert waiting.cancelled()
    assert running.result(5) is True
    with pytest.raises(RuntimeError, match="closed"):
        lane.submit(print, "after")
