"""Running a game between agents: each decision goes to the agent of the seat to move, via its seat handle."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tabletop.agents.base import Agent
from tabletop.core import Action, SeatHandle, State


@dataclass
class GameResult:
    """The finished state and per-seat decision counts and thinking time."""

    state: State
    decisions: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


def play_game(
    state: State,
    agents: Sequence[Agent],
    on_action: Callable[[State, int, Action], None] | None = None,
) -> GameResult:
    """Play `state` to the end with one agent per seat; `on_action(state_before, seat, action)` observes."""
    if len(agents) != state.players:
        raise ValueError(f"{state.players} seats need {state.players} agents, got {len(agents)}")
    handles = [SeatHandle(state, seat) for seat in range(state.players)]
    result = GameResult(state, [0] * state.players, [0.0] * state.players)
    while state.to_move is not None:
        seat = state.to_move
        t0 = time.perf_counter()
        action = agents[seat].act(handles[seat])
        result.seconds[seat] += time.perf_counter() - t0
        result.decisions[seat] += 1
        if on_action is not None:
            on_action(state, seat, action)
        state.apply(action)
    return result
