"""A decision with no real choice is not asked (docs/versions.md, principles; issue 20, point 15).

Over at least 1,000 random games of every registered game, spread over every player count and option combination
(the whole product where it has at most 1,000 combinations, otherwise combinations drawn at random until every
player count and every option value has been played), no seat that owes a decision (`deciding()`) is ever offered
fewer than two legal actions: a single one is the engine's to take (Silencio: ruling C-9; SILOS: S-16, S-24;
SiliconVania: its forced single options).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import tabletop
from tabletop.core import InvalidOptions, Rng

GAMES_PER_GAME = 1000


def _values(option: Any) -> list[Any]:
    """Every value of an option: each choice, or for a multi option every subset (as a sorted list)."""
    if not option.multi:
        return list(option.choices)
    return [list(c) for n in range(len(option.choices) + 1) for c in itertools.combinations(option.choices, n)]


def combinations(game: str, count: int = GAMES_PER_GAME) -> list[tuple[int, dict[str, Any]]]:
    """`count` (players, options) pairs of `game`, each a valid game, covering every player count and option value."""
    info = tabletop.game_info(game)
    counts = list(range(info.min_players, info.max_players + 1))
    names = [o.name for o in info.options]
    values = [_values(o) for o in info.options]
    total = len(counts)
    for v in values:
        total *= len(v)

    def valid(players: int, options: dict[str, Any]) -> bool:
        try:
            tabletop.new_game(game, players, 0, options)
        except InvalidOptions:
            return False
        return True

    if total <= count:
        product = [(n, dict(zip(names, combo, strict=True)))
                   for n in counts for combo in itertools.product(*values)]
        product = [c for c in product if valid(*c)]
        return [product[i % len(product)] for i in range(count)]
    rng = Rng(20)
    out: list[tuple[int, dict[str, Any]]] = []
    while len(out) < count:
        i = len(out)
        players = counts[i % len(counts)]
        # cycle each option's values first (every value is met early), then draw at random
        options = {name: vals[(i // len(counts)) % len(vals)] if i < len(counts) * len(vals)
                   else vals[rng.below(len(vals))] for name, vals in zip(names, values, strict=True)}
        if valid(players, options):
            out.append((players, options))
    return out


def _covered(game: str, combos: list[tuple[int, dict[str, Any]]]) -> None:
    info = tabletop.game_info(game)
    assert {n for n, _ in combos} == set(range(info.min_players, info.max_players + 1))
    for o in info.options:
        seen = [c[1][o.name] for c in combos]
        if o.multi:
            assert [] in seen and all(any(choice in v for v in seen) for choice in o.choices), o.name
        else:
            assert all(choice in seen for choice in o.choices), o.name


@pytest.mark.parametrize("game", tabletop.games())
def test_no_decision_with_a_single_legal_answer_is_asked(game):
    combos = combinations(game)
    assert len(combos) >= 1000
    _covered(game, combos)
    decisions = 0
    for seed, (players, options) in enumerate(combos):
        state = tabletop.new_game(game, players, seed, options)
        rng = Rng(seed + 31)
        steps = 0
        while not state.is_over:
            deciding = state.deciding()
            assert deciding, "a live game must have a seat that decides"
            for seat in deciding:
                legal = state.legal_actions_for(seat)
                decisions += 1
                assert len(legal) >= 2, (
                    f"{game} {players}p {options} seed {seed}: seat {seat} is asked a decision with "
                    f"{len(legal)} legal answer(s): {[a.text for a in legal]}")
            ahead = deciding[1:]
            if ahead and rng.below(2):  # decide ahead for a seat of a simultaneous step now and then
                seat = ahead[rng.below(len(ahead))]
                options_ahead = state.legal_actions_for(seat)
                state.submit(seat, options_ahead[rng.below(len(options_ahead))])
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
            steps += 1
            assert steps < 50_000
    assert decisions > 2 * len(combos)  # decisions were really met (a small game asks few: tests/fourth's, 2-3)


def single_answer_share(game: str) -> tuple[int, int]:
    """(decisions with one legal answer, decisions) over the test's random games of `game`."""
    single = decisions = 0
    for seed, (players, options) in enumerate(combinations(game)):
        state = tabletop.new_game(game, players, seed, options)
        rng = Rng(seed + 31)
        while not state.is_over:
            for seat in state.deciding():
                decisions += 1
                single += len(state.legal_actions_for(seat)) == 1
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
    return single, decisions


if __name__ == "__main__":  # .venv/bin/python -m tests.conformance.test_single_answer [GAME...]
    import sys

    for name in sys.argv[1:] or tabletop.games():
        one, total = single_answer_share(name)
        print(f"{name} (rules version {tabletop.game_info(name).version}): {one} of {total} decisions "
              f"({100 * one / total:.2f}%) had a single legal answer")
