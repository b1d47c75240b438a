"""A Gymnasium environment for one learner seat, the other seats played by agents: `tabletop.rl.single_agent`.

Observations are the AEC environment's dicts (`observation`, `action_mask`); `info["action_mask"]` and the
`action_masks()` method give the mask too (the convention of masked PPO implementations). The learner's seat is
`seat`, or drawn at each reset when `seat` is None (so a policy learns every seat). After the learner's action the
opponents play, through seat handles (they see only their own views), until the learner must decide again or the
game ends; the reward is the learner's `final_rewards` entry at the end, else 0.

Gymnasium's contract lets `step` receive any index of `Discrete(N)`. With `illegal="end"` (the default) an index
that is not legal now ends the episode at once (`terminated`, reward `illegal_reward`, default -1, and
`info["illegal_action"]` naming it) without touching the game; with `illegal="raise"` it raises `IllegalAction`
and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from tabletop.agents import Agent, make_agent
from tabletop.core import SeatHandle, State, game_info, new_game
from tabletop.core.errors import IllegalAction, InvalidOptions
from tabletop.core.options import OptionValue
from tabletop.core.parts import require
from tabletop.rl.aec import REWARD_MODES, final_rewards
from tabletop.spaces import OBS_HIGH, OBS_LOW, action_space, encoder


class SingleAgentEnv(gymnasium.Env):
    """One learner seat against agent specs (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium declares it an instance attribute)

    def __init__(
        self,
        game: str,
        players: int | None = None,
        opponents: Sequence[str] | str = ("random",),
        options: Mapping[str, OptionValue] | None = None,
        seat: int | None = None,
        max_steps: int | None = None,
        reward: str = "win",
        illegal: str = "end",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        info = game_info(game)
        n = info.default_players if players is None else players
        new_game(info.name, n, 0, options)  # refuses bad players or options now
        specs = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(specs) == 1:
            specs = specs * (n - 1)
        if len(specs) != n - 1:
            raise InvalidOptions(f"{n} players need {n - 1} opponent specs (or one for all), got {len(specs)}")
        for s in specs:
            make_agent(s, info.name, 0)  # refuses a bad spec now
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n):
            raise InvalidOptions(f"seat must be None (drawn at each reset) or 0..{n - 1}, not {str(seat)[:20]}")
        if illegal not in ("end", "raise"):
            raise InvalidOptions(f"illegal must be 'end' or 'raise', not {str(illegal)[:20]!r}")
        if reward not in REWARD_MODES:
            raise InvalidOptions(f"reward mode must be one of {', '.join(REWARD_MODES)}, not {str(reward)[:40]!r}")
        if render_mode is not None and render_mode != "ansi":
            raise InvalidOptions(f"render_mode must be None or 'ansi', not {str(render_mode)[:40]!r}")
        self.game, self.players, self.options = info.name, n, dict(options or {})
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.max_steps = info.step_limit if max_steps is None else max_steps
        self.reward_mode, self.illegal, self.illegal_reward = reward, illegal, float(illegal_reward)
        self.render_mode = render_mode
        self.space = action_space(info.name, n)
        self.encoder = encoder(info.name, n)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=OBS_LOW, high=OBS_HIGH, shape=(self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.space.n,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.space.n)
        self.state: State | None = None
        self.seat = 0 if seat is None else seat
        self._agents: list[Agent | None] = []
        self._handles: list[SeatHandle] = []
        self._legal: list[Any] = []
        self._legal_idx: list[int] = []
        self._steps = 0
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self.state = state = new_game(self.game, self.players, int(rng.integers(0, 2**63)), self.options)
        self.seat = int(rng.integers(0, self.players)) if self.fixed_seat is None else self.fixed_seat
        others = iter(self.opponent_specs)
        self._agents = [
            None if p == self.seat else make_agent(next(others), self.game, int(rng.integers(0, 2**63)))
            for p in range(self.players)
        ]
        self._handles = [SeatHandle(state, p) for p in range(self.players)]
        self._steps = 0
        self._done = False
        self._play_opponents()
        return self._obs(), self._info()

    def _play_opponents(self) -> None:
        state = self.state
        assert state is not None
        while state.to_move is not None and state.to_move != self.seat:
            agent = self._agents[state.to_move]
            assert agent is not None
            state.apply(agent.act(self._handles[state.to_move]))
            self._steps += 1
        if state.to_move == self.seat:
            self._legal = state.legal_actions()
            self._legal_idx = self.space.indices(self._legal)
        else:
            self._legal, self._legal_idx = [], []

    def _obs(self) -> dict[str, np.ndarray]:
        assert self.state is not None
        # encode_fast equals encode(state.view(seat)), only faster (tests/rl/test_encode.py)
        return {"observation": self.encoder.encode_fast(self.state, self.seat), "action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as an int8 mask (all zeros once the game is over)."""
        return self.space.mask_of(self._legal_idx)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if self._done or state.to_move != self.seat:
            raise IllegalAction("the episode is over: call reset()")
        try:
            pos = self._legal_idx.index(int(action))
        except (ValueError, TypeError):
            ok = isinstance(action, int | np.integer) and 0 <= int(action) < self.space.n
            text = self.space.texts[int(action)] if ok else str(action)[:40]
            if self.illegal == "raise":
                raise IllegalAction(f"action {str(action)[:20]} ({text}) is not legal now for seat {self.seat}") \
                    from None
            info = self._info()
            info["illegal_action"] = text
            self._legal, self._legal_idx = [], []
            self._done = True
            return self._obs(), self.illegal_reward, True, False, info
        state.apply(self._legal[pos])
        self._steps += 1
        self._play_opponents()
        reward = 0.0
        terminated = state.to_move is None
        truncated = False
        if terminated:
            reward = final_rewards(state, self.reward_mode)[self.seat]
        elif self._steps >= self.max_steps:
            truncated = True
            self._legal, self._legal_idx = [], []
        self._done = terminated or truncated
        return self._obs(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        import io

        from rich.console import Console

        module = require(self.game, "render", "table drawing")
        buf = io.StringIO()
        Console(file=buf, width=120, color_system=None).print(module.render(self.state.view(self.seat)))
        return buf.getvalue()


def single_agent(
    game: str,
    players: int | None = None,
    opponents: Sequence[str] | str = ("random",),
    options: Mapping[str, OptionValue] | None = None,
    seat: int | None = None,
    **kwargs: Any,
) -> SingleAgentEnv:
    """A Gymnasium environment: the learner at `seat` (None: drawn each reset), `opponents` agent specs elsewhere."""
    return SingleAgentEnv(game, players, opponents, options, seat, **kwargs)
