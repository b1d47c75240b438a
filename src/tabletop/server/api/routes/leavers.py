"""Leaving a game and taking the seat back (issue 23): `POST /games/{id}/leave`, `POST /games/{id}/takeback`, with
the seat's token or its account's session (and CSRF token)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from tabletop.server.api.deps import ServiceDep, TokenDep
from tabletop.server.api.routes.games import GameId
from tabletop.server.leavers import leave, take_back

router = APIRouter(prefix="/games", tags=["games"])


@router.post("/{game_id}/leave")
def leave_game(game_id: GameId, request: Request, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """Leave the game: the AI plays the seat from now on (unrated); the table is told."""
    level = request.app.state.settings.leaver_level
    return {"seat": leave(service, request.app.state.table, game_id, token, level), "ai": level}


@router.post("/{game_id}/takeback")
def take_seat_back(game_id: GameId, request: Request, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """Take the seat you left back from the AI."""
    return {"seat": take_back(service, request.app.state.table, game_id, token)}
