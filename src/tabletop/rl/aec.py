"""The PettingZoo AEC environment of every game: `tabletop.rl.env(game, players=..., options=...)` (wrapped in
`OrderEnforcingWrapper`, as PettingZoo's classic `env()`) and `tabletop.rl.raw_env(...)` (bare).

Agents are `player_0` ... `player_{n-1}` (seat numbers). Each observation is
`{"observation": float32 vector (tabletop.spaces.observations), "action_mask": int8 vector of the action space}`;
the mask is all zeros for a seat that is not to move. Actions are indices of the game's fixed action space
(`tabletop.spaces.actions`); an index whose action is not legal now is refused with `IllegalAction` and changes
nothing, or with `illegal="terminate"` ends the game (the offender -1, the others 0).
Rewards arrive only when the game ends (see `final_rewards`); a game that reaches the step limit
(`max_steps` decisions, default the game's `GameInfo.step_limit`) is truncated for every agent with reward 0.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from tabletop.core import State, game_info, new_game
from tabletop.core.errors import IllegalAction, InvalidOptions
from tabletop.core.options import OptionValue
from tabletop.core.parts import part, require
from tabletop.spaces import OBS_HIGH, OBS_LOW, ActionSpace, Encoder, action_space, encoder

REWARD_MODES = ("win", "rank")
ILLEGAL_MODES = ("raise", "terminate")
"""What the AEC and parallel environments do with an illegal index: raise `IllegalAction` and change nothing (the
default), or end the game as PettingZoo's classic `TerminateIllegalWrapper` does (the offender `illegal_reward`,
-1 by default, every other agent 0, every agent terminated)."""


def check_illegal(illegal: str, illegal_reward: float) -> float:
    """The illegal-action mode checked, and its reward as a float (clear errors otherwise)."""
    if illegal not in ILLEGAL_MODES:
        raise InvalidOptions(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, not {str(illegal)[:20]!r}")
    if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, int | float):
        raise InvalidOptions(f"illegal_reward must be a number, not {str(illegal_reward)[:20]}")
    return float(illegal_reward)


def final_rewards(state: State, mode: str = "win") -> list[float]:
    """Each seat's reward at the end of a game.

    Competitive games: `win` (the default) gives each of k winners 1/k and every other seat 0 (a win share);
    `rank` ranks seats by (winner, score) and gives 1 to the first, -1 to the last, linearly between, tied seats
    sharing the mean of their places. A cooperative game (Silencio), in both modes: every seat gets the team's
    reward, the `team_reward(state)` hook of the game's encoding part (Silencio: `1 - cards_left / cards_dealt`,
    plus 1 for a perfect game), or without one 1 for a win and 0 otherwise.
    """
    n = state.players
    winners = state.winners()
    if state.info.cooperative:
        hook = getattr(part(state.info, "encoding"), "team_reward", None)
        team = float(hook(state)) if hook is not None else (1.0 if winners else 0.0)
        return [team] * n
    if mode == "win":
        out = [0.0] * n
        for p in winners:
            out[p] = 1.0 / len(winners)
        return out
    if mode != "rank":
        raise InvalidOptions(f"reward mode must be one of {', '.join(REWARD_MODES)}, not {str(mode)[:40]!r}")
    scores = state.scores()
    key = [(p in winners, scores[p]) for p in range(n)]
    order = sorted(range(n), key=lambda p: key[p], reverse=True)
    value = [1.0 - 2.0 * i / (n - 1) for i in range(n)]
    out = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and key[order[j + 1]] == key[order[i]]:
            j += 1
        share = sum(value[i:j + 1]) / (j + 1 - i)
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return out


class TabletopAEC(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment for one game, player count and option set (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "tabletop_v0", "is_parallelizable": False,
    }

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
        super().__init__()
        info = game_info(game)
        n = info.default_players if players is None else players
        new_game(info.name, n, 0, options)  # refuses bad players or options now, with the game's own message
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidOptions(f"render_mode must be None, 'human' or 'ansi', not {str(render_mode)[:40]!r}")
        if reward not in REWARD_MODES:
            raise InvalidOptions(f"reward mode must be one of {', '.join(REWARD_MODES)}, not {str(reward)[:40]!r}")
        limit = info.step_limit if max_steps is None else max_steps
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise InvalidOptions(f"max_steps must be a positive integer, not {str(max_steps)[:40]}")
        self.game = info.name
        self.players = n
        self.options = dict(options or {})
        self.render_mode = render_mode
        self.max_steps = limit
        self.reward_mode = reward
        self.illegal = illegal
        self.illegal_reward = check_illegal(illegal, illegal_reward)
        self.space: ActionSpace = action_space(info.name, n)
        self.encoder: Encoder = encoder(info.name, n)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs = spaces.Dict({
            "observation": spaces.Box(low=OBS_LOW, high=OBS_HIGH, shape=(self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.space.n,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.space.n) for a in self.possible_agents}
        self._seeder = np.random.default_rng()
        self.state: State | None = None
        self._legal: list[Any] = []
        self._legal_idx: list[int] = []
        self._steps = 0
        self._no_mask = np.zeros(self.space.n, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ---- the cycle -------------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `seed` fixes it (and every later reset's game) exactly."""
        if seed is not None:
            self._seeder = np.random.default_rng(seed)
        game_seed = int(self._seeder.integers(0, 2**63))
        self.state = new_game(self.game, self.players, game_seed, self.options)
        self.agents = self.possible_agents.copy()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._refresh()

    def _refresh(self) -> None:
        state = self.state
        assert state is not None
        if state.to_move is None:
            self._legal, self._legal_idx = [], []
        else:
            self._legal = state.legal_actions()
            self._legal_idx = self.space.indices(self._legal)
            self.agent_selection = self.possible_agents[state.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before observe()")
        seat = self._seat[agent]
        # encode_fast equals encode(state.view(seat)), only faster (tests/rl/test_encode.py)
        obs = self.encoder.encode_fast(state, seat)
        legal = self._legal_idx
        mask = self.space.mask_of(legal) if legal and state.to_move == seat else self._no_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def legal_indices(self) -> list[int]:
        """The action indices legal for the agent to move now."""
        return self._legal_idx.copy()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        try:
            pos = self._legal_idx.index(int(action))
        except (ValueError, TypeError):
            text = self.space.texts[int(action)] if isinstance(action, int | np.integer) and \
                0 <= int(action) < self.space.n else str(action)[:40]
            if self.illegal == "terminate":
                self._end_illegal(agent, text)
                return
            raise IllegalAction(
                f"action {str(action)[:20]} ({text}) is not legal now for {agent}; legal indices: "
                f"{self._legal_idx[:20]}{' ...' if len(self._legal_idx) > 20 else ''}"
            ) from None
        self._cumulative_rewards[agent] = 0.0
        state.apply(self._legal[pos])
        self._steps += 1
        if state.to_move is None:
            final = final_rewards(state, self.reward_mode)
            for a in self.agents:
                self.rewards[a] = final[self._seat[a]]
                self.terminations[a] = True
            self._refresh()
            self._accumulate_rewards()
        elif self._steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
            self._refresh()
        else:
            # Mid-game every reward is 0 and stays 0 (set at reset; only the end pays), so the dicts need no
            # rebuild: the cumulative rewards are all 0 too (the mover's was just reset, the others' never moved).
            self._refresh()
        if self.render_mode == "human":
            self.render()

    def _end_illegal(self, agent: str, text: str) -> None:
        """`illegal="terminate"`: the game ends here for every agent, `agent` paid `illegal_reward`, the others 0
        (PettingZoo's TerminateIllegalWrapper; the game state is left as it was)."""
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = self.illegal_reward if a == agent else 0.0
            self.terminations[a] = True
        self.infos[agent] = {"illegal_action": text}
        self._legal, self._legal_idx = [], []
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as a spectator sees it (no hidden card): printed ('human') or returned ('ansi')."""
        if self.render_mode is None or self.state is None:
            return None
        from rich.console import Console

        module = require(self.game, "render", "table drawing")
        buf = io.StringIO()
        console = Console(file=buf, width=120, force_terminal=False, color_system=None)
        console.print(module.render(self.state.view(None)))
        text = buf.getvalue()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class TabletopEnv(OrderEnforcingWrapper):  # type: ignore[misc]
    """What `env()` returns: the raw environment inside PettingZoo's `OrderEnforcingWrapper` (classic's `env()`),
    with `state` still the game's state (PettingZoo's wrappers make `state` a method)."""

    @property
    def state(self) -> State | None:
        return self.env.unwrapped.state  # type: ignore[no-any-return]


def raw_env(
    game: str,
    players: int | None = None,
    options: Mapping[str, OptionValue] | None = None,
    render_mode: str | None = None,
    max_steps: int | None = None,
    reward: str = "win",
    illegal: str = "raise",
    illegal_reward: float = -1.0,
) -> TabletopAEC:
    """The bare PettingZoo AEC environment for `game` (see `TabletopAEC`); call `reset(seed=...)` before use."""
    return TabletopAEC(game, players, options, render_mode, max_steps, reward, illegal, illegal_reward)


def env(
    game: str,
    players: int | None = None,
    options: Mapping[str, OptionValue] | None = None,
    render_mode: str | None = None,
    max_steps: int | None = None,
    reward: str = "win",
    illegal: str = "raise",
    illegal_reward: float = -1.0,
) -> TabletopEnv:
    """The AEC environment as PettingZoo's classic `env()` gives it: `raw_env(...)` inside `OrderEnforcingWrapper`.

    Classic games also add `TerminateIllegalWrapper` and `AssertOutOfBoundsWrapper`; here the raw environment does
    both itself: an out-of-range or illegal index is an `IllegalAction` (a `ValueError` naming the legal indices,
    not an `AssertionError`) by default, or, with `illegal="terminate"`, ends the game as classic's wrapper does."""
    return TabletopEnv(raw_env(game, players, options, render_mode, max_steps, reward, illegal, illegal_reward))
