"""Post-game reviews (issue 24, `tabletop.server.reviews`): `POST /games/{id}/review` asks for the review of the
caller's own decisions in a finished game, `GET /games/{id}/review` polls it (progress, then the stored review),
`GET /games/{id}/review/events` pushes the same answers as server-sent events as they change, up to the end."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from tabletop.server.api.deps import TokenDep
from tabletop.server.api.routes.games import GameId
from tabletop.server.reviews import Reviews

router = APIRouter(prefix="/games", tags=["review"])


def _reviews(request: Request) -> Reviews:
    reviews: Reviews = request.app.state.reviews
    return reviews


@router.post("/{game_id}/review")
def ask(game_id: GameId, request: Request, token: TokenDep) -> dict[str, Any]:
    """Start the review of the caller's seat (a player of the finished game); the stored one if it exists."""
    return _reviews(request).request(game_id, token)


@router.get("/{game_id}/review")
def poll(game_id: GameId, request: Request, token: TokenDep) -> dict[str, Any]:
    """The caller's review: `none`, `running` (decisions `done` of `total`), `done` (with it) or `failed`."""
    return _reviews(request).status(game_id, token)


EVENT_CHECK_SECONDS = 0.2
"""How often the events route looks at the review in flight (in memory; the database only once, at the end)."""
KEEPALIVE_SECONDS = 15.0


@router.get("/{game_id}/review/events")
async def events(game_id: GameId, request: Request, token: TokenDep,
                 query_token: Annotated[str | None, Query(alias="token", max_length=200)] = None
                 ) -> StreamingResponse:
    """The caller's review as server-sent events (`text/event-stream`, one `data: {json}` per change: the answers of
    `GET .../review`, `running` with growing `done`, then `done` or `failed` and the stream ends; `none` ends it at
    once). The seat's token by `Authorization`, a signed-in session's cookie, or `?token=` (a browser's EventSource
    sends no header). Refusals are answered before the stream, as by `GET .../review`."""
    reviews = _reviews(request)
    who = token if token is not None else query_token
    first = await run_in_threadpool(reviews.status, game_id, who)  # 401/404/409 here, as a plain answer

    async def stream() -> AsyncIterator[str]:
        now, said, quiet = first, "", 0.0
        while True:
            text = json.dumps(now, separators=(",", ":"))
            if text != said:
                said, quiet = text, 0.0
                yield f"data: {text}\n\n"
            elif quiet >= KEEPALIVE_SECONDS:
                quiet = 0.0
                yield ": still running\n\n"
            if now.get("status") != "running" or await request.is_disconnected():
                return
            await asyncio.sleep(EVENT_CHECK_SECONDS)
            quiet += EVENT_CHECK_SECONDS
            now = await run_in_threadpool(reviews.status, game_id, who)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
