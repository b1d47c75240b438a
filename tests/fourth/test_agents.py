"""The agents play the fourth game through the same interface as the built-in ones: every kind by its spec (the
heuristic from the game's `heuristic` part, the searches from seat handles alone), the strength levels, whole games,
and a decisive position that the searches get right."""

from __future__ import annotations

import pytest

import tabletop
from tabletop.agents import make_agent, play_game
from tabletop.agents.guided import position_value
from tabletop.agents.hints import hints
from tabletop.agents.levels import level_spec
from tabletop.core import SeatHandle, State


def decisive(seed: int = 0) -> tuple[State, str, str]:
    """A position of the second trick where the follower (seat 1, no trick yet) holds one card above the lead and
    one below: the high card keeps its hope (it takes the trick, then leads its last card against the leader's
    last), the low one loses the game for sure. The state, the winning action and the losing one."""
    while True:
        seed += 1
        s = tabletop.new_game("nines", 2, seed)
        lead, follow = max(s.hands[0]), min(s.hands[1])
        if follow > lead:
            continue
        s.apply(f"play {lead}")
        s.apply(f"play {follow}")  # seat 0 takes the first trick and leads the second
        x = s.hands[0][0]
        a, b = s.hands[1]
        unseen = s.hands[0][1:] + s.deck
        if a < x < b and any(c < a for c in unseen):
            s.apply(f"play {x}")
            assert s.to_move == 1 and s.points == [1, 0]
            return s, f"play {b}", f"play {a}"


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iters=60", "ismcts:iters=40,rollout=heuristic",
                                  "guided:iters=60", "easy", "medium", "hard"])
def test_every_agent_kind_plays_whole_games_of_the_fourth_game(nines: str, spec: str) -> None:
    for seed in range(1 if spec == "hard" else 3):  # hard: a second of search a move by default
        state = tabletop.new_game(nines, 2, seed, {"hand": 3 + seed % 2})
        agents = [make_agent(spec, nines, seed), make_agent("random", nines, seed + 1)]
        result = play_game(state, agents)
        assert state.is_over and state.winners()
        assert sum(result.decisions) == len(state.record()["actions"]) == 2 * (2 + seed % 2)
        assert tabletop.replay(state.record()).snapshot() == state.snapshot()


@pytest.mark.parametrize("spec", ["heuristic", "ismcts:iters=300", "guided:iters=300"])
def test_the_agents_take_the_only_move_that_can_still_win(nines: str, spec: str) -> None:
    for seed in (0, 100, 200):
        state, win, lose = decisive(seed)
        assert {win, lose} == {a.text for a in state.legal_actions()}
        agent = make_agent(spec, nines, seed)
        assert agent.act(SeatHandle(state, 1)).text == win, (spec, state.snapshot())


def test_the_hints_rank_the_only_move_that_can_still_win_first(nines: str) -> None:
    for seed in (0, 100, 300):
        state, win, lose = decisive(seed)
        got = hints(SeatHandle(state, 1), seconds=None, iters=300, seed=seed)
        assert [c.action.text for c in got] == [win, lose]
        best, other = got
        assert best.visits > other.visits > 0 and 0.0 <= other.value < best.value <= 1.0
        assert other.value < 0.15  # the low card loses for sure: no win share, only the score margin's part
        # the guided search of the hard level, with the reasons of the game's ai part (on one sample of the table)
        assert best.reason.startswith("takes the trick, then the last trick is ")
        assert best.reason.endswith("; the rule-of-thumb choice too")
        assert other.reason.startswith("gives the trick away, then the last trick is yours, loses the game")
    state = tabletop.new_game(nines, 2, 1)
    assert hints(SeatHandle(state, 1), seconds=None, iters=50) == []  # the seat owes no decision
    on_turn = hints(SeatHandle(state, 0), seconds=None, iters=200, top=2)
    assert len(on_turn) == 2 and {c.action for c in on_turn} <= set(state.legal_actions())
    assert all(c.reason.startswith(f"leads {c.action.args[0]}") for c in on_turn)


def test_the_fourth_games_ai_part_gives_the_guided_search_its_position_value_and_the_hard_level(nines: str) -> None:
    pv = position_value(nines)
    assert pv is not None and pv.depth == 2 and pv.scale == 1.0
    state = tabletop.new_game(nines, 2, 2)
    assert pv.value(state, 0) == pytest.approx(sum((c - 1) / 9 for c in state.hands[0]))
    assert level_spec("hard", nines) == "guided:time=1.0" and level_spec("medium", nines) == "heuristic"


def test_the_hint_agent_plays_the_fourth_game(nines: str) -> None:
    state = tabletop.new_game(nines, 2, 5)
    play_game(state, [make_agent("hint:time=0.02", nines, 1), make_agent("random", nines, 2)])
    assert state.is_over
