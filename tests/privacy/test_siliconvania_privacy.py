"""SiliconVania's hidden information: specialist hands, the unseen part of each facedown discard pile, silent bids
until all are revealed, the specialist deck and the tile stack order.

Public: revealed bids (and so which bid cards each seat holds), revealed specialists going to the discard pile,
cards taken from the row, objectives, every tile, the log of all of these.
"""

from __future__ import annotations

import json

import tabletop
from tabletop.core import Rng
from tabletop.games.siliconvania.rules import K_SWAPOBJ, SWAP, TAKE
from tabletop.games.siliconvania.rules import SiliconVaniaState as S


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
        assert t.bid_spec[0] in t.hand[0] and t.bid_card[0] in s.view(2)["seats"][0]["bid_cards"]
        u = s.sample(0, k)
        assert (u.bid_card[0], u.bid_spec[0]) == (s.bid_card[0], s.bid_spec[0])


def test_cards_taken_from_the_row_stay_in_the_takers_hand_in_samples():
    """Ruling V-20: everyone saw the card taken; it stays in that hand until it is bid or made an objective."""
    s = tabletop.new_game("siliconvania", 3, 11)
    rng = Rng(3)
    while s.round < 3:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    taken = {q: set() for q in range(3)}
    for q, e in s.log_entries():
        if isinstance(e[1], tabletop.core.Action) and e[1].verb == "take":
            taken[q].add(int(e[1].args[0]))
        elif e[1] == "reveal" or (isinstance(e[1], tabletop.core.Action) and e[1].verb == "objective"):
            taken[q].discard(int(e[3] if e[1] == "reveal" else e[1].args[0]))
    assert any(taken.values())
    for k in range(6):
        t = s.sample(0, k)
        for q in (1, 2):
            assert taken[q] <= set(t.hand[q]), (q, taken[q], t.hand[q])
        assert t.view(0) == s.view(0)


def test_an_objective_swapped_away_goes_where_everyone_can_tell_when_its_replacement_was_known():
    """Ruling V-20: swapped for a revealed discard, the old objective is known to lie in the discard pile; swapped
    for a card taken from the row, it is known to be in the hand."""
    log = ((1, TAKE[40]), ((1, "reveal", 4, 12, 4), None))
    s = S.for_test(3, 2, tasks=[(K_SWAPOBJ, 1, 0, 0)], objs=[[], [30, 31], []], hand=[[1, 2], [40, 41], [3, 4]],
                   disc=[[], [12], []], shown=[0, 1 << 12, 0], log=log)
    used = {1, 2, 3, 4, 12, 30, 31, 40, 41}
    s.spec_deck = [r for r in s.spec_deck if r not in used]
    s.row = [r for r in s.row if r not in used]
    assert s.to_move == 1
    a, b = s.clone(), s.clone()
    a.apply(SWAP[30][12])  # 30 goes to the discard pile where 12 was
    b.apply(SWAP[31][40])  # 31 goes to the hand where 40 was
    for k in range(6):
        assert 30 in a.sample(0, k).disc[1]
        assert 31 in b.sample(0, k).hand[1]
        assert a.sample(0, k).view(0) == a.view(0) and b.sample(2, k).view(2) == b.view(2)
