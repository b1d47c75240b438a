"""The API router: every route under /api."""

from __future__ import annotations

from fastapi import APIRouter

from tabletop.server.api.routes import (
    account,
    games,
    leavers,
    meta,
    passkeys,
    players,
    replay,
    review,
    table,
    tutorials,
    ws,
)

api_router = APIRouter(prefix="/api")
api_router.include_router(meta.router)
api_router.include_router(games.router)
api_router.include_router(ws.router)
api_router.include_router(table.router)
api_router.include_router(replay.router)
api_router.include_router(review.router)
api_router.include_router(tutorials.router)
api_router.include_router(account.router)
api_router.include_router(account.mail_router)
api_router.include_router(passkeys.router)
api_router.include_router(players.router)
api_router.include_router(leavers.router)
