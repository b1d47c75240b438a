"""Who is told of new events: a notice `(game id, seq)` per committed event, fanned out to subscribers.

A notice carries no game data: each connection builds its own seat's message from the live state, so filtering
per seat stays the last step before the wire. `InProcessBroker` serves one server process; `PgBroker` serves
several processes on one PostgreSQL database: a notice published in one process reaches the subscribers of every
process (`LISTEN/NOTIFY`), and the broker also elects the one process that computes AI moves (a session-level
advisory lock held by its listening connection: when that process dies, PostgreSQL releases the lock and another
process takes it over within a second).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import uuid
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger("tabletop.server")

Listener = Callable[[str, int], None]
"""Called with `(game id, seq)` for a notice from another process, before local subscribers are told."""


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

    def publish(self, game_id: str, seq: int, sent: bool = False) -> None:
        """Tell every subscriber of `game_id` that its log now has `seq` events. `sent`: the other processes were
        told in the event's own transaction (see `notice`), only this process's subscribers are left."""
        ...

    def notice(self, game_id: str, seq: int) -> tuple[str, str] | None:
        """The (channel, payload) of a database notice that tells the other processes of event `seq`, to be sent
        in the event's own transaction (delivered if and when it commits, no round trip of its own); None when
        there are no other processes to tell."""
        ...

    def subscribe(self, game_id: str, wake: Callable[[int], None] | None = None) -> Subscription:
        """Start receiving notices of `game_id` (call from a running event loop). With `wake`, each notice calls
        it in that loop instead of queueing for `next` (a socket waiting on several subscriptions at once then
        needs no task per subscription per notice)."""
        ...

    def start(self, on_remote: Listener, on_ownership: Callable[[], None]) -> None:
        """Begin: `on_remote` for notices of other processes, `on_ownership` when this process becomes the one
        that computes AI moves (at once for a single-process broker)."""
        ...

    def owns_ai(self) -> bool:
        """Whether this process is the one that computes AI moves now."""
        ...

    def close(self) -> None:
        """Stop listening."""
        ...


class _LocalSubscription:
    def __init__(self, broker: InProcessBroker, game_id: str, wake: Callable[[int], None] | None = None) -> None:
        self._broker = broker
        self.game_id = game_id
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[int] = asyncio.Queue()
        self.wake = wake

    async def next(self) -> int:
        seq = await self.queue.get()
        while not self.queue.empty():  # coalesce: only the newest state is worth sending
            seq = max(seq, self.queue.get_nowait())
        return seq

    def close(self) -> None:
        self._broker._remove(self)


def _put_all(subs: list[_LocalSubscription], seq: int) -> None:
    for sub in subs:
        if sub.wake is not None:
            try:
                sub.wake(seq)
            except Exception:  # one subscriber's fault never keeps the notice from the others
                log.exception("a subscriber of %s failed on notice %d", sub.game_id, seq)
        else:
            sub.queue.put_nowait(seq)


class InProcessBroker:
    """Notices within one server process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[str, set[_LocalSubscription]] = {}

    def notice(self, game_id: str, seq: int) -> None:
        """No other process to tell."""
        return None

    def publish(self, game_id: str, seq: int, sent: bool = False) -> None:
        """Tell every subscriber of `game_id` (from any thread)."""
        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        by_loop: dict[asyncio.AbstractEventLoop, list[_LocalSubscription]] = {}
        for sub in subs:
            by_loop.setdefault(sub.loop, []).append(sub)
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()  # a move applied in the loop
        except RuntimeError:  # a worker thread's
            here = None
        for loop, group in by_loop.items():  # one wake-up of each loop, not one per connection
            try:
                if loop is here:  # no wake-up through the loop's self-pipe for a notice from its own thread
                    loop.call_soon(_put_all, group, seq)
                else:
                    loop.call_soon_threadsafe(_put_all, group, seq)
            except RuntimeError:  # its loop is closed: the connections are gone
                for sub in group:
                    self._remove(sub)

    def subscribe(self, game_id: str, wake: Callable[[int], None] | None = None) -> Subscription:
        """A subscription to `game_id` (see `Broker.subscribe` for `wake`)."""
        sub = _LocalSubscription(self, game_id, wake)
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

    def start(self, on_remote: Listener, on_ownership: Callable[[], None]) -> None:
        """A single process: nobody else to hear from, and it owns the AI moves from the start."""
        on_ownership()

    def owns_ai(self) -> bool:
        """Always: there is no other process."""
        return True

    def close(self) -> None:
        """Nothing to release."""


CHANNEL = "tabletop_events"
AI_LOCK = 0x7461626C65746F70  # 'tabletop': the advisory lock of the process that computes AI moves


def psycopg_conninfo(sqlalchemy_url: str) -> str:
    """A libpq URI for psycopg from a `postgresql+psycopg://` SQLAlchemy URL."""
    from sqlalchemy.engine import make_url

    return make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)


class PgBroker:
    """Notices across server processes on one PostgreSQL database, and the election of the AI-owning process.

    `publish` tells local subscribers at once and every other process through `pg_notify` (the event is already
    committed). A listener thread holds one connection: `LISTEN` on it, and the advisory lock `AI_LOCK` when this
    process owns the AI moves. If that connection breaks, ownership is given up, the listener reconnects and
    calls `on_reconnect` (the service refreshes every cached game: notices may have been missed).
    """

    def __init__(self, url: str, poll: float = 0.5) -> None:
        self.conninfo = psycopg_conninfo(url)
        self.origin = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.local = InProcessBroker()
        self.poll = poll
        self._owner = False
        self._stop = threading.Event()
        self._pub_lock = threading.Lock()
        self._pub_conn: Any = None
        self._thread: threading.Thread | None = None
        self._on_remote: Listener = lambda _g, _s: None
        self._on_ownership: Callable[[], None] = lambda: None
        self.on_reconnect: Callable[[], None] = lambda: None

    def notice(self, game_id: str, seq: int) -> tuple[str, str]:
        """`pg_notify`'s arguments for event `seq`, sent in the event's transaction by `Storage.append_event`."""
        return CHANNEL, f"{game_id} {seq} {self.origin}"

    def publish(self, game_id: str, seq: int, sent: bool = False) -> None:
        """Tell this process's subscribers now, and the other processes through PostgreSQL (unless `sent`)."""
        self.local.publish(game_id, seq)
        if sent:
            return
        payload = f"{game_id} {seq} {self.origin}"
        for attempt in (1, 2):
            with self._pub_lock:
                try:
                    if self._pub_conn is None or self._pub_conn.closed:
                        import psycopg

                        self._pub_conn = psycopg.connect(self.conninfo, autocommit=True)
                    self._pub_conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                    return
                except Exception as e:
                    self._pub_conn = None
                    if attempt == 2:
                        log.error("could not notify other processes of %s at %d: %r", game_id, seq, e)

    def subscribe(self, game_id: str, wake: Callable[[int], None] | None = None) -> Subscription:
        """A subscription to `game_id` in this process."""
        return self.local.subscribe(game_id, wake)

    def start(self, on_remote: Listener, on_ownership: Callable[[], None]) -> None:
        """Start the listener thread."""
        self._on_remote, self._on_ownership = on_remote, on_ownership
        self._thread = threading.Thread(target=self._listen, name="tabletop-pg-listener", daemon=True)
        self._thread.start()

    def owns_ai(self) -> bool:
        """Whether this process holds the AI lock now."""
        return self._owner

    def close(self) -> None:
        """Stop listening (the AI lock goes with the connection)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        with self._pub_lock:
            if self._pub_conn is not None:
                self._pub_conn.close()

    def _listen(self) -> None:
        import psycopg

        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if not first:
                        self.on_reconnect()  # notices may have been missed while disconnected
                    first = False
                    while not self._stop.is_set():
                        if not self._owner:
                            row = conn.execute("SELECT pg_try_advisory_lock(%s)", (AI_LOCK,)).fetchone()
                            if row is not None and row[0]:
                                self._owner = True
                                log.info("this process now computes the AI moves")
                                threading.Thread(target=self._on_ownership, daemon=True).start()
                        for n in conn.notifies(timeout=self.poll):
                            self._deliver(n.payload)
            except Exception as e:
                if self._owner:
                    log.error("lost the database connection holding the AI lock: %r", e)
                self._owner = False
                self._stop.wait(self.poll)

    def _deliver(self, payload: str) -> None:
        try:
            game_id, seq_text, origin = payload.split(" ")
            seq = int(seq_text)
        except ValueError:
            return
        if origin == self.origin:
            return  # told locally when published
        try:
            self._on_remote(game_id, seq)
        except Exception:
            log.exception("refreshing game %s after a notice failed", game_id)
        self.local.publish(game_id, seq)
