"""Agent spec strings, used everywhere an agent is named: `random`, `heuristic`, `ismcts:iters=2000`.

A spec is `kind[:key=value,key=value...]`. Kinds register a factory with `register_kind`. Built in: `random`,
`heuristic` (the game's `tabletop.games.<game>.heuristic.HeuristicAgent`) and `ismcts` (parameters `iters`, `time`,
`rollout`, `c`, `w`; see `tabletop.agents.ismcts`), `guided` (the hard search, `tabletop.agents.guided`), `policy`
(`path=FILE.npz`: a trained network, numpy only; see `tabletop.agents.policy`), `team` (Silencio only: teammates
who read each other; see `tabletop.agents.team`), and the strength levels `easy`, `medium`, `hard`
(`tabletop.agents.levels`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tabletop.agents.base import Agent
from tabletop.agents.random import RandomAgent
from tabletop.core import TabletopError, game_info
from tabletop.core.errors import shorten

Factory = Callable[[str, int, dict[str, str]], Agent]
"""A factory gets the game name, a seed and the spec's parameters."""

_KINDS: dict[str, Factory] = {}


class InvalidAgentSpec(TabletopError):
    """An agent spec that names an unknown kind or a bad parameter."""


def register_kind(kind: str, factory: Factory) -> None:
    """Make `kind` usable in agent specs."""
    _KINDS[kind] = factory


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split `kind:key=value,...` into its kind and parameters."""
    kind, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise InvalidAgentSpec(f"agent spec {spec!r}: parameter {part!r} must look like key=value")
        params[key.strip()] = value.strip()
    return kind.strip().lower(), params


def kinds() -> list[str]:
    """The agent kinds a spec may name."""
    _load_kinds()
    return sorted(_KINDS)


def make_agent(spec: str, game: str, seed: int = 0) -> Agent:
    """The agent a spec string describes, for `game`, seeded."""
    _load_kinds()
    game_info(game)  # UnknownGame early
    kind, params = parse_spec(spec)
    factory = _KINDS.get(kind)
    if factory is None and kind == "human":
        raise InvalidAgentSpec(
            f"the human kind plays only at the terminal (tabletop play); here use one of: {', '.join(sorted(_KINDS))}"
        )
    if factory is None:
        raise InvalidAgentSpec(
            f"unknown agent kind {shorten(kind)} in {shorten(spec)}; known kinds: {', '.join(sorted(_KINDS))}"
        )
    return factory(game, seed, params)


def _random(game: str, seed: int, params: dict[str, Any]) -> Agent:
    if params:
        raise InvalidAgentSpec(f"the random agent takes no parameters, got {', '.join(params)}")
    return RandomAgent(seed)


def _heuristic(game: str, seed: int, params: dict[str, Any]) -> Agent:
    if params:
        raise InvalidAgentSpec(f"the heuristic agent takes no parameters, got {', '.join(params)}")
    try:
        module = importlib.import_module(f"tabletop.games.{game}.heuristic")
    except ModuleNotFoundError:
        raise InvalidAgentSpec(f"{game} has no heuristic agent yet") from None
    agent: Agent = module.HeuristicAgent(seed)
    return agent


_loaded = False


def _load_kinds() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    register_kind("random", _random)
    register_kind("heuristic", _heuristic)
    for mod in ("tabletop.agents.ismcts", "tabletop.agents.guided", "tabletop.agents.policy",
                "tabletop.agents.team", "tabletop.agents.levels"):
        try:
            importlib.import_module(mod)  # registers its own kinds
        except ModuleNotFoundError as e:
            if e.name != mod:
                raise
