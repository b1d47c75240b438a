"""Hidden information, checked the same way for every game: only `view(seat)` decides what a seat sees.

- a private decision (a pass, a give-back, a silent bid) looks the same to every seat not party to it and to a
  spectator, whatever card or value was chosen: views, log and decision texts included;
- no view ever holds the game's seed or the state of its random generator;
- `sample(p, seed)` is consistent with `view(p)`, depends only on that view and the seed (two states p cannot
  tell apart give the same sample), and carries no history of the actions it redrew.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabletop

from .support import GAMES, comparable, private_groups, states, still_secret, view_text

CASES = [(g, n) for g in GAMES for n in range(tabletop.game_info(g).min_players,
                                             tabletop.game_info(g).max_players + 1)]
HIDDEN_GAMES = [g for g in GAMES if g != "silos"]


def _check_private_decision(state: tabletop.core.State) -> int:
    """Apply each action of every private group to a copy; every seat outside the group sees the same. Returns
    the number of groups checked."""
    checked = 0
    mover = state.to_move
    for receiver, actions in private_groups(state):
        outsiders: list[int | None] = [None, *(p for p in range(state.players) if p not in (mover, receiver))]
        results = []
        for a in actions:
            t = state.clone()
            t.apply(a)
            results.append((a, t))
        if not all(still_secret(t) for _, t in results):
            continue
        for p in outsiders:
            first = view_text(results[0][1], p)
            for a, t in results[1:]:
                assert view_text(t, p) == first, (
                    f"{state.game}: seat {p} can tell {mover}'s private {results[0][0]} from {a}")
        checked += 1
    return checked


@pytest.mark.parametrize(("game", "players"), [c for c in CASES if c[0] in HIDDEN_GAMES])
def test_a_private_decision_looks_the_same_to_every_seat_not_party_to_it(game, players):
    checked = 0
    for seed in range(10 if game == "silencio" else 6):  # a 2-player Silencio has few private decisions
        for state in states(game, players, seed, every=2, limit=250):
            checked += _check_private_decision(state)
    assert checked > 10  # private decisions were really met


@pytest.mark.parametrize("game", HIDDEN_GAMES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10**6), max_size=300))
def test_property_private_decisions_stay_private_after_any_sequence(game, seed, picks):
    info = tabletop.game_info(game)
    players = info.min_players + seed % (info.max_players - info.min_players + 1)
    state = tabletop.new_game(game, players, seed)
    for pick in picks:
        if state.is_over:
            break
        _check_private_decision(state)
        legal = state.legal_actions()
        state.apply(legal[pick % len(legal)])


@pytest.mark.parametrize(("game", "players"), CASES)
def test_no_view_holds_the_seed_or_the_random_generator_state(game, players):
    seed = 8_765_432_109_876  # long enough that its digits cannot appear by chance
    state = tabletop.new_game(game, players, seed)
    from tabletop.core import Rng
    rng = Rng(5)
    steps = 0
    while not state.is_over and steps < 300:
        if steps % 4 == 0:
            for seat in [None, *range(players)]:
                text = json.dumps(state.view(seat))
                assert str(seed) not in text
                assert str(state.rng.state) not in text
                assert "rng" not in state.view(seat)
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        steps += 1


@pytest.mark.parametrize(("game", "players"), CASES)
def test_sample_depends_only_on_the_view_and_the_seed(game, players):
    """`t = s.sample(p, k)` differs from s only in what p cannot see, so s and t must give the same samples."""
    for seed in range(3):
        for state in states(game, players, seed, every=9):
            for p in range(players):
                other = state.sample(p, seed + 101)
                assert other.view(p) == state.view(p)
                for k in (1, 2):
                    a, b = state.sample(p, k), other.sample(p, k)
                    assert comparable(a) == comparable(b), f"{game}: seat {p}'s sample depends on hidden facts"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_sample_carries_no_history_of_the_true_game(game, players):
    for state in states(game, players, 4, every=6):
        for p in range(players):
            t = state.sample(p, 9)
            assert t.seed is None
            if game != "silos":  # silos has no hidden action; elsewhere the history names secret cards and bids
                assert t.history == []
            with pytest.raises(ValueError):
                t.record()


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_spectator_sees_no_more_than_any_seat(game, players):
    """Every public fact in the spectator's view is the same in each seat's view (a spectator may not know more).

    Seat-specific parts (own hand, known cards, own seat details, the log that names the cards a seat passed or
    received) are checked by the private-decision tests instead.
    """
    for state in states(game, players, 2, every=7):
        spectator = state.view(None)
        for p in range(players):
            seat_view = state.view(p)
            assert set(spectator) == set(seat_view), "views of seats and spectators have the same keys"
            for key, value in spectator.items():
                if key in ("seat", "hand", "known", "seats", "log"):
                    continue
                assert seat_view[key] == value, f"{game}: spectator and seat {p} differ on public {key!r}"
