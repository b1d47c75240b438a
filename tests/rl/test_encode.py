"""Observation encoders: functions of the view alone, with a documented layout."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.core import game_info, new_game
from tabletop.core.parts import part
from tabletop.spaces import OBS_HIGH, OBS_LOW, encoder

from .configs import GAMES, all_configs

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def _random_state(game: str, players: int, options: dict[str, Any], seed: int, steps: int) -> Any:
    """A state after up to `steps` random actions, stopping before the end (a finished game is not sampled:
    samples are beliefs for a seat that still has to decide)."""
    state = new_game(game, players, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        nxt = state.clone()
        nxt.apply(rng.choice(state.legal_actions()))
        if nxt.is_over:
            break
        state = nxt
    return state


def _strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("log", "log_pos")}


CONFIGS = all_configs()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32), st.integers(0, 400), st.integers(0, 4), st.integers(0, 2**31))
def test_two_states_giving_a_seat_the_same_view_give_it_the_same_observation(
    config: tuple[str, int, dict[str, Any]], seed: int, steps: int, seat: int, k: int
) -> None:
    game, players, options = config
    seat %= players
    state = _random_state(game, players, options, seed, steps)
    other = state.sample(seat, k)  # every hidden card, bid and future draw redrawn
    assert _strip(other.view(seat)) == _strip(state.view(seat))
    enc = encoder(game, players)
    a, b = enc.encode(state.view(seat)), enc.encode(other.view(seat))
    assert np.array_equal(a, b)
    # the log is not read either: the view without its log tail encodes the same
    view = state.view(seat)
    view["log"] = []
    assert np.array_equal(enc.encode(view), a)
    # the fast paths (encode_state and the compiled encode_fast, read from the state's fields) are blind to the
    # redrawn hidden facts too
    assert np.array_equal(enc.encode_state(state, seat), enc.encode_state(other, seat))
    assert _bits(enc.encode_fast(state, seat)) == _bits(enc.encode_fast(other, seat)) == _bits(a)


def _bits(x: np.ndarray) -> bytes:
    """The exact float32 bits of an observation (np.array_equal would let -0.0 equal 0.0)."""
    assert x.dtype == np.float32
    return x.tobytes()


def _played(game: str, players: int, options: dict[str, Any], seed: int, steps: int) -> Any:
    """A state after up to `steps` random actions; it may be over."""
    state = new_game(game, players, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32), st.integers(0, 1200), st.integers(0, 4))
def test_the_direct_state_encoding_equals_the_view_based_encoding(
    config: tuple[str, int, dict[str, Any]], seed: int, steps: int, seat: int
) -> None:
    """`encode_state` (the environments' fast path) reads the state's fields, yet gives exactly the view's
    encoding, bit for bit, on random positions of every game, player count and option set (finished games too)."""
    game, players, options = config
    seat %= players
    state = _played(game, players, options, seed, steps)
    enc = encoder(game, players)
    fast = enc.encode_state(state, seat)
    assert fast.dtype == np.float32 and fast.shape == (enc.size,)
    assert np.array_equal(fast, enc.encode(state.view(seat)))


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS[1::4])
def test_the_direct_state_encoding_equals_the_view_based_encoding_through_whole_games(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """Every position of a whole random game, for every seat (deterministic companion of the property test)."""
    enc = encoder(game, players)
    state = new_game(game, players, 7, options)
    rng = random.Random(7)
    for _ in range(1500):
        for seat in range(players):
            fast = enc.encode_state(state, seat)
            assert np.array_equal(fast, enc.encode(state.view(seat)))
            assert np.array_equal(enc.encode_delta(state, seat), fast)  # the incremental path, step after step
            assert _bits(enc.encode_fast(state, seat)) == _bits(fast)  # the compiled path
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CONFIGS), st.lists(st.tuples(st.integers(0, 2**32), st.integers(0, 600), st.integers(0, 4),
                                                     st.integers(0, 40)), min_size=2, max_size=6))
def test_the_incremental_encoding_equals_the_direct_one_on_any_sequence_of_states(
    config: tuple[str, int, dict[str, Any]], walks: list[tuple[int, int, int, int]]
) -> None:
    """`encode_delta` (the environments' path: one encoder remembers each seat's last observation and rewrites
    only what changed) equals `encode_state` whatever it saw before: walks of a few steps through unrelated random
    positions, under every option set of the game and player count, one encoder for the whole sequence."""
    game, players, _ = config
    enc = encoder(game, players)
    options = [o for n, o in ((c[1], c[2]) for c in CONFIGS if c[0] == game) if n == players]
    for k, (seed, steps, seat, walk) in enumerate(walks):
        state = _played(game, players, options[(seed + k) % len(options)], seed, steps)
        rng = random.Random(seed)
        for _ in range(walk):
            for s in (seat % players, state.to_move if state.to_move is not None else 0):
                assert np.array_equal(enc.encode_delta(state, s), enc.encode_state(state, s))
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        delta = enc.encode_delta(state, seat % players)
        assert np.array_equal(delta, enc.encode(state.view(seat % players)))
        delta[:] = 9  # a caller's array is its own: the next observation is not changed through it
        assert np.array_equal(enc.encode_delta(state, seat % players), enc.encode_state(state, seat % players))


def test_the_compiled_encoders_are_built() -> None:
    """`scripts/setup` (pip install -e) builds each game's `tabletop.games.<game>._fastenc` from the C source beside
    its encoding part; the environments use it. Fails if the build broke (the pure-Python fallback would still give
    the same observations, only slower)."""
    for game, players, _ in CONFIGS:
        enc = encoder(game, players)
        assert enc.compiled and getattr(enc, "_cfn", None) is not None
        assert part(game, "encoding")._fastenc is not None  # type: ignore[union-attr]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32), st.integers(0, 1500), st.integers(0, 4))
def test_the_compiled_encoding_equals_the_python_one_bit_for_bit(
    config: tuple[str, int, dict[str, Any]], seed: int, steps: int, seat: int
) -> None:
    """`encode_fast` (the environments' path: the C translation of `encode_state`) gives the same float32 bits
    as the pure-Python `encode_state` and the view-based `encode`, on random positions of every game, player count
    and option set (finished games and truncation-length SILOS games too); its vector is the caller's own."""
    game, players, options = config
    seat %= players
    state = _played(game, players, options, seed, steps)
    enc = encoder(game, players)
    fast = enc.encode_fast(state, seat)
    assert fast.shape == (enc.size,) and fast.flags.writeable
    assert _bits(fast) == _bits(enc.encode_state(state, seat)) == _bits(enc.encode(state.view(seat)))
    fast[:] = 9
    assert _bits(enc.encode_fast(state, seat)) == _bits(enc.encode_state(state, seat))


@pytest.mark.parametrize("game", GAMES)
def test_without_the_compiled_encoders_the_environment_path_is_the_python_one(game: str) -> None:
    """The pure-Python fallback (no C compiler at install): `encode_fast` is then `encode_delta`/`encode_state`
    and gives the same observations."""
    info = game_info(game)
    players = info.min_players
    compiled, python = encoder(game, players), encoder(game, players)
    python._cfn = None  # as when the game's _fastenc is not built
    state = new_game(game, players, 3)
    rng = random.Random(3)
    for _ in range(300):
        for seat in range(players):
            assert _bits(python.encode_fast(state, seat)) == _bits(compiled.encode_fast(state, seat))
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))


def test_the_compiled_encoders_refuse_a_state_of_another_game_with_an_error() -> None:
    """A state of the wrong game or player count raises a Python exception (never reads out of bounds)."""
    states = {(g, n): new_game(g, n, 1) for g, n in (("silencio", 2), ("silos", 2), ("siliconvania", 2),
                                                     ("silencio", 4), ("silos", 4), ("siliconvania", 4))}
    for (game, players), enc in ((k, encoder(*k)) for k in states):
        for key, state in states.items():
            if key == (game, players):
                continue
            try:
                out = enc.encode_fast(state, 0)
            except (AttributeError, TypeError, ValueError, IndexError, KeyError, OverflowError):
                continue
            assert out.shape == (enc.size,)  # a same-game state of another size may encode; it stays in bounds


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS[::3])
def test_observations_have_the_layout_size_and_stay_in_bounds(game: str, players: int, options: dict[str, Any]) -> None:
    enc = encoder(game, players)
    for seed in range(2):
        state = new_game(game, players, seed, options)
        rng = random.Random(seed)
        while True:
            for seat in range(players):
                x = enc.encode(state.view(seat))
                assert x.shape == (enc.size,) and x.dtype == np.float32
                assert float(x.min()) >= OBS_LOW and float(x.max()) <= OBS_HIGH
            if state.is_over or len(state.history) > 600:
                break
            state.apply(rng.choice(state.legal_actions()))


def test_an_observation_differs_when_the_seat_sees_something_change() -> None:
    """Not a constant: the encoding follows the game (here, every move of the first 30 of a SILOS game)."""
    enc = encoder("silos", 2)
    state = new_game("silos", 2, 3)
    seen = set()
    for _ in range(30):
        seen.add(enc.encode(state.view(0)).tobytes())
        state.apply(state.legal_actions()[0])
    assert len(seen) > 20


@pytest.mark.parametrize("game", GAMES)
def test_layouts_are_contiguous_and_documented(game: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    info = game_info(game)
    for n in range(info.min_players, info.max_players + 1):
        fields = encoder(game, n).layout.fields
        pos = 0
        for f in fields:
            assert f.start == pos and f.stop > f.start and f.doc
            pos = f.stop
    for f in encoder(game, info.min_players).layout.fields:
        assert re.search(rf"`{re.escape(f.name)}`", text), f"docs/rl.md does not document {game} field {f.name}"


def test_silencio_tavern_phrases_are_encoded_per_seat() -> None:
    """Every phrase the tavern lets a player say lands in its seat's slots (the phrases are rare in random play)."""
    enc = encoder("silencio", 3)
    view = new_game("silencio", 3, 1, {"variant": "tavern"}).view(1)
    said = enc.layout.slice("said")
    for col, colour in enumerate(("red", "blue", "yellow", "green")):
        view["said"] = [[2, "I have 3 card(s) that I cannot play."], [0, f"I have only cards with a high value of "
                        f"{colour}."], [0, f"Please do not play {colour} cards."]]
        x = enc.encode(view)[said].reshape(3, 9)  # relative seats: p1 (me), p2, p0
        assert x[1, 0] == pytest.approx(3 / 48) and x[1, 1:].sum() == 0
        assert x[2, 0] == 0 and x[2, 1 + col] == 1 and x[2, 5 + col] == 1 and x[2].sum() == 2
        assert x[0].sum() == 0
    # the state-reading paths (Python and compiled, a fresh encoder meeting the phrases first) agree with the view
    state = new_game("silencio", 3, 1, {"variant": "tavern"})
    for colour in ("red", "blue", "yellow", "green"):
        state.said = [(2, "I have 3 card(s) that I cannot play."),
                      (0, f"I have only cards with a high value of {colour}."),
                      (0, f"Please do not play {colour} cards.")]
        expect = _bits(enc.encode(state.view(1)))
        assert _bits(encoder("silencio", 3).encode_fast(state, 1)) == _bits(enc.encode_state(state, 1)) == expect


# ---- the state fields the game declares (ENCODED_FIELDS, its encoding part) ------------------------------------


def _declared(game: str) -> list[str]:
    module = part(game, "encoding")
    assert module is not None
    names = [name for name, meaning in module.ENCODED_FIELDS]
    assert all(meaning for _, meaning in module.ENCODED_FIELDS) and len(set(names)) == len(names)
    return names


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS)
def test_every_declared_field_exists_on_a_fresh_and_a_played_state(
    game: str, players: int, options: dict[str, Any]
) -> None:
    for state in (new_game(game, players, 5, options), _played(game, players, options, 5, 60),
                  _played(game, players, options, 6, 1500)):
        missing = [name for name in _declared(game) if not hasattr(state, name)]
        assert not missing, f"{game} declares state fields its state lacks: {missing}"


class _Recorder:
    """A state seen through a proxy that records every attribute read (the C encoder reads through it too)."""

    def __init__(self, state: Any, seen: set[str]) -> None:
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_seen", seen)

    def __getattr__(self, name: str) -> Any:
        self._seen.add(name)
        return getattr(self._state, name)


@pytest.mark.parametrize("game", GAMES)
def test_the_fast_and_compiled_encoders_read_only_the_declared_fields(game: str) -> None:
    """Whole random games under every option set and player count: the attributes `encode_state`, `encode_delta`
    and the compiled `encode_fast` read are among ENCODED_FIELDS, each declared field is read by both the Python
    and the compiled encoders, and the observations through the proxy are those of the state."""
    declared = set(_declared(game))
    python: set[str] = set()
    compiled: set[str] = set()
    for g, players, options in CONFIGS:
        if g != game:
            continue
        enc = encoder(game, players)
        assert enc.compiled
        state = new_game(game, players, 11, options)
        rng = random.Random(11)
        for step in range(400):
            seat = step % players
            want = _bits(enc.encode(state.view(seat)))
            assert _bits(enc.encode_state(_Recorder(state, python), seat)) == want
            assert _bits(enc.encode_delta(_Recorder(state, python), seat)) == want
            assert _bits(enc.encode_fast(_Recorder(state, compiled), seat)) == want
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
    assert python <= declared, f"the Python encoders read undeclared fields {sorted(python - declared)}"
    assert compiled <= declared, f"the compiled encoder reads undeclared fields {sorted(compiled - declared)}"
    assert compiled == declared, f"declared fields the compiled encoder never read: {sorted(declared - compiled)}"
    assert python == declared, f"declared fields the Python encoders never read: {sorted(declared - python)}"


@pytest.mark.parametrize("game", GAMES)
def test_the_compiled_encoder_takes_its_field_names_from_the_declaration(game: str) -> None:
    """The C code has no field names of its own: `bind` takes the declared names, in order, and nothing else."""
    fast = part(game, "encoding")._fastenc  # type: ignore[union-attr]
    names = tuple(_declared(game))
    for bad in (names[:-1], (*names, "extra"), list(names), (*names[:-1], 3)):
        with pytest.raises((TypeError, ValueError)):
            fast.bind(bad)
    enc, state = encoder(game, 2), _played(game, 2, {}, 3, 30)
    want = _bits(enc.encode_state(state, 0))
    renamed = (names[1], names[0], *names[2:])  # two names swapped: the encoder reads the wrong fields
    try:
        fast.bind(renamed)
        try:
            got = _bits(enc.encode_fast(state, 0))
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):
            got = b""
        assert got != want
    finally:
        fast.bind(names)
    assert _bits(enc.encode_fast(state, 0)) == want
