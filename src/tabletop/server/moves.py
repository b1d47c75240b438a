"""AI moves: the lanes where they are computed (searches in worker processes, the cheap strengths in a thread) and
the thread where what they decide is handed back to be committed. Which seat is to move, and the commit itself,
are the service's (`GameService._schedule_ai`, `GameService._ai_commit`)."""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future, ThreadPoolExecutor
from functools import partial
from typing import Any

from tabletop.server.ai import LIGHT_LABELS, Lane, PolicyOffer, choose_action

log = logging.getLogger("tabletop.server")


class AIMoves:
    """Computes AI moves and hands each to `commit(game_id, seq, seat, action)` on its own commit thread (never in
    a pool's internal thread); a strength that fails is retried once at the easy level. `closed()` says the server
    is stopping (nothing more is committed). Without a `pool_factory` no move is computed."""

    def __init__(self, pool_factory: Callable[[], Executor] | None, ai_slots: int, policies: dict[str, PolicyOffer],
                 commit: Callable[[str, int, int, str], None], closed: Callable[[], bool]) -> None:
        self.policies = policies
        self.commit = commit
        self.closed = closed
        self.search: Lane | None = None
        """The searching strengths (hard, trained policies) in worker processes: `ai_slots` jobs at a time."""
        self.light: Lane | None = None
        """The cheap strengths (`LIGHT_LABELS`) in a thread of this process, never behind a search."""
        if pool_factory is not None:
            self.search = Lane("AI", pool_factory, ai_slots)
            self.light = Lane("light AI", partial(ThreadPoolExecutor, 1, "tabletop-ai-light"), 1)
        self._committer = Lane("AI commit", partial(ThreadPoolExecutor, 1, "tabletop-ai-commit"), 1)
        """AI moves are committed here, not in the worker pool's internal thread; a person's game's first."""

    @property
    def enabled(self) -> bool:
        """Whether AI moves are computed at all."""
        return self.search is not None

    def submit(self, game_id: str, seq: int, seat: int, label: str, record: dict[str, Any], priority: int,
               table: list[str | None] | None = None) -> None:
        """Have `seat` (strength `label`) decide in the game `record` (at event `seq`), at `priority` (0 first);
        `table`: who sits at each seat (`tabletop.server.ai.seat_kinds`), for agents that read their teammates."""
        lane = self.light if label in LIGHT_LABELS else self.search
        if lane is None:
            return
        try:
            offer = self.policies.get(label)
            fut = lane.submit(choose_action, record, seat, label, secrets.randbits(62),
                              str(offer.path) if offer is not None else None, table, priority=priority)
        except RuntimeError:  # the lane is closed: the server is stopping
            return
        done: Callable[[Future[str]], None] = partial(self._done, game_id, seq, seat, label, record, priority)

        def hand_over(f: Future[str]) -> None:  # runs in the pool's internal thread: only pass the result on
            with contextlib.suppress(RuntimeError):  # RuntimeError: shutting down
                self._committer.submit(done, f, priority=priority)

        fut.add_done_callback(hand_over)

    def _done(self, game_id: str, seq: int, seat: int, label: str, record: dict[str, Any], priority: int,
              fut: Future[str]) -> None:
        if self.closed() or fut.cancelled():
            return
        exc = fut.exception()
        if exc is not None:  # a broken pool was replaced and the move retried by the lane: this is past that
            why = "its worker process died each time it was tried" if isinstance(exc, BrokenExecutor) else repr(exc)
            log.error("AI (%s) failed in game %s at event %d: %s%s", label, game_id, seq, why,
                      "; the easy level moves instead" if label != "easy" else "")
            if label != "easy":
                self.submit(game_id, seq, seat, "easy", record, priority)
            return
        try:
            self.commit(game_id, seq, seat, fut.result())
        except Exception:
            log.exception("AI move of game %s at event %d could not be applied", game_id, seq)

    def close(self) -> None:
        """Shut the lanes down: what waits is cancelled, a search still running after 1.5 s is terminated, a commit
        under way finishes."""
        for lane in (self.search, self.light):
            if lane is not None:
                lane.close()  # what waits is cancelled; a search still running after 1.5 s is terminated
        # a commit under way finishes (the database is closed next): it takes milliseconds, and one cut short is
        # rolled back by the database and decided again after a restart. (One shutdown in three under AI load waited
        # the whole grace here for a job no thread was running; 2 s bounds that, issue 20 point 3's 5 s.)
        self._committer.close(grace=2)
