"""Reinforcement learning: PettingZoo and Gymnasium environments for every game (`pip install tabletop[rl]`).

- `tabletop.rl.env(game, players=..., options=...)`: a PettingZoo AEC environment, wrapped as classic's `env()`
  (`OrderEnforcingWrapper`); `tabletop.rl.raw_env(...)`: the bare one.
- `tabletop.rl.parallel_env(game, ...)`: a PettingZoo ParallelEnv (simultaneous decisions step together).
- `tabletop.rl.single_agent(game, players=..., opponents=[...])`: a Gymnasium environment for one learner seat;
  opponents are agent specs, `Agent`s, policy functions or a `Pool` of them.
- Gymnasium ids `tabletop/<game>-<n>p-v0` for every game and player count (the single-agent environment),
  registered when this package is imported (`register_envs()` registers games found later).
- `tabletop.rl.actions`, `tabletop.rl.encode`: re-exports of `tabletop.spaces` for code written before the move.

See docs/rl.md. The environments are imported lazily (on first use of an attribute above); the import itself only
registers the Gymnasium ids, when gymnasium is installed (no environment module is imported for that).
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletop.rl.aec import TabletopAEC, TabletopEnv, env, raw_env
    from tabletop.rl.gym import Pool, SingleAgentEnv, single_agent
    from tabletop.rl.parallel import TabletopParallel, parallel_env
    from tabletop.rl.registration import env_id, register_envs

__all__ = [
    "Pool",
    "SingleAgentEnv",
    "TabletopAEC",
    "TabletopEnv",
    "TabletopParallel",
    "env",
    "env_id",
    "parallel_env",
    "raw_env",
    "register_envs",
    "single_agent",
]

_WHERE = {
    "env": "aec", "raw_env": "aec", "TabletopAEC": "aec", "TabletopEnv": "aec",
    "single_agent": "gym", "SingleAgentEnv": "gym", "Pool": "gym",
    "parallel_env": "parallel", "TabletopParallel": "parallel",
    "env_id": "registration", "register_envs": "registration",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'tabletop.rl' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"tabletop.rl.{where}"), name)


if importlib.util.find_spec("gymnasium") is not None:
    from tabletop.rl.registration import register_envs as _register

    _register()
