"""Move clocks: a game created with `move_seconds` gives each decision that long; on time-out the heuristic agent
moves for the seat and the table is told.

The clocks are run by the process that owns the AI moves (`Broker.owns_ai`: the only process with SQLite, the holder
of the PostgreSQL advisory lock with several), on a thread of their own every `clock_tick` seconds, never in the
event loop. Every seat that owes a decision is clocked (the seat to move, and in a simultaneous step such as
SiliconVania's secret bids every seat that has not decided): a seat's decision is due `move_seconds` after the event
from which it has stood (`since`, the event count a client quotes; the moment the clock first saw the game for a
decision owed since the start). The earliest of those deadlines is stored for event count `seq` (`clocks` table). A
restart, or another process taking the AI lock over, reads the stored deadline and keeps it. The time-out move of
each late seat is chosen through a `SeatHandle` of that seat by the heuristic agent, in this thread (0.2-3 ms a
move, 18 ms at worst: never queued behind the AI workers' searches, so a backlog of AI moves cannot delay or stop
the clocks, and no worker pool is waited on), committed
like any action (its client action id `server:clock-<since>`, in the server's own namespace that no client may use:
one per decision, whichever process commits it), and the table gets a notice that names the seat and not the move
(a secret bid stays secret). AI seats are not clocked.

The same thread expires the games that have waited for players longer than `waiting_expiry` (status `expired`).
"""

from __future__ import annotations

import logging
import secrets
import threading
from datetime import datetime, timedelta
from typing import Any

from tabletop.server.ai import choose_action
from tabletop.server.service import GameService, ServiceError
from tabletop.server.storage import Clock, now
from tabletop.server.table import Table

log = logging.getLogger("tabletop.server")

TIMEOUT_AGENT = "medium"
"""The strength label that moves for a seat whose time ran out: the game's heuristic agent."""


def duration(seconds: int) -> str:
    """`120` -> `2 min`, `259200` -> `3 days`."""
    for unit, size in (("day", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size and seconds % size == 0:
            n = seconds // size
            return f"{n} {unit}{'s' if unit == 'day' and n != 1 else ''}"
    return f"{seconds} s"


class Clocks:
    """The move clocks of every game in play, ticked by the AI-owning process."""

    def __init__(self, service: GameService, table: Table, tick: float) -> None:
        self.service, self.table, self.tick = service, table, tick
        self.storage = service.storage
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._soonest: datetime | None = None
        """The earliest deadline the last tick saw."""

    def start(self) -> None:
        """Begin ticking."""
        self._thread = threading.Thread(target=self._run, name="tabletop-clocks", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop ticking (a tick under way stops after the game it is at: it never waits on the AI workers)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(3)

    def _run(self) -> None:
        failing = False
        while not self._stop.wait(self._pause()):
            if not self.service.broker.owns_ai():
                continue
            try:
                self.check()
                self.service.expire_waiting()
                failing = False
            except Exception as e:  # said once (with its trace) until a tick succeeds again, not every tick
                if not failing:
                    log.exception("the move clocks failed to tick: %r", e)
                failing = True

    def _pause(self) -> float:
        """Until the next tick: `tick`, or less when a known deadline comes sooner (a clock fires on time, not up to
        a tick late)."""
        soonest = self._soonest
        if soonest is None:
            return self.tick
        return min(self.tick, max(0.01, (soonest - now()).total_seconds() + 0.005))

    def check(self, at: datetime | None = None) -> int:
        """One tick: set the deadline of each new decision, time out the late ones; the number timed out."""
        at = at or now()
        self._soonest = None
        late = 0
        for clock in self.storage.running_clocks():
            if self._stop.is_set():
                break
            try:
                late += self._check(clock, at)
            except ServiceError as e:
                log.error("clock of game %s: %s", clock.game_id, e.message)
        return late

    def _check(self, clock: Clock, at: datetime) -> int:
        state, seq, status, owing = self.service.owing(clock.game_id)
        if status != "playing" or not owing:
            return 0
        seats = self.service.info(clock.game_id)["seats"]
        humans = {seat: v for seat, v in owing.items() if seats[seat]["kind"] == "human"}
        move = timedelta(seconds=clock.move_seconds)
        # A decision standing since the game began starts when the clock first saw the game (kept in the stored
        # deadline, which is always that of the earliest decision owed).
        first = clock.deadline - move if clock.deadline is not None else at
        if clock.seq != seq or clock.deadline is None:
            starts = [t if t is not None else first for _, t in humans.values()]
            deadline = min(starts, default=at) + move
            self.storage.set_deadline(clock.game_id, seq, deadline)
            self._soon(deadline)
            return 0
        if at < clock.deadline:
            self._soon(clock.deadline)
            return 0
        record = state.record()
        late = 0
        for seat, (since, t) in sorted(humans.items()):
            if at < (t if t is not None else first) + move:
                continue
            # in this thread (not the event loop): the heuristic takes milliseconds, and no AI backlog delays it
            text = choose_action(record, seat, TIMEOUT_AGENT, secrets.randbits(62))
            if self.service.act_for(clock.game_id, seat, text, since, f"clock-{since}") is None:
                continue  # the player moved meanwhile
            name = seats[seat]["name"]
            self.table.notice(clock.game_id, f"{name} (seat {seat + 1}) ran out of time "
                                             f"({duration(clock.move_seconds)} a move); the heuristic agent moved "
                                             "for them")
            late += 1
            self._maybe_leaver(clock.game_id, seat)
        return late

    def _maybe_leaver(self, game_id: str, seat: int) -> None:
        """A seat timed out `leaver_timeouts` times in a row is taken over by the AI, as if its player left (issue
        23, `tabletop.server.leavers`)."""
        from tabletop.server.leavers import leave, table_level, timeouts_in_a_row

        n = self.table.settings.leaver_timeouts
        if n > 0 and timeouts_in_a_row(self.service, game_id, seat) >= n:
            try:
                level = table_level(self.service, game_id, self.table.settings.leaver_level)
                leave(self.service, self.table, game_id, None, level, seat=seat)
            except ServiceError as e:
                log.info("seat %d of game %s not taken over: %s", seat, game_id, e.message)

    def _soon(self, deadline: datetime) -> None:
        if self._soonest is None or deadline < self._soonest:
            self._soonest = deadline

    def describe(self, game_id: str) -> dict[str, Any] | None:
        """The clock as clients see it, or None."""
        clock = self.storage.clock(game_id)
        if clock is None:
            return None
        return {"move_seconds": clock.move_seconds, "seq": clock.seq,
                "deadline": None if clock.deadline is None else clock.deadline.isoformat()}
