"""Agents: random, heuristic (per game), information-set MCTS. They see only a seat handle."""

from tabletop.agents.base import Agent
from tabletop.agents.play import GameResult, play_game
from tabletop.agents.random import RandomAgent
from tabletop.agents.spec import InvalidAgentSpec, kinds, make_agent, parse_spec, register_kind

__all__ = [
    "Agent",
    "GameResult",
    "InvalidAgentSpec",
    "RandomAgent",
    "kinds",
    "make_agent",
    "parse_spec",
    "play_game",
    "register_kind",
]
