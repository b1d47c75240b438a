"""Ruling C-23: what a Silencio player may take back (and why the passing round is not simultaneous)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from undo_support import find_step

import tabletop
from tabletop.core import Action, State


def _find(want: Callable[[State, Action, State], bool], players: int = 3, seeds: int = 60,
          options: dict[str, str] | None = None) -> tuple[State, Action, State]:
    return find_step("silencio", players, want, seeds, options or {})


def test_undo_allowed_after_taking_a_shrine():
    before, _a, after = _find(lambda b, a, s: a.verb == "shrine" and s.to_move == b.to_move
                             and s.rng.state == b.rng.state and b.known == s.known
                             and len(b.deck) == len(s.deck))
    seat = before.to_move
    assert after.undoable(seat) == 1
    back = after.undo(seat)
    assert back.snapshot() == before.snapshot()


def test_undo_refused_after_passing_a_card_in_the_passing_round():
    s = tabletop.new_game("silencio", 3, 2)
    s.track_undo()
    seat = s.to_move
    assert s.legal_actions()[0].verb == "give"
    s.apply(s.legal_actions()[0])
    assert s.undoable(seat) == 0


def test_undo_refused_after_playing_a_card_from_the_hidden_hand():
    before, _a, after = _find(lambda b, a, s: a.verb == "play" and int(a.args[0]) in b.hands[b.to_move]
                             and b.known[int(a.args[0])] != 0xFF)
    assert after.undoable(before.to_move) == 0
    with pytest.raises(tabletop.IllegalAction, match="take back 0"):
        after.undo(before.to_move)


def test_undo_refused_after_a_pass_or_a_tavern_phrase():
    before, _a, after = _find(lambda b, a, s: a.verb == "pass")
    assert after.undoable(before.to_move) == 0
    before, _a, after = _find(lambda b, a, s: a.verb == "tavern", options={"variant": "tavern"})
    assert after.undoable(before.to_move) == 0


def test_undo_refused_after_another_seat_acted():
    before, _a, after = _find(lambda b, a, s: b.to_move is not None and s.to_move != b.to_move
                             and s.undoable(b.to_move) == 1)
    seat = before.to_move
    other = after.to_move
    assert other is not None and other != seat
    after.apply(after.legal_actions()[0])
    assert after.undoable(seat) == 0


def test_the_passing_round_is_sequential_each_seat_sees_its_new_card_before_passing_on():
    s = tabletop.new_game("silencio", 4, 3)
    assert s.deciding() == [s.to_move]
    for q in range(4):
        if q != s.to_move:
            assert s.legal_actions_for(q) == []
            with pytest.raises(tabletop.IllegalAction, match="no decision now"):
                s.submit(q, "give r2")


def test_undo_refused_after_an_action_upon_which_another_seat_passed_automatically():
    """C-23 with C-9: an action that reveals nothing itself (no card seen, no draw) but after which the next seat
    could not play and passed automatically: that pass told the team something, so the action stands."""
    def auto_pass(b: State, a: Action, s: State) -> bool:
        new = s.events[len(b.events):]  # type: ignore[attr-defined]
        return (a.verb in ("end", "skip", "play") and s.rng.state == b.rng.state and s.known == b.known  # type: ignore[attr-defined]
                and any(e[0] == "pass" and e[1] != b.to_move for e in new))
    before, _a, after = _find(auto_pass, players=2, seeds=200)
    assert after.undoable(before.to_move) == 0


def test_undo_refused_after_an_action_upon_which_another_seat_played_its_only_card_automatically():
    # p0 plays its face-up r4 (nothing hidden); y8, face up in front of p1, is then p1's only play and is played for
    # it (C-9): the table has learned that p1's hand holds nothing playable, so p0 may not take r4 back (C-23)
    from tabletop.games.silencio.notation import parse_card

    from .support import NO_SHRINES, pos

    s = pos(2, [["g7", "g8"], ["b3"]], rows={"red": [3], "blue": [5]}, fronts=[["r4"], ["y8"]], shrines=NO_SHRINES)
    s.track_undo()
    s.apply("play r4")
    assert s.events == [("play", 0, parse_card("r4"), "dark"), ("play", 1, parse_card("y8"), "light skipped")]
    assert s.undoable(0) == 0
