"""The log is worded on demand (`SiliconVaniaState._note` keeps a code and its data, `_log` words it once and keeps
the words): whenever a log or view is asked, and whether clones shared the entries, every seat reads the same words."""

from __future__ import annotations

import random

import pytest

import tabletop
from tabletop.games.siliconvania.notation import W_RECOVER, W_TEXT, words


def _play(players: int, seed: int, ask_every: int) -> tuple[list[list[dict[str, object]]], list[object]]:
    rng = random.Random(seed)
    s = tabletop.new_game("siliconvania", players, seed)
    seats = [None, *range(players)]
    clones = []
    k = 0
    while not s.is_over:
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
        k += 1
        if ask_every and k % ask_every == 0:
            clones.append(s.clone())  # shares the log's cells, and words them first below
            for q in seats:
                clones[-1].log(q)
                s.view(q)
    return [s.log(q) for q in seats], [c.log(q) for c in clones for q in seats]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_words_do_not_depend_on_when_asked(players: int) -> None:
    for seed in range(3):
        late, _ = _play(players, seed, 0)
        early, clones = _play(players, seed, 5)
        assert late == early
        for q, log in enumerate(late):
            assert all(isinstance(e["text"], str) and "{" not in e["text"] for e in log)
            if q == 0:  # a spectator never reads a bid placed, nor a card taken back
                texts = [str(e["text"]) for e in log]
                assert not any("placed bid " in t or "took silent bid card " in t for t in texts)
        assert clones  # each clone's log is a prefix of the seat's final log
        seats = players + 1
        for i, log in enumerate(clones):
            assert late[i % seats][:len(log)] == log


def test_words_of_notes() -> None:
    assert words(W_TEXT, "gained a cat") == "gained a cat"
    assert words(W_RECOVER, 3) == "took silent bid card 3 back to the hand"
    with pytest.raises(ValueError):
        words(99, None)
