"""Guided ISMCTS (the hard level) and its hints: specs, no cheating, reproducibility, tree reuse, reasons, levels."""

from __future__ import annotations

import pytest

import tabletop
from tabletop.agents import InvalidAgentSpec, make_agent
from tabletop.agents.guided import GuidedAgent, GuidedSearch, hints, reason
from tabletop.agents.hints import hints as hints_for
from tabletop.agents.levels import LEVELS, level_spec
from tabletop.core import SeatHandle, State

from .test_ismcts import midgame

COMPETITIVE = ["silos", "siliconvania"]


# ---- spec strings ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "iters", "seconds", "depth", "pw", "reuse"),
    [
        ("guided", None, 1.0, None, 2.0, True),
        ("guided:iters=300", 300, None, None, 2.0, True),
        ("guided:time=0.25,depth=0,pw=1.5,reuse=false", None, 0.25, 0, 1.5, False),
    ],
)
def test_guided_spec_sets_budget_depth_widening_and_reuse(spec, iters, seconds, depth, pw, reuse):
    agent = make_agent(spec, "silos", seed=1)
    assert isinstance(agent, GuidedAgent)
    assert (agent.iters, agent.seconds, agent.depth, agent.pw, agent.reuse) == (iters, seconds, depth, pw, reuse)


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ("guided:budget=3", "allowed: iters, time, depth, c, pw, reuse, trust, policy, value"),
        ("guided:value=policy", "value=policy needs policy=NAME"),
        ("guided:policy=silos-2p,value=maybe", "value.*must be policy or game"),
        ("guided:policy=nosuch", "nosuch"),
        ("guided:trust=x", "trust.*must be a number"),
        ("guided:iters=0", "iters.*integer of at least 1"),
        ("guided:depth=-1", "depth.*integer of at least 0"),
        ("guided:time=soon", "time.*must be a number"),
        ("guided:pw=0", "pw.*positive"),
        ("guided:reuse=maybe", "reuse.*true or false"),
        ("hard:time=2", "takes no parameters.*guided:time=1.0"),
        ("hint:iters=5", "allowed: time"),
        ("hint:time=-1", "time.*positive"),
    ],
)
def test_bad_guided_specs_are_refused_saying_what_is_legal(spec, match):
    with pytest.raises(InvalidAgentSpec, match=match):
        make_agent(spec, "silos")


def test_levels_name_the_hard_search_in_the_competitive_games_and_are_specs_themselves():
    for game in COMPETITIVE:
        assert level_spec("hard", game).startswith("guided:")
        assert isinstance(make_agent("hard", game, 1), GuidedAgent)
    assert [level_spec(level, "silencio") for level in LEVELS] == ["random", "heuristic", "team:time=1.0"]
    with pytest.raises(InvalidAgentSpec, match="easy, medium, hard"):
        level_spec("expert", "silos")


# ---- no cheating ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", COMPETITIVE)
@pytest.mark.parametrize("steps", [0, 12])
def test_same_seed_same_action_from_states_that_differ_only_in_what_the_seat_cannot_see(game, steps):
    state = midgame(game, 2, 7, steps)
    p = state.to_move
    a, b = state.sample(p, 101), state.sample(p, 202)
    assert a.view(p) == b.view(p)
    agent_a, agent_b = GuidedAgent(game, seed=5, iters=40), GuidedAgent(game, seed=5, iters=40)
    assert agent_a.act(SeatHandle(a, p)) == agent_b.act(SeatHandle(b, p))
    assert agent_a.last_search is not None and agent_b.last_search is not None
    assert [(c.action, c.visits) for c in agent_a.last_search.candidates()] == \
        [(c.action, c.visits) for c in agent_b.last_search.candidates()]
    ha, hb = hints(SeatHandle(a, p), None, 40, seed=3), hints(SeatHandle(b, p), None, 40, seed=3)
    assert [(c.action, c.visits, c.value, c.reason) for c in ha] == [(c.action, c.visits, c.value, c.reason)
                                                                      for c in hb]


def test_the_hidden_parts_compared_really_differ():
    state = midgame("siliconvania", 2, 7, 12)
    p = state.to_move
    a, b = state.sample(p, 101), state.sample(p, 202)
    assert a.snapshot() != b.snapshot()


def test_the_guided_search_draws_a_fresh_determinization_for_every_iteration_and_never_the_true_state():
    state = midgame("silos", 2, 4, 6)
    seat = SeatHandle(state, state.to_move)
    seen: list[State] = []

    class Spy:
        """A seat handle that records every sample the search asks for."""

        def __init__(self) -> None:
            self.seat, self.players, self.info, self.to_move = seat.seat, seat.players, seat.info, seat.to_move

        def legal_actions(self):
            return seat.legal_actions()

        def sample(self, seed: int) -> State:
            s = seat.sample(seed)
            seen.append(s)
            return s

    search = GuidedSearch(Spy(), seed=2, prior=False)  # type: ignore[arg-type]
    search.run(iters=25)
    assert len(seen) == 25 and all(s is not state for s in seen)


# ---- reproducibility, reuse, widening -------------------------------------------------------------------------


@pytest.mark.parametrize("game", COMPETITIVE)
def test_an_iteration_budget_and_a_seed_give_the_same_game(game):
    def run() -> list[str]:  # the first 30 decisions of a game against the heuristic
        state = tabletop.new_game(game, 2, 3)
        agents = [GuidedAgent(game, seed=9, iters=15), make_agent("heuristic", game, 2)]
        moves: list[str] = []
        while state.to_move is not None and len(moves) < 30:
            seat = state.to_move
            action = agents[seat].act(SeatHandle(state, seat))
            moves.append(action.text)
            state.apply(action)
        return moves

    assert run() == run()


def test_the_tree_is_reused_when_the_seat_decides_again_before_anyone_else():
    state = tabletop.new_game("siliconvania", 2, 5)
    agent, other = GuidedAgent("siliconvania", seed=1, iters=12), make_agent("heuristic", "siliconvania", 2)
    reused: list[int] = []
    while state.to_move is not None and not any(reused) and len(reused) < 60:
        seat = state.to_move
        if seat == 0:
            action = agent.act(SeatHandle(state, 0))
            if agent.last_search is not None and len(state.legal_actions()) > 1:
                reused.append(agent.last_search.reused)
        else:
            action = other.act(SeatHandle(state, seat))
        state.apply(action)
    assert reused[0] == 0
    assert any(reused), "placing the tiles it took, the seat starts from its kept subtree"


def test_progressive_widening_keeps_a_wide_root_narrow_at_first():
    state = midgame("siliconvania", 2, 3, 0)
    while len(state.legal_actions()) < 30:
        state.apply(state.legal_actions()[0])
    search = GuidedSearch(SeatHandle(state, state.to_move), seed=1)
    search.run(iters=30)
    assert 2 <= len(search.root.children) <= 12 < len(state.legal_actions())
    assert search.heuristic_action in search.root.children, "the heuristic's choice is expanded first"


# ---- hints ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", COMPETITIVE)
def test_hints_are_legal_the_move_to_play_first_with_win_estimates(game):
    state = midgame(game, 2, 11, 10)
    seat = SeatHandle(state, state.to_move)
    found = hints(seat, None, 150, seed=1)
    legal = state.legal_actions()
    assert found and all(c.action in legal for c in found)
    rest = [c.visits for c in found[1:]]  # the first is the move to play, the rest most sampled first
    assert rest == sorted(rest, reverse=True)
    assert all(0.0 <= c.value <= 1.0 for c in found)
    assert sum(c.visits for c in found) <= 150


def test_a_siliconvania_reason_states_the_points_the_action_changes_now():
    state = midgame("siliconvania", 2, 3, 0)
    while state.legal_actions()[0].verb != "place":
        state.apply(state.legal_actions()[0])
    seat = SeatHandle(state, state.to_move)
    search = GuidedSearch(seat, seed=4)
    lines = {a: reason(search, a) for a in state.legal_actions()}
    assert any("VP now" in line for line in lines.values())
    for a, line in lines.items():
        if "VP now" in line:
            after = state.clone()
            after.apply(a)
            gained = after.breakdown(seat.seat)["total"] - state.breakdown(seat.seat)["total"]
            assert line.startswith(f"{gained:+d} VP now")  # the seat's own city is in its view: same on any sample


@pytest.mark.usefixtures("toy_games")
def test_hints_elsewhere_come_from_the_baseline_search_without_reasons():
    state = tabletop.new_game("toyduel", 3, 2)
    found = hints_for(SeatHandle(state, state.to_move), seconds=None, iters=30)
    assert found and all(c.reason == "" for c in found)


def test_silencio_hints_come_from_the_team_search_of_its_hard_level():
    state = tabletop.new_game("silencio", 3, 2)
    found = hints_for(SeatHandle(state, state.to_move), seconds=None, iters=30)
    assert found and all("cards left on average" in c.reason for c in found if c.visits)


def test_the_hint_seat_is_a_spec_that_plays_a_legal_hinted_action():
    state = midgame("silos", 2, 5, 8)
    seat = SeatHandle(state, state.to_move)
    agent = make_agent("hint:time=0.05", "silos", seed=0)
    assert agent.act(seat) in state.legal_actions()
    assert agent.name == "hint"


@pytest.mark.parametrize("game", COMPETITIVE)
def test_the_rule_of_thumb_is_kept_unless_the_search_finds_a_clearly_better_move(game):
    state = midgame(game, 2, 8, 10)
    seat = SeatHandle(state, state.to_move)
    trusting = GuidedSearch(seat, seed=3, trust=1e9)
    trusting.run(iters=60)
    assert trusting.heuristic_action is not None
    assert trusting.candidates()[0].action == trusting.heuristic_action
    greedy = GuidedSearch(seat, seed=3, trust=-1.0)  # any margin counts: the most visited is played
    greedy.run(iters=60)
    ranked = greedy.candidates()
    assert ranked[0].visits == max(c.visits for c in ranked)


def test_a_policy_guided_search_leads_its_root_with_the_policys_choice_and_plays_legal_games():
    """`guided:policy=silos-2p`: the shipped policy's greedy choice is the root's first action (where the heuristic's
    would be) and the anchor `trust` compares against (0 by default with a policy: measured, docs/rl.md); the games it
    plays are legal."""
    from tabletop.agents import play_game
    from tabletop.agents.policy import PolicyAgent, PolicyNet, find_shipped

    agent = make_agent("guided:policy=silos-2p,iters=60", "silos", seed=3)
    assert isinstance(agent, GuidedAgent) and agent.trust == 0.0 and isinstance(agent.first, PolicyAgent)
    policy = PolicyAgent("silos", PolicyNet(find_shipped("silos-2p", "silos").path), 0)
    state = next(s for s in (midgame("silos", 2, k, 30) for k in range(20)) if len(s.legal_actions()) > 1)
    seat = SeatHandle(state, state.to_move)
    agent.act(seat)
    search = agent.last_search
    assert search is not None and search.order[0] == policy.act(seat) == search.heuristic_action
    result = play_game(tabletop.new_game("silos", 2, 8), [make_agent("guided:policy=silos-2p,iters=20", "silos", 1),
                                                          make_agent("medium", "silos", 2)])
    assert result.state.is_over


def test_a_learned_judgement_can_score_the_guided_searchs_cut_offs_and_a_network_cannot():
    """`guided:policy=vania-2p,value=policy`: the cut-offs are scored by the learned judgement (the final score it
    foresees for each seat's city) instead of the game's position value; `value=game` (the default) keeps the
    game's. A network policy has no value to lend: refused, saying what to use."""
    from tabletop.agents.policy import LookaheadPolicy, find_shipped, load_policy

    policy = load_policy(find_shipped("vania-2p", "siliconvania").path)
    assert isinstance(policy, LookaheadPolicy)
    judge = policy.judge()
    state = midgame("siliconvania", 2, 4, 20)
    seat = SeatHandle(state, state.to_move)
    judged = make_agent("guided:policy=vania-2p,value=policy,iters=40", "siliconvania", seed=5)
    plain = make_agent("guided:policy=vania-2p,iters=40", "siliconvania", seed=5)
    assert isinstance(judged, GuidedAgent) and isinstance(plain, GuidedAgent) and plain.value is None
    judged.act(seat)
    plain.act(seat)
    assert judged.last_search is not None and plain.last_search is not None
    assert judged.last_search.pv is not None and plain.last_search.pv is not None
    for me in range(2):
        assert judged.last_search.pv.value(state, me) == judge(state, me)
        assert plain.last_search.pv.value(state, me) != judge(state, me)
    assert state.legal_actions()  # the position was not touched
    with pytest.raises(InvalidAgentSpec, match=r"network without a value.*value=game"):
        make_agent("guided:policy=silos-2p,value=policy", "silos")
