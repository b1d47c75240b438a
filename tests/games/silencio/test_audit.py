"""A fresh-eyes audit against the rulebook: each test is named after the sentence it checks."""

from __future__ import annotations

import pytest

from tabletop.games.silencio.rules import parse_card

from .support import legal, pos, run


# ---- End of the Game: "If no player can play a card, the game ends." ---------------------------------------
@pytest.mark.parametrize(
    ("hands", "rows", "to_move", "moves", "then"),
    [
        # p1 cannot play and passes; p0 takes the green shrine, hands its only playable card r3 to p1 and gets b2
        # back, so p0 passes too: two passes in a row, yet p1 can now play r3
        ([["r3"], ["b2"]], {"red": [2], "blue": [5]}, 1,
         ["shrine green", "choose p0", "give r3 to p1", "return b2"], "play r3"),
        # the same under green dark ("If all players pass, the game ends"): p1 passes (no green card), p0 gives
        # its g5 away with the green shrine and passes; p1 now holds a playable green card
        ([["g3", "g5", "b2"], ["r2"]], {"green": [2], "blue": [5], "red": [4]}, 0,
         ["play g3", "end", "shrine green", "choose p0", "give g5 to p1", "return r2"], "play g5"),
    ],
)
def test_game_ends_only_when_no_player_can_play_a_card_not_after_a_pass_round_that_changed_hands(
    hands, rows, to_move, moves, then
):
    s = pos(2, hands, rows=rows, to_move=to_move)
    run(s, *moves)
    assert ("pass", 1) in s.log and s.log[-1] == ("pass", 0) and s.log[-2][0] == "giveto"
    assert not s.is_over and s.to_move == 1 and then in legal(s)
    run(s, then)
    assert parse_card(then.split()[1]) not in s.hands[1]
