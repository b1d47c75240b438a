"""A sample's silent bid cards agree with what the sampling seat saw of another seat's bids.

Public (ruling V-22): every bid card revealed, in order, and that a seat recovered a card (not which one). The
sampler redraws the unseen recoveries; the guarantees pinned here are that a sample is always one of the states
those events allow (bids already seen stay what was seen: a card revealed after a recovery was in hand then), and
that it can be any of them (a belief must not rule out what the seat cannot rule out). The oracle enumerates every
choice of recovered card.
"""

from __future__ import annotations

import pytest

import tabletop
from tabletop.core import Rng
from tabletop.games.siliconvania.view import bids_feasible, sample_bid_cards

ALL = 0b1111111  # the seven silent bid cards, card c at bit c - 1


def _consistent(events: tuple[int, ...]) -> set[tuple[int, int]]:
    """Every (hand, discard) a seat can hold after these public events, over every choice of recovered card."""
    states = {(ALL, 0)}
    for e in events:
        if e > 0:
            bit = 1 << (e - 1)
            states = {(h & ~bit, d | bit) for h, d in states if h & bit}
        elif e < 0:
            states = {(h | 1 << c, d & ~(1 << c)) for h, d in states for c in range(7) if d >> c & 1}
    return states


def _samples(events: tuple[int, ...], n: int = 200) -> set[tuple[int, int]]:
    return {sample_bid_cards(events, Rng(seed)) for seed in range(n)}


# (events, why): each history is one a seat can show; every card named is a silent bid card 1..7
HISTORIES = [
    ((3, 5, -1, 3), "the recovery must have taken 3 back, since 3 is revealed again"),
    ((1, 2, -1, 3, -1), "either of 1 and 2 may come back first; any one of 1, 2, 3 may be left discarded"),
    ((7, 6, -1, 7, -1, 6), "both recoveries are forced by the reveals that follow them"),
    ((4, 1, 2, -1, -1, 4, 0), "two recoveries, one of them forced; a bid of no card (0) changes nothing"),
]


@pytest.mark.parametrize(("events", "why"), HISTORIES, ids=[str(h[0]) for h in HISTORIES])
def test_a_sample_of_bid_cards_is_exactly_one_of_the_states_the_public_bids_allow(
    events: tuple[int, ...], why: str
) -> None:
    allowed = _consistent(events)
    assert allowed, f"the history itself must be possible ({why})"
    assert _samples(events) == allowed, why


def test_bids_already_seen_stay_possible_in_every_sample_of_a_real_game() -> None:
    """Every prefix of every seat's real bid history, from random 4-player games: each sample is a state those
    events allow, and so is the true one (the oracle agrees with the game)."""
    for seed in range(3):
        s = tabletop.new_game("siliconvania", 4, seed)
        rng = Rng(seed)
        while s.to_move is not None:
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
        for q in range(4):
            events = s.bid_events[q]
            assert (s.bid_hand[q], s.bid_disc[q]) in _consistent(events)
            for k in range(1, len(events) + 1):
                prefix = events[:k]
                assert _samples(prefix, 20) <= _consistent(prefix), prefix


def test_a_recovery_needs_a_discarded_card_to_take_back() -> None:
    assert not bids_feasible((-1,), 0, ALL, 0)
    assert not bids_feasible((2, -1, -1), 0, ALL, 0)
    assert bids_feasible((2, -1, 2), 0, ALL, 0)


def test_a_reveal_needs_the_card_in_hand() -> None:
    assert not bids_feasible((2, 2), 0, ALL, 0)
    assert not bids_feasible((5,), 0, ALL & ~(1 << 4), 1 << 4)
