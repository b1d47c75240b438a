"""The observations and action indices of today, pinned before issue 21 moved the encoders and action spaces into
the game folders (tests/rl/pinned.py wrote tests/rl/data/pinned.json with the code before the move): every game and
player count, 30 random positions each (every option set in turn, finished games too), every seat, the float32 bits
of the view-based, the direct-state and the compiled encodings, and the index of every legal action."""

from __future__ import annotations

import json

import pytest

from tabletop.spaces import action_space, encoder

from .pinned import DATA, STATES, _digest, states

PINNED = json.loads(DATA.read_text())


@pytest.mark.parametrize("key", sorted(PINNED))
def test_observations_and_action_indices_are_those_pinned(key: str) -> None:
    game, n = key.rsplit("-", 1)[0], int(key.rsplit("-", 1)[1].rstrip("p"))
    pinned = PINNED[key]
    enc, space = encoder(game, n), action_space(game, n)
    assert enc.size == pinned["size"]
    assert [space.n, _digest("\n".join(space.texts).encode())] == pinned["actions"]
    rows = pinned["states"]
    assert len(rows) == STATES
    for row, (options, seed, steps, state) in zip(rows, states(game, n), strict=True):
        assert [options, seed, steps] == row[:3]
        for seat in range(n):
            want = row[3][seat]
            assert _digest(enc.encode(state.view(seat)).tobytes()) == want, (key, seed, steps, seat)
            assert _digest(enc.encode_state(state, seat).tobytes()) == want, (key, seed, steps, seat)
            assert _digest(enc.encode_fast(state, seat).tobytes()) == want, (key, seed, steps, seat)
        legal = [] if state.is_over else space.indices(state.legal_actions())
        assert _digest(json.dumps(legal).encode()) == row[4], (key, seed, steps)


def test_the_pinned_file_covers_every_game_and_player_count() -> None:
    from tabletop.core import game_info

    from .configs import GAMES

    want = {f"{g}-{n}p" for g in GAMES for n in range(game_info(g).min_players, game_info(g).max_players + 1)}
    assert set(PINNED) == want
