"""Every game's sampler from a seat's view and log alone (`tabletop.core.belief`, the game's `sampler` part): what a
remote seat (a bot over the network) searches with, held to the engine's own `State.sample`.

- at positions of seeded random playouts, for the seat(s) deciding and a seat that is not: the sample's view for the
  seat is the real view, and its legal actions are the seat's;
- from the same seed, the engine's sample and the view's have the same future: the same random actions give the seat
  the same views and legal actions (so the flow's internal flags the view does not show were read back right);
- over 1,000 samples, each hidden card lies in each place (a hand, the deck, ...) as often as in 1,000 of the
  engine's samples (drawn with other seeds): a two-proportion z-test per (card, place) cell, |z| < 4.5 (two-sided
  p < 7e-6 per cell, so below 1e-3 for the few hundred cells of a position), seeded, so the outcome is fixed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import tabletop
from tabletop.core import Rng, State
from tabletop.core.belief import sample_from_view
from tabletop.core.parts import part

GAMES = ["silencio", "siliconvania", "silos"]
SAMPLES = 1000
Z_LIMIT = 4.5


def _sample_of(state: State, seat: int, seed: int) -> State:
    legal = [a.text for a in state.legal_actions_for(seat)] if not state.is_over else []
    return sample_from_view(state.game, state.players, state.options, seat, state.view(seat), state.log(seat),
                            seed, legal or None)


def _positions(game: str, players: int, seed: int, every: int) -> list[State]:
    opts: dict[str, Any] = {"variant": "tavern"} if game == "silencio" and seed % 2 else {}
    state = tabletop.new_game(game, players, seed, opts)
    rng = Rng(seed)
    out, step = [], 0
    while True:
        if step % every == 0 or state.is_over:
            out.append(state.clone())
        if state.is_over:
            return out
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        step += 1


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_sampler(game: str) -> None:
    module = part(game, "sampler")
    assert module is not None and callable(module.sample_from_view)


@pytest.mark.parametrize("game", GAMES)
def test_a_sample_from_the_view_shows_the_seat_its_own_view_and_legal_actions(game: str) -> None:
    info = tabletop.game_info(game)
    checked = 0
    for players in range(info.min_players, info.max_players + 1):
        for seed in range(3):
            for state in _positions(game, players, seed, every=3):
                seats = state.deciding() or list(range(players))
                others = [q for q in range(players) if q not in seats][:1]
                for seat in [*seats, *others]:
                    s = _sample_of(state, seat, 11 + seed)
                    assert s.view(seat) == state.view(seat), f"{game} {players}p seed {seed}: the view differs"
                    assert s.log(seat) == state.log(seat)
                    mine = sorted(a.text for a in s.legal_actions_for(seat))
                    assert mine == sorted(a.text for a in state.legal_actions_for(seat)), \
                        f"{game} {players}p seed {seed}: legal actions differ at {state.view(seat).get('decision')}"
                    assert s.seed is None  # a belief: it has no record
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize("game", GAMES)
def test_the_engines_sample_and_the_views_have_the_same_future(game: str) -> None:
    info = tabletop.game_info(game)
    compared = 0
    for players in (info.min_players, info.max_players):
        for state in _positions(game, players, 5, every=9):
            if state.is_over:
                continue
            seat = state.to_move
            assert seat is not None
            engine, mine = state.sample(seat, 21), _sample_of(state, seat, 21)
            rng = Rng(players)
            for _ in range(30):
                if engine.is_over:
                    break
                legal = [a.text for a in engine.legal_actions()]
                assert [a.text for a in mine.legal_actions()] == legal
                assert mine.view(seat) == engine.view(seat)
                action = legal[rng.below(len(legal))]
                engine.apply(action)
                mine.apply(action)
                compared += 1
            assert mine.is_over == engine.is_over
    assert compared > 50


def _silencio_places(s: Any, seat: int) -> dict[str, str]:
    out = {}
    for q, hand in enumerate(s.hands):
        if q != seat:
            out.update({f"card {c}": f"hand {q}" for c in hand})
    out.update({f"card {c}": "deck" for c in s.deck})
    return out


def _siliconvania_places(s: Any, seat: int) -> dict[str, str]:
    out = {}
    for q, hand in enumerate(s.hand):
        if q != seat:
            out.update({f"specialist {r}": f"hand {q}" for r in hand})
            out.update({f"bid card {c + 1} of {q}": ("hand" if s.bid_hand[q] >> c & 1 else "discard")
                        for c in range(7) if (s.bid_hand[q] | s.bid_disc[q]) >> c & 1})
            if s.bid_spec[q] >= 0 and not s.revealed:
                out[f"committed bid of {q}"] = f"{s.bid_card[q]} on {s.bid_spec[q]}"
    out.update({f"specialist {r}": "deck" for r in s.spec_deck})
    out.update({f"tile {t}": f"deck {i}" if i < 3 else "deck below" for i, t in enumerate(reversed(s.tile_deck))})
    return out


def _silos_places(s: Any, seat: int) -> dict[str, str]:
    # nothing is hidden: the bag and the common deck are counts, drawn from when drawn
    return {"bag": str(s.bag), "deck": str(s.deck), "stack": str(s.stack)}


PLACES: dict[str, Callable[[Any, int], dict[str, str]]] = {
    "silencio": _silencio_places, "siliconvania": _siliconvania_places, "silos": _silos_places,
}


def _rich_position(game: str) -> tuple[State, int]:
    """A seeded mid-game position where the seat to move cannot see much (the most hidden cards)."""
    info = tabletop.game_info(game)
    best: tuple[int, State, int] | None = None
    for seed in range(4):
        states = _positions(game, min(info.max_players, 4), seed, every=7)
        for state in states[len(states) // 4: len(states) // 2]:
            if state.is_over:
                continue
            seat = state.to_move
            assert seat is not None
            hidden = len(PLACES[game](state.sample(seat, 0), seat))
            if best is None or hidden > best[0]:
                best = (hidden, state, seat)
    assert best is not None
    return best[1], best[2]


@pytest.mark.parametrize("game", GAMES)
def test_hidden_cards_lie_where_the_engines_samples_put_them_as_often(game: str) -> None:
    state, seat = _rich_position(game)
    places = PLACES[game]
    engine: Counter[tuple[str, str]] = Counter()
    remote: Counter[tuple[str, str]] = Counter()
    for i in range(SAMPLES):
        engine.update(places(state.sample(seat, i), seat).items())
        remote.update(places(_sample_of(state, seat, 100_000 + i), seat).items())
    worst = 0.0
    for cell in set(engine) | set(remote):
        p1, p2 = engine[cell] / SAMPLES, remote[cell] / SAMPLES
        pooled = (p1 + p2) / 2
        if pooled in (0.0, 1.0):
            continue
        z = abs(p1 - p2) / math.sqrt(pooled * (1 - pooled) * 2 / SAMPLES)
        worst = max(worst, z)
        assert z < Z_LIMIT, f"{game}: {cell} in {p1:.3f} of the engine's samples, {p2:.3f} of the view's"
    if game != "silos":
        assert len(engine) > 20, "the position hides too little to test"
    else:  # nothing hidden: every sample is the table as it is
        assert len(engine) == len(remote) == 3


def test_a_view_with_the_wrong_log_is_refused() -> None:
    state = _positions("silencio", 3, 0, every=10)[2]
    seat = state.to_move
    assert seat is not None
    with pytest.raises(ValueError, match="whole log"):
        sample_from_view("silencio", 3, state.options, seat, state.view(seat), state.log(seat)[1:], 0)
