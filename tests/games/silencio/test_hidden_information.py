"""Hidden information: views show each seat only what it may know; `sample` keeps exactly that knowledge."""

from __future__ import annotations

import json

import pytest

import tabletop
from tabletop.core.logwords import plain_entry as plain
from tabletop.games.silencio.notation import card_text

from .support import NO_SHRINES, hand, pos, run


@pytest.mark.parametrize("players", [2, 3, 4])
def test_view_shows_own_hand_and_never_others_unknown_cards(players):
    s = tabletop.new_game("silencio", players, 12)
    for seat in range(players):
        v = s.view(seat)
        assert v["hand"] == [card_text(c) for c in sorted(s.hands[seat])]
        assert v["known"] == {str(q): [] for q in range(players) if q != seat}
        assert v["hand_sizes"] == [len(h) for h in s.hands]
        text = json.dumps(v)
        for q in range(players):
            if q != seat:
                for c in s.hands[q]:
                    assert f'"{card_text(c)}"' not in text
    assert s.view(None)["hand"] is None


def test_after_a_private_pass_only_giver_and_receiver_know_the_card():
    s = tabletop.new_game("silencio", 3, 1, {"first_player": 0})
    c = s.legal_actions()[0]
    card = c.text.split()[1]
    s.apply(c)
    assert card in s.view(1)["hand"] and s.view(0)["known"]["1"] == [card]
    assert s.view(2)["known"]["1"] == [] and s.view(None)["known"]["1"] == []
    assert plain(s.view(2)["log"][-1]) == {"seat": 0, "text": "Player 1 gave a card to Player 2"}
    assert (plain(s.view(0)["log"][-1]) == plain(s.view(1)["log"][-1])
            == {"seat": 0, "text": f"Player 1 gave {card} to Player 2"})
    assert s.log(None) == s.log(2) and s.log(None)[-1]["text"] == "Player 1 gave a card to Player 2"


def test_cards_face_up_are_known_to_all():
    s = pos(3, [["y5", "g8", "r4"], ["b8"], ["b9"]], rows={"red": [2, 3]}, shrines=NO_SHRINES)
    run(s, "play y5", "place r4")
    assert all(s.view(seat)["fronts"][0] == ["r4"] for seat in (None, 0, 1, 2))


def test_random_card_that_cannot_be_laid_is_seen_by_all():
    s = pos(2, [["y3", "g8"], ["b3"]], rows={"yellow": [2], "blue": [4]}, fronts=[["r5"], []], shrines=NO_SHRINES)
    run(s, "play y3")
    assert s.view(0)["known"]["1"] == ["b3"] and s.view(None)["known"]["1"] == ["b3"]


@pytest.mark.parametrize("seed", [0, 3, 8])
def test_sample_keeps_the_seats_knowledge(seed):
    s = tabletop.new_game("silencio", 3, seed, {"first_player": 0})
    for _ in range(3):  # the passing round: each seat learns one card of its left neighbour
        s.apply(s.legal_actions()[0])
    for p in range(3):
        v = s.view(p)
        hidden = set()
        for k in range(6):
            t = s.sample(p, k)
            assert t.view(p) == v
            assert t.hands[p] == sorted(s.hands[p])  # the hand as the seat sees it (its order is not shown)
            for q in range(3):  # known cards stay where they are
                for c in s.hands[q]:
                    if s.known[c] & (1 << p):
                        assert c in t.hands[q]
            hidden_now = sorted([*(c for h in t.hands for c in h), *t.deck])
            assert hidden_now == sorted([*(c for h in s.hands for c in h), *s.deck])  # same cards, redealt
            hidden.add(tuple(sorted(t.hands[(p + 2) % 3])))
        assert len(hidden) > 1  # what p cannot see is really redrawn


def test_sample_forgets_which_card_others_passed_face_down():
    # ruling C-15: a sample keeps only what its seat can tell; a card handed face down between two other seats is
    # named in neither the sample's log nor its events (only that a card went)
    s = tabletop.new_game("silencio", 3, 4, {"first_player": 0})
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    gifts = [e for e in s.events if e[0] == "give"]
    assert len(gifts) == 3 and all(e[3] >= 0 for e in gifts)
    for p in range(3):
        t = s.sample(p, 1)
        kept = [e for e in t.events if e[0] == "give"]
        assert kept == [e if p in e[1:3] else (*e[:3], -1) for e in gifts]
        assert t.log(p) == s.log(p)


def test_sample_after_a_green_swap_keeps_what_both_swappers_know():
    s = pos(3, [["g5", "r8"], ["b8", "b7"], ["y8", "y7"]], shrines=NO_SHRINES)
    run(s, "play g5", "choose p1", "give b8 to p2", "return y8")
    for k in range(5):
        t = s.sample(1, k)
        assert "b8" in hand(t, 2) and hand(t, 1) == ["b7", "y8"] and t.view(1) == s.view(1)
        u = s.sample(0, k)
        assert u.view(0) == s.view(0)
