"""SiliconVania's hidden information: specialist hands, the unseen part of each facedown discard pile, silent bids
until all are revealed, the specialist deck and the tile stack order.

Public: revealed bids, how many silent bid cards each seat holds and that it recovered one (not which: ruling V-22),
revealed specialists going to the discard pile, cards taken from the row, objectives and where a swapped-away
objective went (ruling V-20), every tile, the log of all of these.
"""

from __future__ import annotations

import json
import re

import tabletop
from tabletop.core import Rng
from tabletop.games.siliconvania.notation import BID_CARDS, SWAP
from tabletop.games.siliconvania.rules import SiliconVaniaState as S
from tabletop.games.siliconvania.tasks import K_RECOVER, K_SWAP_OBJECTIVE


def _to_bid(players: int, seed: int, bids_made: int) -> tabletop.core.State:
    s = tabletop.new_game("siliconvania", players, seed)
    rng = Rng(seed)
    while not (s.round >= 2 and s.view(None)["decision"] == "bid"
               and sum(x["has_bid"] for x in s.view(None)["seats"]) == bids_made):
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return s


def test_a_secret_bid_is_seen_only_by_its_bidder_until_every_bid_is_in():
    s = _to_bid(3, 4, 0)
    bidder = s.to_move
    bids = s.legal_actions()
    a, b = s.clone(), s.clone()
    a.apply(bids[0])
    b.apply(bids[-1])
    for seat in (None, *(q for q in range(3) if q != bidder)):
        assert a.view(seat) == b.view(seat)
        assert a.view(seat)["seats"][bidder]["bid"] is None and a.view(seat)["seats"][bidder]["has_bid"]
        assert bids[0].text not in json.dumps(a.view(seat))
    assert a.view(bidder)["seats"][bidder]["bid"] == list(bids[0].args)


def test_a_sample_redraws_another_seats_secret_bid_from_its_possible_hand_and_keeps_its_own():
    s = _to_bid(3, 7, 2)  # seats 0 and 1 have bid, seat 2 is to bid
    bids = {(t.bid_card[0], t.bid_spec[0]) for t in (s.sample(2, k) for k in range(12))}
    assert len(bids) > 1  # seat 2 does not know seat 0's bid
    for k in range(6):
        t = s.sample(2, k)
        assert t.view(2) == s.view(2)
        assert t.bid_spec[0] in t.hand[0] and t.bid_card[0] in BID_CARDS[t.bid_hand[0]]
        u = s.sample(0, k)
        assert (u.bid_card[0], u.bid_spec[0]) == (s.bid_card[0], s.bid_spec[0])


def test_cards_taken_from_the_row_stay_in_the_takers_hand_in_samples():
    """Ruling V-20: everyone saw the card taken; it stays in that hand until it is bid or made an objective."""
    s = tabletop.new_game("siliconvania", 3, 11)
    rng = Rng(3)
    while s.round < 3:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    taken: dict[int, set[int]] = {q: set() for q in range(3)}
    for e in s.log(None):
        text = e["template"].removeprefix(f"{{p{e['seat']}}} ") if "template" in e else e["text"]
        ranks = [int(x) for x in re.findall(r"\bs(\d+)\b", text)]
        if text.startswith("took s"):
            taken[e["seat"]].add(ranks[0])
        elif text.startswith(("revealed bid", "added s")):
            taken[e["seat"]].discard(ranks[0])
    assert any(taken.values())
    for k in range(6):
        t = s.sample(0, k)
        for q in (1, 2):
            assert taken[q] <= set(t.hand[q]), (q, taken[q], t.hand[q])
        assert t.view(0) == s.view(0)


def _swap_position() -> S:
    """Seat 1 holds objectives 30 and 31; in hand 40 (taken from the row: everyone knows) and 41 (dealt: unseen);
    in its discard pile 12 (a revealed bid)."""
    s = S.for_test(3, 2, tasks=[(K_SWAP_OBJECTIVE, 1, 0, 0)], objs=[[], [30, 31], []], hand=[[1, 2], [40, 41], [3, 4]],
                   disc=[[], [12], []], shown=[0, 1 << 12, 0], known=[0, 1 << 40, 0])
    used = {1, 2, 3, 4, 12, 30, 31, 40, 41}
    s.spec_deck = [r for r in s.spec_deck if r not in used]
    s.row = [r for r in s.row if r not in used]
    assert s.to_move == 1
    return s


def test_an_objective_swapped_away_goes_where_everyone_can_tell_when_its_replacement_was_known():
    """Ruling V-20: swapped for a revealed discard, the old objective is known to lie in the discard pile; swapped
    for a card taken from the row, it is known to be in the hand."""
    s = _swap_position()
    a, b = s.clone(), s.clone()
    a.apply(SWAP[30][12])  # 30 goes to the discard pile where 12 was
    b.apply(SWAP[31][40])  # 31 goes to the hand where 40 was
    for k in range(6):
        assert 30 in a.sample(0, k).disc[1]
        assert 31 in b.sample(0, k).hand[1]
        assert a.sample(0, k).view(0) == a.view(0) and b.sample(2, k).view(2) == b.view(2)


def test_an_objective_swapped_for_an_unseen_hand_card_stays_with_the_swapper_in_samples():
    """Audit 5, ruling V-20: every card of a discard pile was seen going there, so a replacement nobody saw came from
    the hand, and the old objective went to the hand: no sample may put it in the deck or another seat's hand."""
    s = _swap_position()
    s.apply(SWAP[30][41])
    assert "s30 goes to the hand" in s.log(0)[-1]["text"]
    assert 30 in s.view(0)["seats"][1]["known_hand"]
    for seat in (0, 2):
        for k in range(20):
            t = s.sample(seat, k)
            assert 30 in t.hand[1], (seat, k, t.hand[1])
            assert t.view(seat) == s.view(seat)


def _recover_position(card: int) -> S:
    """Seat 0 revealed bids 4, 5 and then 3 and now recovers `card` with the 3's ability (ruling V-22)."""
    s = S.for_test(3, 1, tasks=[(K_RECOVER, 0, 0, 0)], bid_hand=[0b1100011, 127, 127], bid_disc=[0b0011100, 0, 0],
                   bid_events=[(4, 5, 3), (), ()])
    assert s.to_move == 0
    s.apply(f"recover {card}")
    return s


def test_which_silent_bid_card_a_player_recovers_is_hidden_from_the_others():
    """Ruling V-22, "Keep your hand of Specialists and Silent Bid cards hidden from your opponents": the others see
    that a card was recovered (and how many each seat holds), not which one."""
    a, b = _recover_position(4), _recover_position(5)
    for seat in (None, 1, 2):
        assert a.view(seat) == b.view(seat)
        assert a.log(seat) == b.log(seat)
        assert a.log(seat)[-1]["text"] == "Player 1 took a silent bid card back to the hand"
        assert a.view(seat)["seats"][0]["bid_cards_count"] == 5 and "bid_cards" not in a.view(seat)["seats"][0]
    assert a.log(0)[-1]["text"] == "Player 1 took silent bid card 4 back to the hand"
    assert a.view(0)["seats"][0]["bid_cards"] == [1, 2, 4, 6, 7]
    assert b.view(0)["seats"][0]["bid_cards"] == [1, 2, 5, 6, 7]
    assert {(t.bid_hand[0], t.bid_disc[0]) for t in (a.sample(1, k) for k in range(30))} == {
        (0b1101011, 0b0010100), (0b1110011, 0b0001100), (0b1100111, 0b0011000)}  # 4, 5 or 3 back in hand


def test_samples_of_hidden_recoveries_agree_with_every_later_reveal():
    """Ruling V-22: a card revealed again must have been recovered, so every sample recovers it."""
    from tabletop.games.siliconvania.view import sample_bid_cards

    for k in range(20):
        hand, disc = sample_bid_cards((7, 4, -1, 7), Rng(k))
        assert (hand, disc) == (0b0110111, 0b1001000)
        hand, disc = sample_bid_cards((7, 4, 3, -1, -1, 4), Rng(k))
        assert hand & 1 << 3 == 0 and disc & 1 << 3  # 4 was recovered by one of the two and replayed
        assert bin(hand).count("1") == 5 and bin(disc).count("1") == 2
    assert len({sample_bid_cards((7, 4, -1), Rng(k)) for k in range(30)}) == 2


def test_a_sample_does_not_depend_on_orders_the_seat_cannot_see():
    """Audit 19: permuting what the seat cannot see the order of (its own hand and discard pile, which its view shows
    sorted; the other hands and piles; the decks; the discarded tiles, shown sorted) changes no sample."""
    s = tabletop.new_game("siliconvania", 4, 9)
    rng = Rng(4)
    checked = 0
    while not s.is_over:
        if rng.below(9) == 0 and s.tile_disc:
            p = rng.below(4)
            twin = s.clone()
            for q in range(4):
                twin.hand[q].reverse()
                twin.disc[q].reverse()
            twin.spec_deck.reverse()
            twin.tile_deck.reverse()
            twin.tile_disc.reverse()
            assert twin.view(p) == s.view(p)
            k = rng.next64()
            assert twin.sample(p, k).snapshot() == s.sample(p, k).snapshot()
            checked += 1
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    assert checked > 5
