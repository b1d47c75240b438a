"""Issue 28: the team agent seated at a table it knows (the server's AI seats): beside copies of itself it stays the
convention agent; beside anyone else it reads each teammate by the partner model of its kind."""

from __future__ import annotations

import pytest

import tabletop
from tabletop.agents import make_agent
from tabletop.agents.team import TABLE_PARTNERS, TeamAgent
from tabletop.core import SeatHandle


def _agent(spec: str = "team:iters=30") -> TeamAgent:
    agent = make_agent(spec, "silencio", 3)
    assert isinstance(agent, TeamAgent)
    return agent


def test_beside_copies_of_itself_the_agent_is_unchanged():
    agent = _agent()
    assert agent.at_table(0, ["hard", "hard", "team:time=1.0"]) is agent
    assert agent.at_table(2, ["hard", "hard", "human"]) is agent  # its own seat's kind does not matter


@pytest.mark.parametrize("kinds", [["hard", "medium", "hard"], ["hard", "human", "human"], ["hard", "easy", None],
                                   ["hard", "hard", "silencio-3p"]])
def test_beside_other_teammates_it_reads_them_by_their_kind(kinds):
    agent = _agent()
    seated = agent.at_table(0, kinds)
    assert seated is not agent and seated.partners == TABLE_PARTNERS and seated.kinds == kinds
    assert agent.partners == "convention" and agent.kinds is None  # the original is untouched


def test_an_explicit_partner_reading_is_kept_and_given_the_table():
    agent = _agent("team:iters=30,partners=choices")
    seated = agent.at_table(1, ["medium", "hard", "human"])
    assert seated.partners == "choices" and seated.kinds == ["medium", "hard", "human"]


def test_the_seated_agent_plays_legal_moves_to_the_end_of_a_game():
    state = tabletop.new_game("silencio", players=3, seed=11)
    agents = {0: _agent("team:iters=20").at_table(0, ["hard", "medium", "human"])}
    heuristic = make_agent("heuristic", "silencio", 5)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        agent = agents.get(seat, heuristic)
        action = agent.act(SeatHandle(state, seat))
        assert action in state.legal_actions()
        state.apply(action)
    assert agents[0].partners == TABLE_PARTNERS
