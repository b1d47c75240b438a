"""Post-game reviews (issue 24, `tabletop.server.reviews`): `POST /games/{id}/review` asks for the review of the
caller's own decisions in a finished game, `GET /games/{id}/review` polls it (progress, then the stored review)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

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
