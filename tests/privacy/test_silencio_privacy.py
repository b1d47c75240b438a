"""Silencio's hidden information: hands, the deck (content and order), and each card handed over face down.

Public: rows, oracle, box, cards face up in front of players, hand sizes, a random card shown by the yellow dark
effect, cards taken from a row or from the oracle, tavern phrases.
"""

from __future__ import annotations

import json

import tabletop
from tabletop.games.silencio.notation import card_text
from tabletop.games.silencio.rules import SilencioState

NO_SHRINES = [False] * 5


def pos(players, hands, **kw):
    return SilencioState.position(players, hands, **kw)


def run(s, *actions):
    for a in actions:
        s.apply(a)
    return s


def _pass(state, text):
    t = state.clone()
    t.apply(text)
    return t


def test_a_seat_forgets_the_card_it_passed_once_its_holder_passes_a_card_on_privately():
    """Ruling C-18: p0 passes a card to p1; whether p1 passes that very card on or another, p0 sees the same."""
    s = tabletop.new_game("silencio", 3, 5, {"first_player": 0})
    given = s.legal_actions()[0]
    s.apply(given)
    mine = given.text.split()[1]
    assert s.view(0)["known"]["1"] == [mine]
    same = _pass(s, given.text)  # p1 passes the card it just received ...
    other = _pass(s, next(a.text for a in s.legal_actions() if a.text != given.text))  # ... or another one
    assert same.view(0) == other.view(0)
    assert same.view(0)["known"] == {"1": [], "2": []}
    assert same.view(None) == other.view(None)
    assert same.view(2)["hand"] != other.view(2)["hand"] and mine in same.view(2)["hand"]


def test_a_card_everyone_saw_is_forgotten_by_outsiders_when_its_holder_passes_privately():
    """A random card shown and returned is public, until its holder hands over a card face down (ruling C-18)."""
    s = pos(3, [["y3", "g8"], ["b3", "b2"], ["g4"]], rows={"yellow": [2], "blue": [4]}, fronts=[["r5"], [], []],
            shrines=NO_SHRINES)
    run(s, "play y3")  # yellow dark: p1 draws one of its two unplayable cards at random and shows it
    shown = s.view(0)["known"]["1"]
    assert len(shown) == 1 and s.view(None)["known"]["1"] == shown == s.view(2)["known"]["1"]
    for c in sorted(s.hands[1]):  # p1 hands either card face down to p0 (a green give, say)
        t = s.clone()
        t._give_privately(1, 0, c)
        for seat in (None, 2):
            assert t.view(seat)["known"]["1"] == []  # whichever card went, outsiders can no longer tell
        assert t.view(0)["known"]["1"] == [x for x in shown if x != card_text(c)]  # p0 saw which one came


def test_green_give_and_give_back_name_their_cards_only_to_the_two_seats():
    s = pos(3, [["g5", "r8"], ["b8", "b7"], ["y8", "y7"]], shrines=NO_SHRINES)
    run(s, "play g5", "choose p1", "give b8 to p2", "return y8")
    for seat, sees in ((0, False), (None, False), (1, True), (2, True)):
        log = json.dumps(s.view(seat)["log"])
        assert ("b8" in log and "y8" in log) == sees, (seat, log)


def test_the_passing_round_never_names_a_card_to_a_spectator_or_to_a_seat_not_party_to_it():
    s = tabletop.new_game("silencio", 4, 8, {"first_player": 2})
    while s.view(None)["phase"] == "passing":
        giver = s.to_move
        a = s.legal_actions()[-1]
        s.apply(a)
        card = a.text.split()[1]
        for seat in (None, *range(4)):
            party = seat in (giver, (giver + 1) % 4)
            assert (card in s.view(seat)["log"][-1]["text"]) == party
            assert (card in json.dumps(s.view(seat)["known"])) == (party and seat == giver)


def test_sample_keeps_what_the_seat_saw_privately_and_redeals_the_rest():
    s = tabletop.new_game("silencio", 4, 3, {"first_player": 0})
    given = s.legal_actions()[0]
    s.apply(given)  # p0 -> p1
    card = given.text.split()[1]
    for k in range(8):
        t = s.sample(0, k)
        assert card in [card_text(c) for c in t.hands[1]]  # p0 knows where its card is
        assert t.hands[0] == sorted(s.hands[0])  # p0's own hand, in the order its view shows
        u = s.sample(2, k)  # p2 knows nothing of it: the card may land anywhere p2 cannot see
        assert u.view(2) == s.view(2)
    spread = {tuple(sorted(s.sample(2, k).hands[1])) for k in range(8)}
    assert len(spread) > 1
