"""Audit 11, 12, 17 and 19 for Silencio: tavern count, the per-seat log cursor, row halves, samples and aliasing."""

from __future__ import annotations

import random

import tabletop
from tabletop.core import Rng
from tabletop.core.logwords import plain_entry as plain
from tabletop.games.silencio.notation import LOG_TAIL, parse_card

from .support import NO_SHRINES, legal, pos, run

TAVERN = {"variant": "tavern"}


# ---- Audit 11: C-14 agrees with C-1 ---------------------------------------------------------------------------
def test_tavern_count_goes_up_to_the_cards_held_in_hand_and_in_front_of_the_player():
    s = pos(2, [["r8", "b2"], ["g8"]], rows={"blue": [5], "red": [3]}, fronts=[["y8", "g3"], []], options=TAVERN,
            tavern_open=True)
    counts = [a for a in legal(s) if a.startswith("tavern count")]
    assert sorted(counts, key=lambda a: int(a.split()[-1])) == [f"tavern count {n}" for n in range(5)]
    run(s, "tavern count 4")
    assert s.said == [(0, "I have 4 card(s) that I cannot play.")]


# ---- Audit 12: the whole history, per seat, as a cursor -------------------------------------------------------
def _long_game(seed: int = 5):
    s = tabletop.new_game("silencio", 4, seed)
    rng = Rng(seed)
    while not s.is_over:
        legal_now = s.legal_actions()
        s.apply(legal_now[rng.below(len(legal_now))])
    return s


def test_each_seats_log_keeps_the_whole_history_not_the_last_20_entries():
    s = _long_game()
    n = len(s.events)
    assert n > LOG_TAIL + 10
    for seat in (None, 0, 1, 2, 3):
        log = s.log(seat)
        v = s.view(seat)
        assert len(log) == n == v["log_pos"]
        assert v["log"] == log[-LOG_TAIL:] and len(v["log"]) == LOG_TAIL  # the view keeps a short tail only
        assert log[0]["seat"] == s.first and log[0]["text"].startswith(f"Player {s.first + 1} gave ")
        assert s.log(seat, n - 3) == log[-3:] and s.log(seat, n) == [] and s.log(seat, n + 5) == []


def test_a_card_given_face_down_is_named_only_to_the_giver_and_the_receiver():
    s = tabletop.new_game("silencio", 3, 2, {"first_player": 1})
    give = s.legal_actions()[0]
    s.apply(give)
    card = give.text.split()[1]
    assert plain(s.log(1)[-1]) == plain(s.log(2)[-1]) == {"seat": 1, "text": f"Player 2 gave {card} to Player 3"}
    assert plain(s.log(0)[-1]) == plain(s.log(None)[-1]) == {"seat": 1, "text": "Player 2 gave a card to Player 3"}
    # a green player-player swap: the same, both ways
    s = pos(3, [["r3", "g8"], ["b8", "y7"], ["b9"]], rows={"red": [2]}, shrines=[False, False, False, True, False])
    run(s, "play r3", "shrine green", "choose p0", "give g8 to p1", "return y7")
    texts = {seat: [e["text"] for e in s.log(seat)[-2:]] for seat in (None, 0, 1, 2)}
    assert texts[0] == texts[1] == ["Player 1 gave g8 to Player 2", "Player 2 gave y7 to Player 1"]
    assert texts[2] == texts[None] == ["Player 1 gave a card to Player 2", "Player 2 gave a card to Player 1"]


def test_a_log_entry_never_changes_and_clones_diverge_without_touching_each_others_history():
    s = pos(2, [["r3", "g8", "g7", "y4"], ["b8", "y7"]], rows={"red": [2]}, shrines=NO_SHRINES)
    run(s, "play r3")
    twin = s.clone()
    before = s.log(0)
    run(s, "play b8")  # p1's move in s ...
    run(twin, "play y7")  # ... and another in the twin, appended to the history they shared
    assert s.log(0)[:len(before)] == twin.log(0)[:len(before)] == before
    assert (s.log(0)[-1]["text"].startswith("Player 2 played b8")
            and twin.log(0)[-1]["text"].startswith("Player 2 played y7"))
    third = twin.clone()
    run(s, "play y4")
    run(third, "play g8")
    assert twin.log(1)[-1]["text"].startswith("Player 2 played y7") and len(twin.log(1)) == len(before) + 1
    assert (third.log(1)[-1]["text"].startswith("Player 1 played g8")
            and s.log(1)[-1]["text"].startswith("Player 1 played y4"))


def test_view_time_does_not_grow_with_the_length_of_the_game():
    s = _long_game(9)
    assert len(s.view(0)["log"]) <= LOG_TAIL and len(s.view(None)["log"]) <= LOG_TAIL


# ---- Audit 12: the half each row card lies on -----------------------------------------------------------------
def test_each_row_card_shows_whether_it_was_played_light_or_dark():
    s = pos(2, [["r2", "y5", "g8"], ["r4", "b8", "g6"]], shrines=NO_SHRINES)
    run(s, "play r2")  # follows the shrine (1): dark, red dark
    run(s, "play b8")  # does not follow: light (its light effect skipped by the red dark)
    run(s, "play y5", "skip")  # light; the yellow light declined
    want = {"red": ["dark"], "blue": ["light"], "yellow": ["light"], "green": []}
    assert all(s.view(seat)["halves"] == want for seat in (None, 0, 1))
    assert s.view(None)["rows"] == {"red": [2], "blue": [8], "yellow": [5], "green": []}


def test_a_dark_effect_skipped_by_red_light_still_lies_dark_half_up():
    s = pos(2, [["r4", "b8"], ["b7", "b6"]], rows={"red": [3]}, shrines=NO_SHRINES, skip_dark=True)
    run(s, "play r4")
    assert s.events[-1] == ("play", 0, parse_card("r4"), "dark skipped")
    assert s.view(1)["halves"]["red"] == ["light", "dark"]  # created, then skipped (C-11)


def test_a_follow_on_card_that_creates_no_dark_effect_lies_light_half_up():
    # the player's last card (C-2)
    s = pos(2, [["r3"], ["b8", "b7"]], rows={"red": [2]}, shrines=NO_SHRINES)  # r3, its only play, played for it
    assert s.events[-1][3] == "last" and s.view(0)["halves"]["red"] == ["dark", "light"]
    # the highest green card (C-10)
    s = pos(2, [["r3", "r4"], ["g8", "b8"]], rows={"green": [7]}, shrines=NO_SHRINES, to_move=1)
    run(s, "play g8")
    assert s.events[-1][3] == "top green" and s.view(0)["halves"]["green"] == ["light", "light"]


def test_a_card_taken_back_by_the_blue_light_leaves_its_row_with_its_half():
    s = pos(2, [["r5", "b5", "g8"], ["y8"]], rows={"red": [2], "blue": [3]}, shrines=NO_SHRINES)
    assert s.view(0)["halves"] == {"red": ["dark"], "blue": ["light"], "yellow": [], "green": []}
    run(s, "play r5", "skip")
    assert s.view(0)["halves"]["red"] == ["dark", "light"]
    run(s, "play b5", "take r5")  # between, p1 played y8, its only card (C-9)
    assert s.view(0)["rows"]["red"] == [2] and s.view(0)["halves"]["red"] == ["dark"]


# ---- Audit 19: a sample depends only on what the seat can tell ------------------------------------------------
def test_a_sample_does_not_depend_on_the_order_of_the_seats_hand_nor_of_the_deck_nor_of_the_box():
    shuffler = random.Random(4)
    boxed = 0
    for seed in range(12):
        s = tabletop.new_game("silencio", 3, seed)
        rng = Rng(seed)
        step = 0
        while not s.is_over:
            step += 1
            legal_now = s.legal_actions()
            renew = [a for a in legal_now if a.text == "renew oracle"]
            s.apply(renew[0] if renew else legal_now[rng.below(len(legal_now))])
            if step % 4 or s.is_over:
                continue
            boxed += len(s.box) > 1
            for p in range(3):
                t = s.clone()
                for cards in (t.hands[p], t.deck, t.box, *t.hands):
                    shuffler.shuffle(cards)
                t._legal = None
                assert t.view(p) == s.view(p)
                if s.to_move == p:
                    assert [a.text for a in t.legal_actions()] == [a.text for a in s.legal_actions()]
                for k in (1, 77):
                    assert t.sample(p, k).snapshot() == s.sample(p, k).snapshot()
    assert boxed >= 10


# ---- Audit 17: nothing returned aliases the state -------------------------------------------------------------
def test_views_logs_and_snapshots_returned_are_copies():
    s = pos(2, [["r3", "g8"], ["b8"]], rows={"red": [2]}, fronts=[["y5"], []])
    before = s.snapshot()
    for seat in (None, 0, 1):
        v = s.view(seat)
        for value in v.values():
            if isinstance(value, list):
                value.append("x")
            elif isinstance(value, dict):
                for inner in value.values():
                    if isinstance(inner, list):
                        inner.append("x")
        log = s.log(seat)
        log.append({"seat": 0, "text": "x"})
        for e in log:
            e["text"] = "x"
    assert s.snapshot() == before and s.view(0)["rows"]["red"] == [2]


# ---- the terminal draws the new entries and the halves from the view -----------------------------------------
def test_render_draws_row_halves_and_the_log_entries_since_the_seats_last_decision():
    from rich.console import Console

    from tabletop.games.silencio.render import render

    s = pos(2, [["r2", "y5", "g8"], ["r4", "b8", "g6"]], shrines=NO_SHRINES)
    run(s, "play r2", "play b8")
    console = Console(record=True, width=120, color_system=None)
    console.print(render(s.view(0)))
    text = console.export_text()
    assert "2●" in text and "8☼" in text  # red 2 dark, blue 8 light
    assert "Since your last decision" in text and "Player 2 played b8" in text
