"""SILOS power events, sets and what the table shows: hand-computed examples that single-site changes of the rules
would break (each found by mutation testing of rules.py, issue 8 point 22)."""

from __future__ import annotations

from tabletop.games.silos.state import SilosState

from .conftest import BLUE, PURPLE, YELLOW, legal, play

UFO_ONLY = [0, 0, 0, 5]


def _exchanges(s: SilosState) -> list[str]:
    return [a for a in legal(s) if " exchange " in a]


def test_news_station_offers_exactly_the_groups_of_three_the_player_holds(pos):
    """ "Exchange ANY three of your humans and/or cows": one politician, two influencers and a cow make exactly
    three different groups of three (politician + influencer + influencer, politician + influencer + cow,
    influencer + influencer + cow)."""
    s = pos(3, {BLUE: {4: "L"}}, humans={BLUE: [1, 0, 2, 0], YELLOW: [0, 3, 0, 3], PURPLE: [3, 0, 0, 0]},
            cows={BLUE: 1})
    play(s, "stop", "card powers")
    assert _exchanges(s) == ["power 4 exchange politician influencer influencer",
                             "power 4 exchange politician influencer cow",
                             "power 4 exchange influencer influencer cow"]
    play(s, "power 4 exchange politician influencer cow")
    assert s.hum[0:4] == [0, 0, 1, 0] and s.cows[BLUE] == 0 and s.emblems[BLUE] == 1


def test_news_station_offers_no_exchange_with_fewer_than_three(pos):
    s = pos(3, {BLUE: {4: "L"}}, humans={BLUE: [1, 0, 0, 1], YELLOW: [3, 3, 0, 0]})
    play(s, "stop", "card powers")
    assert _exchanges(s) == [] and legal(s) == ["power 4 draw", "skip"]


def test_sheriff_keeps_to_the_one_colour_and_location_chosen_first_even_blue_at_the_town_hall(pos):
    """ "Move one or more alien figures of one color from any one location": after a blue figure from the Town Hall
    (faction 0, location 0), only blue figures from the Town Hall may follow."""
    s = pos(3, {BLUE: {0: "FF", 1: "L"}, YELLOW: {3: "F"}})
    play(s, "stop", "card powers", "power 1 move blue figure 0-1")
    assert legal(s) == ["power 1 move blue figure 0-1", "stop"]
    play(s, "power 1 move blue figure 0-1")
    assert s.plain[0:2] == [0, 2] and s.to_move == YELLOW  # none left there: the power ends by itself


def test_view_shows_the_common_cards_each_seat_holds(pos):
    s = pos(3, {BLUE: {2: "F"}})
    s.held[YELLOW * 4 + 3] = 1
    s.deck[3] -= 1
    v = s.view(BLUE)
    assert [p["held_common"] for p in v["seats"]] == [{}, {"ufo-advance": 1}, {}]


def test_town_hall_skill_decision_names_the_revealed_card(pos):
    s = pos(3, {BLUE: {2: "F"}}, options={"skill_tiles": True}, skills={0: BLUE}, deck=UFO_ONLY)
    play(s, "stop", "card common")
    assert s.view(BLUE)["decision"] == ("skill tile 0: keep the revealed ufo-advance or reject it and reveal "
                                        "another")


def test_mind_control_with_nobody_present_is_logged_as_all_to_the_bag(pos):
    s = pos(3, {BLUE: {1: "F"}}, focus={3: "RR"})
    s.bag = [sum(s.bag), 0, 0, 0]
    play(s, "stop", "card confluence", "place politician 3")
    assert "Mind control at 3 Shopping Mall: nobody there, all humans went to the bag" in [e["text"] for e in s.log(0)]


def test_test_positions_keep_all_60_humans(pos):
    """`from_position` (test support) puts replaced focus humans back in the bag: 60 humans in all."""
    s = pos(3, {BLUE: {1: "F"}}, focus={3: "RR", 5: "PI"}, humans={BLUE: [1, 2, 0, 0]})
    assert s.component_counts()["humans"] == 60 and min(s.bag) >= 0
    for t in range(4):  # 15 of each type
        where = s.bag[t] + sum(s.focus[i * 4 + t] for i in range(7)) + sum(s.hum[p * 4 + t] for p in range(3))
        assert where + s.abd_human.count(t) == 15
    assert s.focus[3 * 4:4 * 4] == [0, 0, 0, 2] and s.focus[5 * 4:6 * 4] == [1, 0, 1, 0]


def test_sheriff_skill_tile_moves_the_chosen_players_figure(pos):
    """Skill 1: "move any one alien figure of any player from any location to the Sheriff's Office"."""
    s = pos(3, {BLUE: {2: "F"}, YELLOW: {4: "LF"}}, options={"skill_tiles": True}, skills={1: BLUE})
    play(s, "stop", "skill 1 move yellow figure 4-1")
    assert s.plain[YELLOW * 7 + 1] == 1 and s.plain[YELLOW * 7 + 4] == 0 and s.plain[BLUE * 7 + 2] == 1


def test_one_power_forced_location_is_used_up_for_the_next_player(pos):
    """ "Each location may only have its Power Event exerted one time during the activation of a single card":
    blue leads only the Bus Station (exerted without asking) and repositions away, so yellow now leads it but may
    not exert it again."""
    s = pos(3, {BLUE: {6: "LF"}, YELLOW: {6: "F"}}, rank=[BLUE, YELLOW, PURPLE], deck=[0, 2, 0, 0])
    play(s, "stop", "card common")
    assert s.to_move == BLUE and s.view(None)["phase"] == "reposition figures"
    play(s, "reposition leader 6-3", "reposition figure 6-3", "done")
    assert s._top(6) == YELLOW and s.to_move == YELLOW and s.view(None)["phase"] == "movement"


def test_university_distinguishing_keeps_seven_figures_per_faction(pos):
    s = pos(3, {BLUE: {2: "LFF", 3: "FFFF"}, YELLOW: {1: "FFFFFFL"}, PURPLE: {4: "LFFFFFF"}})
    play(s, "stop", "card powers", "power 2 graduate")
    assert s.dist[BLUE * 7] == 1 and s.component_counts()["figures"] == 21


def test_news_station_alternate_decision_and_log_name_what_is_left_and_the_alternate_tile(pos):
    s = pos(3, {BLUE: {4: "L"}}, humans={BLUE: [1, 0, 0, 1]}, options={"alternate_tiles": [4]})
    s.bag = [sum(s.bag), 0, 0, 0]
    play(s, "stop", "card powers", "power 4 draw three", "power 4 return politician")
    assert s.view(BLUE)["decision"] == "News Station*: return 2 more of your humans to the bag"
    assert "Player 1 exerted the power of 4 News Station*" in [e["text"] for e in s.log(BLUE)]


def test_one_power_goes_round_from_the_player_who_drew_it_after_a_forced_location(pos):
    """One Power Event: starting with the player who drew it, each player exerts one location where they have the
    most influence. Yellow draws it and leads only the University (exerted without asking); the next player in
    order is purple, then blue, whatever happened before."""
    s = pos(3, {YELLOW: {2: "F"}, PURPLE: {3: "F", 5: "F"}, BLUE: {1: "F", 4: "F"}}, active=YELLOW,
            deck=[0, 2, 0, 0])
    play(s, "stop", "card common")
    assert s.to_move == YELLOW and s.view(None)["phase"] == "university power"
    play(s, "skip")
    assert s.to_move == PURPLE and sorted(legal(s)) == ["exert 3", "exert 5"]
    play(s, "exert 5", "skip")
    assert s.to_move == BLUE and s.view(None)["phase"] == "one power" and sorted(legal(s)) == ["exert 1", "exert 4"]
