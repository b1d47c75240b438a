"""The PettingZoo ParallelEnv of every game: `tabletop.rl.parallel_env(game, players=..., options=...)`.

At each step every seat that owes a decision now acts at once: the seats of `state.deciding()` (the seat to move and,
where the rules have players decide at the same time, the seats that may decide ahead, e.g. secret bids). Their
masks are their own legal actions (`legal_actions_for(seat)`); every other agent's mask is all zeros and its action,
if given, is ignored. A step submits the deciding seats' actions (the ones ahead queued first, then the seat to
move's, so the engine applies them in the rules' order); in a step with one deciding seat it is the AEC step of that
seat (as PettingZoo's `aec_to_parallel` would do). No game is named: any game with an `encoding` part works.

Observations, action spaces, rewards, truncation (`max_steps` decisions) and seeding are the AEC environment's (the
same seed gives the same game); once the game ends every agent is terminated and `agents` is empty. An illegal or
missing action of a deciding seat raises `IllegalAction` before anything is applied (default), or with
`illegal="terminate"` ends the game: every offender `illegal_reward` (-1), every other agent 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from pettingzoo import ParallelEnv

from tabletop.core import State, new_game
from tabletop.core.errors import IllegalAction
from tabletop.core.options import OptionValue
from tabletop.rl.aec import TabletopAEC, final_rewards


class TabletopParallel(ParallelEnv):  # type: ignore[misc]
    """A PettingZoo ParallelEnv for one game, player count and option set (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "tabletop_parallel_v0"}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: Mapping[str, OptionValue] | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
        reward: str = "win",
        illegal: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        # the AEC environment checks every argument and holds the spaces, the encoder and the renderer
        self._aec = aec = TabletopAEC(game, players, options, render_mode, max_steps, reward, illegal, illegal_reward)
        self.game, self.players, self.options = aec.game, aec.players, aec.options
        self.render_mode, self.max_steps, self.reward_mode = render_mode, aec.max_steps, reward
        self.illegal, self.illegal_reward = illegal, aec.illegal_reward
        self.space, self.encoder = aec.space, aec.encoder
        self.possible_agents = aec.possible_agents.copy()
        self.agents: list[str] = []
        self.observation_spaces = aec.observation_spaces
        self.action_spaces = aec.action_spaces
        self._seeder = np.random.default_rng()
        self.state: State | None = None
        self._legal: dict[int, tuple[list[Any], list[int]]] = {}
        self._steps = 0

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game (the AEC environment's game for the same seed); the observations and infos of every agent."""
        if seed is not None:
            self._seeder = np.random.default_rng(seed)
        self.state = new_game(self.game, self.players, int(self._seeder.integers(0, 2**63)), self.options)
        self._aec.state = self.state  # for render()
        self.agents = self.possible_agents.copy()
        self._steps = 0
        self._refresh()
        return self._observations(self.agents), {a: {} for a in self.agents}

    def _refresh(self) -> None:
        state = self.state
        assert state is not None
        self._legal = {}
        for seat in state.deciding():
            legal = state.legal_actions_for(seat)
            self._legal[seat] = (legal, self.space.indices(legal))

    def _observations(self, agents: list[str]) -> dict[str, Any]:
        state = self.state
        assert state is not None
        out = {}
        for a in agents:
            seat = self.possible_agents.index(a)
            legal = self._legal.get(seat)
            mask = self.space.mask_of(legal[1]) if legal else np.zeros(self.space.n, dtype=np.int8)
            out[a] = {"observation": self.encoder.encode_fast(state, seat), "action_mask": mask}
        return out

    def deciding_agents(self) -> list[str]:
        """The agents whose actions the next step uses (the others' are ignored)."""
        return [self.possible_agents[s] for s in self._legal]

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                         dict[str, bool], dict[str, Any]]:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        live = self.agents.copy()
        if not live:
            raise IllegalAction("the game is over: call reset()")
        chosen: dict[int, Any] = {}
        bad: dict[str, str] = {}
        for seat, (legal, idx) in self._legal.items():
            agent = self.possible_agents[seat]
            action: Any = actions.get(agent)
            try:
                chosen[seat] = legal[idx.index(int(action))]
            except (ValueError, TypeError):
                ok = isinstance(action, int | np.integer) and 0 <= int(action) < self.space.n
                bad[agent] = self.space.texts[int(action)] if ok else str(action)[:40]
        rewards = dict.fromkeys(live, 0.0)
        terminations = dict.fromkeys(live, False)
        truncations = dict.fromkeys(live, False)
        infos: dict[str, Any] = {a: {} for a in live}
        if bad:
            if self.illegal == "raise":
                shown = "; ".join(f"{a}: {t} (legal indices {self._legal[self.possible_agents.index(a)][1][:20]})"
                                  for a, t in bad.items())
                raise IllegalAction(f"not legal now (nothing was applied): {shown}")
            for a in live:
                rewards[a] = self.illegal_reward if a in bad else 0.0
                terminations[a] = True
            for a, text in bad.items():
                infos[a]["illegal_action"] = text
            self._legal = {}
            self.agents = []
            return self._observations(live), rewards, terminations, truncations, infos
        to_move = state.to_move
        for seat, action in chosen.items():  # the seats ahead are queued first, then the seat to move applies all
            if seat != to_move:
                state.submit(seat, action)
        assert to_move is not None
        state.submit(to_move, chosen[to_move])
        self._steps += len(chosen)
        self._refresh()
        if state.to_move is None:
            final = final_rewards(state, self.reward_mode)
            for a in live:
                rewards[a] = final[self.possible_agents.index(a)]
                terminations[a] = True
            self.agents = []
        elif self._steps >= self.max_steps:
            for a in live:
                truncations[a] = True
            self._legal = {}
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return self._observations(live), rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The table as a spectator sees it: printed ('human') or returned ('ansi')."""
        return self._aec.render()

    def close(self) -> None:
        pass


def parallel_env(
    game: str,
    players: int | None = None,
    options: Mapping[str, OptionValue] | None = None,
    render_mode: str | None = None,
    max_steps: int | None = None,
    reward: str = "win",
    illegal: str = "raise",
    illegal_reward: float = -1.0,
) -> TabletopParallel:
    """A PettingZoo ParallelEnv for `game` (see `TabletopParallel`); `reset(seed=...)` gives the first observations."""
    return TabletopParallel(game, players, options, render_mode, max_steps, reward, illegal, illegal_reward)
