"""Agents: random, heuristic (per game), information-set MCTS (one search core, `tabletop.agents.search`, and its
configurations `ismcts`, `guided`, `team`), and the hints every client shows (`hints`). They see only a seat
handle."""

from tabletop.agents.base import Agent
from tabletop.agents.hints import hints
from tabletop.agents.ismcts import IsmctsAgent
from tabletop.agents.play import GameResult, play_game
from tabletop.agents.random import RandomAgent
from tabletop.agents.spec import InvalidAgentSpec, kinds, make_agent, parse_spec, register_kind

__all__ = [
    "Agent",
    "GameResult",
    "InvalidAgentSpec",
    "IsmctsAgent",
    "RandomAgent",
    "hints",
    "kinds",
    "make_agent",
    "parse_spec",
    "play_game",
    "register_kind",
]
