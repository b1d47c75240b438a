"""Profiles and leaderboards (issue 23): finished games only (results are stored with a game's final event)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from tabletop.core import games
from tabletop.server.errors import NotFound
from tabletop.server.ratings import Ratings

router = APIRouter(tags=["players"])
Username = Annotated[str, Path(min_length=1, max_length=40)]
GameName = Annotated[str, Path(min_length=1, max_length=40)]


def _ratings(request: Request) -> Ratings:
    ratings: Ratings = request.app.state.ratings
    return ratings


@router.get("/players/{username}")
def profile(username: Username, request: Request) -> dict[str, Any]:
    """A player's ratings per game (mu, sigma, the ordinal mu - 3 sigma), cooperative records (Silencio: games,
    perfect games, cards left by player count and variant) and recent finished games with their records."""
    got = _ratings(request).profile(username)
    if got is None:
        raise NotFound(f"no player {username!r}")
    return got


@router.get("/leaderboard/{game}")
def leaderboard(game: GameName, request: Request) -> dict[str, Any]:
    """The game's rated players, best first by mu - 3 sigma."""
    if game not in games():
        raise NotFound(f"no game {game!r}", allowed={"games": games()})
    return {"game": game, "players": _ratings(request).leaderboard(game)}
