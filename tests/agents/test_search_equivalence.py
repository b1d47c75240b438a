"""The search agents play as they did before the search core: the committed positions of scripts/search_fixture.py.

Each position (a random game's early, middle or late step, every player count, seats deciding ahead of their turn
included) pins, for a fixed seed and iteration budget, the action of every search configuration (`ismcts`,
`guided`, `team` with several parameter sets) and the hints there (actions, samples, values, reasons); each whole
game pins the moves of one agent at every seat, its tree kept between moves. The file was written by the three
search loops as they stood before `tabletop.agents.search`; a change of behaviour shows here first.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import search_fixture  # noqa: E402

PINNED = json.loads(search_fixture.OUT.read_text())


def _close(now: dict[str, Any], pinned: dict[str, Any]) -> bool:
    if now["played"] != pinned["played"] or len(now["hints"]) != len(pinned["hints"]):
        return False
    for (a, v, x, r), (b, w, y, s) in zip(now["hints"], pinned["hints"], strict=True):
        if (a, v, r) != (b, w, s) or abs(x - y) > 1e-9:
            return False
    return True


@pytest.mark.parametrize("game", ["silos", "siliconvania", "silencio"])
def test_every_search_agent_plays_the_pinned_action_at_every_pinned_position(game: str) -> None:
    positions = [p for p in PINNED["positions"] if p["game"] == game]
    assert len(positions) >= 50
    differ = []
    for pos in positions:
        now = search_fixture.decide(pos)
        if not _close(now, pos):
            pinned = {k: pos[k] for k in ("played", "hints")}
            differ.append((pos["seed"], len(pos["actions"]), pos["seat"], now, pinned))
    assert not differ, f"{len(differ)} of {len(positions)} positions differ; first: {differ[0]}"


@pytest.mark.parametrize("index", range(len(PINNED["games"])))
def test_a_whole_game_of_one_search_agent_is_the_pinned_game(index: int) -> None:
    g = PINNED["games"][index]
    assert search_fixture.whole_game(g["game"], g["players"], g["seed"], g["spec"]) == g["actions"]
