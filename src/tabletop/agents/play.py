"""Running a game between agents: each decision goes to the agent of the seat to move, via its seat handle."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tabletop.agents.base import Agent
from tabletop.core import Action, SeatHandle, State


@dataclass
class GameResult:
    """The finished state (or the state the step limit stopped at: `cut`) and per-seat decision counts and
    thinking time."""

    state: State
    decisions: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    cut: bool = False


def play_game(
    state: State,
    agents: Sequence[Agent],
    on_action: Callable[[State, int, Action], None] | None = None,
    max_steps: int | None = None,
) -> GameResult:
    """Play `state` to the end with one agent per seat; `on_action(state_before, seat, action)` observes.
    `max_steps`: stop the game unfinished once that many decisions were asked (the result says `cut`)."""
    if len(agents) != state.players:
        raise ValueError(f"{state.players} seats need {state.players} agents, got {len(agents)}")
    handles = [SeatHandle(state, seat) for seat in range(state.players)]
    result = GameResult(state, [0] * state.players, [0.0] * state.players)
    taken = 0
    while state.to_move is not None:
        if max_steps is not None and taken >= max_steps:
            result.cut = True
            break
        seat = state.to_move
        t0 = time.perf_counter()
        action = agents[seat].act(handles[seat])
        result.seconds[seat] += time.perf_counter() - t0
        result.decisions[seat] += 1
        if on_action is not None:
            on_action(state, seat, action)
        state.apply(action)
        taken += 1
    return result
