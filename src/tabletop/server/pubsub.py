"""Who is told of new events: a notice `(game id, seq)` per committed event, fanned out to subscribers.

A notice carries no game data: each connection builds its own seat's message from the live state, so filtering
per seat stays the last step before the wire. `InProcessBroker` serves one server process; a PostgreSQL
`LISTEN/NOTIFY` broker (several processes on one database) implements the same two methods.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Protocol


class Subscription(Protocol):
    """A stream of sequence numbers for one game; the newest matters, older ones may be skipped."""

    async def next(self) -> int:
        """Wait for the next notice and return its sequence number."""
        ...

    def close(self) -> None:
        """Stop receiving notices."""
        ...


class Broker(Protocol):
    """Publishes notices of committed events; thread-safe `publish`, `subscribe` from the event loop."""

    def publish(self, game_id: str, seq: int) -> None:
        """Tell every subscriber of `game_id` that its log now has `seq` events."""
        ...

    def subscribe(self, game_id: str) -> Subscription:
        """Start receiving notices of `game_id` (call from a running event loop)."""
        ...


class _LocalSubscription:
    def __init__(self, broker: InProcessBroker, game_id: str) -> None:
        self._broker = broker
        self.game_id = game_id
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[int] = asyncio.Queue()

    async def next(self) -> int:
        seq = await self.queue.get()
        while not self.queue.empty():  # coalesce: only the newest state is worth sending
            seq = max(seq, self.queue.get_nowait())
        return seq

    def close(self) -> None:
        self._broker._remove(self)


class InProcessBroker:
    """Notices within one server process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[str, set[_LocalSubscription]] = {}

    def publish(self, game_id: str, seq: int) -> None:
        """Tell every subscriber of `game_id` (from any thread)."""
        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        for sub in subs:
            try:
                sub.loop.call_soon_threadsafe(sub.queue.put_nowait, seq)
            except RuntimeError:  # its loop is closed: the connection is gone
                self._remove(sub)

    def subscribe(self, game_id: str) -> Subscription:
        """A subscription to `game_id`."""
        sub = _LocalSubscription(self, game_id)
        with self._lock:
            self._subs.setdefault(game_id, set()).add(sub)
        return sub

    def _remove(self, sub: _LocalSubscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.game_id]
