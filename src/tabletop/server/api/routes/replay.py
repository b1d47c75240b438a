"""The replay viewer's steps (`GET /games/{id}/replay/{k}`): a finished game's position after its first k actions,
seen from every seat at once (all hands laid open). Only once the game is over: before, 409 like the record."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Path

from tabletop.core.record import replay as replay_record
from tabletop.server.api.deps import ServiceDep
from tabletop.server.api.routes.games import GameId
from tabletop.server.service import Invalid

router = APIRouter(prefix="/games", tags=["replay"])


@lru_cache(maxsize=256)
def _step(key: str, game: str, version: str, players: int, options: str, seed: int, actions: tuple[str, ...],
          k: int) -> dict[str, Any]:
    """Step k of a finished game (cached: a finished game's record never changes; `key` is its id)."""
    record = {"game": game, "version": version, "players": players, "options": json.loads(options), "seed": seed,
              "actions": list(actions)}
    state = replay_record(record, upto=k)
    return {
        "game_id": key,
        "step": k,
        "steps": len(actions),
        "action": actions[k - 1] if k > 0 else None,
        "to_move": state.to_move if not state.is_over else None,
        "over": state.is_over,
        "views": [state.view(p) for p in range(players)],
    }


@router.get("/{game_id}/replay/{step}")
def replay_step(game_id: GameId, step: Annotated[int, Path(ge=0, le=1_000_000)], service: ServiceDep
                ) -> dict[str, Any]:
    """The position after the first `step` actions of a finished game, every seat's view (all hands open)."""
    record = service.record(game_id)  # Conflict (409) while the game is live: the seed never leaves before the end
    actions = tuple(record["actions"])
    if step > len(actions):
        raise Invalid(f"step must be 0..{len(actions)} (the game has {len(actions)} actions), not {step}")
    return _step(game_id, record["game"], record["version"], record["players"],
                 json.dumps(record["options"], sort_keys=True), record["seed"], actions, step)
