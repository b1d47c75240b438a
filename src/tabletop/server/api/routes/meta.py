"""GET /api/meta/games: the engine's games, options, rules versions and AI strengths."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from tabletop.server.api.deps import ServiceDep

router = APIRouter(prefix="/meta", tags=["meta"])


@router.get("/games")
def list_game_kinds(service: ServiceDep) -> list[dict[str, Any]]:
    """What games this server plays."""
    return service.meta()
