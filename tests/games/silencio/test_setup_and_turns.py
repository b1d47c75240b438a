"""Setup, the passing round, playing into rows, light vs dark, must play / must pass, game end and results."""

from __future__ import annotations

import pytest

import tabletop
from tabletop.core import IllegalAction, InvalidOptions, Rng
from tabletop.core.logwords import plain_entry as plain
from tabletop.games.silencio.notation import card_text, colour_of, parse_card, value_of

from .support import NO_SHRINES, SHRINES_ALL, deck, front, hand, legal, oracle, pos, rows, run


# ---- Setup -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "max_value", "hand_size"), [(2, 8, 6), (3, 10, 6), (4, 13, 5)])
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_setup_card_ranges_and_hand_sizes_by_player_count(players, max_value, hand_size, seed):
    s = tabletop.new_game("silencio", players, seed)
    everything = [c for h in s.hands for c in h] + s.oracle + s.deck
    assert sorted(everything) == sorted(c * 16 + v for c in range(4) for v in range(2, max_value + 1))
    assert [len(h) for h in s.hands] == [hand_size] * players
    assert len(s.deck) == 4 * (max_value - 1) - players * hand_size - players
    assert s.rows == [[], [], [], []] and s.fronts == [[] for _ in range(players)] and s.box == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_oracle_is_one_face_up_card_per_player_seen_by_all(players):
    s = tabletop.new_game("silencio", players, 3)
    assert len(s.oracle) == players
    for seat in [None, *range(players)]:
        assert s.view(seat)["oracle"] == oracle(s)
        assert s.view(seat)["deck"] == len(s.deck)


def test_setup_shrines_start_light_side_up():
    s = tabletop.new_game("silencio", 3, 0)
    assert s.view(0)["shrines"] == {"red": "light", "blue": "light", "yellow": "light", "green": "light",
                                    "large": "light"}


@pytest.mark.parametrize(("players", "first"), [(2, 0), (2, 1), (3, 2), (4, 3)])
def test_first_player_option_sets_who_passes_and_plays_first(players, first):
    s = tabletop.new_game("silencio", players, 5, {"first_player": first})
    assert s.first == first and s.to_move == first and s.view(None)["first_player"] == first


def test_first_player_default_is_drawn_from_the_seed():
    firsts = {tabletop.new_game("silencio", 4, seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert tabletop.new_game("silencio", 4, 11).first == tabletop.new_game("silencio", 4, 11).first


def test_first_player_option_must_name_a_seat_of_the_game():
    with pytest.raises(InvalidOptions, match="seat 3 does not exist in a 2-player game"):
        tabletop.new_game("silencio", 2, 0, {"first_player": 3})
    for players in (2, 3):  # the first seat past the last is refused too, and the message names the seats there are
        seats = rf"choose random or 0\.\.{players - 1}$"
        with pytest.raises(InvalidOptions, match=rf"seat {players} does not exist .*{seats}"):
            tabletop.new_game("silencio", players, 0, {"first_player": players})


def test_every_card_of_the_game_is_counted_once_wherever_it_lies():
    """Component counts (the conformance harness checks they never change): every journey card, in a hand, in
    front of a player, in the oracle, the deck, the box or a row, once, at every step of a game."""
    for players in (2, 4):
        s = tabletop.new_game("silencio", players, 3)
        n = 4 * (s.max_value - 1)  # four colours, values 2..max
        rng = Rng(players)
        while not s.is_over:
            assert s.component_counts() == {"journey cards": n, "distinct cards": n}
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
        assert s.component_counts() == {"journey cards": n, "distinct cards": n}


# ---- First player and passing cards --------------------------------------------------------------------------
def test_passing_round_each_player_passes_one_card_left_starting_with_first_player():
    s = tabletop.new_game("silencio", 3, 4, {"first_player": 1})
    assert s.view(1)["phase"] == "passing"
    order = []
    for _ in range(3):
        p = s.to_move
        order.append(p)
        left = (p + 1) % 3
        c = s.legal_actions()[0]
        assert legal(s) == sorted(f"give {t}" for t in hand(s, p))  # only giving, any card of the hand
        before_p, before_left = len(s.hands[p]), len(s.hands[left])
        s.apply(c)
        given = c.text.split()[1]
        assert given not in hand(s, p) and given in hand(s, left)
        assert len(s.hands[p]) == before_p - 1 and len(s.hands[left]) == before_left + 1
    assert order == [1, 2, 0]
    # as soon as the first player has received a card, the game begins with the first player
    assert s.view(1)["phase"] == "start of turn" and s.to_move == 1 and s.turn == 1
    assert [len(h) for h in s.hands] == [6, 6, 6]


def test_passing_round_player_may_pass_on_the_card_just_received():
    s = tabletop.new_game("silencio", 2, 9, {"first_player": 0})
    received = s.legal_actions()[0]
    s.apply(received)
    assert received.text in legal(s)  # p1 looked at the new card and may pass it straight back
    s.apply(received.text)
    assert s.to_move == 0 and s.view(0)["phase"] == "start of turn"


# ---- Turn: playing into the rows ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("row", "card", "playable"),
    [
        ([], "r2", True),          # the small shrine counts as 1
        ([], "r8", True),
        ([3], "r2", False),        # must be higher
        ([4], "r3", False),        # the rulebook's example: red 2 cannot follow red 4
        ([4], "r5", True),
        ([2, 5], "r8", True),
        ([2, 5, 8], "r7", False),
    ],
)
def test_card_must_be_higher_than_last_card_of_its_colour_row(row, card, playable):
    s = pos(2, [[card, "b8"], ["g8"]], rows={"red": row})
    assert (f"play {card}" in legal(s)) is playable


def test_card_is_laid_in_the_row_of_its_own_colour():
    s = pos(2, [["b3", "y5"], ["g8"]], rows={"red": [2]}, shrines=NO_SHRINES)
    s.apply("play b3")
    assert rows(s) == {"red": [2], "blue": [3], "yellow": [], "green": []}
    assert hand(s, 0) == ["y5"]


@pytest.mark.parametrize(
    ("row", "card", "kind"),
    [([], "b2", "dark"), ([], "b3", "light"), ([3], "b4", "dark"), ([3], "b8", "light"), ([2, 3], "b5", "light")],
)
def test_value_directly_following_creates_dark_effect_otherwise_light(row, card, kind):
    s = pos(2, [[card, "r8"], ["g8"]], rows={"blue": row}, oracle=["y2", "y3"])
    s.apply(f"play {card}")
    assert s.events[-1] == ("play", 0, parse_card(card), kind)
    if kind == "dark":  # blue dark: give an oracle card to another player, mandatory (no skip)
        assert legal(s) == ["oracle y2 to p1", "oracle y3 to p1"]
    else:  # blue light offered with no non-blue row: nothing to take, no decision
        assert s.view(0)["phase"] == "end of turn" and "oracle y2 to p1" not in legal(s)


def test_light_effect_is_optional_skip_is_offered():
    s = pos(2, [["r3", "b8"], ["g8"]])
    s.apply("play r3")
    assert legal(s) == ["skip", "use red light"]
    s.apply("skip")
    assert s.skip_dark is False and s.events[-1] == ("skip", 0)


def test_dark_effect_is_mandatory_no_skip_offered():
    s = pos(3, [["b2", "r8"], ["g8"], ["g9"]], oracle=["y2", "y3", "y4"])
    s.apply("play b2")
    assert "skip" not in legal(s)
    assert legal(s) == sorted(f"oracle {c} to p{q}" for c in ("y2", "y3", "y4") for q in (1, 2))


@pytest.mark.parametrize(
    ("my_hand", "my_front", "effect"),
    [
        (["r3"], [], "last"),          # C-2: the last card creates no effect at all
        (["r3", "b8"], [], "dark"),
        (["r3"], ["y8"], "dark"),      # C-1/C-2: a card lying in front of you is still yours
        ([], ["r3"], "last"),          # "the card in front of you counts as your only card"
    ],
)
def test_follow_on_card_that_is_the_players_last_creates_no_effect(my_hand, my_front, effect):
    s = pos(2, [my_hand, ["g8"]], rows={"red": [2]}, fronts=[my_front, []])
    s.apply("play r3")
    assert s.events[-1] == ("play", 0, 0 * 16 + 3, effect)
    assert s.skip_light is (effect == "dark")  # red dark: the next card's light effect is skipped


def test_last_card_that_does_not_follow_still_gives_its_light_effect():
    s = pos(2, [["r5"], ["g8"]], rows={"red": [2]})
    s.apply("play r5")
    assert s.events[-1][3] == "light" and legal(s) == ["skip", "use red light"]


def test_last_follow_on_card_does_not_count_toward_the_tavern():
    s = pos(2, [["r3"], ["g8"]], rows={"red": [2]}, options={"variant": "tavern"})
    s.apply("play r3")
    assert s.tavern_count == 0


# ---- Must play when able, must pass when not (End of the Game) ----------------------------------------------
def test_must_play_when_able():
    s = pos(2, [["r3", "b2"], ["g8"]], rows={"blue": [5]})
    assert "pass" not in legal(s)
    assert legal(s) == sorted(["play r3", *SHRINES_ALL])
    with pytest.raises(IllegalAction, match="legal: play r3"):
        s.apply("pass")


def test_must_pass_when_unable_and_the_pass_is_automatic():
    # C-9: p1 cannot play and has no other choice: the pass is taken for it and p0 plays again
    s = pos(2, [["r3", "r4", "r5"], ["b2"]], rows={"blue": [5], "red": [2]}, shrines=NO_SHRINES)
    s.apply("play r3")
    assert s.to_move == 0 and s.events[-1] == ("pass", 1) and s.events[-2][:2] == ("play", 0)
    assert legal(s) == ["play r4", "play r5"]


def test_player_with_no_cards_in_hand_passes():
    s = pos(2, [["r3", "r5", "r6"], []], rows={"red": [2]}, shrines=NO_SHRINES)
    s.apply("play r3")
    assert s.to_move == 0 and ("pass", 1) in s.events


def test_may_pass_if_only_others_front_cards_are_playable():
    # C-8: p1 holds nothing playable; the only playable card lies in front of p0
    s = pos(2, [["r8"], ["b2"]], rows={"blue": [5], "red": [3]}, fronts=[["y4"], []], to_move=1)
    assert legal(s) == sorted(["pass", "play y4", *SHRINES_ALL])
    s.apply("pass")
    assert s.to_move == 0 and s.events[-1] == ("pass", 1)


def test_own_front_card_that_is_the_only_playable_card_must_be_played():
    s = pos(2, [["b2"], ["g8"]], rows={"blue": [5]}, fronts=[["y4"], []])
    assert "pass" not in legal(s) and "play y4" in legal(s)


def test_card_in_front_of_any_player_can_be_played_by_anyone():
    s = pos(3, [["r8"], ["g8"], ["b8"]], fronts=[[], [], ["y4"]], shrines=NO_SHRINES)
    assert "play y4" in legal(s)
    s.apply("play y4")
    assert front(s, 2) == [] and rows(s)["yellow"] == [4] and hand(s, 0) == ["r8"]


# ---- End of the game ----------------------------------------------------------------------------------------
def test_game_ends_as_soon_as_no_card_can_be_played():
    # C-5: after p0's play nobody can play anything: the game is over at once (r8 is p0's only play: C-9)
    s = pos(2, [["r8", "b2"], ["g3"]], rows={"green": [5], "blue": [4], "red": [7]}, shrines=NO_SHRINES)
    assert s.events == [("play", 0, parse_card("r8"), "dark")]
    assert s.is_over and s.to_move is None and s.legal_actions() == []
    assert s.cards_left() == 2


def test_game_ends_when_all_players_pass_in_a_row_under_green_dark():
    # green dark: the next card must be green; nobody holds a playable green card
    s = pos(2, [["g3", "r5"], ["b4"]], rows={"green": [2]}, shrines=NO_SHRINES)
    s.apply("play g3")
    assert s.is_over and s.cards_left() == 2


@pytest.mark.parametrize(("card", "row"), [("r3", [2]), ("r5", [2])])
def test_team_last_card_ends_the_game_at_once_without_effect_or_shrine(card, row):
    # C-5: with shrines light and a light effect available, the game still ends on the team's last card
    s = pos(2, [[card], []], rows={"red": row, "yellow": [3]})
    s.apply(f"play {card}")
    assert s.is_over and s.events[-1] == ("play", 0, parse_card(card), "final")
    assert rows(s)["yellow"] == [3] and s.winners() == [0, 1] and s.view(0)["result"]["tier"] == "perfect"
    assert (plain(s.view(1)["log"][-1])
            == {"seat": 0, "text": f"Player 1 played {card}, the team's last card: the game is over"})
    assert s.view(1)["effects"]["random_play"] is None  # nothing is left pending either


def test_end_of_turn_shrine_is_offered_when_no_card_is_playable_but_some_remain():
    # C-5: the end-of-turn shrine belongs to the turn; here a green oracle swap could bring back a playable card
    s = pos(2, [["r8", "b2"], ["g3"]], rows={"green": [5], "blue": [4], "red": [7]}, oracle=["b5", "y2"],
            shrines=[True, False, True, True, False])
    s.apply("play r8")
    assert not s.is_over and "end" in legal(s)
    s.apply("shrine green")
    s.apply("choose p0")
    s.apply("swap b5 for b2")
    assert not s.is_over and s.to_move == 0 and s.events[-1] == ("pass", 1) and "play b5" in legal(s)
    # declining the shrine: no card is playable, but p1 could play after a start-of-turn shrine (blue: take r8
    # back; green: swap a playable oracle card), so the game goes on; p1 may take one or pass (C-4, C-5)
    s2 = pos(2, [["r8", "b2"], ["g3"]], rows={"green": [5], "blue": [4], "red": [7]}, oracle=["b5", "y2"])
    s2.apply("play r8")
    s2.apply("end")
    assert not s2.is_over and s2.to_move == 1
    assert legal(s2) == ["pass", "shrine blue", "shrine green", "shrine large blue", "shrine large green"]
    # with the blue, green and large shrines dark, nothing can be played any more: the game is over
    s3 = pos(2, [["r8", "b2"], ["g3"]], rows={"green": [5], "blue": [4], "red": [7]}, oracle=["b5", "y2"],
             shrines=[True, False, True, False, False])
    s3.apply("play r8")
    s3.apply("end")
    assert s3.is_over


def test_game_goes_on_while_some_player_can_play():
    s = pos(2, [["r3", "b2"], ["b3", "b4"]], rows={"red": [2]}, shrines=NO_SHRINES)
    s.apply("play r3")
    assert s.to_move == 1 and not s.is_over


@pytest.mark.parametrize(
    ("players", "left", "tier"),
    [
        (2, 0, "perfect"), (2, 1, "almost"), (2, 2, "almost"), (2, 3, "keep_trying"),
        (3, 0, "perfect"), (3, 3, "almost"), (3, 4, "keep_trying"),
        (4, 0, "perfect"), (4, 1, "almost"), (4, 4, "almost"), (4, 5, "keep_trying"),
    ],
)
def test_result_table_by_player_count(players, left, tier):
    blocked = [f"r{v}" for v in range(2, 2 + left)]  # red row is full: none of these can be played
    hands = [blocked if p == 0 else [] for p in range(players)]
    top = {2: 8, 3: 10, 4: 13}[players]
    s = pos(players, hands, rows={"red": [top]} if left else {}, shrines=NO_SHRINES)
    assert s.is_over
    assert s.result_tier() == tier
    v = s.view(0)["result"]
    assert v["tier"] == tier and v["cards_left"] == left
    assert v["text"].startswith({"perfect": "Perfect!", "almost": "You almost", "keep_trying": "Don't lose hope"}[tier])


def test_cards_left_counts_cards_lying_in_front_of_players():
    # C-1: a face-up card in front of a player is still held by the team
    s = pos(2, [["r2"], []], rows={"red": [8], "yellow": [8]}, fronts=[[], ["y5"]], shrines=NO_SHRINES)
    assert s.is_over and s.cards_left() == 2 and s.result_tier() == "almost"


def test_cooperative_scoring_same_score_for_all_and_winners_only_on_perfect():
    s = pos(3, [["r2"], [], ["b2"]], rows={"red": [10], "blue": [10]}, shrines=NO_SHRINES)
    assert s.is_over and s.scores() == [-2.0, -2.0, -2.0] and s.winners() == []
    s = pos(3, [["r3", "r4"], [], []], rows={"red": [2]}, shrines=NO_SHRINES)
    assert s.winners() == []  # not over yet
    s.apply("play r3")  # p1 and p2 pass, then r4, p0's only card, is played for it (C-9)
    assert s.is_over and s.scores() == [0.0, 0.0, 0.0] and s.winners() == [0, 1, 2]
    assert s.view(1)["result"]["tier"] == "perfect"


# ---- Refused actions ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["play r2", "pass", "give r3", "shrine purple", "tavern count 1", "skip", "nonsense"])
def test_refused_action_lists_the_legal_actions_and_leaves_state_unchanged(text):
    s = pos(2, [["r3", "b8"], ["g8"]], rows={"red": [2]})
    before = s.snapshot()
    with pytest.raises(IllegalAction) as e:
        s.apply(text)
    assert "legal: play r3, play b8, shrine red" in str(e.value)
    assert s.snapshot() == before


def test_any_action_after_the_end_is_refused():
    s = pos(2, [["r2"], []], rows={"red": [8]}, shrines=NO_SHRINES)
    with pytest.raises(IllegalAction, match="the game is over"):
        s.apply("pass")


def test_position_refuses_a_card_used_twice_or_out_of_range():
    with pytest.raises(ValueError, match="used twice"):
        pos(2, [["r3"], ["r3"]])
    with pytest.raises(ValueError, match="not in a 2-player game"):
        pos(2, [["r9"], []])


def test_card_helpers_round_trip():
    for t in ("r2", "b10", "y7", "g13"):
        c = parse_card(t)
        assert card_text(c) == t and 2 <= value_of(c) <= 13 and 0 <= colour_of(c) < 4
    with pytest.raises(ValueError, match="cards are written"):
        parse_card("x5")


def test_position_helpers(  # keeps the support helpers honest
):
    s = pos(2, [["r3"], ["g8"]], oracle=["b2", "b3"], deck=["y2"])
    assert oracle(s) == ["b2", "b3"] and deck(s) == ["y2"] and run(s) is s


def test_follow_on_from_another_players_front_is_the_last_card_of_a_player_with_nothing_left():
    # C-2: "last" is judged on the player who plays: afterwards p1 holds nothing, in hand or in front of it
    s = pos(2, [["b8"], []], rows={"red": [2]}, fronts=[["r3"], []], to_move=1)
    assert legal(s) == sorted(["pass", "play r3", *SHRINES_ALL])
    s.apply("play r3")
    assert s.events[-1] == ("play", 1, parse_card("r3"), "last") and not s.skip_light


def test_a_test_position_with_a_given_deck_puts_every_card_not_placed_in_the_box():
    """`SilencioState.position` (the tests' position builder): with `deck` given, the cards neither dealt, played,
    in front, in the oracle nor in the deck lie in the box, so that every card of the game is somewhere once."""
    s = pos(2, [["g5", "r8"], ["y3"]], rows={"blue": [2, 3]}, oracle=["b4"], deck=["r2", "y2"], fronts=[[], ["g2"]])
    placed = {"g5", "r8", "y3", "b2", "b3", "b4", "r2", "y2", "g2"}
    every = {f"{c}{v}" for c in "rybg" for v in range(2, 9)}  # 2 players: values 2..8
    assert deck(s) == ["r2", "y2"]
    assert set(s.view(None)["box"]) == every - placed
    assert sorted(map(card_text, [*s.box, *s.deck, *s.oracle, *(c for h in s.hands for c in h),
                                  *(c for f in s.fronts for c in f)])) == sorted(every - {"b2", "b3"})
