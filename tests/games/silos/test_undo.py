"""Ruling S-29: what a SILOS player may take back (nothing is hidden; chance is the bag)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from undo_support import find_step

import tabletop
from tabletop.core import Action, Rng, State


def _find(want: Callable[[State, Action, State], bool], players: int = 3, seeds: int = 40
          ) -> tuple[State, Action, State]:
    return find_step("silos", players, want, seeds)


def test_undo_allowed_after_moving_figures_while_the_seat_is_still_to_move():
    before, _a, after = _find(lambda b, a, s: a.verb == "move" and s.to_move == b.to_move
                             and s.rng.state == b.rng.state)
    seat = before.to_move
    assert after.undoable(seat) >= 1
    assert after.undo(seat).snapshot() == before.snapshot()


def test_undo_refused_after_a_draw_from_the_bag():
    before, _a, after = _find(lambda b, a, s: a.verb in ("mall_draw", "news_draw"))
    assert after.rng.state != before.rng.state
    assert after.undoable(before.to_move) == 0
    with pytest.raises(tabletop.IllegalAction, match="take back 0"):
        after.undo(before.to_move)


def test_undo_refused_after_another_seat_acted():
    before, _a, after = _find(lambda b, a, s: s.to_move is not None and s.to_move != b.to_move
                             and s.undoable(b.to_move) >= 1)
    seat = before.to_move
    after.apply(after.legal_actions()[0])
    assert after.undoable(seat) == 0


def test_silos_has_no_simultaneous_decision():
    s = tabletop.new_game("silos", 4, 1)
    rng = Rng(1)
    while not s.is_over:
        assert s.deciding() == [s.to_move]
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
