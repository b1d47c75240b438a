"""Reinforcement learning: PettingZoo and Gymnasium environments for every game (`pip install tabletop[rl]`).

- `tabletop.rl.env(game, players=..., options=..., render_mode=None)`: a PettingZoo AEC environment.
- `tabletop.rl.single_agent(game, players=..., opponents=[...])`: a Gymnasium environment for one learner seat.
- `tabletop.rl.actions`: the fixed, append-only action spaces; `tabletop.rl.encode`: observation encoders.

See docs/rl.md. Attributes are imported lazily so that `tabletop.rl.actions` and `tabletop.rl.encode` (numpy only)
can be used by agents without importing the environments, which depend on the agents.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletop.rl.aec import TabletopAEC, env
    from tabletop.rl.gym import SingleAgentEnv, single_agent

__all__ = ["SingleAgentEnv", "TabletopAEC", "env", "single_agent"]


def __getattr__(name: str) -> Any:
    if name in ("env", "TabletopAEC"):
        from tabletop.rl import aec

        return getattr(aec, name)
    if name in ("single_agent", "SingleAgentEnv"):
        from tabletop.rl import gym

        return getattr(gym, name)
    raise AttributeError(f"module 'tabletop.rl' has no attribute {name!r}")
