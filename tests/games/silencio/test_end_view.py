"""The end of the game: the hands are laid open to count the cards left (ruling C-19)."""

from __future__ import annotations

import tabletop
from tabletop.core import Rng


def _finish(seed: int) -> tabletop.State:
    s = tabletop.new_game("silencio", 3, seed)
    rng = Rng(seed)
    while not s.is_over:
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    return s


def test_game_over_lays_every_hand_open_to_count_the_cards_left():
    s = _finish(4)
    hands = s.view(None)["result"]["hands"]
    assert sum(map(len, hands)) + sum(map(len, s.view(None)["fronts"])) == s.view(None)["result"]["cards_left"]
    for seat in (None, 0, 1, 2):
        assert s.view(seat)["result"]["hands"] == hands
    assert hands[1] == s.view(1)["hand"]


def test_before_the_end_no_view_has_a_result():
    s = tabletop.new_game("silencio", 3, 4)
    assert all(s.view(seat)["result"] is None for seat in (None, 0, 1, 2))


def test_a_sample_of_a_finished_game_keeps_the_hands_laid_open():
    """Once the hands lie open (C-19) a sample may not redeal them: it must agree with the seat's view."""
    for seed in range(6):
        s = _finish(seed)
        for seat in range(3):
            for k in range(3):
                t = s.sample(seat, k)
                assert t.view(seat) == s.view(seat)
                assert t.view(seat)["result"]["hands"] == s.view(None)["result"]["hands"]
