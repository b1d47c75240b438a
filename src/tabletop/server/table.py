"""Around the board: hints for the seat deciding, table chat, and the server's notices to the table.

Kept apart from `service` (which owns the game log and the act path): this module only reads games through the
service's per-seat gates (`seat_of`, `current`, `views.seat_legal`) and keeps its own rows (`messages`).

- **Hints**: a seat that owes a decision asks (its turn, or a simultaneous step such as a secret bid); a hint
  worker process rebuilds the state from the record and runs its search (guided ISMCTS or ISMCTS) through a
  `SeatHandle` of that seat (`tabletop.server.ai.hint_actions`) for `hint_seconds`. Never in the event loop, never
  another seat's view. Limited per seat (`hint_rate`, `hint_burst`) and by the number of hints
  waiting for a worker. The workers sit behind a `Lane`: a dead worker's pool is replaced and its hints retried.
- **Chat**: a seated player writes, everyone (spectators included) reads; in a game whose rules forbid talking
  at the table (its `GameInfo.no_chat` says why, e.g. Silencio) there is none and a line is refused with that
  reason. Lines are stored with a per-game index (a reconnecting client
  fetches from its last index), limited in length, per seat in rate, and per game in number.
- **Notices**: lines the server itself writes to the table (a clock ran out). They share the chat's index and
  reach tables without chat too: they are not players talking.

New lines are announced on the broker's topic `chat:<game id>` (another process's sockets hear of it through
the same LISTEN/NOTIFY channel as events).
"""

from __future__ import annotations

import math
import secrets
import threading
from concurrent.futures import Future
from typing import Any, ClassVar

from tabletop.core import game_info
from tabletop.server import views
from tabletop.server.ai import Lane, hint_actions, seat_kinds
from tabletop.server.errors import RateLimited
from tabletop.server.limits import Buckets
from tabletop.server.schemas import plain_text
from tabletop.server.service import Conflict, Forbidden, GameService, Invalid, ServiceError, Unauthorized
from tabletop.server.settings import Settings
from tabletop.server.storage import Message


class Busy(ServiceError):
    """The server cannot take this now (503)."""

    kind: ClassVar[str] = "busy"


def chat_topic(game_id: str) -> str:
    """The broker topic on which new table messages of `game_id` are announced."""
    return f"chat:{game_id}"


class Table:
    """Hints, chat and notices over a `GameService`."""

    def __init__(self, service: GameService, settings: Settings, hint_pool: Lane | None) -> None:
        self.service = service
        self.storage = service.storage
        self.settings = settings
        self.hint_pool = hint_pool
        self._hint_buckets = Buckets(settings.hint_rate, settings.hint_burst)
        self._chat_buckets = Buckets(settings.chat_rate, settings.chat_burst)
        self._hints_waiting = 0
        self._hints_lock = threading.Lock()
        self.max_hints_waiting = max(1, settings.hint_workers) * 4

    def close(self) -> None:
        """Stop the hint workers (a search still running after 1.5 s is terminated)."""
        if self.hint_pool is not None:
            self.hint_pool.close()

    # ---- hints --------------------------------------------------------------------------------------------
    def hint(self, game_id: str, token: str | None) -> tuple[Future[list[dict[str, Any]]], dict[str, Any]]:
        """Start a hint for the token's seat: the worker's future and the facts of the position it is for.
        Only a seat that owes a decision now may ask (in a simultaneous step, every seat that has not decided)."""
        if token is None:
            raise Unauthorized("hints are for a seated player (Authorization: Bearer <seat token>)")
        seat = self.service.seat_of(game_id, token)
        assert seat is not None
        state, seq, status = self.service.current(game_id)
        if status != "playing" or not views.seat_legal(state, seat):
            raise Conflict("hints are only for a seat that owes a decision now, and yours does not")
        if self.hint_pool is None:
            raise Busy("hints are turned off on this server")
        wait = self._hint_buckets.take(f"{game_id}/{seat}")
        if wait:
            raise RateLimited(f"too many hints; the next one in {math.ceil(wait)} s", wait)
        with self._hints_lock:
            if self._hints_waiting >= self.max_hints_waiting:
                raise Busy("the hint workers are all busy; try again in a few seconds")
            self._hints_waiting += 1
        try:
            table = seat_kinds(self.service.info(game_id)["seats"])  # who sits where: Silencio's hint reads it
            fut = self.hint_pool.submit(hint_actions, state.record(), seat, secrets.randbits(62),
                                        self.settings.hint_seconds, table)
        except RuntimeError:
            self._hint_done(None)
            raise Busy("the hint workers are shutting down") from None
        fut.add_done_callback(self._hint_done)
        return fut, {"game_id": game_id, "seat": seat, "seq": seq, "seconds": self.settings.hint_seconds}

    def _hint_done(self, _: Future[list[dict[str, Any]]] | None) -> None:
        with self._hints_lock:
            self._hints_waiting -= 1

    # ---- chat and notices -----------------------------------------------------------------------------------
    def say(self, game_id: str, token: str | None, text: str) -> dict[str, Any]:
        """A seated player's line at the table (refused in games whose rules forbid talking)."""
        info = self.service.info(game_id)
        silent = game_info(info["game"]).no_chat
        if silent:
            raise Forbidden(silent)
        if token is None:
            raise Unauthorized("spectators may read the table chat but not write in it; a seat token is needed")
        seat = self.service.seat_of(game_id, token)
        assert seat is not None
        try:
            text = plain_text(text, "a chat line")
        except ValueError as e:
            raise Invalid(str(e)) from None
        if len(text) > self.settings.chat_max_chars:
            raise Invalid(f"chat lines are limited to {self.settings.chat_max_chars} characters")
        wait = self._chat_buckets.take(f"{game_id}/{seat}")
        if wait:
            raise RateLimited(f"too many chat lines; the next one in {math.ceil(wait)} s", wait)
        msg = self._add(game_id, "chat", seat, info["seats"][seat]["name"], text)
        return {"game_id": game_id, "message": msg.public()}

    def notice(self, game_id: str, text: str) -> Message | None:
        """The server's own line to the table (every game, those without chat included)."""
        return self._add(game_id, "notice", None, "table", text)

    def _add(self, game_id: str, kind: str, seat: int | None, name: str, text: str) -> Message:
        msg = self.storage.add_message(game_id, kind, seat, name, text, limit=self.settings.chat_max_messages)
        if msg is None:
            raise Conflict(f"this table holds {self.settings.chat_max_messages} messages already")
        self.service.broker.publish(chat_topic(game_id), msg.index + 1)
        return msg

    def messages(self, game_id: str, start: int) -> dict[str, Any]:
        """The table's messages from index `start` on (a page of at most 500): anyone may read them."""
        game = self.service.info(game_id)["game"]  # NotFound for an unknown game
        found = self.storage.messages(game_id, start)
        return {"game_id": game_id, "chat": not game_info(game).no_chat,
                "start": start, "messages": [m.public() for m in found], "chat_pos": start + len(found)}
