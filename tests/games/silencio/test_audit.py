"""A fresh-eyes audit against the rulebook: each test is named after the sentence it checks."""

from __future__ import annotations

import pytest

from tabletop.games.silencio.notation import parse_card

from .support import hand, legal, pos, run


# ---- End of the Game: "If no player can play a card, the game ends." ---------------------------------------
def test_game_ends_only_when_no_player_can_play_a_card_not_when_a_player_has_passed():
    # p1 cannot play and passes; p0 plays and, at the end of its turn, hands r3 to p1 with the green shrine: the
    # game goes on, and p1 now plays
    s = pos(2, [["r3", "y5"], ["b2"]], rows={"red": [2], "blue": [5]}, to_move=1,
            shrines=[True, False, True, True, False])
    assert s.events == [("pass", 1)] and s.to_move == 0
    run(s, "play y5", "skip", "shrine green", "choose p0", "give r3 to p1", "return b2")
    assert not s.is_over and s.to_move == 1 and "play r3" in legal(s) and "pass" not in legal(s)
    run(s, "play r3")
    assert parse_card("r3") not in s.hands[1]


def test_inside_a_start_of_turn_shrine_the_players_own_choices_keep_it_a_play_and_the_others_are_free():
    # green dark: p1 holds no green card and passes; p0 takes the green shrine at the start and chooses itself: its
    # own give may not hand over g5, its only play (ruling C-4, version 3); p1's give-back is free ("Then that player
    # gives them a card from their hand"), and p0 still plays g5
    s = pos(2, [["g3", "g5", "b2"], ["r2"]], rows={"green": [2], "blue": [5], "red": [4]},
            shrines=[True, False, True, True, False])
    run(s, "play g3", "end")
    assert s.events[-1] == ("pass", 1) and s.to_move == 0
    run(s, "shrine green", "choose p0")
    assert legal(s) == ["give b2 to p1", "renew oracle"]
    run(s, "give b2 to p1")
    assert s.to_move == 1 and legal(s) == ["return b2", "return r2"]
    run(s, "return r2")
    assert ("play", 0, parse_card("g5"), "light") in s.events  # its only play, made for it (C-9)


def test_a_player_who_passed_must_play_again_on_a_later_turn_when_able():
    # "Even if you passed now, on your next turn you may be able to play a card again." -- and then must play it
    s = pos(2, [["b2", "r8"], ["g2"]], rows={"green": [5]}, oracle=["y3", "y4"], to_move=1, shrines=[False] * 5)
    assert s.events[-1] == ("pass", 1) and s.to_move == 0
    run(s, "play b2", "oracle y3 to p1")  # blue dark: p1 receives a card it can play
    # no pass: a pass earlier does not excuse this turn; y3, its only play, is played for it (C-9)
    assert s.events[-1] == ("play", 1, parse_card("y3"), "light") and s.to_move == 1


# ---- First Player and Passing Cards -------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "first", "order"), [
    (2, 0, [0, 1]), (2, 1, [1, 0]), (3, 2, [2, 0, 1]), (4, 1, [1, 2, 3, 0]), (4, 3, [3, 0, 1, 2]),
])
def test_passing_starts_with_the_first_player_and_the_game_begins_as_soon_as_the_first_player_has_received_a_card(
    players, first, order
):
    import tabletop

    s = tabletop.new_game("silencio", players, 6, {"first_player": first})
    seen = []
    while s.view(None)["phase"] == "passing":
        p = s.to_move
        seen.append(p)
        given = s.legal_actions()[-1]
        s.apply(given)
        assert parse_card(given.text.split()[1]) in s.hands[(p + 1) % players]  # to the left: the next seat
    assert seen == order  # each player exactly once, in turn; the first player passes first and receives last
    assert s.view(first)["phase"] == "start of turn" and s.to_move == first == s.turn
    last_give = s.events[-1]
    assert last_give[:3] == ("give", order[-1], first)  # the first player's new card is in hand as play begins
    assert last_give[3] in s.hands[first]


# ---- Yellow light: "any player can play this card as if it were in their hand" -----------------------------
@pytest.mark.parametrize(("front_card", "rows", "decision"), [
    ("y4", {}, "place b7"),                               # light effect: p1 places a card of ITS hand
    ("b2", {}, "oracle r2 to p0"),                        # dark effect: p1 gives an oracle card (p0 or p2)
    ("y3", {"yellow": [2]}, None),                        # yellow dark: the player after p1 (p2) plays at random
])
def test_card_played_from_in_front_of_another_player_gives_its_effects_to_the_player_who_plays_it(
    front_card, rows, decision
):
    s = pos(3, [["r8"], ["g8", "b7"], ["b8"]], rows=rows, fronts=[[front_card], [], []], oracle=["r2", "r3", "r4"],
            to_move=1, shrines=[False] * 5)
    run(s, f"play {front_card}")
    assert s.fronts[0] == [] and hand(s, 0) == ["r8"]  # the owner gets nothing back and decides nothing
    if decision is None:
        assert ("play", 1, parse_card("y3"), "dark") in s.events and ("random", 2, parse_card("b8"), True) in s.events
    else:
        assert s.to_move == 1 and decision in legal(s)


# ---- Blue light: "Add the last played card from another (not blue) row to your hand." -----------------------
def test_blue_light_takes_the_last_card_of_any_non_blue_row_also_after_earlier_take_backs():
    s = pos(2, [["b3", "b5", "g8"], ["y8"]], rows={"red": [2, 4], "yellow": [3]}, shrines=[False] * 5)
    run(s, "play b3")
    assert legal(s) == ["skip", "take r4", "take y3"]  # the card at the end of each row: the player chooses
    run(s, "take r4")  # then p1 plays y8, its only card (C-9)
    run(s, "play b5")
    # red 4 went back to a hand: the red row now ends with red 2, played earlier, and that is what can be taken
    assert legal(s) == ["skip", "take r2", "take y8"]
    run(s, "take r2")
    assert hand(s, 0) == ["g8", "r2", "r4"] and s.rows[0] == []


# ---- Green light: the three actions with empty hands, an empty oracle or an empty deck ------------------------
def test_green_light_only_a_player_who_can_perform_an_action_can_be_chosen():
    # no oracle and no deck: only the player-player swap remains, so p1 (empty hand) cannot be chosen
    s = pos(3, [["g5", "r8"], [], ["y8"]], oracle=[], deck=[], shrines=[False] * 5)
    run(s, "play g5")
    assert legal(s) == ["choose p0", "choose p2", "skip"]
    run(s, "choose p0")
    assert legal(s) == ["give r8 to p1", "give r8 to p2"]  # no oracle swap, no oracle change
    run(s, "give r8 to p1")  # a receiver with an empty hand gives the card back (C-13), without being asked (C-9)
    assert s.events[2:4] == [("giveto", 0, 1, parse_card("r8")), ("giveto", 1, 0, parse_card("r8"))]
    # an oracle but an empty deck: a player with an empty hand can only change the oracle (revealing nothing)
    s = pos(3, [["g5", "r8"], [], ["y8"]], oracle=["b2", "b3", "b4"], deck=[], shrines=[False] * 5)
    run(s, "play g5", "choose p1")  # p1's only action, changing the oracle, is taken for it (C-9)
    assert ("renew", 1) in s.events
    assert s.oracle == [] and len(s.box) >= 3


def test_green_light_with_no_possible_action_asks_nothing():
    # p0 plays its last hand card g5 (light); nobody holds a hand card, oracle and deck are empty
    # (then r3 is p1's only play: it is played for it, C-9); no green light decision comes between
    s = pos(2, [["g5"], []], rows={"green": [2]}, fronts=[[], ["r3"]], oracle=[], deck=[], shrines=[False] * 5)
    run(s, "play g5")
    assert s.events == [("play", 0, parse_card("g5"), "light"), ("play", 1, parse_card("r3"), "final")]
