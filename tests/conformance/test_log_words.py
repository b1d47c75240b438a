"""Every log entry names its actor and renders for any reader without a raw token (`tabletop.core.logwords`).

For every registered game and configuration: each entry of a seat's event names that seat (its template holds the
seat's token); the plain `text` holds no token; rendered for each seat (and a spectator) with the players' names,
no token is left, the reader's own seat reads "you"/"your" (never its name) and any other named seat its name.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tabletop
from tabletop.core.logwords import TOKEN, default_name, entry, fill, names_actor, render

from .harness import all_cases, case_id, random_playout

CASES = all_cases()
NAMES = ("Ann", "Bo", "Cyd", "Dee", "Eve")


def check_log_words(state: tabletop.State, players: int) -> int:
    """Check every entry of every seat's log (and the spectator's); returns how many entries name a seat."""
    named = 0
    for reader in [None, *range(players)]:
        for e in state.log(reader):
            assert set(e) <= {"seat", "text", "template"}, e
            assert not TOKEN.search(e["text"]) and "{p" not in e["text"], f"a raw token in the plain text: {e}"
            assert names_actor(e), f"an entry of seat {e['seat']} does not name it: {e}"
            words = render(e, NAMES[:players], reader)
            assert "{" not in words or "{" in e["text"], f"a raw token left rendering {e} for {reader}: {words!r}"
            assert words[:1] == words[:1].upper() or not words[:1].isalpha(), f"not capitalised: {words!r}"
            if "template" in e:
                named += 1
                seats = {int(m.group(1)) for m in TOKEN.finditer(e["template"])}
                for q in seats - {reader}:
                    assert NAMES[q] in words, (e, reader, words)
                if reader in seats:
                    assert NAMES[reader] not in words and ("you" in words.lower() or "your" in words.lower())
    return named


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_log_entry_names_its_actor_and_renders_without_tokens(case):
    game, players, options = case
    named = 0
    for seed in range(2):
        state = random_playout(tabletop.new_game(game, players, seed, options), seed)
        named += check_log_words(state, players)
    assert named > 0, "no entry names a seat"


def test_a_token_renders_as_you_for_its_reader_and_a_name_for_the_others():
    e = entry(2, "{p2} gave r8 to {p0}. {p0} took it into {p0's} hand")
    assert e["text"] == "Player 3 gave r8 to Player 1. Player 1 took it into Player 1's hand"
    assert render(e, NAMES, 0) == "Cyd gave r8 to you. You took it into your hand"
    assert render(e, NAMES, 2) == "You gave r8 to Ann. Ann took it into Ann's hand"
    assert render(e, NAMES, None) == "Cyd gave r8 to Ann. Ann took it into Ann's hand"
    assert render(e, None, 1) == e["text"]
    assert entry(None, "Round 2 begins") == {"seat": None, "text": "Round 2 begins"}
    assert render({"seat": None, "text": "Round 2 begins"}, NAMES, 1) == "Round 2 begins"
    assert render({"seat": 1, "text": "bid (face down)"}, NAMES, 1) == "You bid (face down)"
    assert not names_actor(entry(1, "{p0} took a cat")) and names_actor(entry(0, "{p0} took a cat"))


@given(st.lists(st.tuples(st.integers(0, 4), st.booleans(), st.sampled_from(["", " took ", ". ", ": ", " and "])),
                max_size=8),
       st.one_of(st.none(), st.integers(0, 4)))
def test_filling_leaves_no_token_and_names_the_reader_you(parts, reader):
    template = "".join(("{p%d's}" if own else "{p%d}") % q + sep for q, own, sep in parts)
    words = fill(template, NAMES, reader)
    assert not TOKEN.search(words)
    for q, _, _ in parts:
        assert (NAMES[q] in words) is (q != reader)
    assert fill(template) == fill(template, [default_name(q) for q in range(5)])
