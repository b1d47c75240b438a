"""A refused undo says why, in a player's words (`State.undo_refusal`), and the refusal's error carries it."""

from __future__ import annotations

import pytest

import tabletop
from tabletop.core import IllegalAction


def test_a_refused_undo_says_why():
    s = tabletop.new_game("silos", 3, 5)
    s.track_undo()
    first = s.to_move
    assert s.undo_refusal(first) == "nothing has been played yet"
    s.apply(s.legal_actions()[0])
    assert s.undoable(first) == 1 and s.undo_refusal(first) == ""
    second = s.to_move
    s.apply(s.legal_actions()[0])
    assert s.undo_refusal(first) == f"Player {second + 1} has acted since your last action"
    with pytest.raises(IllegalAction, match=f"Player {second + 1} has acted since your last action"):
        s.undo(first)


def test_an_undo_after_something_hidden_was_shown_says_it_stands():
    s = tabletop.new_game("silencio", 3, 1, {"first_player": 0})
    s.track_undo()
    seat = s.to_move
    s.apply(s.legal_actions()[0])  # a card passed face down: the receiver has seen it
    assert s.undoable(seat) == 0
    assert s.undo_refusal(seat) == "the last action showed something hidden or drew by chance, so it stands"
