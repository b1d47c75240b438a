"""Rulings V-24 (the bid step is simultaneous) and V-25 (what a SiliconVania player may take back)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from undo_support import find_step

import tabletop
from tabletop.core import Action, State


def _find(players: int, want: Callable[[State, Action, State], bool], seeds: int = 40
          ) -> tuple[State, Action, State]:
    return find_step("siliconvania", players, want, seeds)


def test_every_seat_owes_its_bid_at_once_and_may_bid_ahead():
    s = tabletop.new_game("siliconvania", 3, 4)
    assert s.view(0)["decision"] == "bid" and s.deciding() == [0, 1, 2]
    third, second = s.legal_actions_for(2)[5], s.legal_actions_for(1)[0]
    s.submit(2, third)
    s.submit(1, second)
    assert s.deciding() == [0] and s.submitted() == [1, 2] and len(s.history) == 0
    first = s.legal_actions()[3]
    s.submit(0, first)
    assert s.history[:3] == [first.text, second.text, third.text], "the record keeps the seat order"
    assert s.submitted() == [] and s.revealed == 1
    assert tabletop.replay(s.record()).snapshot() == s.snapshot()


def test_undo_allowed_after_a_bid_while_the_next_seat_has_not_bid():
    before, _a, after = _find(3, lambda b, a, s: a.verb == "bid" and b.to_move == 0)
    assert after.undoable(0) == 1
    back = after.undo(0)
    assert back.snapshot() == before.snapshot() and back.to_move == 0


def test_undo_allowed_after_placing_a_tile():
    before, _a, after = _find(3, lambda b, a, s: a.verb == "place" and s.to_move == b.to_move)
    seat = before.to_move
    assert after.undoable(seat) >= 1
    assert after.undo(seat).snapshot() == before.snapshot()


def test_undo_refused_after_the_last_bid_reveals_every_bid():
    _before, _a, after = _find(3, lambda b, a, s: a.verb == "bid" and b.to_move == 2)
    assert after.revealed == 1
    assert after.undoable(2) == 0
    with pytest.raises(tabletop.IllegalAction, match="take back 0"):
        after.undo(2)


def test_undo_refused_after_a_specialist_from_the_hidden_hand_becomes_an_objective():
    before, _a, after = _find(3, lambda b, a, s: a.verb == "objective")
    assert after.undoable(before.to_move) == 0


def test_undo_refused_after_another_seat_bid():
    s = tabletop.new_game("siliconvania", 3, 8)
    s.track_undo()
    s.apply(s.legal_actions()[0])
    assert s.undoable(0) == 1
    s.apply(s.legal_actions()[0])
    assert s.undoable(0) == 0 and s.undoable(1) == 1


def test_a_bid_submitted_ahead_may_be_withdrawn_even_after_earlier_seats_bid():
    s = tabletop.new_game("siliconvania", 3, 9)
    s.submit(2, s.legal_actions_for(2)[0])
    s.submit(0, s.legal_actions()[0])
    assert s.undoable(2) == 1 and s.undoable(0) == 1
    back = s.undo(2)
    assert back.submitted() == [] and 2 in back.deciding() and back.history == s.history
