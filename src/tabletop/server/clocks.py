"""Move clocks: a game created with `move_seconds` gives each decision that long; on time-out the heuristic agent
moves for the seat and the table is told.

The clocks are run by the process that owns the AI moves (`Broker.owns_ai`: the only process with SQLite, the
holder of the PostgreSQL advisory lock with several), on a thread of their own every `clock_tick` seconds, never
in the event loop. The deadline of the decision owed at event `seq` is stored (`clocks` table): the time of
event `seq - 1` (or the moment the clock first sees the game in play) plus `move_seconds`. A restart, or another
process taking the AI lock over, reads the stored deadline and keeps it. The time-out move is chosen through a
`SeatHandle` of the late seat (in the AI worker pool when there is one), committed like any action (its client
action id `clock-<seq>`: one per decision, whichever process commits it), and the table gets a notice that names
the seat and not the move (a secret bid stays secret). AI seats are not clocked.
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

    def start(self) -> None:
        """Begin ticking."""
        self._thread = threading.Thread(target=self._run, name="tabletop-clocks", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop ticking."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(30)

    def _run(self) -> None:
        while not self._stop.wait(self.tick):
            if not self.service.broker.owns_ai():
                continue
            try:
                self.check()
            except Exception:
                log.exception("the move clocks failed to tick")

    def check(self, at: datetime | None = None) -> int:
        """One tick: set the deadline of each new decision, time out the late ones; the number timed out."""
        at = at or now()
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
        state, seq, status = self.service.current(clock.game_id)
        seat = state.to_move
        if status != "playing" or seat is None:
            return 0
        if clock.seq != seq or clock.deadline is None:
            start = at
            if seq > 0:
                last = self.storage.events(clock.game_id, seq - 1)
                start = last[0].time if last else at
            self.storage.set_deadline(clock.game_id, seq, start + timedelta(seconds=clock.move_seconds))
            return 0
        if at < clock.deadline or self.service.info(clock.game_id)["seats"][seat]["kind"] != "human":
            return 0
        record = state.record()
        pool = self.service.pool
        if pool is not None:
            text = pool.submit(choose_action, record, seat, TIMEOUT_AGENT, secrets.randbits(62)).result(120)
        else:  # no AI workers configured: this thread decides (still not the event loop)
            text = choose_action(record, seat, TIMEOUT_AGENT, secrets.randbits(62))
        if self.service.act_for(clock.game_id, seat, text, seq, f"clock-{seq}") is None:
            return 0  # the player moved meanwhile
        name = self.service.info(clock.game_id)["seats"][seat]["name"]
        self.table.notice(clock.game_id, f"{name} (seat {seat}) ran out of time ({duration(clock.move_seconds)} a "
                                         "move); the heuristic agent moved for them")
        return 1

    def describe(self, game_id: str) -> dict[str, Any] | None:
        """The clock as clients see it, or None."""
        clock = self.storage.clock(game_id)
        if clock is None:
            return None
        return {"move_seconds": clock.move_seconds, "seq": clock.seq,
                "deadline": None if clock.deadline is None else clock.deadline.isoformat()}
