"""SILOS rule tests added by the clause-by-clause audit: each named after the rulebook clause it pins.

Positions are built with `SilosState.from_position`; expectations are computed by hand from the rulebook.
"""

from __future__ import annotations

import pytest

import tabletop
from tabletop.core.logwords import render as say
from tabletop.games.silos.state import SilosState

from .conftest import BLUE, PURPLE, YELLOW, G, I, P, R, legal, play

UFO_ONLY = [0, 0, 0, 5]
ONE_POWER_ONLY = [0, 2, 0, 0]
ALL_POWERS_ONLY = [1, 0, 0, 0]
SPECIMEN_ONLY = [0, 0, 4, 0]
SKILLS = {"skill_tiles": True}


def _only(s: SilosState, t: int) -> None:
    """Test support: the bag holds only humans of type t (same total), so every draw is known."""
    n = sum(s.bag)
    s.bag = [0, 0, 0, 0]
    s.bag[t] = n


def _exerts(s: SilosState) -> list[str]:
    return [say(e, ("blue", "yellow", "purple", "green")) for e in s.log(None) if " exerted " in e["text"]]


def _phase(s: SilosState) -> str:
    return str(s.view(None)["phase"])


# ---- setup and initial positioning ----------------------------------------------------------------------------
def test_setup_starting_player_is_random_and_ranks_follow_clockwise():
    """Ruling S-18: the start player comes from the seed; the others follow clockwise (seat order)."""
    starts = {tabletop.new_game("silos", 4, seed).start for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    s = tabletop.new_game("silos", 4, next(x for x in range(40) if tabletop.new_game("silos", 4, x).start == 2))
    assert s.rank == [2, 3, 0, 1] and s.to_move == 2


# ---- humans and focus groups ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "where"),
    [(P, [0, 1, 2, 3, 4, 5, 6]), (G, [1, 6]), (R, [2, 3]), (I, [4, 5])],
    ids=["politician-anywhere", "government-sheriff-or-bus", "professional-university-or-mall",
         "influencer-news-or-church"],
)
def test_marked_specimen_humans_go_to_corresponding_focus_groups(pos, kind, where):
    """Ruling S-22: the Town Hall focus group takes politicians only."""
    s = pos(3, {BLUE: {2: "F"}}, deck=SPECIMEN_ONLY)
    _only(s, kind)
    play(s, "stop", "card common")
    name = ("politician", "government", "influencer", "professional")[kind]
    assert legal(s) == [f"place {name} {i}" for i in where]


def test_marked_specimen_next_player_may_place_in_the_group_that_just_had_mind_control(pos):
    s = pos(3, {BLUE: {3: "LF"}}, focus={3: "RR"}, deck=SPECIMEN_ONLY)
    _only(s, P)
    play(s, "stop", "card common", "place politician 3")
    assert s.to_move == BLUE and _phase(s) == "mind control"
    play(s, "take professional professional")  # single faction: two to blue, the politician to the bag
    assert s.hum[BLUE * 4:BLUE * 4 + 4] == [0, 0, 0, 2]
    assert s.to_move == YELLOW and "place politician 3" in legal(s)
    play(s, "place politician 3")
    assert s.focus[3 * 4 + P] == 1


def test_mind_control_with_a_single_choice_is_resolved_automatically(pos):
    """Ruling S-16: three politicians leave one possible pair: no question is asked."""
    s = pos(3, {BLUE: {0: "LF"}, YELLOW: {0: "F"}}, focus={0: "PP"}, deck=SPECIMEN_ONLY)
    _only(s, P)
    play(s, "stop", "card common", "place politician 0")
    assert s.hum[BLUE * 4 + P] == 2 and s.hum[YELLOW * 4 + P] == 1
    assert s.to_move == YELLOW and _phase(s) == "place humans"


def test_mind_control_that_completes_a_set_gives_an_emblem_at_once(pos):
    s = pos(3, {BLUE: {3: "LF"}, YELLOW: {3: "F"}}, focus={3: "RR"}, humans={BLUE: [1, 1, 1, 0]})
    _only(s, P)
    play(s, "stop", "card confluence", "place politician 3", "take politician professional")
    assert s.emblems[BLUE] == 1 and s.hum[BLUE * 4:BLUE * 4 + 4] == [1, 0, 0, 0]
    assert s.hum[YELLOW * 4 + R] == 1


# ---- cards ---------------------------------------------------------------------------------------------------
def test_all_powers_goes_0_to_6_skipping_locations_without_figures_exerted_by_the_leader_even_out_of_turn(pos):
    s = pos(3, {BLUE: {2: "F", 5: "L"}, YELLOW: {6: "F"}}, deck=ALL_POWERS_ONLY)
    play(s, "stop", "card common")
    assert s.view(None)["card_in_play"] == {"all-powers": 1} and s.discard[0] == 0
    play(s, "skip", "skip")  # University, Church (blue)
    assert s.to_move == YELLOW and _phase(s) == "reposition figures"  # Bus Station: yellow leads
    play(s, "done")
    assert _exerts(s) == ["Blue exerted the power of 2 University", "Blue exerted the power of 5 Church",
                          "Yellow exerted the power of 6 Bus Station"]
    assert s.discard[0] == 1 and s.to_move == YELLOW and _phase(s) == "movement"


def test_town_hall_new_order_is_immediate_for_later_ties(pos):
    """All Powers: the Town Hall re-ranks first; the Shopping Mall tie (1 v 1) then goes to the new rank 1."""
    s = pos(3, {BLUE: {0: "L", 3: "F"}, YELLOW: {0: "F", 3: "F"}}, rank=[YELLOW, BLUE, PURPLE],
            deck=ALL_POWERS_ONLY)
    assert s._top(3) == YELLOW
    play(s, "stop", "card common")
    assert s.rank == [BLUE, YELLOW, PURPLE]
    assert s.to_move == BLUE and _phase(s) == "shopping mall power"


def test_common_card_goes_face_up_to_the_discards_when_its_effects_are_done(pos):
    s = pos(3, {BLUE: {2: "F"}}, deck=SPECIMEN_ONLY)
    play(s, "stop", "card common")
    assert s.discard[2] == 0 and s.view(None)["card_in_play"] == {"marked-specimen": 1}
    while _phase(s) == "place humans":
        play(s, legal(s)[0])
    assert s.discard[2] == 1 and s.view(None)["card_in_play"] == {}


def test_one_power_two_player_non_player_faction_majority_is_not_offered(pos):
    """At the University blue 1 ties the non-player 1 (rank 1 wins): blue may only exert the Mall."""
    s = pos(2, {BLUE: {2: "F", 3: "LF"}}, rank=[PURPLE, BLUE, YELLOW], deck=ONE_POWER_ONLY)
    play(s, "stop", "card common")
    assert s.to_move == BLUE and _phase(s) == "shopping mall power"


def test_no_card_left_to_activate_ends_the_turn_without_asking(pos):
    """Ruling S-15: with every common card held and no faction card unused, no card is activated; the turn ends
    without a question (version 1 asked `card none`, its only answer)."""
    s = pos(3, {BLUE: {2: "F"}})
    s.deck, s.discard = [0, 0, 0, 0], [0, 0, 0, 0]
    s.held[YELLOW * 4:YELLOW * 4 + 4] = [1, 2, 4, 5]
    s.fcards[0:3] = [1, 1, 1]
    s._legal = None
    play(s, "stop")
    assert s.to_move == YELLOW and _phase(s) == "movement"
    assert ((BLUE, "Blue had no card left to activate")
            in [(e["seat"], say(e, ("blue", "yellow", "purple", "green"))) for e in s.log(None)])


def test_the_only_card_left_is_activated_without_asking(pos):
    """Ruling S-16: "You MUST activate one card": with every faction card used, the common deck is the only card,
    so the top card is revealed and carried out as soon as movement ends."""
    s = pos(3, {BLUE: {5: "LF"}}, deck=UFO_ONLY)
    s.fcards[0:3] = [1, 1, 1]
    play(s, "stop")
    assert s.ufo == 5 and s.cows[BLUE] == 1 and s.to_move == YELLOW
    texts = [say(e, ("blue", "yellow", "purple", "green")) for e in s.log(None)]
    assert texts[texts.index("Blue stopped") + 1] == "Blue revealed UFO Advance"


# ---- location powers -----------------------------------------------------------------------------------------
def test_sheriff_alternate_ends_after_three_figures(pos):
    s = pos(3, {BLUE: {1: "L"}, YELLOW: {3: "FFFF"}}, options={"alternate_tiles": [1]})
    play(s, "stop", "card powers", *["power 1 move yellow figure 3-1"] * 3)
    assert s.plain[YELLOW * 7 + 1] == 3 and s.plain[YELLOW * 7 + 3] == 1 and s.to_move == YELLOW


@pytest.mark.parametrize(
    ("figures", "caps", "dist_th", "caps_after"),
    [("LFF", 10, 1, 9), ("LD", 10, 1, 10), ("LFF", 0, 0, 0)],
    ids=["distinguishes-a-plain-figure", "leader-and-capped-cannot-be-distinguished", "no-cap-left"],
)
def test_university_distinguishes_only_a_plain_figure_while_caps_last(pos, figures, caps, dist_th, caps_after):
    """Rulings S-2 / S-6: the move to the Town Hall happens even when nothing can be distinguished."""
    s = pos(3, {BLUE: {2: figures}})
    s.caps = caps
    play(s, "stop", "card powers", "power 2 graduate")
    assert s.leader[BLUE] == 0 and s.dist[BLUE * 7] == dist_th and s.caps == caps_after
    assert s.influence(BLUE, 2) == 0


def test_news_station_draws_one_human(pos):
    s = pos(3, {BLUE: {4: "L"}})
    _only(s, G)
    play(s, "stop", "card powers", "power 4 draw")
    assert s.hum[BLUE * 4:BLUE * 4 + 4] == [0, 1, 0, 0] and s.to_move == YELLOW


def test_news_station_exchanges_only_one_group_per_power_event(pos):
    s = pos(3, {BLUE: {4: "L"}}, humans={BLUE: [6, 0, 0, 0]})
    play(s, "stop", "card powers", "power 4 exchange politician politician politician")
    assert s.emblems[BLUE] == 1 and s.hum[BLUE * 4 + P] == 3 and s.to_move == YELLOW


@pytest.mark.parametrize("alt", [False, True], ids=["base", "alternate"])
def test_empty_bag_mall_and_news_draws_are_not_offered(pos, alt):
    """Ruling S-2: with an empty bag the Mall's and the News Station's draws are not offered."""
    opts = {"alternate_tiles": [3, 4]} if alt else {}
    s = pos(3, {BLUE: {3: "L", 4: "F"}}, options=opts)
    s.bag = [0, 0, 0, 0]
    play(s, "stop", "card powers")
    assert s.to_move == YELLOW  # neither power had anything to offer


def test_news_station_alternate_draw_one_instead(pos):
    s = pos(3, {BLUE: {4: "L"}}, options={"alternate_tiles": [4]})
    _only(s, I)
    play(s, "stop", "card powers")
    assert sorted(legal(s)) == ["power 4 draw", "power 4 draw three", "skip"]
    play(s, "power 4 draw")
    assert s.hum[BLUE * 4 + I] == 1 and s.to_move == YELLOW


def test_news_station_alternate_returns_as_many_as_were_drawn(pos):
    """Ruling S-21: with only two humans in the bag, two are drawn and two returned."""
    s = pos(3, {BLUE: {4: "L"}}, humans={BLUE: [0, 0, 0, 1]}, options={"alternate_tiles": [4]})
    s.bag = [2, 0, 0, 0]
    play(s, "stop", "card powers", "power 4 draw three")
    assert s.hum[BLUE * 4:BLUE * 4 + 4] == [2, 0, 0, 1]
    play(s, "power 4 return professional")  # then only politicians are left: the last one goes back by itself
    assert s.hum[BLUE * 4:BLUE * 4 + 4] == [1, 0, 0, 0] and s.to_move == YELLOW


def test_church_takes_from_another_player_never_from_yourself_and_can_complete_a_set(pos):
    s = pos(3, {BLUE: {5: "L"}}, humans={BLUE: [1, 1, 1, 0], YELLOW: [0, 0, 0, 1]})
    play(s, "stop", "card powers")
    assert not any(t.endswith("from blue") for t in legal(s))
    assert "power 5 take professional from focus 3" in legal(s)  # the setup professional of the Mall
    play(s, "power 5 take professional from yellow")
    assert s.emblems[BLUE] == 1 and s.hum[BLUE * 4:BLUE * 4 + 8] == [0, 0, 0, 0, 0, 0, 0, 0]


def test_bus_station_alternate_needs_a_distinguished_figure_in_the_bus_station(pos):
    s = pos(3, {BLUE: {6: "LF", 3: "D"}, YELLOW: {3: "FFF"}}, options={"alternate_tiles": [6]})
    play(s, "stop", "card powers")
    assert s.to_move == YELLOW and s.dist[BLUE * 7 + 3] == 1 and sum(s.hum[0:4]) == 0


def test_reposition_ends_after_seven_moves(pos):
    """Ruling S-9: one figure at a time, at most seven repositionings."""
    s = pos(3, {BLUE: {6: "L", 2: "FFFFFF"}})
    play(s, "stop", "card powers", "skip")  # University skipped; the Bus Station follows
    play(s, *["reposition figure 2-4"] * 6, "reposition leader 6-0")
    assert s.to_move == YELLOW and s.plain[BLUE * 7 + 4] == 6 and s.leader[BLUE] == 0


def test_reposition_offers_exactly_the_exerting_players_own_figures(pos):
    """Bus Station: "reposition any of your figures": each of the player's figures (plain, leader or distinguished)
    to any other location, never another faction's figure."""
    s = pos(3, {BLUE: {6: "L", 2: "F", 3: "D"}, YELLOW: {3: "FFF", 4: "D"}, PURPLE: {1: "FF", 5: "D"}})
    play(s, "stop", "card powers", "skip")  # University skipped; the Bus Station follows
    assert _phase(s) == "reposition figures"
    want = {"done", *(f"reposition figure 2-{b}" for b in range(7) if b != 2),
            *(f"reposition distinguished 3-{b}" for b in range(7) if b != 3),
            *(f"reposition leader 6-{b}" for b in range(6))}
    assert set(legal(s)) == want


# ---- two-player variant --------------------------------------------------------------------------------------
def test_two_player_non_player_faction_second_at_abduction_sends_the_human_to_the_bag(pos):
    s = pos(2, {BLUE: {5: "LF"}}, deck=UFO_ONLY)
    bag = sum(s.bag)
    play(s, "stop", "card common")
    assert s.cows[BLUE] == 1 and sum(s.hum) == 0 and sum(s.bag) == bag and s.abd_human[5] >= 0


def test_two_player_non_player_faction_second_at_mind_control_discards_the_last_human(pos):
    s = pos(2, {BLUE: {3: "LF"}}, focus={3: "RR"})
    _only(s, P)
    play(s, "stop", "card confluence", "place politician 3", "take politician professional")
    assert s.hum[BLUE * 4:BLUE * 4 + 4] == [1, 0, 0, 1] and sum(s.hum[4:8]) == 0
    assert sum(s.focus[12:16]) == 0


# ---- crop circles module -------------------------------------------------------------------------------------
def _to_crop(s: SilosState) -> None:
    play(s, "stop", "card powers")
    while _phase(s) != "crop circles power":
        play(s, "skip")


@pytest.mark.parametrize(
    ("crop", "left", "offered", "choice", "crop_after", "left_after"),
    [
        ([1, -1, -1, -1, -1, -1, -1], [3, 2, 3], [f"crop place {i}" for i in range(1, 7)], "crop place 4",
         [1, -1, -1, -1, 0, -1, -1], [2, 2, 3]),
        ([0, 0, 1, 1, 1, 2, 2], [1, 0, 1], [f"crop place {i}" for i in range(2, 7)], "crop place 5",
         [0, 0, 1, 1, 1, 0, 2], [0, 0, 2]),
        ([0, 0, 0, 1, -1, -1, -1], [0, 2, 3], [f"crop move {x}-{y}" for x in (0, 1, 2) for y in (4, 5, 6)],
         "crop move 1-6", [0, -1, 0, 1, -1, -1, 0], [0, 2, 3]),
        ([0, 0, 0, 1, 1, 2, 2], [0, 1, 1], [f"crop move {x}-{y}" for x in (0, 1, 2) for y in (3, 4, 5, 6)],
         "crop move 2-3", [0, 0, -1, 0, 1, 2, 2], [0, 2, 1]),
    ],
    ids=["place-in-an-empty-location", "all-full-replace-an-opponent-with-a-new-token",
         "all-placed-reposition-one-of-yours", "all-placed-all-full-move-one-onto-an-opponent"],
)
def test_crop_circles_power_place_reposition_or_replace(pos, crop, left, offered, choice, crop_after, left_after):
    """Rulings S-17: any location 0-6; a replaced token returns to its owner (every token is still counted: on the
    board or with its owner)."""
    s = pos(3, {BLUE: {6: "L"}, YELLOW: {0: "FF", 1: "FF", 2: "FF"}}, options={"crop_circles": 6})
    s.crop, s.crop_left = list(crop), list(left)
    _to_crop(s)
    assert s.to_move == BLUE and sorted(legal(s)) == sorted([*offered, "skip"])
    tokens = s.component_counts()["crop_tokens"]
    assert tokens == sum(left) + sum(c >= 0 for c in crop)
    play(s, choice)
    assert s.crop == crop_after and s.crop_left == left_after
    assert s.component_counts()["crop_tokens"] == tokens


def test_crop_circles_token_alone_is_influence_one(pos):
    """Ruling S-11: a faction present only by its token has influence 1 and takes the abduction cow."""
    s = pos(3, {BLUE: {2: "F"}}, options={"crop_circles": 6}, deck=UFO_ONLY)
    s.crop[5] = YELLOW
    s.crop_left[YELLOW] = 2
    assert s.influence(YELLOW, 5) == 1
    play(s, "stop", "card common")
    assert s.cows[YELLOW] == 1


def test_crop_circles_tile_location_skill_tile_goes_to_its_exerter(pos):
    """Ruling S-23: exerting the crop circles tile is exerting that location's power event."""
    s = pos(3, {BLUE: {6: "L"}}, options={"crop_circles": 6, "skill_tiles": True})
    _to_crop(s)
    play(s, "crop place 6")
    assert s.skill[6] == BLUE and s.crop[6] == BLUE


# ---- permanent skill tiles module ----------------------------------------------------------------------------
def test_skill_sheriff_moves_any_one_figure_of_any_player_to_the_sheriffs_office(pos):
    s = pos(3, {BLUE: {2: "F"}, YELLOW: {4: "LF"}}, options=SKILLS, skills={1: BLUE})
    play(s, "stop")
    assert sorted(legal(s)) == ["skill 1 move blue figure 2-1", "skill 1 move yellow figure 4-1",
                                "skill 1 move yellow leader 4-1", "skip"]
    play(s, "skill 1 move yellow leader 4-1")
    assert s.leader[YELLOW] == 1 and _phase(s) == "activate a card"


def test_skill_university_moves_one_of_your_figures_to_the_university(pos):
    s = pos(3, {BLUE: {2: "F", 5: "LD"}}, options=SKILLS, skills={2: BLUE})
    play(s, "stop")
    assert sorted(legal(s)) == ["skill 2 move distinguished 5-2", "skill 2 move leader 5-2", "skip"]
    play(s, "skill 2 move distinguished 5-2")
    assert s.dist[BLUE * 7 + 2] == 1 and s.dist[BLUE * 7 + 5] == 0 and _phase(s) == "activate a card"


def test_skill_shopping_mall_draws_one_human_to_place(pos):
    s = pos(3, {BLUE: {2: "F"}}, options=SKILLS, skills={3: BLUE})
    _only(s, R)
    play(s, "stop", "skill 3 draw")
    assert s.hand == [0, 0, 0, 1] and sorted(legal(s)) == ["place professional 2", "place professional 3"]
    play(s, "place professional 2")
    assert s.focus[2 * 4 + R] == 2 and _phase(s) == "activate a card"


@pytest.mark.parametrize(
    ("humans", "pile", "offered"),
    [([1, 0, 0, 0], 9, []), ([2, 0, 0, 0], 0, []), ([1, 1, 0, 0], 9, ["skill 4 return politician government"]),
     ([2, 1, 0, 0], 9, ["skill 4 return politician government", "skill 4 return politician politician"])],
    ids=["one-human", "no-cow-in-the-supply", "two-different", "choice-of-pairs"],
)
def test_skill_news_station_needs_two_humans_and_a_cow_in_the_supply(pos, humans, pile, offered):
    """Ruling S-2: with no cow left in the supply the News Station skill cannot be used."""
    s = pos(3, {BLUE: {2: "F"}}, humans={BLUE: humans}, options=SKILLS, skills={4: BLUE})
    s.cow_pile = pile
    play(s, "stop")
    if offered:
        assert sorted(legal(s)) == sorted([*offered, "skip"])
    else:
        assert _phase(s) == "activate a card"


def test_skill_church_repositions_a_focus_human_to_another_corresponding_group(pos):
    s = pos(3, {BLUE: {2: "F"}}, options=SKILLS, skills={5: BLUE})
    play(s, "stop")
    opts = legal(s)
    assert "skill 5 move government 1-6" in opts and "skill 5 move politician 0-3" in opts
    assert "skill 5 move government 1-2" not in opts and "skill 5 move influencer 4-4" not in opts
    play(s, "skill 5 move government 1-6")
    assert s.focus[1 * 4 + G] == 0 and s.focus[6 * 4 + G] == 2 and _phase(s) == "activate a card"


@pytest.mark.parametrize(("tiles", "moves"), [({}, 2), ({6: BLUE}, 3), ({6: YELLOW}, 2)])
def test_skill_bus_station_gives_a_third_regular_movement(pos, tiles, moves):
    """Ruling S-20: the Bus Station tile's extra movement is a regular (phase 1) street movement."""
    s = pos(3, {BLUE: {2: "F"}}, options=SKILLS, skills=tiles)
    path = ["move figure 2-3", "move figure 3-4", "move figure 4-5"]
    play(s, *path[:moves])
    assert _phase(s) == "activate a card"


def test_skill_tiles_are_used_in_order_once_each_between_movement_and_card(pos):
    s = pos(3, {BLUE: {3: "F"}}, humans={BLUE: [1, 1, 0, 0]}, options=SKILLS,
            skills={1: BLUE, 2: BLUE, 3: BLUE, 4: BLUE, 5: BLUE})
    assert _phase(s) == "movement"
    play(s, "stop")
    seen = []
    while _phase(s) == "skill tiles":
        seen.append(s.view(None)["decision"].split(":")[0])
        play(s, "skip")
    assert seen == [f"skill tile {k}" for k in (1, 2, 3, 4, 5)]
    assert _phase(s) == "activate a card"


def test_skill_tile_is_taken_from_the_player_who_held_it(pos):
    s = pos(3, {BLUE: {5: "L"}}, options=SKILLS, skills={5: YELLOW})
    play(s, "stop", "card powers", "skip")
    assert s.skill[5] == BLUE and "Player 1 claimed skill tile 5" in s.recent_log()


def test_skill_town_hall_keep_activates_the_first_card(pos):
    s = pos(3, {BLUE: {2: "F"}}, options=SKILLS, skills={0: BLUE}, deck=UFO_ONLY)
    play(s, "stop", "card common", "skill 0 keep")
    assert s.ufo == 5 and s.discard[3] == 1 and sum(s.deck) == 4 and s.to_move == YELLOW


def test_skill_town_hall_reject_discards_and_activates_the_second(pos):
    s = pos(3, {BLUE: {2: "F"}}, options=SKILLS, skills={0: BLUE}, deck=[0, 0, 0, 2])
    play(s, "stop", "card common", "skill 0 reject")
    # the rejected UFO Advance did nothing (one advance only); both are now face up with the other three
    assert s.ufo == 5 and s.discard[3] == 5 and sum(s.deck) == 0 and s.to_move == YELLOW


# ---- the view's public log -----------------------------------------------------------------------------------
def test_view_log_tells_what_happened_since_your_last_turn(pos):
    s = pos(3, {BLUE: {5: "LF"}, YELLOW: {5: "F"}}, deck=UFO_ONLY)
    play(s, "stop", "card common")
    log = s.view(YELLOW)["log"]
    human = ("politician", "government", "influencer", "professional")[s.hum[YELLOW * 4:YELLOW * 4 + 4].index(1)]
    assert [(e["seat"], say(e, ("blue", "yellow", "purple", "green"), YELLOW)) for e in log] == [
        (None, "Blue's turn"), (BLUE, "Blue stopped"), (BLUE, "Blue activated the top common card"),
        (BLUE, "Blue revealed UFO Advance"),
        (None, f"UFO abduction at 5 Church: the cow went to blue, the {human} went to you"), (None, "Your turn")]
    assert s.view(YELLOW)["log_pos"] == len(s.log(YELLOW)) == 6 and s.log(YELLOW, 4) == log[4:]
