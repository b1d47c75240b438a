"""Golden playthroughs: a seeded game per file, step by step ({to_move, legal, action, view of the seat to move}).

Any change to rules, notation or views shows up here as a diff. When a change is intended, regenerate with
`TABLETOP_REGEN_GOLDEN=1 scripts/test tests/golden` and review the diff of the .jsonl files like code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import tabletop
from tabletop.core import Rng

HERE = Path(__file__).parent
CASES = {
    "silencio-3p-seed11.jsonl": ("silencio", 3, 11, {}, None),
    "silencio-4p-tavern-seed3.jsonl": ("silencio", 4, 3, {"variant": "tavern"}, None),
    "silos-3p-seed5.jsonl": ("silos", 3, 5, {}, 60),
    "silos-2p-modules-seed2.jsonl": ("silos", 2, 2, {"crop_circles": 6, "skill_tiles": True}, 60),
    "siliconvania-3p-seed5.jsonl": ("siliconvania", 3, 5, {}, 60),
}


def playthrough(game: str, players: int, seed: int, options: dict[str, Any], limit: int | None) -> list[str]:
    """JSON lines of a seeded random playthrough (the first `limit` decisions, then the spectator's view)."""
    state = tabletop.new_game(game, players, seed, options)
    rng = Rng(seed)
    lines = [json.dumps({"game": game, "players": players, "seed": seed, "options": options}, sort_keys=True)]
    while not state.is_over and (limit is None or len(lines) <= limit):
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        lines.append(json.dumps({"to_move": state.to_move, "legal": [a.text for a in legal], "action": action.text,
                                 "view": state.view(state.to_move)}, sort_keys=True))
        state.apply(action)
    lines.append(json.dumps({"spectator": state.view(None), "scores": state.scores(), "winners": state.winners()},
                            sort_keys=True))
    return lines


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough_is_unchanged(name):
    game, players, seed, options, limit = CASES[name]
    if game not in tabletop.games():
        pytest.fail(f"{game} is not registered")
    lines = playthrough(game, players, seed, options, limit)
    path = HERE / name
    if os.environ.get("TABLETOP_REGEN_GOLDEN"):
        path.write_text("\n".join(lines) + "\n")
    assert path.exists(), f"{name} is missing: regenerate with TABLETOP_REGEN_GOLDEN=1"
    golden = path.read_text().splitlines()
    for i, (want, got) in enumerate(zip(golden, lines, strict=False)):
        assert got == want, f"{name}: step {i} differs from the golden playthrough"
    assert len(golden) == len(lines), f"{name}: {len(golden)} golden lines, {len(lines)} now"
