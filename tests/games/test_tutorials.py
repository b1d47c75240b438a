"""The guided first games (games/<g>/tutorial.toml, served by /api/tutorials): each script replays through the
engine, every step's action legal for its seat at that point, and reaches the end of the game; the learner's
steps reach each phase, each kind of action and the scoring, and point to sections of the game's rules help that
exist. A rules change that breaks a tutorial fails here."""

from __future__ import annotations

import pytest

import tabletop
from tabletop.core.help import game_help
from tabletop.server.api.routes.tutorials import Tutorial, TutorialError, parse, tutorial

GAMES = ["silencio", "silos", "siliconvania"]


def kind(game: str, action: str) -> str:
    """The kind of an action, for 'each kind of action is taught': the action's words without its components."""
    words = action.split()
    return words[0] if words[0] not in ("power", "card", "move", "shrine") or len(words) < 2 else " ".join(words[:2])


@pytest.fixture(params=GAMES)
def script(request: pytest.FixtureRequest) -> Tutorial:
    t = tutorial(request.param)
    assert t is not None, f"{request.param} has no tutorial.toml"
    return t


def test_every_step_is_legal_and_the_game_ends(script: Tutorial) -> None:
    state = tabletop.new_game(script.game, script.players, script.seed, script.options)
    for i, step in enumerate(script.steps):
        assert not state.is_over, f"step {i + 1}: the game ended before the script"
        assert step.seat in state.deciding(), f"step {i + 1} ({step.action}): seat {step.seat} does not decide now"
        legal = [a.text for a in state.legal_actions_for(step.seat)]
        assert step.action in legal, f"step {i + 1}: {step.action!r} is not legal; legal: {legal[:20]}"
        assert len(legal) > 1, f"step {i + 1}: a decision with one action is made by the engine, not scripted"
        state.submit(step.seat, step.action)
    assert state.is_over, "the script ends before the game does"
    assert state.record()["actions"] == [s.action for s in script.steps]


def test_the_learner_is_taught_each_kind_of_action_and_phase(script: Tutorial) -> None:
    mine = [s for s in script.steps if s.seat == script.seat]
    assert len(mine) >= 10
    assert all(s.text for s in mine)
    kinds = {kind(script.game, s.action) for s in mine}
    assert len(kinds) >= 6, kinds
    # the phases of the game: the view's phase (SiliconVania's views have none: the decision) at every learner step
    state = tabletop.new_game(script.game, script.players, script.seed, script.options)
    phases = set()
    for step in script.steps:
        if step.seat == script.seat:
            view = state.view(script.seat)
            phases.add(view.get("phase") or view["decision"])
        state.submit(step.seat, step.action)
    assert len(phases) >= 4, phases
    assert script.outro and script.intro


def test_rules_named_are_help_sections(script: Tutorial) -> None:
    sections = {r["title"] for r in game_help(script.game)["rules"]}
    named = {s.rule for s in script.steps if s.rule}
    assert named, "the tutorial points to the rules help"
    assert named <= sections, named - sections


def test_a_malformed_script_is_refused_naming_the_field() -> None:
    good = {"title": "t", "players": 2, "seed": 1, "names": ["a", "b"], "intro": "i", "outro": "o",
            "step": [{"action": "give r5", "text": "why"}]}
    assert parse("silencio", good).steps[0].seat == 0
    for bad, words in [({**good, "extra": 1}, "unknown field"), ({**good, "names": ["a"]}, "names"),
                       ({**good, "step": [{"action": "give r5"}]}, "text"),
                       ({**good, "step": [{"action": "x", "text": "t", "seat": 5}]}, "seat 5"),
                       ({**good, "seed": "1"}, "seed")]:
        with pytest.raises(TutorialError, match=words):
            parse("silencio", bad)
