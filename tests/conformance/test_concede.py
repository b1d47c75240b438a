"""Conceding (the core's `State.concede`, docs/rulings.md "Conceding"), for every configuration of every game.

A competitive game: a concession at a random moment by a random seat is kept in the history and the record, replays
to the same state (views, logs, winners, places of every reader), ends a 2-player game at once with the other seat
the winner, and in a bigger game leaves the game running with the conceder placed last. It shows no seat anything
the position did not already show it. A cooperative game refuses it, state unchanged. No game uses the verb.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabletop
from tabletop.core import IllegalAction, Rng, State
from tabletop.core.state import CONCEDE

from .harness import all_cases, canonical_json, case_id, random_playout

CASES = all_cases()
COMPETITIVE = [c for c in CASES if not tabletop.game_info(c[0]).cooperative]
COOPERATIVE = [c for c in CASES if tabletop.game_info(c[0]).cooperative]
SEEDS = 3

# what a concession may change in a seat's view: who conceded, the log (its new entry), whose turn it is and what
# the game asks (nothing, once it is over), and the winners
CHANGES = {"conceded", "log", "log_pos", "to_move", "winners", "decision"}


def _prefix(game: str, players: int, options: dict[str, Any], seed: int) -> tuple[State, Rng]:
    """A game some random way in (before its end), with undo tracking on as the server keeps it."""
    state = tabletop.new_game(game, players, seed, options)
    state.track_undo()
    rng = Rng(seed + 77)
    for _ in range(5 + rng.below(60)):
        legal = state.legal_actions()
        if not legal:
            break
        nxt = state.clone()
        nxt.apply(legal[rng.below(len(legal))])
        if nxt.is_over:
            break
        state = nxt
    return state, rng


def _everything(state: State) -> str:
    readers = [None, *range(state.players)]
    return canonical_json({
        "views": [state.view(r) for r in readers], "logs": [state.log(r) for r in readers],
        "history": state.history, "over": state.is_over,
        "winners": state.winners(), "places": state.places() if state.is_over else None,
        "conceded": state.conceded,
    })


@pytest.mark.parametrize("case", COMPETITIVE, ids=case_id)
def test_a_concession_is_in_the_record_and_replays_to_the_same_result(case):
    game, players, options = case
    for seed in range(SEEDS):
        state, rng = _prefix(game, players, options, seed)
        seat = rng.below(players)
        if seed % 2:  # the leader concedes: the game's own count would name it a winner (and places() asks it)
            seat = max(range(players), key=lambda p: (state.scores()[p], -p))
        act = state.concede(seat)
        assert act.verb == CONCEDE and act.text == f"concede p{seat}"
        assert state.history[-1] == act.text
        assert state.conceded == [seat]
        assert act not in state.legal_actions()
        if players == 2:
            assert state.is_over, "a 2-player concession ends the game at once"
            assert state.winners() == [1 - seat]
            assert state.places() == [2 if p == seat else 1 for p in range(players)]
        else:
            assert not state.is_over, "with more players the game goes on"
            random_playout(state, seed)
            assert seat not in state.winners() and state.winners()
            assert state.places()[seat] == players, "the conceder is placed last"
            assert sorted(state.places())[:-1] == sorted(p for q, p in enumerate(state.places()) if q != seat)
        record = json.loads(json.dumps(state.record()))
        assert f"concede p{seat}" in record["actions"]
        again = tabletop.replay(record)
        assert _everything(again) == _everything(state)
        last = tabletop.replay(record, upto=record["actions"].index(act.text) + 1)
        assert last.conceded == [seat] and last.history[-1] == act.text


@pytest.mark.parametrize("case", COMPETITIVE, ids=case_id)
def test_a_concession_is_told_in_every_log_and_shows_no_seat_anything_new(case):
    game, players, options = case
    for seed in range(SEEDS):
        state, rng = _prefix(game, players, options, seed)
        seat = rng.below(players)
        before = {r: (state.view(r), state.log(r)) for r in [None, *range(players)]}
        after_state = state.clone()
        after_state.concede(seat)
        for r, (view, log) in before.items():
            view_after, log_after = after_state.view(r), after_state.log(r)
            changed = {k for k in set(view) | set(view_after) if view.get(k) != view_after.get(k)}
            assert changed <= CHANGES, f"a concession changed {sorted(changed - CHANGES)} in the view of {r}"
            assert log_after[:len(log)] == log and len(log_after) == len(log) + 1
            told = log_after[-1]
            assert told["seat"] == seat and told["text"].startswith(f"Player {seat + 1} conceded")
            assert view_after["log_pos"] == len(log_after)
            assert view_after["conceded"] == [seat]
            # the tail the view carries ends with the concession, as the log does
            if isinstance(view_after.get("log"), list) and view_after["log"]:
                assert view_after["log"][-1] == told
        assert state.conceded == [], "the clone conceded, not the original"


@pytest.mark.parametrize("case", COMPETITIVE, ids=case_id)
def test_a_concession_is_refused_twice_after_the_end_and_for_another_seat(case):
    game, players, options = case
    state, rng = _prefix(game, players, options, 1)
    seat = rng.below(players)
    other = (seat + 1) % players
    with pytest.raises(IllegalAction, match="only for itself"):
        state.submit(other, f"concede p{seat}")
    state.concede(seat)
    snap = _everything(state)
    with pytest.raises(IllegalAction, match="already conceded" if players > 2 else "over"):
        state.concede(seat)
    with pytest.raises(IllegalAction):
        state.apply(f"concede p{seat}")
    with pytest.raises(IllegalAction, match="names a seat"):
        state.apply(f"concede p{players}")
    with pytest.raises(IllegalAction):
        state.parse_action(f"concede p{other}")  # a client's action text never concedes: only `concede` does
    assert _everything(state) == snap, "a refused concession changes nothing"
    assert state.undoable(seat) == 0, "a concession is never taken back"
    assert state.undo_refusal(seat)


@pytest.mark.parametrize("case", COMPETITIVE, ids=case_id)
def test_every_seat_but_one_conceding_ends_the_game_and_the_last_one_wins(case):
    game, players, options = case
    state, rng = _prefix(game, players, options, 2)
    order = list(range(players))
    for i in range(players - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    for k, seat in enumerate(order[:-1]):
        assert not state.is_over
        state.concede(seat)
        assert state.is_over == (k == players - 2)
    assert state.winners() == [order[-1]]
    places = state.places()
    assert [places[s] for s in reversed(order)] == list(range(1, players + 1)), "the first to concede is last"


@pytest.mark.parametrize("case", COOPERATIVE, ids=case_id)
def test_a_cooperative_game_refuses_a_concession_state_unchanged(case):
    game, players, options = case
    state, _ = _prefix(game, players, options, 0)
    snap = _everything(state)
    for seat in range(players):
        assert "cooperative" in state.concede_refusal(seat)
        with pytest.raises(IllegalAction, match="cooperative"):
            state.concede(seat)
        with pytest.raises(IllegalAction, match="cooperative"):
            state.submit(seat, f"concede p{seat}")
    assert _everything(state) == snap


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_no_game_offers_an_action_with_the_core_verb_concede(case):
    game, players, options = case
    for seed in range(2):
        state = tabletop.new_game(game, players, seed, options)
        rng = Rng(seed)
        while not state.is_over:
            legal = state.legal_actions()
            assert not [a for a in legal if a.verb == CONCEDE or a.text.lower().startswith("concede")]
            state.apply(legal[rng.below(len(legal))])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from([c for c in COMPETITIVE if c[1] > 2]), seed=st.integers(0, 10_000),
       data=st.data())
def test_places_after_concessions_put_the_conceders_last_in_reverse_order(case, seed, data):
    game, players, options = case
    state, _ = _prefix(game, players, options, seed)
    seats = data.draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=players - 2, unique=True))
    for s in seats:
        state.concede(s)
    random_playout(state, seed)
    places = state.places()
    others = [p for p in range(players) if p not in seats]
    assert all(places[s] > places[o] for s in seats for o in others)
    assert [places[s] for s in reversed(seats)] == list(range(len(others) + 1, players + 1))
    assert set(state.winners()) <= set(others) and state.winners()
    assert all(places[w] == 1 for w in state.winners())
