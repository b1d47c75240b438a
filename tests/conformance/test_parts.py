"""Every built-in game's folder: each part it has defines what `tabletop.core.parts.PARTS` asks of that part, and
the optional pieces the outer layers read (the `ai` part's position value, explainer and levels; the `team` part)
work. The fourth game of tests/fourth passes the same checks through its entry point."""

from __future__ import annotations

import pytest

import tabletop
from tabletop.agents import make_agent
from tabletop.agents.levels import LEVELS, level_spec
from tabletop.core import Rng, SeatHandle, State
from tabletop.core.parts import PARTS, MissingPart, part, require

BUILTIN = ["silencio", "siliconvania", "silos"]
POSITION_VALUE = ("value", "VALUE_SCALE", "SCORE_SCALE", "CUTOFF_DEPTH")


def _midgame(game: str, seed: int = 3) -> State:
    state = tabletop.new_game(game, seed=seed)
    rng = Rng(seed)
    for _ in range(25):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state


@pytest.mark.parametrize("game", BUILTIN)
def test_every_part_a_game_has_defines_what_its_part_must(game: str) -> None:
    present = [name for name in PARTS if part(game, name) is not None]
    assert {"heuristic", "render", "features", "ai", "encoding"} <= set(present)
    for name in present:
        module = part(game, name)
        assert module is not None and module.__name__ == f"tabletop.games.{game}.{name}"
        missing = [attr for attr in PARTS[name] if not hasattr(module, attr)]
        assert not missing, f"{game}'s {name} part lacks {missing}"


@pytest.mark.parametrize("game", BUILTIN)
def test_an_ai_part_gives_a_whole_position_value_or_none_and_levels_that_are_agents(game: str) -> None:
    ai = require(game, "ai", "ai part")
    given = [name for name in POSITION_VALUE if hasattr(ai, name)]
    assert given in ([], list(POSITION_VALUE))
    state = _midgame(game)
    if given:
        for seat in range(state.players):
            assert isinstance(ai.value(state, seat), float | int)
        after = state.clone()
        after.apply(after.legal_actions()[0])
        assert isinstance(ai.explain(state, after, state.to_move), str)
    assert set(getattr(ai, "LEVELS", {})) <= set(LEVELS)
    for level in LEVELS:
        make_agent(level_spec(level, game), game, seed=1)


LEARNED = ("FEATURES", "features", "learned_agent")


@pytest.mark.parametrize("game", BUILTIN)
def test_a_heuristic_with_a_learned_judgement_defines_all_of_it_and_its_features_are_named(game: str) -> None:
    heuristic = require(game, "heuristic", "heuristic")
    given = [name for name in LEARNED if hasattr(heuristic, name)]
    assert given in ([], list(LEARNED)), f"{game}'s heuristic part defines {given} of {LEARNED}"
    if given:
        state = _midgame(game)
        for seat in range(state.players):
            values = heuristic.features(state, seat)
            assert len(values) == len(heuristic.FEATURES) and all(isinstance(v, float) for v in values)
        agent = heuristic.learned_agent([0.0] * len(heuristic.FEATURES), 1, 0.5)
        mover = state.to_move
        assert mover is not None and agent.act(SeatHandle(state, mover)) in state.legal_actions()


def test_a_missing_part_is_none_and_a_required_one_says_what_is_not_available() -> None:
    assert part("silos", "team") is None
    with pytest.raises(MissingPart, match="SILOS has no team agent"):
        require("silos", "team", "team agent")


def test_the_team_part_reads_a_seats_log_and_keeps_its_samples_consistent() -> None:
    team = require("silencio", "team", "team agent")
    state = _midgame("silencio", seed=8)
    seat = SeatHandle(state, state.to_move)
    belief = team.new_belief(seat.seat, seat.players, seat.view(), True)
    belief.update(seat.log())
    belief.check(seat.view())
    forbidden, known = belief.forbidden(), team.known_cards(seat.view(), seat.players)
    sample = seat.sample(5)
    if belief.weight(sample, forbidden, known) == 0.0:
        assert team.repair(sample, seat.seat, forbidden, known) in (True, False)
    allowed = team.convention_filter(sample, sample.legal_actions())
    assert allowed and set(allowed) <= set(sample.legal_actions())
    policy = team.fast_rollout(True, True)
    while not sample.is_over and not team.stuck(sample):
        sample.apply(policy(sample))
    assert isinstance(team.hint_reason(seat.sample(1), seat.seat, allowed[0], -2.0, 0.25), str)
