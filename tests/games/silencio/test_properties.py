"""Invariants over random playouts (hypothesis): rows rise, must-play holds, green-only holds, shrines only darken,
no decision with a single answer is asked (C-9), and the game ends only as C-5 says."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop
from tabletop.core import Rng
from tabletop.games.silencio.notation import GREEN, START


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6),
       variant=st.sampled_from(["none", "tavern"]), dark=st.sampled_from(["none", "large", "small", "all"]))
def test_random_playouts_keep_the_rules_invariants(players, seed, variant, dark):
    s = tabletop.new_game("silencio", players, seed, {"variant": variant, "dark_shrines": dark})
    rng = Rng(seed)
    lit = list(s.shrines)
    while not s.is_over:
        legal = s.legal_actions()
        texts = [a.text for a in legal]
        assert len(legal) >= 2  # C-9: a single answer is taken for the seat
        assert s.passes < players  # C-5: a whole round of passes has ended the game
        if s.phase == START:
            p = s.to_move
            own = [c for c in (*s.hands[p], *s.fronts[p]) if s._playable(c)]
            if own:  # must play when able
                assert "pass" not in texts
            if s.green_only:  # the next card must be green
                assert all(a.args[0] >> 4 == GREEN for a in legal if a.verb == "play")
        s.apply(legal[rng.below(len(legal))])
        for row in s.rows:  # every row rises strictly, within the card range
            assert row == sorted(set(row))
            assert all(2 <= v <= s.max_value for v in row)
        assert all(not now or before for now, before in zip(s.shrines, lit, strict=True))  # never relit
        lit = list(s.shrines)
    # C-5: the game ends only when nobody can play, or after every player has passed in succession
    assert s.passes >= players or not s._any_playable()
    assert s.scores() == [-float(s.cards_left())] * players
    assert s.winners() == (list(range(players)) if s.cards_left() == 0 else [])
