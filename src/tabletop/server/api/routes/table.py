"""Around the board: hints (`POST /games/{id}/hints`), table chat (`POST`/`GET /games/{id}/chat`), the clock, the
rematch (`POST /games/{id}/rematch`), a seat played by a program (`POST /games/{id}/bot`, docs/bots.md)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from tabletop.server.api.deps import ServiceDep, TokenDep
from tabletop.server.api.routes.games import GameId
from tabletop.server.schemas import ChatIn
from tabletop.server.service import Unauthorized
from tabletop.server.table import Busy, Table

router = APIRouter(prefix="/games", tags=["table"])


def _table(request: Request) -> Table:
    table: Table = request.app.state.table
    return table


@router.post("/{game_id}/hints")
async def hints(game_id: GameId, request: Request, token: TokenDep) -> dict[str, Any]:
    """Search hints for the token's seat, from its own view, computed in a hint worker (never in this loop)."""
    table = _table(request)
    fut, facts = await run_in_threadpool(table.hint, game_id, token)
    try:
        found = await asyncio.wait_for(asyncio.wrap_future(fut), timeout=table.settings.hint_seconds + 60)
    except TimeoutError:
        raise Busy("the hint took too long; try again") from None
    return {**facts, "hints": found}


@router.post("/{game_id}/chat")
def say(game_id: GameId, body: ChatIn, request: Request, token: TokenDep) -> dict[str, Any]:
    """A seated player's line at the table (not in a game without chat: GameInfo.no_chat)."""
    return _table(request).say(game_id, token, body.text)


@router.get("/{game_id}/chat")
def chat(game_id: GameId, request: Request, start: Annotated[int, Query(ge=0, le=10_000_000)] = 0
         ) -> dict[str, Any]:
    """The table's messages (chat and the server's notices) from index `start` on; anyone may read."""
    return _table(request).messages(game_id, start)


@router.post("/{game_id}/rematch")
def rematch(game_id: GameId, request: Request, token: TokenDep) -> dict[str, Any]:
    """A finished game's player (bearer: its seat token) asks for the rematch: the first call creates it (same
    game, options, AI seats and clock; announced at the old table as a `rematch` message), every call seats the
    caller at its own seat there and answers its new seat token (tabletop.server.rematch)."""
    from tabletop.server.rematch import rematch as make

    address = request.client.host if request.client is not None else None
    return make(_table(request), game_id, token, address)


@router.post("/{game_id}/bot")
def bot(game_id: GameId, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """The token's seat says a program plays it (`tabletop bot`, docs/bots.md): marked as a bot at the table and in
    the lobby (its seat's `"bot": true`). Idempotent."""
    if token is None:
        raise Unauthorized("marking a seat as a bot needs its seat token (Authorization: Bearer <seat token>)")
    return {"seat": service.mark_bot(game_id, token), "bot": True}


@router.get("/{game_id}/clock")
def clock(game_id: GameId, request: Request, service: ServiceDep) -> dict[str, Any]:
    """The game's move clock: seconds per move and the deadline of the decision owed now (null: no clock)."""
    service.info(game_id)
    return {"game_id": game_id, "clock": request.app.state.clocks.describe(game_id)}
