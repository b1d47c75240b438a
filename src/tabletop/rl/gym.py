"""A Gymnasium environment for one learner seat, the other seats played by agents: `tabletop.rl.single_agent`.

Observations are the AEC environment's dicts (`observation`, `action_mask`); `info["action_mask"]` and the
`action_masks()` method give the mask too (the convention of masked PPO implementations). The learner's seat is
`seat`, or drawn at each reset when `seat` is None (so a policy learns every seat). After the learner's action the
opponents play, through seat handles (they see only their own views), until the learner must decide again or the
game ends; the reward is the learner's `final_rewards` entry at the end, else 0.

Opponents (`opponents`: one for every other seat, or one per other seat in seat order) are any of:

- an agent spec (`"random"`, `"heuristic"`, `"ismcts:iters=200"`, `"policy:path=FILE.npz"`): a new agent each
  episode, seeded from the environment's seed;
- an `Agent` (anything with `act(handle)`): that object, deciding through its seat's handle, every episode;
- a callable `(observation, action_mask) -> action index` (a trained policy: the float32 vector and the int8 mask
  of its own seat, the same encoding the learner gets); an index that is not legal is an `IllegalAction` naming
  the seat;
- a `Pool([...])` of any of these: one member drawn per episode (and per seat given the pool) from the
  environment's seed, e.g. past checkpoints for self-play.

Gymnasium's contract lets `step` receive any index of `Discrete(N)`. With `illegal="end"` (the default; its alias
`"terminate"`) an index that is not legal now ends the episode at once (`terminated`, reward `illegal_reward`,
default -1, and `info["illegal_action"]` naming it) without touching the game; with `illegal="raise"` it raises
`IllegalAction` and changes nothing.

`flat=True` makes the observation the float32 vector alone (a `Box`), for trainers that take a Box; the mask is
then only in `info["action_mask"]` and `action_masks()`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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

PolicyFn = Callable[[np.ndarray, np.ndarray], Any]
"""An opponent as a function: its seat's observation vector and int8 action mask to an action index."""


class Pool:
    """Opponents to draw from: one member per episode (per seat given the pool), from the environment's seed."""

    def __init__(self, members: Sequence[Opponent]) -> None:
        members = list(members)
        if not members:
            raise InvalidOptions("a pool of opponents needs at least one member")
        for m in members:
            if isinstance(m, Pool):
                raise InvalidOptions("a pool cannot hold a pool")
        self.members = members

    def __len__(self) -> int:
        return len(self.members)

    def __repr__(self) -> str:
        return f"Pool({self.members!r})"


Opponent = str | Agent | PolicyFn | Pool
"""What plays an opponent seat: an agent spec, an `Agent`, a policy function or a `Pool` of them."""


def _is_single(x: Any) -> bool:
    return isinstance(x, str | Pool) or hasattr(x, "act") or callable(x)


def _check_opponent(x: Any, game: str) -> None:
    if isinstance(x, Pool):
        for m in x.members:
            _check_opponent(m, game)
    elif isinstance(x, str):
        make_agent(x, game, 0)  # refuses a bad spec now
    elif not (callable(getattr(x, "act", None)) or callable(x)):
        raise InvalidOptions(
            "an opponent is an agent spec (str), an Agent (with act(handle)), a callable "
            f"(observation, action_mask) -> index, or a Pool of them; not {type(x).__name__}")


class SingleAgentEnv(gymnasium.Env):
    """One learner seat against agent specs (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium declares it an instance attribute)

    def __init__(
        self,
        game: str,
        players: int | None = None,
        opponents: Opponent | Sequence[Opponent] = ("random",),
        options: Mapping[str, OptionValue] | None = None,
        seat: int | None = None,
        max_steps: int | None = None,
        reward: str = "win",
        illegal: str = "end",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        flat: bool = False,
    ) -> None:
        info = game_info(game)
        n = info.default_players if players is None else players
        new_game(info.name, n, 0, options)  # refuses bad players or options now
        specs: list[Any] = [opponents] if _is_single(opponents) else list(opponents)  # type: ignore[arg-type]
        if len(specs) == 1:
            specs = specs * (n - 1)
        if len(specs) != n - 1:
            raise InvalidOptions(f"{n} players need {n - 1} opponents (or one for all), got {len(specs)}")
        for s in specs:
            _check_opponent(s, info.name)
        if not isinstance(flat, bool):
            raise InvalidOptions(f"flat must be True or False, not {str(flat)[:20]}")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n):
            raise InvalidOptions(f"seat must be None (drawn at each reset) or 0..{n - 1}, not {str(seat)[:20]}")
        if illegal not in ("end", "terminate", "raise"):
            raise InvalidOptions(f"illegal must be 'end' (or 'terminate') or 'raise', not {str(illegal)[:20]!r}")
        illegal = "end" if illegal == "terminate" else illegal
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
        self.flat = flat
        box = spaces.Box(low=OBS_LOW, high=OBS_HIGH, shape=(self.encoder.size,), dtype=np.float32)
        self.observation_space: spaces.Space[Any] = box if flat else spaces.Dict({
            "observation": box, "action_mask": spaces.Box(low=0, high=1, shape=(self.space.n,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.space.n)
        self.state: State | None = None
        self.seat = 0 if seat is None else seat
        self.opponents: list[Any] = []
        """What plays each seat this episode (None: the learner), pools drawn."""
        self._agents: list[Any] = []
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
        self.opponents, self._agents = [], []
        for p in range(self.players):
            if p == self.seat:
                self.opponents.append(None)
                self._agents.append(None)
                continue
            opp = next(others)
            if isinstance(opp, Pool):
                opp = opp.members[int(rng.integers(0, len(opp)))]
            agent_seed = int(rng.integers(0, 2**63))
            self.opponents.append(opp)
            self._agents.append(make_agent(opp, self.game, agent_seed) if isinstance(opp, str) else opp)
        self._handles = [SeatHandle(state, p) for p in range(self.players)]
        self._steps = 0
        self._done = False
        self._play_opponents()
        return self._obs(), self._info()

    def _play_opponents(self) -> None:
        state = self.state
        assert state is not None
        while state.to_move is not None and state.to_move != self.seat:
            p = state.to_move
            agent = self._agents[p]
            if callable(getattr(agent, "act", None)):
                state.apply(agent.act(self._handles[p]))
            else:
                state.apply(self._call_policy(agent, state, p))
            self._steps += 1
        if state.to_move == self.seat:
            self._legal = state.legal_actions()
            self._legal_idx = self.space.indices(self._legal)
        else:
            self._legal, self._legal_idx = [], []

    def _call_policy(self, fn: PolicyFn, state: State, seat: int) -> Any:
        """The action a policy function picks for `seat` from its observation and mask (refused if illegal)."""
        legal = state.legal_actions()
        idx = self.space.indices(legal)
        choice = fn(self.encoder.encode_fast(state, seat), self.space.mask_of(idx))
        try:
            return legal[idx.index(int(choice))]
        except (ValueError, TypeError):
            raise IllegalAction(
                f"the opponent at seat {seat} chose {str(choice)[:20]}, which is not legal now; legal indices: "
                f"{idx[:20]}{' ...' if len(idx) > 20 else ''}") from None

    def _obs(self) -> Any:
        assert self.state is not None
        # encode_fast equals encode(state.view(seat)), only faster (tests/rl/test_encode.py)
        obs = self.encoder.encode_fast(self.state, self.seat)
        return obs if self.flat else {"observation": obs, "action_mask": self.action_masks()}

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
    opponents: Opponent | Sequence[Opponent] = ("random",),
    options: Mapping[str, OptionValue] | None = None,
    seat: int | None = None,
    **kwargs: Any,
) -> SingleAgentEnv:
    """A Gymnasium environment: the learner at `seat` (None: drawn each reset), `opponents` elsewhere (specs,
    agents, policy functions or pools: see the module docstring); `flat=True` for a Box observation."""
    return SingleAgentEnv(game, players, opponents, options, seat, **kwargs)
