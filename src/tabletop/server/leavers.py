"""Leavers and conceders (issue 23): a player leaves a game in play and an AI plays the seat at the level the table's
creator chose (`leaver_level` at creation; the server's `TABLETOP_LEAVER_LEVEL`, `medium` by default, for a game
without a choice); the table is told; the seat is unrated from then on (the ratings leave it out, even if the player
comes back); the player takes the seat back with the same token or account.

A player of a competitive game concedes (`concede`): the engine's concession (`State.concede`, docs/rulings.md
"Conceding") is stored as the seat's action event, so the record holds it and replays it. With two players (or once
every other seat has conceded) that ends the game: the other seat wins, and a rated game rates the conceder last.
With more players the game goes on: the seat is placed last whatever its score, and the AI at the table's leaver
level plays it to the end (mode `conceded`: not taken back; still the account's seat, so it is rated, last).

A left seat is stored as an AI seat of mode `left` (its token and account kept, so that its player can take it
back): the AI moves for it like for any AI seat, the move clock leaves it alone, and the creation limits do not
count it against the AI caps (`Storage.creation_counts`).
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from tabletop.core import game_info
from tabletop.server.creation import leaver_level_of
from tabletop.server.errors import Conflict, Unauthorized
from tabletop.server.models import LeftSeatRow
from tabletop.server.service import SERVER_ACTION_IDS, GameService
from tabletop.server.storage import now
from tabletop.server.table import Table

LEFT = "left"
"""The mode of a seat its player left."""
CONCEDED = "conceded"
"""The mode of a seat whose player conceded a game that goes on (more than two players): the AI plays it to the end."""


def table_level(service: GameService, game_id: str, default: str) -> str:
    """The AI level that plays a leaver's seat at this table (its creator's choice, else `default`)."""
    return leaver_level_of(service.storage, game_id, default)


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
        if s.mode == CONCEDED:
            raise Conflict(f"seat {seat} conceded: a concession stands, the AI plays the seat to the end")
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


def concede(service: GameService, table: Table, game_id: str, token: str | None, default_level: str
            ) -> dict[str, Any]:
    """The token's (or account's) seat concedes (module docstring): `{"seat", "over", "ai"}` (`ai`: the level that
    plays the seat on, None once the game is over). Conflict (nothing changes) in a cooperative game, a game not in
    play, or for a seat that conceded."""
    seat = service.seat_of(game_id, token)
    if seat is None:
        raise Unauthorized("conceding needs the seat's token (Authorization: Bearer <token>) or its account")
    live = service._get(game_id)
    info = game_info(live.header.game)
    if info.cooperative:
        raise Conflict(f"{info.title} is cooperative: the table wins or loses together, so no one concedes; leave "
                       "the game instead (POST .../leave: the AI plays your seat)")
    level = table_level(service, game_id, default_level)

    def attempt() -> dict[str, Any]:
        if live.header.status != "playing":
            raise Conflict("only a game in play can be conceded")
        why = live.state.concede_refusal(seat)
        if why:
            raise Conflict(why)
        s = live.seats[seat]
        service._commit(live, seat, "", None, concede=True)
        over = live.header.status == "over"
        if not over:
            if not service.storage.update_seat(game_id, seat, {"mode": s.mode}, kind="ai", mode=CONCEDED,
                                               ai_label=level):
                service._refresh(live)  # the concession stands (stored); the seat's change is tried once more
                s = live.seats[seat]
                service.storage.update_seat(game_id, seat, None, kind="ai", mode=CONCEDED, ai_label=level)
            live.seats[seat] = replace(s, kind="ai", mode=CONCEDED, ai_label=level)
            service._schedule_ai(live)
            service.broker.publish(game_id, live.seq)
        return {"seat": seat, "over": over, "ai": None if over else level, "name": s.name}

    out = service._retrying(live, live.seq, attempt)
    if not out["over"]:
        table.notice(game_id, f"{out['name']} (seat {seat + 1}) conceded and is placed last; the AI ({level}) plays "
                              "the seat to the end")
    return {k: out[k] for k in ("seat", "over", "ai")}


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
