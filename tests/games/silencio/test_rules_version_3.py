"""Rules version 3 (issue 20, points 15 and 16): rulings C-4, C-5, C-8 and C-9 as revised.

"At the beginning or at the end of your turn you may take any light shrine"; "If on your turn you cannot play a
card, or you have no cards in hand, you must pass"; "The chosen player gives any other player a card from their
hand. Then that player gives them a card from their hand"; "If all players pass, the game ends"; and a decision
with no real choice is not asked.
"""

from __future__ import annotations

import tabletop
from tabletop.core import Rng
from tabletop.core.logwords import plain_entry as plain
from tabletop.games.silencio.notation import START, parse_card

from .support import NO_SHRINES, legal, pos, run


def test_the_game_ends_when_every_player_has_passed_in_succession_with_no_card_played():
    # each player could take r3 back with the blue shrine and play it, and each declines: after the third pass in
    # a row the game is over (C-5, version 3), although a shrine could still make a player able to play
    s = pos(3, [["b2"], ["b3"], ["b4"]], rows={"red": [3], "blue": [10]}, to_move=0)
    for p in range(3):
        assert not s.is_over and s.to_move == p and legal(s) == ["pass", "shrine blue", "shrine large blue"]
        run(s, "pass")
    assert s.is_over and s.events == [("pass", 0), ("pass", 1), ("pass", 2)] and s.cards_left() == 3


def test_a_card_played_starts_the_round_of_passes_again():
    s = pos(3, [["b2", "r4", "r5"], ["b3"], ["b4"]], rows={"red": [3], "blue": [10]}, to_move=1)
    run(s, "pass", "pass")  # p1 and p2 decline the blue shrine
    assert s.to_move == 0 and s.passes == 2
    run(s, "play r4", "end")  # p0 plays (a red dark): the count starts again
    assert s.passes == 0 and not s.is_over and s.to_move == 1


def test_the_other_players_choices_inside_a_start_of_turn_shrine_are_free():
    # "The chosen player gives any other player a card from their hand. Then that player gives them a card from
    # their hand": p0 takes the green shrine at the start of its turn; p1, chosen, has every green action ...
    s = pos(2, [["r4", "b2"], ["y8", "g8"]], rows={"red": [3], "blue": [5]}, oracle=["y3"],
            shrines=[True, False, True, True, False])
    run(s, "shrine green", "choose p1")
    assert legal(s) == ["give g8 to p0", "give y8 to p0", "renew oracle", "swap y3 for g8", "swap y3 for y8"]
    # ... and when p0 chooses itself and gives, p1 gives back any card of its hand
    s = pos(2, [["r4", "b2"], ["y8", "g8"]], rows={"red": [3], "blue": [5]}, oracle=["y3"],
            shrines=[True, False, True, True, False])
    run(s, "shrine green", "choose p0")
    assert legal(s) == ["give b2 to p1", "renew oracle", "swap y3 for b2", "swap y3 for r4"]  # its own: not r4
    run(s, "give b2 to p1")
    assert legal(s) == ["return b2", "return g8", "return y8"]


def test_a_decision_with_one_legal_answer_is_taken_for_the_seat_and_logged_as_if_chosen():
    # after p0's red dark, y8 is p1's only play: p1 is not asked, the engine plays it (C-9, version 3)
    s = pos(2, [["r4", "b6", "g7", "g8"], ["y8", "b3"]], rows={"red": [3], "blue": [5]}, shrines=NO_SHRINES)
    s.track_undo()
    run(s, "play r4")
    assert s.events == [("play", 0, parse_card("r4"), "dark"), ("play", 1, parse_card("y8"), "light skipped")]
    assert s.to_move == 0 and s.history == ["play r4"]  # the record holds only the decisions asked
    forced = s.log(None)[-1]
    # the same words as the same play chosen among two
    t = pos(2, [["r4", "b6", "g7", "g8"], ["y8", "y7", "b3"]], rows={"red": [3], "blue": [5]}, shrines=NO_SHRINES)
    run(t, "play r4", "play y8")
    assert (plain(t.log(None)[-1]) == plain(forced)
            == {"seat": 1, "text": "Player 2 played y8 (light effect skipped: red)"})
    for seat in (0, 1):
        assert s.log(seat)[-1] == forced
    # p1's hidden card came out: p0 cannot take its play back; clones and replays agree
    assert s.undoable(0) == 0 and s.clone().snapshot() == s.snapshot()


def test_forced_decisions_keep_records_replays_and_views_consistent():
    for players in (2, 3, 4):
        for seed in range(15):
            s = tabletop.new_game("silencio", players, seed, {"variant": "tavern"} if seed % 2 else {})
            rng = Rng(seed + 3)
            while not s.is_over:
                assert len(s.legal_actions()) >= 2
                legal_now = s.legal_actions()
                s.apply(legal_now[rng.below(len(legal_now))])
            again = tabletop.replay(s.record())
            assert again.snapshot() == s.snapshot()
            assert [again.view(q) for q in (None, *range(players))] == [s.view(q) for q in (None, *range(players))]


def test_a_player_who_cannot_play_is_offered_the_enabling_shrines_and_the_pass_at_the_start():
    # ruling C-4, version 3, over random games: at the start of a turn, a player with no card of its own to play
    # always may pass; a shrine is offered to it only when it can play some card or could after that shrine
    met = 0
    for players in (2, 3, 4):
        for seed in range(80):
            s = tabletop.new_game("silencio", players, seed)
            rng = Rng(seed + 11)
            while not s.is_over:
                p = s.to_move
                if s.phase == START and not s.shrine_taken and p is not None:
                    own = [*s.hands[p], *s.fronts[p]]
                    if not any(s._playable(c) for c in own):
                        met += 1
                        assert "pass" in legal(s)
                        shrines = {a for a in legal(s) if a.startswith("shrine")}
                        if not s._can_play(p):
                            assert shrines == {a.text for a in s._shrine_unlocks(p)}
                legal_now = s.legal_actions()
                s.apply(legal_now[rng.below(len(legal_now))])
    assert met >= 50
