"""SILOS rule tests, each named after the rulebook rule it checks."""

from __future__ import annotations

import pytest

import tabletop
from tabletop.games.silos.components import COMPONENTS, ComponentDataError, load, validate
from tabletop.games.silos.state import SilosState

from .conftest import BLUE, GREEN, PURPLE, YELLOW, G, I, P, R, legal, play

UFO_ONLY = [0, 0, 0, 5]
ONE_POWER_ONLY = [0, 2, 0, 0]
ALL_POWERS_ONLY = [1, 0, 0, 0]
SPECIMEN_ONLY = [0, 0, 4, 0]


# ---- components -------------------------------------------------------------------------------------------
def test_component_data_streets_are_the_reconstructed_default():
    c = load()
    assert c.streets_reconstructed
    assert c.neighbours[0] == (1, 3, 5)
    assert c.neighbours[1] == (0, 2, 6)
    assert c.neighbours[4] == (3, 5)
    assert all(2 <= len(n) <= 3 for n in c.neighbours)


def test_component_data_counts_match_the_rulebook():
    c = COMPONENTS
    assert (c.per_type, c.cows, c.caps, c.emblems, c.figures) == (15, 15, 10, 23, 7)
    assert c.common == (1, 2, 4, 5)
    assert c.accepts[P] == (0, 1, 2, 3, 4, 5, 6)
    assert c.accepts[G] == (1, 6) and c.accepts[R] == (2, 3) and c.accepts[I] == (4, 5)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["streets"].update(pairs=[[1, 2]]), "at least one street"),
        (lambda d: d["streets"].update(pairs=[[1, 1]]), "two different"),
        (lambda d: d["supplies"].update(cows=0), "positive"),
        (lambda d: d["locations"].pop(), "7"),
        (lambda d: d["cards"].update(common=[["all-powers", 1]]), "cards.common"),
    ],
)
def test_component_data_is_validated_on_load_with_a_clear_error(mutate, message):
    import tomllib
    from importlib import resources

    data = tomllib.loads(resources.files("tabletop.games.silos").joinpath("components.toml").read_text())
    mutate(data)
    with pytest.raises(ComponentDataError, match=message):
        validate(data)


# ---- setup ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_humans_cows_ufo_and_ranks(players):
    s = tabletop.new_game("silos", players, 11)
    v = s.view(None)
    for i, loc in enumerate(v["locations"]):
        assert sum(loc["focus"].values()) == 1
        assert loc["focus"] == {("politician", "government", "professional", "professional", "influencer",
                                 "influencer", "government")[i]: 1}
        if i:
            assert loc["cow"] is True and loc["human"] is not None
    assert v["ufo"] == 4
    assert sum(v["bag"].values()) == 60 - 7 - 6
    assert v["supply"] == {"cows": 9, "caps": 10, "emblems": 23}
    start = s.start
    order = [COMPONENTS.colors[(start + k) % players] for k in range(players)]
    if players == 2:
        assert v["ranks"] == ["purple", *order]
        assert all(loc["figures"]["purple"]["figures"] == 1 for loc in v["locations"])
    else:
        assert v["ranks"] == order
    assert s.to_move == start and legal(s)[0].startswith("place")


def test_initial_positioning_each_player_places_seven_and_the_leader_hat_is_placed():
    s = tabletop.new_game("silos", 3, 5)
    for _ in range(6 * 3):
        play(s, "place figure 2")
    assert legal(s) == [f"place leader {i}" for i in range(7)]  # the last figure must wear the hat
    for _ in range(3):
        play(s, "place leader 4")
    assert s.view(None)["phase"] == "movement"
    assert s.to_move == s.start


def _seed_with_start(players: int, start: int) -> int:
    return next(seed for seed in range(200) if tabletop.new_game("silos", players, seed).start == start)


def test_initial_town_hall_reranking_example():
    """Yellow 1, Purple 2, Blue 3 after setup; Blue 2 figures in the Town Hall, Yellow and Purple 1 each."""
    s = tabletop.new_game("silos", 3, _seed_with_start(3, YELLOW))
    assert s.view(None)["ranks"] == ["yellow", "purple", "blue"]
    # placement order is yellow, purple, blue; each puts its first figures as listed
    plan = {YELLOW: ["figure 0"], PURPLE: ["figure 0"], BLUE: ["figure 0", "figure 0"]}
    for turn in range(21):
        seat = s.to_move
        mine = plan[seat]
        placed = turn // 3
        text = mine[placed] if placed < len(mine) else ("leader 6" if placed == len(mine) else "figure 6")
        play(s, f"place {text}")
    assert s.view(None)["ranks"] == ["blue", "yellow", "purple"]


def test_initial_town_hall_ties_keep_setup_order_and_nobody_there_keeps_order():
    s = tabletop.new_game("silos", 4, _seed_with_start(4, 0))
    for turn in range(28):
        seat = s.to_move
        placed = turn // 4
        where = 0 if seat in (2, 3) and placed == 1 else 5
        play(s, f"place {'leader' if placed == 0 else 'figure'} {where}")
    assert s.view(None)["ranks"] == ["purple", "green", "blue", "yellow"]


# ---- influence --------------------------------------------------------------------------------------------
def test_influence_example_blue_2_yellow_2_5(pos):
    s = pos(3, {BLUE: {3: "FF"}, YELLOW: {3: "LF"}})
    assert s.influence(BLUE, 3) == 2 and s.influence(YELLOW, 3) == 2.5
    assert s.ranking(3) == [YELLOW, BLUE]


def test_influence_example_purple_4_yellow_3(pos):
    s = pos(3, {PURPLE: {5: "DF", 1: "L"}, YELLOW: {5: "FFF"}})
    assert s.influence(PURPLE, 5) == 3
    s = pos(3, {PURPLE: {5: "DD"}, YELLOW: {5: "LF", 2: "F"}, BLUE: {5: "F"}})
    assert s.influence(PURPLE, 5) == 4 and s.influence(YELLOW, 5) == 2.5
    s = pos(3, {PURPLE: {5: "DD"}, YELLOW: {5: "DF"}})
    assert s.influence(PURPLE, 5) == 4 and s.influence(YELLOW, 5) == 3
    assert s.ranking(5) == [PURPLE, YELLOW]


def test_influence_ties_first_and_second_broken_by_town_hall_rank(pos):
    """Ruling S-4: ties for second-most influence are broken by Town Hall rank like ties for the most."""
    s = pos(4, {BLUE: {3: "FF"}, YELLOW: {3: "FF"}, PURPLE: {3: "F"}, GREEN: {3: "F"}}, rank=[3, 2, 1, 0])
    assert s.ranking(3) == [YELLOW, BLUE, GREEN, PURPLE]


# ---- turn: movement and card -----------------------------------------------------------------------------
def test_movement_up_to_two_along_streets_then_one_card(pos):
    s = pos(3, {BLUE: {1: "LF"}, YELLOW: {4: "F"}})
    moves = [t for t in legal(s) if t.startswith("move")]
    assert sorted(moves) == sorted(f"move {k} 1-{b}" for k in ("figure", "leader") for b in (0, 2, 6))
    with pytest.raises(tabletop.IllegalAction, match="legal"):
        s.apply("move leader 1-3")
    play(s, "move leader 1-2", "move leader 2-3")
    assert s.view(None)["phase"] == "activate a card"
    assert "card common" in legal(s) and not any(t.startswith("move") for t in legal(s))


def test_movement_may_stop_early(pos):
    s = pos(3, {BLUE: {1: "LF"}})
    play(s, "stop")
    assert s.view(None)["phase"] == "activate a card"


def test_faction_card_is_used_once(pos):
    s = pos(2, {BLUE: {3: "L"}, YELLOW: {5: "L"}}, deck=UFO_ONLY)
    play(s, "stop", "card sighting ufo")
    assert s.fcards[0] == 1
    play(s, "stop", "card common", "stop")
    assert not any("sighting" in t for t in legal(s))
    assert "card confluence" in legal(s) and "card powers" in legal(s)


# ---- UFO abduction ---------------------------------------------------------------------------------------
def test_ufo_abduction_most_takes_cow_second_takes_human(pos):
    s = pos(3, {BLUE: {5: "LF"}, YELLOW: {5: "F"}}, deck=UFO_ONLY)
    human = s.abd_human[5]
    play(s, "stop", "card common")
    assert s.ufo == 5
    assert s.cows[BLUE] == 1 and s.hum[YELLOW * 4 + human] == 1
    assert s.abd_cow[5] == 1 and s.cow_pile == 8  # replenished from the pile
    assert s.abd_human[5] >= 0  # a new human drawn


def test_ufo_abduction_single_faction_takes_cow_human_returns_to_bag(pos):
    s = pos(3, {BLUE: {5: "F"}}, deck=UFO_ONLY)
    bag = sum(s.bag)
    play(s, "stop", "card common")
    assert s.cows[BLUE] == 1 and sum(s.hum) == 0
    assert sum(s.bag) == bag  # one returned, one drawn


def test_ufo_abduction_nobody_present_cow_stays(pos):
    s = pos(3, {BLUE: {2: "F"}}, deck=UFO_ONLY)
    play(s, "stop", "card common")
    assert sum(s.cows) == 0 and s.abd_cow[5] == 1 and s.cow_pile == 9


def test_ufo_advances_clockwise_and_wraps(pos):
    s = pos(3, {BLUE: {2: "F"}}, deck=UFO_ONLY)
    s.ufo = 6
    play(s, "stop", "card common")
    assert s.ufo == 1


# ---- mind control ------------------------------------------------------------------------------------------
def _politicians_only(s: SilosState) -> None:
    """Test support: leave only politicians in the bag so every draw is known."""
    s.bag = [sum(s.bag), 0, 0, 0]


def test_mind_control_majority_picks_two_second_gets_last_and_placement_continues(pos):
    s = pos(3, {BLUE: {3: "LF"}, YELLOW: {3: "F"}}, focus={3: "RR"})
    _politicians_only(s)
    play(s, "stop", "card confluence")
    assert s.hand == [4, 0, 0, 0]
    play(s, "place politician 3")  # the group is full: mind control interrupts
    assert s.to_move == BLUE and sorted(legal(s)) == ["take politician professional", "take professional professional"]
    play(s, "take politician professional")
    assert s.hum[BLUE * 4:BLUE * 4 + 4] == [1, 0, 0, 1] and s.hum[YELLOW * 4 + R] == 1
    assert s.focus[3 * 4:3 * 4 + 4] == [0, 0, 0, 0]
    play(s, "place politician 3")  # placement may continue into the emptied group
    assert s.focus[3 * 4 + P] == 1 and s.hand == [2, 0, 0, 0]


@pytest.mark.parametrize(
    ("figures", "blue_gets", "bag_back"),
    [({BLUE: {3: "F"}}, 2, 1), ({BLUE: {1: "F"}}, 0, 3)],
    ids=["single-faction-two-and-one-to-bag", "nobody-all-to-bag"],
)
def test_mind_control_single_faction_or_nobody(pos, figures, blue_gets, bag_back):
    s = pos(3, figures, focus={3: "RR"})
    _politicians_only(s)
    before = sum(s.bag)
    play(s, "stop", "card confluence", "place politician 3")
    if blue_gets:
        play(s, "take politician professional")
    assert sum(s.hum[0:4]) == blue_gets
    assert sum(s.bag) == before - 4 + bag_back
    assert sum(s.focus[12:16]) == 0


def test_marked_specimen_each_player_in_turn_order_draws_and_places(pos):
    s = pos(3, {BLUE: {3: "F"}}, deck=SPECIMEN_ONLY, active=YELLOW)
    _politicians_only(s)
    play(s, "stop", "card common")
    assert s.to_move == YELLOW and s.hand == [1, 0, 0, 0]
    play(s, "place politician 5")
    assert s.to_move == PURPLE
    play(s, "place politician 5")
    assert s.to_move == BLUE
    play(s, "place politician 0")
    assert s.to_move == PURPLE and s.view(None)["phase"] == "movement"  # next turn
    assert s.discard[2] == 1


# ---- power events and cards ------------------------------------------------------------------------------------
def test_all_powers_in_location_order_with_influence_read_as_each_comes(pos):
    """Sheriff (1) pulls yellow out of the Mall, so blue is top at 3 when its turn comes."""
    s = pos(3, {BLUE: {1: "LF", 3: "F"}, YELLOW: {3: "FF"}}, deck=ALL_POWERS_ONLY)
    play(s, "stop", "card common")
    assert s.to_move == BLUE and s.view(None)["phase"] == "sheriff's office power"
    play(s, "power 1 move yellow figure 3-1", "power 1 move yellow figure 3-1")
    assert s.view(None)["phase"] == "shopping mall power" and s.to_move == BLUE


def test_one_power_each_player_one_location_each_location_once(pos):
    s = pos(3, {BLUE: {6: "LF", 2: "F"}, YELLOW: {6: "F"}}, rank=[BLUE, YELLOW, PURPLE], deck=ONE_POWER_ONLY)
    play(s, "stop", "card common")
    assert sorted(legal(s)) == ["exert 2", "exert 6"]
    play(s, "exert 6", "reposition leader 6-3", "reposition figure 6-3", "done")
    assert s._top(6) == YELLOW  # yellow now leads the Bus Station, but it was already exerted
    assert s.to_move == YELLOW and s.view(None)["phase"] == "movement"


def test_one_power_player_without_majority_is_skipped(pos):
    s = pos(3, {BLUE: {2: "F"}, YELLOW: {3: "F"}}, deck=ONE_POWER_ONLY)
    play(s, "stop", "card common")  # blue only leads 2: forced; yellow only 3
    assert s.view(None)["phase"] == "university power" and s.to_move == BLUE
    play(s, "skip")
    assert s.view(None)["phase"] == "shopping mall power" and s.to_move == YELLOW


def test_your_powers_exerts_only_where_you_lead_in_order(pos):
    s = pos(3, {BLUE: {2: "F", 5: "L"}, YELLOW: {3: "FF"}})
    play(s, "stop", "card powers")
    assert s.view(None)["phase"] == "university power"
    play(s, "skip")
    assert s.view(None)["phase"] == "church power"
    play(s, "skip")
    assert s.to_move == YELLOW


def test_ufo_sighting_reposition_option(pos):
    s = pos(3, {BLUE: {2: "LF"}})
    play(s, "stop", "card sighting reposition", "reposition leader 2-5", "done")
    assert s.leader[BLUE] == 5 and s.fcards[0] == 1


def test_exhausted_common_deck_reshuffles_discards(pos):
    s = pos(3, {BLUE: {2: "F"}}, deck=[0, 0, 0, 0])
    play(s, "stop", "card common")
    assert sum(s.deck) + sum(s.discard) + sum(s._in_play()) == 12
    assert sum(s.deck) <= 11


def test_discards_are_public_and_deck_composition_is_in_every_view(pos):
    s = pos(3, {BLUE: {2: "F"}}, deck=[1, 2, 4, 3])
    v = s.view(YELLOW)
    assert v["common_deck"] == {"all-powers": 1, "one-power": 2, "marked-specimen": 4, "ufo-advance": 3}
    assert v["common_discards"]["ufo-advance"] == 2


# ---- location powers ---------------------------------------------------------------------------------------
def test_town_hall_power_reranks_ties_and_no_influence_keep_relative_order(pos):
    """Ruling S-8: equal influence, including none, keeps the factions' relative order."""
    s = pos(4, {BLUE: {0: "LF"}, YELLOW: {0: "F"}, GREEN: {0: "F"}, PURPLE: {2: "F"}}, rank=[2, 3, 1, 0])
    play(s, "stop", "card powers")
    assert s.rank == [BLUE, GREEN, YELLOW, PURPLE]


def test_town_hall_alternate_moves_the_exerting_player_to_the_mall(pos):
    s = pos(3, {BLUE: {0: "LFD"}, YELLOW: {0: "F"}}, rank=[YELLOW, PURPLE, BLUE], options={"alternate_tiles": [0]})
    play(s, "stop", "card powers")
    assert s.rank[0] == BLUE
    assert s.leader[BLUE] == 3 and s.plain[BLUE * 7 + 3] == 1 and s.dist[BLUE * 7 + 3] == 1
    assert s.influence(BLUE, 0) == 0


def test_sheriff_moves_one_colour_from_one_location(pos):
    s = pos(3, {BLUE: {1: "LF"}, YELLOW: {3: "FF", 4: "F"}})
    play(s, "stop", "card powers")
    assert "power 1 move yellow figure 4-1" in legal(s) and "skip" in legal(s)
    play(s, "power 1 move yellow figure 3-1")
    assert sorted(legal(s)) == ["power 1 move yellow figure 3-1", "stop"]  # same colour, same location
    play(s, "stop")
    assert s.plain[YELLOW * 7 + 1] == 1


def test_sheriff_alternate_moves_up_to_three_of_any_colours(pos):
    s = pos(3, {BLUE: {1: "LF"}, YELLOW: {3: "FF"}, PURPLE: {5: "FF"}}, options={"alternate_tiles": [1]})
    play(s, "stop", "card powers", "power 1 move yellow figure 3-1", "power 1 move purple figure 5-1",
         "power 1 move purple figure 5-1")
    assert s.to_move == YELLOW and s.plain[PURPLE * 7 + 1] == 2


def test_university_moves_all_to_town_hall_and_distinguishes_one(pos):
    s = pos(3, {BLUE: {2: "LFF"}})
    play(s, "stop", "card powers", "power 2 graduate")
    assert s.leader[BLUE] == 0 and s.plain[BLUE * 7] == 1 and s.dist[BLUE * 7] == 1 and s.caps == 9


def test_university_with_nothing_to_distinguish_still_moves(pos):
    """Ruling S-6: with only the leader / distinguished figures (or no cap left), the move still happens."""
    s = pos(3, {BLUE: {2: "LD"}})
    caps = s.caps
    play(s, "stop", "card powers", "power 2 graduate")
    assert s.leader[BLUE] == 0 and s.dist[BLUE * 7] == 1 and s.caps == caps


def test_university_alternate_distinguishes_in_the_news_station(pos):
    s = pos(3, {BLUE: {2: "L", 4: "F"}}, options={"alternate_tiles": [2]})
    play(s, "stop", "card powers", "power 2 distinguish")
    assert s.dist[BLUE * 7 + 4] == 1 and s.caps == 9


def test_university_alternate_distinguishes_the_exerting_players_own_figure(pos):
    """2* University: "distinguish one of your figures in the News Station": the exerting player's, whoever it is."""
    for blue in ("F", ""):  # seat 0 with or without a plain figure of its own there
        s = pos(3, {YELLOW: {2: "L", 4: "F"}, BLUE: {4: blue} if blue else {1: "F"}}, active=YELLOW,
                options={"alternate_tiles": [2]})
        play(s, "stop", "card powers", "power 2 distinguish")
        assert (s.dist[YELLOW * 7 + 4], s.plain[YELLOW * 7 + 4]) == (1, 0)
        assert (s.dist[BLUE * 7 + 4], s.plain[BLUE * 7 + 4]) == (0, len(blue)) and s.caps == 9


def test_shopping_mall_draws_until_stop_and_must_stop_after_mind_control(pos):
    s = pos(3, {BLUE: {3: "L"}}, focus={0: "P"})
    _politicians_only(s)
    play(s, "stop", "card powers", "power 3 draw", "place politician 5")
    assert sorted(legal(s)) == ["power 3 draw", "stop"]
    play(s, "power 3 draw", "place politician 0", "power 3 draw", "place politician 0")  # Town Hall full
    assert s.to_move == YELLOW  # nobody in the Town Hall: humans to the bag, the mall power is over
    assert sum(s.focus[0:4]) == 0


def test_shopping_mall_alternate_draws_four(pos):
    s = pos(3, {BLUE: {3: "L"}}, options={"alternate_tiles": [3]})
    play(s, "stop", "card powers", "power 3 draw four")
    assert sum(s.hand) == 4


def test_news_station_exchanges_any_three_for_an_emblem(pos):
    s = pos(3, {BLUE: {4: "L"}}, humans={BLUE: [2, 0, 0, 0]}, cows={BLUE: 1})
    play(s, "stop", "card powers")
    assert "power 4 exchange politician politician cow" in legal(s)
    play(s, "power 4 exchange politician politician cow")
    assert s.emblems[BLUE] == 1 and s.cows[BLUE] == 0 and s.cow_pile == 9


def test_news_station_alternate_draw_three_then_return_three(pos):
    s = pos(3, {BLUE: {4: "L"}}, humans={BLUE: [1, 0, 0, 1]}, options={"alternate_tiles": [4]})
    _politicians_only(s)
    play(s, "stop", "card powers", "power 4 draw three")
    assert s.hum[0:4] == [4, 0, 0, 1] and legal(s) == ["power 4 return politician", "power 4 return professional"]
    play(s, "power 4 return politician", "power 4 return politician", "power 4 return politician")
    assert s.hum[0:4] == [1, 0, 0, 1] and s.to_move == YELLOW
    # S-16: a player holding humans of one type only has nothing to choose: the three go back by themselves
    s = pos(3, {BLUE: {4: "L"}}, humans={BLUE: [1, 0, 0, 0]}, options={"alternate_tiles": [4]})
    _politicians_only(s)
    bag = s.bag.copy()
    play(s, "stop", "card powers", "power 4 draw three")
    assert s.hum[0:4] == [1, 0, 0, 0] and s.bag == bag and s.to_move == YELLOW


def test_church_takes_a_human_from_a_player_or_focus_group(pos):
    s = pos(3, {BLUE: {5: "L"}}, humans={YELLOW: [0, 1, 0, 0]})
    play(s, "stop", "card powers")
    assert "power 5 take government from yellow" in legal(s) and "power 5 take influencer from focus 5" in legal(s)
    assert not any("cow" in t for t in legal(s))
    play(s, "power 5 take government from yellow")
    assert s.hum[BLUE * 4 + G] == 1 and s.hum[YELLOW * 4 + G] == 0


def test_church_alternate_keeps_a_common_card_as_a_faction_card(pos):
    s = pos(3, {BLUE: {5: "L"}}, deck=UFO_ONLY, options={"alternate_tiles": [5]})
    play(s, "stop", "card powers", "power 5 draw card")
    assert s.held[3] == 1 and sum(s.deck) == 4
    # back to blue two turns later: the held card is playable like a faction card
    while s.to_move != BLUE or s.view(None)["phase"] != "activate a card":
        play(s, legal(s)[0])
    assert "card held ufo-advance" in legal(s)
    play(s, "card held ufo-advance")
    assert s.held[3] == 0 and s.discard[3] >= 2


def test_church_alternate_card_goes_to_the_exerting_player_whoever_it_is(pos):
    """5* Church: "You MAY draw one card from the Common Deck and add it to your Faction Cards": the exerting
    player's, also when that is not the first seat."""
    s = pos(3, {YELLOW: {5: "L"}}, deck=UFO_ONLY, active=YELLOW, options={"alternate_tiles": [5]})
    play(s, "stop", "card powers", "power 5 draw card")
    assert s.held[YELLOW * 4 + 3] == 1 and sum(s.held) == 1


def test_bus_station_repositions_any_figures_one_at_a_time(pos):
    s = pos(3, {BLUE: {6: "L", 2: "FF"}})
    play(s, "stop", "card powers", "skip", "reposition figure 2-4", "reposition leader 6-0", "done")
    assert s.leader[BLUE] == 0 and s.plain[BLUE * 7 + 4] == 1


def test_bus_station_alternate_downgrades_and_draws_three(pos):
    s = pos(3, {BLUE: {6: "LD"}}, options={"alternate_tiles": [6]})
    play(s, "stop", "card powers", "power 6 downgrade")
    assert s.dist[BLUE * 7 + 6] == 0 and s.plain[BLUE * 7 + 6] == 1 and sum(s.hum[0:4]) == 3
    assert s.caps == 10


# ---- societal power emblems ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("humans", "cows", "emblems", "left_humans", "left_cows"),
    [
        ([1, 1, 1, 1], 2, 1, [0, 0, 0, 0], 2),  # S-7: a complete human set uses no cow
        ([2, 0, 0, 0], 3, 1, [1, 0, 0, 0], 0),  # cows wild and compulsory
        ([2, 2, 2, 2], 0, 2, [0, 0, 0, 0], 0),  # repeated while sets remain
        ([1, 1, 0, 0], 1, 0, [1, 1, 0, 0], 1),  # not enough cows: no set
    ],
)
def test_complete_set_is_exchanged_immediately_cows_wild(pos, humans, cows, emblems, left_humans, left_cows):
    s = pos(3, {BLUE: {2: "F"}}, humans={BLUE: humans}, cows={BLUE: cows})
    s._check_sets(BLUE)
    assert s.emblems[BLUE] == emblems and s.hum[0:4] == left_humans and s.cows[BLUE] == left_cows


def test_abducted_cow_completes_a_set_at_once(pos):
    s = pos(3, {BLUE: {5: "F"}}, humans={BLUE: [1, 1, 1, 0]}, deck=UFO_ONLY)
    play(s, "stop", "card common")
    assert s.emblems[BLUE] == 1 and s.cows[BLUE] == 0 and s.hum[0:4] == [0, 0, 0, 0]


def test_empty_emblem_supply_leaves_the_set_with_the_player(pos):
    """Ruling S-2: with no emblem left, no exchange happens."""
    s = pos(3, {BLUE: {2: "F"}}, humans={BLUE: [1, 1, 1, 1]})
    s.emblem_supply = 0
    s._check_sets(BLUE)
    assert s.emblems[BLUE] == 0 and s.hum[0:4] == [1, 1, 1, 1]


# ---- game end ------------------------------------------------------------------------------------------------
def test_game_ends_at_the_end_of_the_turn_not_mid_turn(pos):
    """Ruling S-3: reaching the target mid-turn does not stop the turn; the game ends when it ends."""
    s = pos(3, {BLUE: {4: "L", 6: "F"}}, humans={BLUE: [3, 0, 0, 0]})
    s.emblems[BLUE] = 4
    s.emblem_supply -= 4
    play(s, "stop", "card powers", "power 4 exchange politician politician politician")
    assert s.emblems[BLUE] == 5 and not s.is_over and s.view(None)["phase"] == "reposition figures"
    play(s, "done")
    assert s.is_over and s.winners() == [BLUE]


@pytest.mark.parametrize(
    ("emblems", "humans", "cows", "winners"),
    [([5, 4, 0], [0, 9, 0], [0, 0, 0], [0]), ([5, 5, 0], [1, 2, 0], [0, 0, 0], [1]),
     ([5, 5, 0], [1, 2, 0], [1, 0, 0], [0, 1])],
)
def test_winner_most_emblems_then_humans_and_cows_then_shared(pos, emblems, humans, cows, winners):
    s = pos(3, {BLUE: {2: "F"}}, humans={p: [h, 0, 0, 0] for p, h in enumerate(humans)},
            cows=dict(enumerate(cows)))
    s.emblems = list(emblems)
    s.stack = [s.stack[0]]  # test support: only the end of turn is left
    s._run()
    assert s.is_over and s.winners() == winners


def test_shorter_game_option_ends_at_four(pos):
    s = pos(3, {BLUE: {2: "F"}}, options={"emblem_target": 4})
    s.emblems[GREEN - 1] = 4
    play(s, "stop", "card sighting ufo")
    assert s.is_over


# ---- two-player variant ---------------------------------------------------------------------------------------
def test_two_player_non_player_faction_locked_at_rank_one_blocks_powers(pos):
    s = pos(2, {BLUE: {2: "LF"}, YELLOW: {0: "LFF"}}, rank=[PURPLE, BLUE, YELLOW])
    play(s, "stop", "card powers")  # purple (rank 1) ties blue's... blue 2.5 > 1 at the University
    assert s.view(None)["phase"] == "university power"
    s = pos(2, {BLUE: {2: "F"}}, rank=[PURPLE, BLUE, YELLOW])
    play(s, "stop", "card powers")  # 1 vs 1: the non-player faction wins the tie: power not exerted
    assert s.to_move == YELLOW
    s = pos(2, {BLUE: {0: "LFF"}, YELLOW: {0: "LFFF"}}, rank=[PURPLE, BLUE, YELLOW])
    s.active = YELLOW
    s.stack.clear()
    s._push_turn()
    s._run()
    play(s, "stop", "card powers")
    assert s.rank == [PURPLE, YELLOW, BLUE]


def test_two_player_non_player_faction_abduction_cow_stays_human_to_second(pos):
    s = pos(2, {BLUE: {5: "L"}}, deck=UFO_ONLY)
    s.plain[PURPLE * 7 + 5] = 2
    human = s.abd_human[5]
    play(s, "stop", "card common")
    assert s.cows[BLUE] == 0 and s.abd_cow[5] == 1 and s.hum[BLUE * 4 + human] == 1


def test_two_player_non_player_faction_mind_control_takes_one_of_each_type(pos):
    s = pos(2, {BLUE: {3: "L"}}, focus={3: "RR"})
    s.plain[PURPLE * 7 + 3] = 2
    _politicians_only(s)
    play(s, "stop", "card confluence", "place politician 3")
    assert s.hum[BLUE * 4:BLUE * 4 + 4] == [0, 0, 0, 1]  # purple discarded one politician and one professional


# ---- crop circles module ----------------------------------------------------------------------------------------
def test_crop_circles_tile_replaces_the_power_and_tokens_add_influence(pos):
    s = pos(3, {BLUE: {6: "L", 3: "F"}, YELLOW: {3: "F"}}, options={"crop_circles": 6}, rank=[YELLOW, BLUE, PURPLE])
    assert s._top(3) == YELLOW
    play(s, "stop", "card powers")
    assert s.view(None)["phase"] == "crop circles power"
    assert "crop place 3" in legal(s) and "skip" in legal(s)
    play(s, "crop place 3")
    assert s.influence(BLUE, 3) == 2 and s._top(3) == BLUE and s.crop_left[BLUE] == 2


def test_crop_circles_all_placed_reposition_or_replace(pos):
    s = pos(3, {BLUE: {6: "L"}, YELLOW: {1: "FF", 2: "FF"}}, options={"crop_circles": 6})
    s.crop = [0, 0, 0, 1, 1, 2, 2]
    s.crop_left = [0, 1, 1]
    play(s, "stop", "card powers")
    assert "crop move 0-3" in legal(s) and "crop move 0-1" not in legal(s)
    play(s, "crop move 0-5")
    assert s.crop[5] == BLUE and s.crop[0] == -1 and s.crop_left[PURPLE] == 2


# ---- permanent skill tiles ----------------------------------------------------------------------------------------
def test_skill_tile_claimed_when_exerting_with_the_leader_present(pos):
    s = pos(3, {BLUE: {2: "L", 5: "F"}}, options={"skill_tiles": True})
    play(s, "stop", "card powers", "skip", "skip")
    assert s.skill[2] == BLUE and s.skill[5] == -1


def test_skill_tiles_used_in_order_after_movement_and_bus_gives_a_third_move(pos):
    s = pos(3, {BLUE: {2: "LF"}, YELLOW: {4: "F"}}, options={"skill_tiles": True}, skills={1: 0, 2: 0, 6: 0})
    play(s, "move figure 2-3", "move figure 3-4", "move figure 4-5")
    assert s.view(None)["phase"] == "skill tiles"
    assert "skill 1 move yellow figure 4-1" in legal(s)
    play(s, "skill 1 move yellow figure 4-1", "skill 2 move figure 5-2")
    assert s.view(None)["phase"] == "activate a card" and s.plain[BLUE * 7 + 2] == 1


def test_skill_town_hall_rejects_the_first_revealed_card(pos):
    s = pos(3, {BLUE: {2: "F"}}, options={"skill_tiles": True}, deck=[0, 0, 2, 1])
    s.skill[0] = BLUE
    play(s, "stop", "card common")
    assert sorted(legal(s)) == ["skill 0 keep", "skill 0 reject"]
    first = s.revealed
    play(s, "skill 0 reject")
    assert s.discard[first] >= 1


def test_skill_news_station_returns_two_for_a_cow(pos):
    s = pos(3, {BLUE: {2: "F"}}, humans={BLUE: [2, 0, 0, 0]}, options={"skill_tiles": True})
    s.skill[4] = BLUE
    play(s, "stop", "skill 4 return politician politician")
    assert s.cows[BLUE] == 1 and s.hum[0] == 0


def test_skill_news_station_returns_the_two_humans_named_for_a_cow(pos):
    """News Station skill tile: the two humans returned are the two named, also when of different types."""
    s = pos(3, {BLUE: {2: "F"}}, humans={BLUE: [1, 1, 0, 0]}, options={"skill_tiles": True})
    s.skill[4] = BLUE
    bag = s.bag.copy()
    play(s, "stop", "skill 4 return politician government")
    assert s.cows[BLUE] == 1 and s.hum[BLUE * 4:BLUE * 4 + 4] == [0, 0, 0, 0]
    assert s.bag == [bag[0] + 1, bag[1] + 1, bag[2], bag[3]]


def test_skill_church_takes_the_human_from_the_focus_group_it_names(pos):
    """Church skill tile: the human leaves the named group and joins the other; no other group changes."""
    s = pos(3, {BLUE: {4: "F"}}, focus={5: "I"}, options={"skill_tiles": True})
    s.skill[5] = BLUE
    before = s.focus.copy()
    play(s, "stop", "skill 5 move influencer 5-4")
    moved = [(j // 4, j % 4, s.focus[j] - before[j]) for j in range(len(before)) if s.focus[j] != before[j]]
    assert moved == [(4, I, 1), (5, I, -1)]


def test_skill_church_moves_a_focus_human_and_can_trigger_mind_control(pos):
    s = pos(3, {BLUE: {4: "FF"}}, focus={4: "II", 5: "I"}, options={"skill_tiles": True})
    s.skill[5] = BLUE
    play(s, "stop", "skill 5 move influencer 5-4")
    assert s.hum[BLUE * 4 + I] == 2  # single faction: two to blue, the third back to the bag


# ---- rulings on supplies and the non-player faction -----------------------------------------------------------
def test_sheriff_may_move_non_player_faction_figures(pos):
    """Ruling S-5: the non-player faction's figures are figures of 'another player's faction'."""
    s = pos(2, {BLUE: {1: "LF"}}, rank=[PURPLE, BLUE, YELLOW])
    play(s, "stop", "card powers")
    assert "power 1 move purple figure 3-1" in legal(s)
    play(s, "power 1 move purple figure 3-1")
    assert s.plain[PURPLE * 7 + 1] == 2


def test_empty_bag_draws_nothing_and_abduction_space_stays_empty(pos):
    """Ruling S-2: drawing from an empty bag gives nothing; an abduction space with no human stays empty."""
    s = pos(3, {BLUE: {5: "LF"}, YELLOW: {5: "F"}}, deck=UFO_ONLY)
    s.bag = [0, 0, 0, 0]
    play(s, "stop", "card common")
    assert sum(s.hum[YELLOW * 4:YELLOW * 4 + 4]) == 1  # the abducted human still goes to the second-most
    assert s.abd_human[5] == -1  # but no new human can be drawn


def test_empty_cow_supply_leaves_the_cow_space_empty(pos):
    """Ruling S-2: with no cow in the pile the cow abduction space is not replenished."""
    s = pos(3, {BLUE: {5: "F"}}, deck=UFO_ONLY)
    s.cow_pile = 0
    play(s, "stop", "card common")
    assert s.cows[BLUE] == 1 and s.abd_cow[5] == 0
