"""The eight effects (rulebook "Effects") and how they interact."""

from __future__ import annotations

import pytest

from tabletop.core.logwords import plain_entry as plain
from tabletop.games.silencio.notation import ALL_KNOW, parse_card
from tabletop.games.silencio.rules import END

from .support import NO_SHRINES, SHRINES_ALL, deck, front, hand, legal, oracle, pos, rows, run


# ---- Red (Fire) ----------------------------------------------------------------------------------------------
def test_red_light_skips_next_dark_effect():
    s = pos(2, [["r3", "g8", "g7"], ["b2", "y8"]], oracle=["y2", "y3"], shrines=NO_SHRINES)
    run(s, "play r3")
    assert legal(s) == ["skip", "use red light"]
    run(s, "use red light")
    assert s.skip_dark and s.view(1)["effects"]["skip_next_dark"] is True
    run(s, "play b2")  # p1's card follows the small shrine: its dark effect (give an oracle card) is skipped
    assert s.events[-1] == ("play", 1, parse_card("b2"), "dark skipped")
    assert not s.skip_dark and s.to_move == 0 and oracle(s) == ["y2", "y3"]


def test_red_light_is_used_up_by_the_next_card_even_when_it_creates_a_light_effect():
    s = pos(2, [["r3", "g8"], ["b4", "b2", "y8"]], rows={"blue": []}, oracle=["y2", "y3"], shrines=NO_SHRINES)
    run(s, "play r3", "use red light", "play b4")  # b4 is light: the red light is spent on it
    assert s.events[-1][3] == "light" and not s.skip_dark


def test_red_light_skips_the_dark_effect_of_the_same_players_card_after_a_shrine():
    s = pos(2, [["b2", "g8"], ["y8"]], oracle=["y2", "y3"])
    run(s, "shrine red", "use red light")
    assert s.to_move == 0 and s.shrines[0] is False and "pass" not in legal(s)
    run(s, "play b2")
    assert s.events[-1][3] == "dark skipped" and s.to_move == 1


def test_red_dark_skips_next_light_effect():
    s = pos(2, [["r3", "g8", "g7"], ["b5", "y8"]], rows={"red": [2], "yellow": [2]}, shrines=NO_SHRINES)
    run(s, "play r3")
    assert s.skip_light and s.events[-1][3] == "dark" and s.to_move == 1
    run(s, "play b5")  # would offer the blue light (take y2): skipped
    assert s.events[-1] == ("play", 1, parse_card("b5"), "light skipped")
    assert s.to_move == 0 and not s.skip_light and rows(s)["yellow"] == [2]


def test_red_dark_does_not_skip_a_following_dark_effect():
    s = pos(2, [["r3", "g8"], ["b2", "y8"]], rows={"red": [2]}, oracle=["y2", "y3"], shrines=NO_SHRINES)
    run(s, "play r3", "play b2")
    assert s.events[-1][3] == "dark" and legal(s) == ["oracle y2 to p0", "oracle y3 to p0"]


def test_red_dark_does_not_skip_a_shrine_light_effect():
    s = pos(2, [["r3", "g8"], ["b8"]], rows={"red": [2], "yellow": [2]})
    run(s, "play r3")
    assert s.skip_light and "end" in legal(s)
    run(s, "shrine blue")  # a shrine is not a played card
    assert legal(s) == ["skip", "take r3", "take y2"]
    run(s, "take y2")
    assert hand(s, 0) == ["g8", "y2"] and s.skip_light  # still waiting for the next played card


# ---- Blue (Water) --------------------------------------------------------------------------------------------
def test_blue_light_takes_last_card_of_a_non_blue_row():
    s = pos(3, [["b5", "g8"], ["y8", "y7"], ["r8"]], rows={"red": [3, 5], "yellow": [2], "blue": [2]},
            shrines=NO_SHRINES)
    run(s, "play b5")
    assert legal(s) == ["skip", "take r5", "take y2"]  # never the blue row, never an empty row
    run(s, "take r5")
    assert rows(s) == {"red": [3], "blue": [2, 5], "yellow": [2], "green": []}
    assert hand(s, 0) == ["g8", "r5"] and s.known[parse_card("r5")] == ALL_KNOW
    assert s.view(2)["known"]["0"] == ["r5"]  # everyone saw where it went


def test_blue_light_with_no_other_row_played_offers_nothing():
    s = pos(2, [["b5", "g8"], ["y8", "y7"]], rows={"blue": [2]}, shrines=NO_SHRINES)
    run(s, "play b5")
    assert s.to_move == 1 and s.events[-1][3] == "light"


def test_blue_dark_gives_an_oracle_card_to_another_player_and_deck_refills_the_spot():
    s = pos(3, [["b2", "g8"], [], ["r8"]], oracle=["y2", "y3", "y4"], deck=["g5", "g6"], fronts=[["r7"], [], []],
            shrines=NO_SHRINES)  # p1 then chooses between y3 and p0's face-up r7
    run(s, "play b2")
    assert legal(s) == sorted(f"oracle {c} to p{q}" for c in ("y2", "y3", "y4") for q in (1, 2))
    run(s, "oracle y3 to p1")  # p1 has no cards in hand: allowed
    assert hand(s, 1) == ["y3"] and oracle(s) == ["y2", "g6", "y4"] and deck(s) == ["g5"]
    assert s.view(2)["known"]["1"] == ["y3"]


def test_blue_dark_with_empty_deck_leaves_the_oracle_spot_empty():
    # C-6
    s = pos(2, [["b2", "g8"], ["r8"]], oracle=["y2", "y3"], deck=[], shrines=NO_SHRINES)
    run(s, "play b2", "oracle y2 to p1")
    assert oracle(s) == ["y3"] and deck(s) == []
    run(s, "play r8")
    s2 = pos(2, [["b2", "g8"], ["r8", "y8"]], oracle=[], deck=[], shrines=NO_SHRINES)
    run(s2, "play b2")  # no oracle card left to give: the dark effect has nothing to do
    assert s2.events[-1][3] == "dark" and s2.to_move == 1


# ---- Yellow (Sun) --------------------------------------------------------------------------------------------
def test_yellow_light_places_a_hand_card_face_up_in_front_of_its_owner():
    s = pos(3, [["y5", "g8", "r4"], ["b8"], ["b9"]], shrines=NO_SHRINES)
    run(s, "play y5")
    assert legal(s) == ["place g8", "place r4", "skip"]
    run(s, "place r4")
    assert hand(s, 0) == ["g8"] and front(s, 0) == ["r4"]
    for seat in (None, 1, 2):
        assert s.view(seat)["fronts"][0] == ["r4"]
    assert "play r4" in legal(s)  # p1 may play it as if it were in its hand
    run(s, "play r4")
    assert front(s, 0) == [] and rows(s)["red"] == [4]


def test_yellow_light_with_empty_hand_offers_nothing():
    s = pos(2, [["y5"], ["b8", "b7"]], shrines=NO_SHRINES)  # y5, p0's only card and only play, is played for it
    assert s.events == [("play", 0, parse_card("y5"), "light")] and s.to_move == 1 and s.phase != END


def test_yellow_dark_next_player_plays_random_card_or_takes_normal_turn():
    # p1 holds r5 (playable) and b3 (not playable on blue 4): across seeds both outcomes happen
    outcomes = set()
    for seed in range(30):
        s = pos(2, [["y3", "g8"], ["r5", "b3"]], rows={"yellow": [2], "blue": [4], "red": [2]}, seed=seed,
                shrines=NO_SHRINES)
        run(s, "play y3")
        _, who, c, played = next(e for e in s.events if e[0] == "random")
        assert who == 1
        if played:
            assert c == parse_card("r5") and rows(s)["red"] == [2, 5] and hand(s, 1) == ["b3"]
            assert s.events[-1] == ("play", 1, c, "light") and legal(s) == ["skip", "use red light"]
        else:  # it cannot be laid: back to the hand (seen by all), and a normal turn follows, in which r5 is
            # p1's only play: it is played for p1 (ruling C-9)
            assert c == parse_card("b3") and hand(s, 1) == ["b3"] and s.known[c] == ALL_KNOW
            assert s.events[-1] == ("play", 1, parse_card("r5"), "light") and legal(s) == ["skip", "use red light"]
        assert s.random_play == -1
        outcomes.add(bool(played))
    assert outcomes == {True, False}


def test_yellow_dark_on_a_player_holding_no_card_is_a_forced_pass():
    """C-7 with C-9: the random card comes from the hand; with none (and nothing in front) nothing is played and the
    player, who cannot play, passes automatically: the next seat is to move."""
    s = pos(3, [["y3", "g8"], [], ["r5", "r6"]], rows={"yellow": [2], "red": [2]}, shrines=NO_SHRINES)
    run(s, "play y3")
    assert s.events[-1] == ("pass", 1) and not any(e[0] == "random" for e in s.events)
    assert s.to_move == 2 and s.random_play == -1


def test_yellow_dark_random_play_never_takes_cards_lying_in_front():
    s = pos(2, [["y3", "g8"], []], rows={"yellow": [2]}, fronts=[[], ["r5"]], shrines=NO_SHRINES)
    run(s, "play y3")  # p1 draws nothing at random; its own face-up r5, its only play, is then played for it (C-9)
    assert not any(e[0] == "random" for e in s.events)
    assert s.events[-2:] == [("play", 0, parse_card("y3"), "dark"), ("play", 1, parse_card("r5"), "light")]


def test_yellow_dark_random_play_happens_before_any_shrine_or_tavern():
    s = pos(2, [["y3", "g8"], ["r5"]], rows={"yellow": [2], "red": [4]}, options={"variant": "tavern"},
            tavern_open=True, shrines=[True, True, True, True, True])
    run(s, "play y3")
    assert "end" in legal(s) and not any(a.startswith("tavern") for a in legal(s))
    run(s, "end")
    # the random play is p1's whole play; it was its last card (C-2): no effect; then the end of its turn
    assert s.events[-1] == ("play", 1, parse_card("r5"), "last") and s.to_move == 1
    assert legal(s) == sorted([*SHRINES_ALL, "end"])  # shrines at the end, no tavern


def test_yellow_dark_random_card_that_follows_creates_its_own_dark_effect():
    # p1's only hand card y4 is played at random; b8 lying in front of p1 means y4 is not its last card
    s = pos(3, [["y3", "g8"], ["y4"], ["r5", "r6"]], rows={"yellow": [2], "red": [7]}, fronts=[[], ["b8"], []],
            shrines=NO_SHRINES)
    run(s, "play y3")
    assert ("random", 1, parse_card("y4"), True) in s.events and ("play", 1, parse_card("y4"), "dark") in s.events
    # so p2 plays at random too: neither red card fits, it goes back and p2 takes a normal turn
    assert s.events[-1][:2] == ("random", 2) and s.events[-1][3] is False and s.to_move == 2
    assert legal(s) == ["pass", "play b8"]  # C-8: only a card in front of another player fits


# ---- Green (Leaf) --------------------------------------------------------------------------------------------
def test_green_light_chosen_player_picks_the_action_and_its_details():
    s = pos(3, [["g5", "r8"], ["b8"], ["y8"]], oracle=["r2", "r3", "r4"], shrines=NO_SHRINES)
    run(s, "play g5")
    assert legal(s) == ["choose p0", "choose p1", "choose p2", "skip"]
    run(s, "choose p2")
    assert s.to_move == 2 and s.view(2)["decision"].startswith("Player 3: green light effect: chosen")
    assert legal(s) == sorted(["give y8 to p0", "give y8 to p1", "renew oracle",
                               "swap r2 for y8", "swap r3 for y8", "swap r4 for y8"])
    assert "skip" not in legal(s)  # the chosen player must perform one of the three actions


def test_green_light_log_names_the_chosen_player_or_says_the_player_chose_themselves():
    s = pos(3, [["g5", "r8"], ["b8"], ["y8"]], oracle=["r2", "r3", "r4"], shrines=NO_SHRINES)
    t = s.clone()
    run(s, "play g5", "choose p2")
    assert plain(s.view(1)["log"][-1])["text"] == "Player 1 chose Player 3 for the green light"
    run(t, "play g5", "choose p0")
    assert plain(t.view(1)["log"][-1])["text"] == "Player 1 chose to use the green light themselves"


def test_green_light_player_player_swap_gives_then_receives_a_card():
    s = pos(3, [["g5", "r8"], ["b8", "b7"], ["y8"]], shrines=NO_SHRINES)
    run(s, "play g5", "choose p1", "give b8 to p2")
    assert s.to_move == 2 and legal(s) == ["return b8", "return y8"]  # any card, even the one just received
    run(s, "return y8")
    assert hand(s, 1) == ["b7", "y8"] and hand(s, 2) == ["b8"] and s.to_move == 1  # p1's turn follows p0's
    assert s.view(0)["known"] == {"1": [], "2": []}  # p0 did not see which cards changed hands
    assert s.view(1)["known"]["2"] == ["b8"] and s.view(2)["known"]["1"] == ["y8"]


def test_green_light_oracle_swap_cannot_put_back_the_card_just_taken():
    s = pos(2, [["g5", "r5"], ["b8"]], oracle=["b7", "y3"], shrines=NO_SHRINES)
    run(s, "play g5", "choose p0")
    assert legal(s) == sorted(["give r5 to p1", "renew oracle", "swap b7 for r5", "swap y3 for r5"])
    run(s, "swap b7 for r5")
    assert hand(s, 0) == ["b7"] and oracle(s) == ["r5", "y3"]


def test_green_light_renew_oracle_boxes_the_oracle_and_reveals_one_per_player():
    s = pos(3, [["g5", "r5"], ["b8"], ["y8"]], oracle=["b7", "y3", "y4"], deck=["r2", "r3", "r4", "b2"],
            shrines=NO_SHRINES)
    run(s, "play g5", "choose p1", "renew oracle")
    assert oracle(s) == ["b2", "r4", "r3"] and deck(s) == ["r2"]
    assert {"b7", "y3", "y4"} <= set(s.view(0)["box"]) and s.view(0)["oracle"] == ["b2", "r4", "r3"]


def test_green_light_renew_oracle_reveals_as_many_as_the_deck_has():
    # C-6
    s = pos(3, [["g5", "r5"], ["b8"], ["y8"]], oracle=["b7", "y3", "y4"], deck=["r2"], shrines=NO_SHRINES)
    run(s, "play g5", "choose p0", "renew oracle")
    assert oracle(s) == ["r2"] and deck(s) == []


def test_green_dark_next_card_must_be_green_and_highest_green_creates_no_dark():
    s = pos(2, [["g3", "r8"], ["g5", "g6", "b2"]], rows={"green": [2]}, shrines=NO_SHRINES)
    run(s, "play g3")
    assert s.green_only and s.view(1)["decision"].endswith("(green only)")
    assert legal(s) == ["play g5", "play g6"]  # b2 would fit the blue row, but the next card must be green
    run(s, "play g5")
    assert not s.green_only


@pytest.mark.parametrize(("players", "top"), [(2, 8), (3, 10), (4, 13)])
def test_highest_green_card_creates_no_dark_effect_and_no_tavern_step(players, top):
    hands = [["g" + str(top), "r8"], *[[f"b{8 - q}", f"y{8 - q}"] for q in range(players - 1)]]
    s = pos(players, hands, rows={"green": [top - 1]}, options={"variant": "tavern"}, shrines=NO_SHRINES)
    run(s, f"play g{top}")
    assert s.events[-1][3] == "top green" and not s.green_only and s.tavern_count == 0 and s.to_move == 1


def test_green_dark_player_without_playable_green_must_pass():
    s = pos(3, [["g3", "r8"], ["b2"], ["g5", "g6", "b3"]], rows={"green": [2]}, shrines=NO_SHRINES)
    run(s, "play g3")
    assert s.to_move == 2 and s.events[-1] == ("pass", 1) and legal(s) == ["play g5", "play g6"]


def test_green_dark_constraint_applies_to_front_cards_too():
    s = pos(2, [["g3", "r8"], ["b8"]], rows={"green": [2]}, fronts=[[], ["r5"]], shrines=NO_SHRINES)
    run(s, "play g3")  # neither b8 nor the face-up r5 may follow: nobody can play, the game ends
    assert s.is_over


def test_red_light_skips_green_dark_constraint():
    s = pos(2, [["r3", "b8", "b7"], ["g3", "b2"]], rows={"green": [2]}, shrines=NO_SHRINES)
    run(s, "play r3", "use red light", "play g3")
    assert s.events[-1][3] == "dark skipped" and not s.green_only and s.to_move == 0


def test_red_light_skips_yellow_dark_random_play():
    s = pos(2, [["r3", "b8", "b7"], ["y3", "b2"]], rows={"yellow": [2]}, shrines=NO_SHRINES)
    run(s, "play r3", "use red light", "play y3")
    assert s.random_play == -1 and s.to_move == 0 and legal(s) == ["play b7", "play b8"]


def test_red_light_from_a_shrine_skips_the_dark_effect_of_the_yellow_dark_random_card():
    # p0's yellow dark makes p1 play at random; at the end of p0's turn the red shrine's light effect is used
    s = pos(2, [["y3", "g8"], ["b2", "r2"]], rows={"yellow": [2]}, oracle=["g2", "g3"])
    run(s, "play y3", "shrine red", "use red light")
    kind, who, c, played = s.events[-2]
    assert (kind, who, played) == ("random", 1, True)
    assert s.events[-1] == ("play", 1, c, "dark skipped")  # b2 (no oracle gift) or r2 (no light skip)
    assert not s.skip_light and oracle(s) == ["g2", "g3"]


def test_yellow_dark_on_seat_0_shows_seat_0_as_the_random_player_in_every_view():
    # p1's yellow dark effect falls on the next player, p0 (seat number 0, not "nobody"), until p0's turn begins
    s = pos(2, [["r5", "b3"], ["y3", "g8"]], rows={"yellow": [2]}, to_move=1)
    run(s, "play y3")
    assert s.phase == END and s.random_play == 0
    for seat in (None, 0, 1):
        assert s.view(seat)["effects"]["random_play"] == 0
    run(s, "end")
    assert all(s.view(seat)["effects"]["random_play"] is None for seat in (None, 0, 1))


def test_yellow_dark_random_card_is_named_in_the_log():
    s = pos(2, [["y3", "g8"], ["r5"]], rows={"yellow": [2]}, fronts=[[], ["b8"]], shrines=NO_SHRINES)
    run(s, "play y3")
    texts = [e["text"] for e in s.log(None)]
    assert "Player 2 drew r5 at random: played" in texts
    s = pos(2, [["y3", "g8"], ["b3"]], rows={"yellow": [2], "blue": [4]}, shrines=NO_SHRINES)
    run(s, "play y3")
    assert ({"seat": 1, "text": "Player 2 drew b3 at random: cannot be played, back to hand"} in [plain(e) for e
            in s.log(0)])
