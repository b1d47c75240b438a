"""Shrines, the Tavern variant and the Dark Shrines variant."""

from __future__ import annotations

import pytest

import tabletop
from tabletop.core import IllegalAction
from tabletop.games.silencio.notation import LARGE, parse_card

from .support import NO_SHRINES, SHRINES_ALL, hand, legal, pos, rows, run

TAVERN = {"variant": "tavern"}
ONLY_RED = [True, False, False, False, False]
NO_UNLOCK = [True, False, True, True, False]  # blue and large dark: no shrine lets a player who cannot play play


# ---- Shrines -------------------------------------------------------------------------------------------------
def test_shrine_may_be_taken_at_the_start_of_the_turn():
    s = pos(2, [["r3", "g8"], ["b8"]], rows={"red": [2]})
    assert set(SHRINES_ALL) <= set(legal(s))
    run(s, "shrine yellow")
    assert legal(s) == ["place g8", "place r3", "skip"]
    run(s, "place g8")
    assert s.view(0)["phase"] == "start of turn" and legal(s) == ["play g8", "play r3"]  # no second shrine
    run(s, "play r3")
    assert s.to_move == 1  # the turn ends: a shrine was already taken


def test_shrine_may_be_taken_at_the_end_of_the_turn():
    s = pos(2, [["r3", "g8"], ["b8"]], rows={"red": [2]})
    run(s, "play r3")
    assert s.view(0)["phase"] == "end of turn" and legal(s) == sorted([*SHRINES_ALL, "end"])
    run(s, "shrine blue", "take r3")
    assert s.to_move == 1 and hand(s, 0) == ["g8", "r3"] and rows(s)["red"] == [2]


def test_shrine_at_most_one_per_turn_never_when_passing():
    s = pos(2, [["r3", "g8"], ["b2"]], rows={"red": [2], "blue": [5]}, shrines=NO_UNLOCK)
    run(s, "shrine red", "skip", "play r3")
    assert s.to_move == 0  # p1 could not play: it passed without any shrine decision (C-9)
    assert s.events[-1] == ("pass", 1) and not any(e[0] == "shrine" and e[1] == 1 for e in s.events)
    # a player who may pass (only another player's face-up card fits) gets no shrine when passing
    s = pos(2, [["r8"], ["b2"]], rows={"blue": [5], "red": [3]}, fronts=[["y4"], []], to_move=1)
    run(s, "pass")
    assert s.to_move == 0 and s.shrines == [True] * 5


def test_shrine_at_the_start_only_when_the_player_can_play_or_can_after_it():
    # p1 cannot play at all, and no light shrine would change that (blue and large dark; green: no playable oracle
    # card): no shrine, only the pass (taken for it) -- here the tavern keeps the decision open
    s = pos(2, [["r8"], ["b2"]], rows={"blue": [5], "red": [3]}, oracle=["b3"], to_move=1, options=TAVERN,
            tavern_open=True, shrines=NO_UNLOCK)
    assert "pass" in legal(s) and not any(a.startswith("shrine") for a in legal(s))
    # the blue shrine would let p1 take r3 back and play it: p1 may take it, or pass (ruling C-4, version 3: the
    # shrine is a "may"); only the shrines that can make it able to play are offered (not red, not yellow, not
    # large red/yellow)
    s = pos(2, [["r8"], ["b2"]], rows={"blue": [5], "red": [3]}, oracle=["b3"], to_move=1)
    assert legal(s) == ["pass", "shrine blue", "shrine large blue"]
    # a playable oracle card and a hand card to swap for it: the green shrine (p1 chooses itself) too
    s = pos(2, [["r8"], ["b2"]], rows={"blue": [5], "red": [3]}, oracle=["b7"], to_move=1)
    assert legal(s) == ["pass", "shrine blue", "shrine green", "shrine large blue", "shrine large green"]


def test_after_a_start_of_turn_shrine_a_player_able_only_with_another_players_face_up_card_may_still_pass():
    # ruling C-8, version 3: the yellow light's "may pass" has no exception for a shrine taken at the start
    s = pos(2, [["r8"], ["b2"]], rows={"blue": [5], "red": [3]}, fronts=[["y4"], []], to_move=1)
    assert "pass" in legal(s)  # C-8
    run(s, "shrine red", "skip")
    assert legal(s) == ["pass", "play y4"]
    run(s, "pass")
    assert s.events[-1] == ("pass", 1) and s.turn == 0


def test_shrine_effect_at_the_start_never_leaves_the_player_without_a_play_by_its_own_choice():
    # ruling C-4, version 3: p0's own give and swaps keep it a card to play (not "give r3", its only play) ...
    s = pos(2, [["r3", "b3"], ["b2", "g8"]], rows={"red": [2], "blue": [5]}, oracle=["y8"])
    run(s, "shrine green", "choose p0")
    assert legal(s) == ["give b3 to p1", "renew oracle", "swap y8 for b3", "swap y8 for r3"]
    # ... while p1's give-back is free
    run(s, "give b3 to p1")
    assert legal(s) == ["return b2", "return b3", "return g8"]
    run(s, "return b2")
    assert s.shrines[3] is False and s.events[-1] == ("play", 0, parse_card("r3"), "dark")  # its only play (C-9)
    assert hand(s, 0) == ["b2"]


def test_large_shrine_gives_any_light_effect():
    s = pos(2, [["r3", "g8"], ["b8"]], rows={"yellow": [2, 4]})
    assert [a for a in legal(s) if "large" in a] == sorted(a for a in SHRINES_ALL if "large" in a)
    run(s, "shrine large blue")
    assert legal(s) == ["skip", "take y4"]
    run(s, "take y4")
    assert s.shrines == [True, True, True, True, False] and hand(s, 0) == ["g8", "r3", "y4"]
    assert s.view(1)["shrines"]["large"] == "dark" and s.view(1)["shrines"]["blue"] == "light"


@pytest.mark.parametrize("colour", ["red", "blue", "yellow", "green"])
def test_small_shrine_gives_its_own_colour_light_effect_and_turns_dark(colour):
    s = pos(2, [["r3", "g8"], ["b8"]], rows={"yellow": [2], "red": [2]}, oracle=["b2", "b3"])
    run(s, f"shrine {colour}")
    first = {"red": "use red light", "blue": "take y2", "yellow": "place g8", "green": "choose p0"}[colour]
    assert first in legal(s) and "skip" in legal(s)
    assert s.view(1)["shrines"][colour] == "dark"
    run(s, "skip", "play r3")
    assert s.to_move == 1 and "shrine large red" in legal(s)
    assert f"shrine {colour}" not in legal(s)  # each shrine can be used only once


def test_shrine_actions_are_refused_once_dark():
    s = pos(2, [["r3", "g8"], ["b8"]], shrines=ONLY_RED)
    assert [a for a in legal(s) if a.startswith("shrine")] == ["shrine red"]
    with pytest.raises(IllegalAction, match="legal: play r3"):
        s.apply("shrine blue")


@pytest.mark.parametrize(
    ("option", "lit"),
    [("none", [True] * 5), ("large", [True, True, True, True, False]), ("small", [False, False, False, False, True]),
     ("all", [False] * 5)],
)
def test_dark_shrines_variant_options(option, lit):
    s = tabletop.new_game("silencio", 3, 2, {"dark_shrines": option})
    assert s.shrines == lit
    assert s.view(None)["shrines"] == {n: "light" if x else "dark" for n, x in
                                       zip(["red", "blue", "yellow", "green", "large"], lit, strict=True)}


# ---- Tavern --------------------------------------------------------------------------------------------------
def _dark_plays(n: int, **kw):
    """p0 and p1 alternate red follow-on cards: r2, r3, r4, ... each creates a dark effect (none is a last card)."""
    hands = [["r2", "r4", "r6", "g8"], ["r3", "r5", "r7", "b8"]]
    s = pos(2, hands, options=TAVERN, shrines=NO_SHRINES, **kw)
    for v in range(2, 2 + n):
        run(s, f"play r{v}")
    return s


@pytest.mark.parametrize(("dark", "opened"), [(0, False), (1, False), (2, False), (3, True)])
def test_tavern_opens_at_third_dark_effect(dark, opened):
    s = _dark_plays(dark)
    assert s.tavern_open is opened and s.view(0)["tavern"]["open"] is opened
    assert s.view(1)["tavern"]["dark_effects"] == dark


def test_tavern_opens_at_third_dark_effect_and_again_after_three_more():
    s = _dark_plays(3)
    assert s.to_move == 1 and s.tavern_open
    phrases = [a.text for a in s.legal_actions() if a.text.startswith("tavern")]
    assert phrases == ["tavern count 0", "tavern count 1", "tavern count 2", "tavern count 3",
                       "tavern high red", "tavern high blue", "tavern high yellow", "tavern high green",
                       "tavern avoid red", "tavern avoid blue", "tavern avoid yellow", "tavern avoid green"]
    run(s, "tavern avoid yellow")
    assert not s.tavern_open and s.tavern_count == 0 and s.to_move == 1
    assert not any(a.startswith("tavern") for a in legal(s))  # one phrase, then the card is closed
    for seat in (None, 0, 1):
        assert s.view(seat)["said"] == [[1, "Please do not play yellow cards."]]
    run(s, "play r5", "play r6")
    assert not s.tavern_open and s.tavern_count == 2
    run(s, "play r7")
    assert s.tavern_open and s.to_move == 0 and "tavern count 1" in legal(s) and "tavern count 2" not in legal(s)


def test_tavern_dark_effects_created_while_open_do_not_count():
    s = _dark_plays(5)  # opened at the third, two more while open and untaken
    assert s.tavern_open and s.tavern_count == 3
    run(s, f"tavern count {len(s.hands[s.to_move])}")
    assert s.tavern_count == 0 and not s.tavern_open


def test_tavern_dark_effect_skipped_by_red_light_still_counts():
    s = pos(2, [["r3", "g8"], ["b2", "b8"]], options=TAVERN, shrines=NO_SHRINES, tavern_count=2)
    run(s, "play r3", "use red light", "play b2")
    assert s.events[-1][3] == "dark skipped" and s.tavern_open


def test_tavern_only_at_the_start_of_a_turn():
    s = pos(2, [["r3", "g8"], ["b8"]], rows={"red": [2]}, options=TAVERN, tavern_open=True)
    assert "tavern count 0" in legal(s)
    run(s, "play r3")
    assert not any(a.startswith("tavern") for a in legal(s)) and "end" in legal(s)


def test_tavern_may_be_taken_by_a_player_who_cannot_play_who_then_passes():
    s = pos(2, [["r8"], ["b2", "g2"]], rows={"blue": [5], "red": [3], "green": [4]}, to_move=1, options=TAVERN,
            tavern_open=True, shrines=NO_UNLOCK)
    assert legal(s)[0] == "pass" and "tavern count 2" in legal(s)
    run(s, "tavern count 2")
    assert s.events[-1] == ("pass", 1) and s.to_move == 0 and s.said == [(1, "I have 2 card(s) that I cannot play.")]


def test_tavern_phrases_are_free_choices_not_checked_for_truth():
    s = pos(2, [["r3", "g8"], ["b8"]], options=TAVERN, tavern_open=True)
    run(s, "tavern count 0", "play r3", "skip", "end")  # p0 says it has no unplayable card: not checked
    assert s.view(1)["said"] == [[0, "I have 0 card(s) that I cannot play."]]
    assert any('Player 1 said at the tavern: "I have 0' in e["text"] for e in s.view(1)["log"])


def test_tavern_absent_without_the_variant():
    s = _dark_plays(0)
    s2 = pos(2, [["r2", "g8"], ["r3", "b8"]], shrines=NO_SHRINES)
    run(s2, "play r2", "play r3")
    assert s2.view(0)["tavern"] is None and s.view(0)["tavern"] is not None
    assert s2.tavern_count == 0 and parse_card("r2") not in s2.hands[0]


def test_large_shrine_constant_is_the_fifth_shrine():
    assert LARGE == 4


def test_shrine_whose_effect_has_no_use_is_still_used_up():
    s = pos(2, [["r3", "g8"], ["b8"]], rows={"red": [2]})
    run(s, "shrine large blue")  # no non-blue row holds a card other than red 2... take it or skip
    assert legal(s) == ["skip", "take r2"]
    s2 = pos(2, [["r3", "g8"], ["b8"]])
    run(s2, "shrine blue")  # no row to take from: nothing happens, the shrine is dark, p0 still plays
    assert s2.shrines[1] is False and s2.to_move == 0 and legal(s2) == ["play g8", "play r3"]
