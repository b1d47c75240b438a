"""Today's observations and action indices, pinned (issue 21: the encoders and action spaces moved into the game
folders without changing a bit). `python -m tests.rl.pinned` rewrites tests/rl/data/pinned.json; the test
(test_pinned.py) recomputes and compares. Written with the code of commit 2474b6a, before the move."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from tabletop.core import game_info, new_game

from .configs import GAMES, option_sets

DATA = Path(__file__).parent / "data" / "pinned.json"
STATES = 30  # random states per game and player count


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


def states(game: str, players: int) -> list[tuple[dict[str, Any], int, int, Any]]:
    """(options, seed, steps, state): STATES random positions, under the game's option sets in turn, at random
    depths (finished games included)."""
    sets = [o for o in option_sets(game)
            if not ("first_player" in o and isinstance(o["first_player"], int) and o["first_player"] >= players)]
    rng = random.Random(f"{game}-{players}")
    out = []
    for k in range(STATES):
        options, seed = sets[k % len(sets)], rng.randrange(2**32)
        length = len(_play(game, players, options, seed, 1500).history)
        steps = length if k % 10 == 9 else rng.randrange(length)  # one in ten finished
        out.append((options, seed, steps, _play(game, players, options, seed, steps)))
    return out


def _play(game: str, players: int, options: dict[str, Any], seed: int, steps: int) -> Any:
    state = new_game(game, players, seed, options)
    play = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(play.choice(state.legal_actions()))
    return state


def compute(encoder: Any, action_space: Any) -> dict[str, Any]:
    """{"<game>-<n>p": {"actions": [n, digest of the texts], "states": [[options, seed, steps, [digest of each
    seat's observation], digest of the legal actions' indices], ...]}}."""
    out: dict[str, Any] = {}
    for game in GAMES:
        info = game_info(game)
        for n in range(info.min_players, info.max_players + 1):
            enc, space = encoder(game, n), action_space(game, n)
            rows = []
            for options, seed, steps, state in states(game, n):
                obs = [_digest(enc.encode(state.view(seat)).tobytes()) for seat in range(n)]
                legal = [] if state.is_over else space.indices(state.legal_actions())
                rows.append([options, seed, steps, obs, _digest(json.dumps(legal).encode())])
            texts = "\n".join(space.texts).encode()
            out[f"{game}-{n}p"] = {"size": enc.size, "actions": [space.n, _digest(texts)], "states": rows}
    return out


if __name__ == "__main__":
    from tabletop.rl.actions import action_space
    from tabletop.rl.encode import encoder

    data = compute(encoder, action_space)
    lines = ["{"]
    for i, (key, entry) in enumerate(data.items()):
        lines.append(f' "{key}": {{"size": {entry["size"]}, "actions": {json.dumps(entry["actions"])}, "states": [')
        lines += [f"  {json.dumps(row)}," for row in entry["states"]]
        lines[-1] = lines[-1].rstrip(",")
        lines.append(" ]}" + ("," if i < len(data) - 1 else ""))
    DATA.write_text("\n".join([*lines, "}"]) + "\n")
