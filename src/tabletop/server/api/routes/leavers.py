"""Leaving a game, taking the seat back and conceding (issue 23): `POST /games/{id}/leave`, `POST
/games/{id}/takeback`, `POST /games/{id}/concede`, with the seat's token or its account's session (and CSRF token)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from tabletop.server.api.deps import ServiceDep, TokenDep
from tabletop.server.api.routes.games import GameId
from tabletop.server.leavers import concede, leave, table_level, take_back

router = APIRouter(prefix="/games", tags=["games"])


@router.post("/{game_id}/leave")
def leave_game(game_id: GameId, request: Request, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """Leave the game: the AI at the table's leaver level plays the seat from now on (unrated); the table is told."""
    level = table_level(service, game_id, request.app.state.settings.leaver_level)
    return {"seat": leave(service, request.app.state.table, game_id, token, level), "ai": level}


@router.post("/{game_id}/takeback")
def take_seat_back(game_id: GameId, request: Request, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """Take the seat you left back from the AI."""
    return {"seat": take_back(service, request.app.state.table, game_id, token)}


@router.post("/{game_id}/concede")
def concede_game(game_id: GameId, request: Request, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """Concede a competitive game: with two players it ends and the other wins; with more, you are placed last and
    the AI at the table's leaver level plays your seat to the end (not taken back). `{"seat", "over", "ai"}`."""
    return concede(service, request.app.state.table, game_id, token, request.app.state.settings.leaver_level)
