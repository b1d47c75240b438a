"""Strength levels: the agent behind each label the server and the terminal offer (`easy`, `medium`, `hard`).

A game sets its own levels in its `ai` part (`LEVELS`); the others are `DEFAULT`. A level is also an agent kind,
so `tabletop play silos --seat hard` and `tabletop arena silos --agents hard,medium`
work like any spec. The levels, per game (the figures behind them are in docs/agents.md):

| level  | SILOS, SiliconVania       | Silencio             |
|--------|---------------------------|----------------------|
| easy   | random                    | random               |
| medium | heuristic                 | heuristic            |
| hard   | guided:time=1.0           | team:time=1.0        |
"""

from __future__ import annotations

from tabletop.agents.base import Agent
from tabletop.agents.spec import Factory, InvalidAgentSpec, make_agent, register_kind
from tabletop.core.parts import part

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
"""The labels, weakest first."""
DEFAULT: dict[str, str] = {"easy": "random", "medium": "heuristic", "hard": "ismcts:time=1.0"}
"""The spec of each level in a game whose `ai` part does not name its own in `LEVELS`."""


def by_game(game: str) -> dict[str, str]:
    """The levels `game` sets itself (the `LEVELS` of its `ai` part), where they differ from `DEFAULT`."""
    ai = part(game, "ai")
    return dict(getattr(ai, "LEVELS", {}))


def level_spec(level: str, game: str) -> str:
    """The agent spec behind `level` in `game`."""
    if level not in DEFAULT:
        raise InvalidAgentSpec(f"unknown strength {level[:20]!r}; the levels are {', '.join(LEVELS)}")
    return by_game(game).get(level, DEFAULT[level])


def _factory(level: str) -> Factory:
    def make(game: str, seed: int, params: dict[str, str]) -> Agent:
        if params:
            raise InvalidAgentSpec(f"the {level} level takes no parameters (it is {level_spec(level, game)} in "
                                   f"{game}; name that spec to change its parameters)")
        return make_agent(level_spec(level, game), game, seed)

    return make


for _level in LEVELS:
    register_kind(_level, _factory(_level))
