"""Agent spec strings, used everywhere an agent is named: `random`, `heuristic`, `ismcts:iters=2000`.

A spec is `kind[:key=value,key=value...]`. Kinds register a factory with `register_kind`. Built in: `random`,
`heuristic` (the `HeuristicAgent` of the game's `heuristic` part) and `ismcts` (parameters `iters`, `time`,
`rollout`, `c`, `w`; see `tabletop.agents.ismcts`), `guided` (the hard search, `tabletop.agents.guided`), `policy`
(`path=FILE.npz`: a trained network or learned judgement, numpy only; see `tabletop.agents.policy`), `team`
(Silencio only: teammates who read each other; see `tabletop.agents.team`), and the strength levels `easy`,
`medium`, `hard` (`tabletop.agents.levels`).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from typing import Any

from tabletop.agents.base import Agent
from tabletop.agents.random import RandomAgent
from tabletop.core import TabletopError, game_info
from tabletop.core.errors import shorten
from tabletop.core.parts import part as game_part

Factory = Callable[[str, int, dict[str, str]], Agent]
"""A factory gets the game name, a seed and the spec's parameters."""

_KINDS: dict[str, Factory] = {}


class InvalidAgentSpec(TabletopError):
    """An agent spec that names an unknown kind or a bad parameter."""


def register_kind(kind: str, factory: Factory) -> None:
    """Make `kind` usable in agent specs."""
    _KINDS[kind] = factory


POSITIONAL: dict[str, str] = {"policy": "name"}
"""Kinds whose first parameter may be given bare, and the key it stands for: `policy:silos-2p` is
`policy:name=silos-2p`."""


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split `kind:key=value,...` into its kind and parameters (`kind:value,...` for a kind in `POSITIONAL`)."""
    kind, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for i, part in enumerate(filter(None, (p.strip() for p in rest.split(",")))):
        key, eq, value = part.partition("=")
        positional = POSITIONAL.get(kind.strip().lower())
        if i == 0 and not eq and positional:
            params[positional] = part
            continue
        if not eq or not key:
            raise InvalidAgentSpec(f"agent spec {spec!r}: parameter {part!r} must look like key=value")
        params[key.strip()] = value.strip()
    return kind.strip().lower(), params


class Params:
    """The parameters of one spec, read with the checks every kind shares: the one parser of spec parameters.

    Made with the kind's name and the parameter names it allows (anything else is refused, listing them); each
    reader returns None (or the default) for a parameter not given, and refuses a bad value saying what is legal.
    """

    def __init__(self, kind: str, params: dict[str, str], allowed: tuple[str, ...], game: str = "") -> None:
        self.kind = kind
        self.params = params
        self.game = game
        unknown = sorted(set(params) - set(allowed))
        if unknown:
            raise InvalidAgentSpec(f"unknown {kind} parameter(s) {', '.join(u[:20] for u in unknown)}; "
                                   f"allowed: {', '.join(allowed)}")

    def _bad(self, key: str, what: str) -> InvalidAgentSpec:
        return InvalidAgentSpec(f"{self.kind} parameter {key}={self.params[key][:20]!r} must be {what}")

    def integer(self, key: str, low: int = 1) -> int | None:
        """An integer of at least `low`."""
        if key not in self.params:
            return None
        try:
            value = int(self.params[key])
        except ValueError:
            value = low - 1
        if value < low:
            raise self._bad(key, "a positive integer (an integer of at least 1)" if low == 1
                            else f"an integer of at least {low}")
        return value

    def number(self, key: str, positive: bool = True) -> float | None:
        """A finite number, > 0 (`positive`) or >= 0."""
        if key not in self.params:
            return None
        try:
            value = float(self.params[key])
        except ValueError:
            raise self._bad(key, "a number") from None
        if not math.isfinite(value) or value < 0 or (positive and value == 0):
            raise self._bad(key, "a positive number" if positive else "a number ≥ 0")
        return value

    def switch(self, key: str, default: bool, words: tuple[str, str] = ("on", "off")) -> bool:
        """A yes/no: `words` (on/off, or true/false; both pairs are accepted where on/off is asked)."""
        if key not in self.params:
            return default
        value = self.params[key].lower()
        accepted = {words[0]: True, words[1]: False}
        if words == ("on", "off"):
            accepted.update(true=True, false=False)
        if value not in accepted:
            raise self._bad(key, f"{words[0]} or {words[1]}")
        return accepted[value]

    def choice(self, key: str, choices: tuple[str, ...], default: str) -> str:
        """One of `choices` (any case)."""
        value = self.params.get(key, default).lower()
        if value not in choices:
            listed = ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else choices[0]
            raise self._bad(key, listed)
        return value

    def text(self, key: str, default: str) -> str:
        """The value as given (lower case), for the kind to check."""
        return str(self.params.get(key, default)).lower()


def split_specs(text: str) -> list[str]:
    """Agent specs from a list such as `--seats` or `--agents`: separated by `;` or by commas, where a comma inside
    `kind:a=1,b=2` continues the parameters of the spec before it (a part containing `=` and no `:` is a
    parameter). An empty part (two separators in a row) is kept as "" for the caller to refuse."""
    out: list[str] = []
    for group in text.split(";"):
        for j, part in enumerate(p.strip() for p in group.split(",")):
            if j > 0 and "=" in part and ":" not in part and ":" in out[-1]:
                out[-1] += "," + part
            else:
                out.append(part)
    return out


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
    module = game_part(game, "heuristic")
    if module is None:
        raise InvalidAgentSpec(f"{game} has no heuristic agent yet")
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
    for mod in ("tabletop.agents.ismcts", "tabletop.agents.guided", "tabletop.agents.policy", "tabletop.agents.hints",
                "tabletop.agents.team", "tabletop.agents.levels"):
        try:
            importlib.import_module(mod)  # registers its own kinds
        except ModuleNotFoundError as e:
            if e.name != mod:
                raise
