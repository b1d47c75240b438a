"""Leavers (issue 23): a player leaves a game in play and an AI plays the seat at the server's leaver level
(`TABLETOP_LEAVER_LEVEL`, `medium` by default); the table is told; the seat is unrated from then on (the ratings
leave it out, even if the player comes back); the player takes the seat back with the same token or account.

A left seat is stored as an AI seat of mode `left` (its token and account kept, so that its player can take it
back): the AI moves for it like for any AI seat, the move clock leaves it alone, and the creation limits do not
count it against the AI caps (`Storage.creation_counts`).
"""

from __future__ import annotations

import contextlib
from dataclasses import replace

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from tabletop.server.errors import Conflict, Unauthorized
from tabletop.server.models import LeftSeatRow
from tabletop.server.service import SERVER_ACTION_IDS, GameService
from tabletop.server.storage import now
from tabletop.server.table import Table

LEFT = "left"
"""The mode of a seat its player left."""


def leave(service: GameService, table: Table, game_id: str, token: str | None, level: str,
          seat: int | None = None) -> int:
    """The token's (or account's) seat (or, from the move clock, `seat`) is played by the AI at `level` from now
    on: the seat."""
    seat = service.seat_of(game_id, token) if seat is None else seat
    if seat is None:
        raise Unauthorized("leaving needs the seat's token (Authorization: Bearer <token>) or its account")
    live = service._get(game_id)
    with live.lock:
        if live.header.status != "playing":
            raise Conflict("only a game in play can be left")
        s = live.seats[seat]
        if s.kind == "ai":
            raise Conflict(f"seat {seat} is already played by the AI")
        row = {"game_id": game_id, "seat": seat, "mode": s.mode, "time": now()}
        with contextlib.suppress(IntegrityError):  # left before and taken back: its first mode is kept
            service.storage._write(lambda conn: conn.execute(insert(LeftSeatRow.__table__), row))  # type: ignore[arg-type]
        if not service.storage.update_seat(game_id, seat, {"kind": "human"}, kind="ai", mode=LEFT, ai_label=level):
            service._refresh(live)
            raise Conflict(f"seat {seat} changed meanwhile; try again")
        live.seats[seat] = replace(s, kind="ai", mode=LEFT, ai_label=level)
        service._schedule_ai(live)
        service.broker.publish(game_id, live.seq)
    table.notice(game_id, f"{s.name} (seat {seat + 1}) left the game; the AI ({level}) plays the seat from now on, "
                          "unrated")
    return seat


def take_back(service: GameService, table: Table, game_id: str, token: str | None) -> int:
    """The player who left takes the seat back from the AI: the seat."""
    seat = service.seat_of(game_id, token)
    if seat is None:
        raise Unauthorized("taking a seat back needs its token (Authorization: Bearer <token>) or its account")
    live = service._get(game_id)
    with live.lock:
        s = live.seats[seat]
        if s.mode != LEFT:
            raise Conflict(f"seat {seat} was not left: there is nothing to take back")
        if live.header.status != "playing":
            raise Conflict("the game is no longer in play")
        with service.storage._session() as db:
            mode = db.scalar(select(LeftSeatRow.mode).where(LeftSeatRow.game_id == game_id,
                                                            LeftSeatRow.seat == seat)) or "invite"
        if not service.storage.update_seat(game_id, seat, {"mode": LEFT}, kind="human", mode=mode, ai_label=None):
            service._refresh(live)
            raise Conflict(f"seat {seat} changed meanwhile; try again")
        live.seats[seat] = replace(s, kind="human", mode=mode, ai_label=None)
        service.broker.publish(game_id, live.seq)
    table.notice(game_id, f"{s.name} (seat {seat + 1}) is back and plays the seat again (unrated)")
    return seat


def timeouts_in_a_row(service: GameService, game_id: str, seat: int) -> int:
    """How many of the seat's last actions in a row the move clock took for it (its `server:clock-` actions)."""
    live = service._get(game_id)
    with live.lock:
        events = list(live.events)
    count = 0
    for ev in reversed(events):
        if ev.seat != seat or ev.kind != "action":
            continue
        if not (ev.client_action_id or "").startswith(SERVER_ACTION_IDS + "clock-"):
            break
        count += 1
    return count


def left_seats(service: GameService, game_id: str) -> set[int]:
    """The seats of the game whose player ever left."""
    with service.storage._session() as db:
        return set(db.scalars(select(LeftSeatRow.seat).where(LeftSeatRow.game_id == game_id)))
