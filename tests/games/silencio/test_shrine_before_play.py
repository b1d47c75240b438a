"""Audit 10 (ruling C-4 revised, C-5): a start-of-turn shrine may make a player who cannot play able to play.

"At the beginning or at the end of your turn you may take any light shrine ... A free additional effect! But only if
you do not pass!" -- taken at the beginning, its effect can be what lets the player play (a blue light taking a card
back, a green light bringing a playable oracle card), and then the player does not pass.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tabletop
from tabletop.core import Rng
from tabletop.games.silencio.notation import BLUE, LARGE, START, parse_card
from tabletop.games.silencio.rules import SilencioState

from .support import NO_SHRINES, hand, legal, pos, run

RECORDS = Path(__file__).parent / "records"
# Rules version 1 (ruling C-4 before audit 10) ended this game after its 20 actions: p1 could not play, the game was
# declared over with 7 cards left although p1 could have taken r8 back with the unused blue shrine and played.
OLD_RESULT_V1 = {"over": True, "cards_left": 7}
# Rules version 2 made that shrine compulsory and ended the game with 5 cards left after 27 actions; version 3
# (issue 20, points 15 and 16) makes it optional again (p1 takes it) and plays p1's last play, its only one, for it:
# the same game in 26 actions, 5 cards left.
OLD_RESULT_V2 = {"actions": 27, "cards_left": 5}


def test_a_record_of_rules_version_1_is_refused_naming_both_versions():
    record = json.loads((RECORDS / "shrine-before-play-seed54-v1.json").read_text())
    assert record["version"] == "1"
    with pytest.raises(tabletop.InvalidRecord, match=r"'1'.*'3'"):
        tabletop.replay(record)


def test_a_record_of_rules_version_2_is_refused_naming_both_versions(tmp_path):
    record = json.loads((RECORDS / "shrine-before-play-seed54-v2.json").read_text())
    assert record["version"] == "2" and len(record["actions"]) == OLD_RESULT_V2["actions"]
    with pytest.raises(tabletop.InvalidRecord, match=r"Silencio rules version '2'; this engine plays version '3'"):
        tabletop.replay(record)
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps(record))
    with pytest.raises(tabletop.InvalidRecord, match=r"'2'.*'3'"):
        tabletop.load_record(saved)


def test_shrine_at_the_start_lets_a_player_who_cannot_play_take_a_card_back_and_play_seed_54():
    """The audit's example, re-versioned: the same 20 actions no longer end the game."""
    v1 = json.loads((RECORDS / "shrine-before-play-seed54-v1.json").read_text())
    v2 = json.loads((RECORDS / "shrine-before-play-seed54-v2.json").read_text())
    v3 = json.loads((RECORDS / "shrine-before-play-seed54-v3.json").read_text())
    assert v3["version"] == "3" and v3["actions"][:20] == v1["actions"] and v3["seed"] == v1["seed"] == 54
    assert v3["actions"] == v2["actions"][:-1]  # v2's last action, "play r8", is now p1's only play, made for it
    s = tabletop.replay(v3, upto=20)
    assert s.cards_left() == OLD_RESULT_V1["cards_left"] and OLD_RESULT_V1["over"]
    # now: no card can be played, but p1 can play after the blue shrine, so the game goes on; p1 may take the shrine
    # or pass (C-4, version 3)
    assert not s.is_over and s.to_move == 1 and legal(s) == ["pass", "shrine blue"]
    run(s, "shrine blue")
    assert legal(s) == ["take g6", "take r8", "take y8"]  # no skip: the shrine was taken to become able to play
    run(s, "take r8")
    assert legal(s) == ["play r5", "play r7", "play r8"]  # no pass
    end = tabletop.replay(v3)
    assert end.is_over and end.cards_left() == OLD_RESULT_V2["cards_left"] and end.result_tier() == "keep_trying"
    assert end.events[-1] == ("play", 1, parse_card("r8"), "dark")
    # declining the shrine: p1 passes, and so does p0, which could play only after a shrine too: every player has
    # passed in succession, which ends the game (C-5, version 3) with the 7 cards of version 1
    s = tabletop.replay(v3, upto=20)
    run(s, "pass")
    assert not s.is_over and s.to_move == 0 and legal(s) == ["pass", "shrine blue"]
    run(s, "pass")
    assert s.is_over and s.cards_left() == OLD_RESULT_V1["cards_left"] and s.events[-2:] == [("pass", 1), ("pass", 0)]


def test_player_who_could_play_only_after_a_shrine_may_take_it_or_pass():
    # "At the beginning or at the end of your turn you may take any light shrine": the shrine that would make p1
    # able to play is offered, not imposed; "If on your turn you cannot play a card ... you must pass" (C-4 v3)
    s = pos(2, [["r8", "y8"], ["b2"]], rows={"blue": [5], "red": [3]}, to_move=1)
    assert legal(s) == ["pass", "shrine blue", "shrine large blue"]
    run(s, "shrine large blue")  # then its only take, r3, and its only play, r3, are made for it (C-9)
    assert s.events[-3:] == [("shrine", 1, LARGE, BLUE), ("take", 1, parse_card("r3")),
                             ("play", 1, parse_card("r3"), "light")]
    assert hand(s, 1) == ["b2"] and s.shrines == [True, True, True, True, False]
    s = pos(2, [["r8", "y8"], ["b2"]], rows={"blue": [5], "red": [3]}, to_move=1)
    run(s, "pass")
    assert s.events == [("pass", 1)] and s.to_move == 0 and s.shrines == [True] * 5


def test_green_shrine_at_the_start_swaps_a_playable_oracle_card_chosen_by_the_player_itself():
    s = pos(2, [["r8", "r7"], ["b2", "y2"]], rows={"blue": [5], "red": [3], "yellow": [4]}, oracle=["b7", "r2"],
            to_move=1, shrines=[True, False, True, True, False])
    assert legal(s) == ["pass", "shrine green"]
    run(s, "shrine green")  # choosing itself is its only choice: another player's choices would not be the
    assert s.events[-1] == ("choose", 1, 1)  # player's own way to play; it is made for it (C-9)
    assert legal(s) == ["swap b7 for b2", "swap b7 for y2"]  # only the playable oracle card; no give, no renew
    run(s, "swap b7 for y2")
    assert ("play", 1, parse_card("b7"), "light") in s.events  # its only play


def test_under_green_dark_only_a_green_card_taken_back_makes_a_player_able_to_play():
    s = pos(2, [["r8", "g3"], ["b2"]], rows={"red": [3], "green": [4, 5]}, to_move=1, green_only=True)
    assert legal(s) == ["pass", "shrine blue", "shrine large blue"]
    run(s, "shrine blue")  # its only take, g5, then its only play, g5 (C-9)
    assert s.events[-2:] == [("take", 1, parse_card("g5")), ("play", 1, parse_card("g5"), "dark")]
    s = pos(2, [["r8"], ["b2"]], rows={"red": [3]}, to_move=1, green_only=True, shrines=[True] * 5)
    assert s.is_over  # only a red card could come back, and it could not be played under green dark


def test_player_holding_no_card_must_pass_even_when_a_shrine_could_give_one():
    # "If on your turn you cannot play a card, or you have no cards in hand, you must pass."
    s = pos(2, [[], ["b2"]], rows={"blue": [5], "red": [3]}, to_move=0)
    assert s.events[0] == ("pass", 0) and s.to_move == 1 and legal(s) == ["pass", "shrine blue", "shrine large blue"]


def test_a_start_of_turn_shrine_offers_only_choices_after_which_the_player_can_still_play():
    # a player who could play keeps every choice that cannot take its play away (skip included) ...
    s = pos(2, [["r3"], ["b2", "g8"]], rows={"red": [2], "blue": [5]})
    run(s, "shrine blue")
    assert legal(s) == ["skip", "take r2"]
    # ... but its own give or swap that would leave it nothing to play is not offered: choosing itself, p0 can only
    # change the oracle (not give r3, its only card and play), which is then done for it (C-9)
    s = pos(2, [["r3"], ["b2", "g8"]], rows={"red": [2], "blue": [5]}, shrines=[True, False, True, True, False])
    run(s, "shrine green")
    assert legal(s) == ["choose p0", "choose p1", "skip"]
    run(s, "choose p0")
    assert s.events[-3:-1] == [("choose", 0, 0), ("renew", 0)] and s.events[-1][:3] == ("play", 0, parse_card("r3"))
    s = pos(2, [["r3", "b3"], ["g8"]], rows={"red": [2], "blue": [5]}, oracle=["y8", "b4"],
            shrines=[True, False, True, True, False])
    run(s, "shrine green", "choose p0")
    assert "swap y8 for r3" in legal(s) and "swap b4 for r3" not in legal(s) and "swap b4 for b3" in legal(s)
    assert "give b3 to p1" in legal(s) and "give r3 to p1" not in legal(s)
    # at the end of the turn the effect is free: the player has played already
    s = pos(2, [["r3", "y4"], ["b2", "g8"]], rows={"red": [2], "blue": [5]}, shrines=[True, False, True, True, False])
    run(s, "play y4", "skip", "shrine green", "choose p0", "give r3 to p1")
    assert legal(s) == ["return b2", "return g8", "return r3"]


# ---- the shortcut the engine uses agrees with a search of every way to carry out each shrine ------------------
SHRINE_TEXTS = ["shrine red", "shrine blue", "shrine yellow", "shrine green",
                "shrine large red", "shrine large blue", "shrine large yellow", "shrine large green"]


def _able_after(state: SilencioState, p: int, text: str) -> bool:
    """Search: can p, taking shrine `text` now and making every choice of its effect itself, then play?"""
    words = text.split()
    index = 4 if words[1] == "large" else ["red", "blue", "yellow", "green"].index(words[1])
    if not state.shrines[index]:
        return False
    s = state.clone()
    s._take_shrine(p, index, ["red", "blue", "yellow", "green"].index(words[-1]))
    s.enable = False  # explore every choice, not only those the engine offers
    s._legal = None
    return _search(s, p, len(s.events))


def _search(s: SilencioState, p: int, n: int) -> bool:
    if any(e[0] == "play" and e[1] == p for e in s.events[n:]):
        return True  # its only play, made for it (C-9)
    if s.phase == START:
        return s.to_move == p and s.turn == p and s._can_play(p)
    if s.to_move != p or s.is_over:
        return False  # another seat decides: not the player's own way to play
    for a in s.legal_actions():
        t = s.clone()
        t.apply(a)
        if _search(t, p, n):
            return True
    return False


def _random_states(players: int, seeds: range):
    for seed in seeds:
        s = tabletop.new_game("silencio", players, seed)
        rng = Rng(seed + 17)
        while not s.is_over:
            yield s
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
        yield s


def test_shrines_offered_to_a_player_who_cannot_play_are_exactly_those_after_which_it_can_play():
    checked = 0
    for players in (2, 3, 4):
        for s in _random_states(players, range(80)):
            if s.is_over or s.phase != START or s.shrine_taken:
                continue
            p = s.to_move
            offered = {a for a in legal(s) if a.startswith("shrine")}
            if s._can_play(p):
                continue
            held = s.hands[p] or s.fronts[p]
            want = {t for t in SHRINE_TEXTS if held and _able_after(s, p, t)}
            assert offered == want, (s.snapshot(), offered, want)
            assert "pass" in legal(s)  # C-4, version 3: the shrine is offered, never imposed
            if want:
                checked += 1
                for t in sorted(want):  # every choice the engine then offers leads to a play
                    u = s.clone()
                    n = len(u.events)
                    u.apply(t)
                    while not any(e[0] in ("play", "pass") and e[1] == p for e in u.events[n:]):
                        if u.phase == START and u.to_move == p:
                            assert u._can_play(p) and "pass" not in legal(u)
                            break
                        u.apply(u.legal_actions()[-1])
                    else:
                        assert next(e for e in u.events[n:] if e[0] in ("play", "pass") and e[1] == p)[0] == "play"
    assert checked >= 15


def test_game_ends_exactly_when_no_player_can_play_even_after_a_shrine_or_all_have_passed_in_succession():
    """C-5 with C-4: over iff every player has passed in succession (no card played between), or
    no card anywhere is playable and no player holding a card could play after a shrine."""
    ends = rounds = 0
    for players in (2, 3, 4):
        for s in _random_states(players, range(25)):
            if s.is_over and s.cards_left():
                ends += 1
                tail = s.events[-players:]
                if all(e[0] == "pass" for e in tail) and [e[1] for e in tail] == [
                        (tail[0][1] + i) % players for i in range(players)]:
                    rounds += 1
                    continue
                assert not s._any_playable()
                for p in range(players):
                    t = s.clone()
                    t.phase, t.turn, t.to_move, t.shrine_taken = START, p, p, False
                    if t.hands[p] or t.fronts[p]:
                        assert not any(_able_after(t, p, x) for x in SHRINE_TEXTS)
    assert ends >= 30


def test_with_every_shrine_dark_the_game_ends_when_no_card_can_be_played():
    s = pos(2, [["r2"], ["y2"]], rows={"red": [8], "yellow": [3, 8]}, shrines=NO_SHRINES)
    assert s.is_over and s.cards_left() == 2


def test_a_shrine_taken_at_the_start_of_a_turn_is_followed_by_a_play_unless_only_others_face_up_cards_fit():
    """ "A free additional effect! But only if you do not pass!" -- over random games, whoever makes the choices: the
    player's own choices keep it a play (C-4, version 3), and it passes only by the yellow light's leave (C-8)."""
    taken = c8 = 0
    for players in (2, 3, 4):
        for seed in range(40):
            s = tabletop.new_game("silencio", players, seed)
            rng = Rng(seed + 5)
            watch: int | None = None
            while not s.is_over:
                legal_now = s.legal_actions()
                shrines = [a for a in legal_now if a.verb == "shrine"]
                at_start = s.phase == START
                a = shrines[rng.below(len(shrines))] if shrines and at_start else legal_now[rng.below(len(legal_now))]
                if watch is not None and at_start and s.to_move == watch and a.verb == "pass":
                    own = [*s.hands[watch], *s.fronts[watch]]
                    assert not any(s._playable(c) for c in own) and s._can_play(watch), (players, seed)
                    c8, watch = c8 + 1, None
                n = len(s.events)
                s.apply(a)
                if at_start and a.verb == "shrine":
                    watch, taken = s.turn, taken + 1
                for e in s.events[n:]:
                    if watch is not None and e[0] in ("play", "pass") and e[1] == watch:
                        assert e[0] == "play", (players, seed, s.events[-8:])
                        watch = None
    assert taken >= 100 and c8 >= 1


def test_a_card_in_front_of_another_player_keeps_the_player_able_to_play_during_a_start_of_turn_shrine():
    # p0 could play r3 or p1's face-up y4; giving r3 away still leaves y4: every give-back is offered (C-1, C-8)
    s = pos(2, [["r3"], ["b2", "g8"]], rows={"red": [2], "blue": [5]}, fronts=[[], ["y4"]],
            shrines=[True, False, True, True, False])
    run(s, "shrine green", "choose p0", "give r3 to p1")
    assert legal(s) == ["return b2", "return g8", "return r3"]
    run(s, "return b2")
    assert legal(s) == ["pass", "play y4"]  # C-8: only another player's face-up card fits, also after a shrine


def test_a_player_holding_only_a_card_in_front_of_it_can_take_a_card_back_but_cannot_swap_with_the_oracle():
    # p1's hand is empty, its face-up y2 cannot be laid: it holds a card (C-1), so the blue shrine can make it able
    # to play; the green oracle swap needs a hand card to put back, so the green shrine cannot
    s = pos(2, [["r8"], []], rows={"red": [3], "yellow": [5], "blue": [5]}, fronts=[[], ["y2"]], oracle=["b7"],
            to_move=1)
    assert s.to_move == 1 and legal(s) == ["pass", "shrine blue", "shrine large blue"]
    s = pos(2, [["r8"], []], rows={"red": [3], "yellow": [5], "blue": [5]}, fronts=[[], ["y2"]], oracle=["b7"],
            to_move=1, shrines=[True, False, True, True, False])
    assert s.events[0] == ("pass", 1)


def test_a_sample_never_leaves_the_seat_to_move_fewer_than_two_legal_actions():
    """The seat to move is being asked, so it has two legal actions at least (one would be taken for it, C-9); a
    seat that took a shrine at the start of its turn is bound to play (C-4). A sample another seat draws must deal
    it a hand that agrees (the sampler deals again when a deal leaves the seat to move fewer than two)."""
    import random

    checked = 0
    for game in range(40):
        rng = random.Random(game)
        s = tabletop.new_game("silencio", 3, seed=game, options={"dark_shrines": "none"})
        while not s.is_over:
            q = s.to_move
            if q is not None and s.phase == START:
                seat = (q + 1) % 3
                for k in range(3):
                    assert len(s.sample(seat, 1000 * game + k).legal_actions()) >= 2, (game, seat, k)
                    checked += 1
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 500


@pytest.mark.parametrize("players", [3, 4])
def test_a_sample_during_a_start_of_turn_shrine_keeps_what_the_shrine_told_of_the_player_in_turn(players):
    """Ruling C-4: a player in turn that took a shrine at the start of its turn either could play then (KEEP: its own
    choices keep it a card to play) or could not (UNLOCK: the shrine is what lets it play, its hand unchanged until
    the effect is over). Everyone at the table can tell which, so another seat's sample deals that player a hand that
    agrees; otherwise its give-back or its play has no legal action (the dead end the search once met, seed 8 of
    tests/agents/test_ismcts.py). And a random game from any sample reaches its end with a legal action at every
    decision."""
    import random

    from tabletop.games.silencio.rules import KEEP

    during = playouts = 0
    for game in range(150):
        rng = random.Random(game)
        s = tabletop.new_game("silencio", players, seed=game)
        while not s.is_over:
            if s.enable:
                assert s._can_play(s.turn) == (s.enable == KEEP), (game, "the true state itself")
                for seat in range(players):
                    if seat == s.turn:
                        continue
                    for k in range(2):
                        t = s.sample(seat, 1000 * game + k)
                        assert t._can_play(t.turn) == (t.enable == KEEP), (game, seat, k)
                        during += 1
                        future = random.Random(k)
                        while not t.is_over:
                            actions = t.legal_actions()
                            assert actions, (game, seat, k, "a decision with no legal action")
                            t.apply(future.choice(actions))
                        playouts += 1
            s.apply(rng.choice(s.legal_actions()))
    assert during > 300 and playouts == during
