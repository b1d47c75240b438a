"""The conformance harness for the contract's simultaneous decisions (`deciding`, `legal_actions_for`, `submit`)
and undo (`track_undo`, `undoable`, `undo`), over every registered game and configuration."""

from __future__ import annotations

import pytest

import tabletop
from tabletop.core import Rng, State

from .harness import all_cases, case_id

CASES = all_cases()


def _texts(actions: list) -> list[str]:
    return [str(a) for a in actions]


def _pick(state: State, rng: Rng) -> None:
    legal = state.legal_actions()
    state.apply(legal[rng.below(len(legal))])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_seat_deciding_ahead_gets_the_same_actions_when_its_turn_comes_whatever_the_others_chose(case):
    """The promise a game makes when it declares simultaneous seats: what a seat may submit ahead is exactly what
    it will be offered when the engine reaches it, for any choices of the seats before it."""
    game, players, options = case
    for seed in range(6):
        state = tabletop.new_game(game, players, seed, options)
        rng = Rng(seed + 300)
        while not state.is_over:
            deciding = state.deciding()
            assert deciding[0] == state.to_move and len(set(deciding)) == len(deciding)
            assert _texts(state.legal_actions_for(state.to_move)) == _texts(state.legal_actions())
            for q in range(players):
                if q not in deciding:
                    assert state.legal_actions_for(q) == [], "a seat that owes nothing may submit nothing"
            for q in deciding[1:]:
                ahead = _texts(state.legal_actions_for(q))
                assert ahead, "a deciding seat has something to decide"
                for trial in range(3):
                    other = state.clone()
                    trng = Rng(rng.next64() + trial)
                    while other.to_move != q:
                        assert q in other.deciding(), "a seat deciding ahead stays deciding until reached"
                        _pick(other, trng)
                    assert _texts(other.legal_actions()) == ahead
            _pick(state, rng)
        assert state.deciding() == []


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_submitting_ahead_hides_the_choice_and_replays_as_the_sequential_game(case):
    """Seats submit in random order among those deciding; a queued choice changes no other seat's view (but that
    the seat decided) nor any log; samples keep who decided; the record replays sequentially to the same game."""
    game, players, options = case
    for seed in range(4):
        state = tabletop.new_game(game, players, seed, options)
        rng = Rng(seed + 77)
        while not state.is_over:
            deciding = state.deciding()
            seat = deciding[rng.below(len(deciding))]
            legal = state.legal_actions_for(seat)
            choice = legal[rng.below(len(legal))]
            if seat == state.to_move:
                state.submit(seat, choice if rng.below(2) else str(choice))
                continue
            views = {p: state.view(p) for p in [None, *range(players)]}
            logs = {p: state.log(p) for p in [None, *range(players)]}
            history = state.history
            twin = state.clone()
            state.submit(seat, str(choice))
            assert twin._queue != state._queue, "a clone is independent of the original's queue"
            assert state.history == history, "a queued choice is not yet in the history (nor the record)"
            assert seat not in state.deciding() and seat in state.submitted()
            assert state.undoable(seat) == 1
            with pytest.raises(tabletop.IllegalAction, match="already decided"):
                state.submit(seat, str(choice))
            for p, before in views.items():
                after = state.view(p)
                assert seat in after.pop("decided")
                if p == seat:
                    assert after.pop("your_decision") == str(choice)
                else:
                    assert after.pop("your_decision", None) == before.pop("your_decision", None)
                before.pop("decided", None)
                assert after == before, f"seat {seat}'s queued choice changed what {p} sees"
                assert state.log(p) == logs[p]
            for p in range(players):
                sample = state.sample(p, rng.next64())
                assert sample.view(p) == state.view(p), "a sample keeps who decided ahead, and p's own choice"
                for q in sample.submitted():
                    assert q == p or sample._queue[q] in sample._legal_actions_ahead(q)
        assert state._queue is None, "every queued choice was applied"
        replayed = tabletop.replay(state.record())
        assert replayed.snapshot() == state.snapshot()
        assert [replayed.view(p) for p in range(players)] == [state.view(p) for p in range(players)]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_refused_submissions_change_nothing_and_name_only_the_seats_own_options(case):
    game, players, options = case
    state = tabletop.new_game(game, players, 11, options)
    rng = Rng(11)
    while not state.is_over:
        deciding = state.deciding()
        mover_texts = set(_texts(state.legal_actions()))
        for q in range(players):
            before, queue = state.snapshot(), dict(state._queue or {})
            with pytest.raises(tabletop.IllegalAction) as e:
                state.submit(q, "xyzzy 42")
            assert state.snapshot() == before and dict(state._queue or {}) == queue
            if q not in deciding:
                assert not any(t in str(e.value) for t in mover_texts), "a refusal lists another seat's actions"
        _pick(state, rng)
    with pytest.raises(tabletop.IllegalAction, match="over"):
        state.submit(0, "pass")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_undo_takes_back_only_the_seats_own_trailing_actions_and_rebuilds_the_same_game(case):
    """`undoable(q)` counts q's last actions with no other seat acting and nothing hidden revealed (nor chance
    drawn) since; `undo` equals the replay of the record without them; tracking never changes play."""
    game, players, options = case
    for seed in range(3):
        state = tabletop.new_game(game, players, seed, options)
        plain = tabletop.new_game(game, players, seed, options)
        state.track_undo()
        rng = Rng(seed + 5)
        while not state.is_over:
            actor = state.to_move
            rng_before = state.rng.state
            legal = state.legal_actions()
            i = rng.below(len(legal))
            state.apply(legal[i])
            plain.apply(plain.legal_actions()[i])
            assert state.snapshot() == plain.snapshot(), "undo tracking must not change play"
            if state.rng.state != rng_before:
                assert state.undoable(actor) == 0, "an action that drew chance cannot be taken back"
            counts = [state.undoable(q) for q in range(players)]
            assert sum(1 for c in counts if c) <= 1, "only the seat that acted last may take back"
            if rng.below(15) == 0:
                assert counts == [plain.undoable(q) for q in range(players)], "the untracked answer is the same"
            for q, k in enumerate(counts):
                if k and rng.below(3) == 0:
                    n = len(state.history)
                    back = state.undo(q, k)
                    assert back.history == state.history[:n - k]
                    assert back.snapshot() == tabletop.replay(state.record(), upto=n - k).snapshot()
                    assert back.undoable(q) == 0 or back.history[-1] == state.history[n - k - 1]
                    with pytest.raises(tabletop.IllegalAction, match="take back"):
                        state.undo(q, k + 1)
            for q in range(players):
                if counts[q] == 0:
                    with pytest.raises(tabletop.IllegalAction, match="take back 0"):
                        state.undo(q)
