"""GET /api/meta/games: the engine's games, options, rules versions and AI strengths;
GET /api/meta/games/{game}/help: a game's rules help and action explanations (games/<game>/help.toml)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from tabletop.core import UnknownGame
from tabletop.core.help import NoHelp, game_help
from tabletop.server.api.deps import ServiceDep
from tabletop.server.service import NotFound

router = APIRouter(prefix="/meta", tags=["meta"])


@router.get("/games")
def list_game_kinds(service: ServiceDep) -> list[dict[str, Any]]:
    """What games this server plays."""
    return service.meta()


@router.get("/games/{game}/help")
def help_of_game(game: str) -> dict[str, Any]:
    """The game's rules in our own words, what each action does (by prefix of its text) and each table term."""
    try:
        return dict(game_help(game))
    except (UnknownGame, NoHelp) as e:
        raise NotFound(str(e)) from None
