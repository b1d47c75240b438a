"""Train a game with Stable-Baselines3's masked PPO (sb3-contrib's MaskablePPO), then against a pool with itself.

    pip install -e '.[train]'            # torch, gymnasium, pettingzoo, stable-baselines3, sb3-contrib
    python examples/train_sb3.py --game silos --players 2 --steps 50000 --self-play-steps 50000 --out silos.zip

The environment is the Gymnasium id `tabletop/<game>-<n>p-v0` (registered by `import tabletop.rl`) with
`flat=True`: a Box observation, the mask in `info["action_mask"]` and `action_masks()`, which MaskablePPO reads
(`MlpPolicy`, no dict policy needed). The learner's seat is drawn at every reset. Phase 1 trains against
`--opponent` (an agent spec, default random); phase 2 (`--self-play-steps`) against a `tabletop.rl.Pool` of that
opponent and a frozen copy of the phase-1 model, given as a callable `(observation, action_mask) -> index`, one of
the two drawn per episode. The win rate of the model's masked greedy choice against random is measured at the end.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO

import tabletop.rl as rl


def as_opponent(model: MaskablePPO) -> Any:
    """A trained model as an opponent of `single_agent`: its masked greedy choice from its seat's observation."""

    def act(observation: np.ndarray, action_mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=action_mask.astype(bool), deterministic=True)
        return int(action)

    return act


def win_rate(model: MaskablePPO, env_id: str, games: int, seed: int) -> float:
    """The mean reward (the win share) of the model's masked greedy choice in `games` episodes against random."""
    env = gymnasium.make(env_id, opponents="random", flat=True)
    total = 0.0
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool), deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        total += float(reward)
    env.close()
    return total / max(games, 1)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="silos")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--opponent", default="random", help="agent spec of the phase-1 opponents")
    p.add_argument("--steps", type=int, default=50_000, help="phase 1: environment steps against --opponent")
    p.add_argument("--self-play-steps", type=int, default=0, help="phase 2: steps against a pool with phase 1's model")
    p.add_argument("--n-steps", type=int, default=512, help="PPO rollout length")
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--eval-games", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=None, help="where to save the model (.zip)")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    torch.set_num_threads(1)

    env_id = rl.env_id(args.game, args.players)
    env = gymnasium.make(env_id, opponents=args.opponent, flat=True)
    model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch, n_epochs=args.epochs,
                        seed=args.seed, verbose=0, policy_kwargs={"net_arch": [args.hidden, args.hidden]})
    model.learn(total_timesteps=args.steps)
    if args.self_play_steps > 0:
        frozen = MaskablePPO("MlpPolicy", env, seed=args.seed, policy_kwargs={"net_arch": [args.hidden, args.hidden]})
        frozen.set_parameters(model.get_parameters())
        pool = rl.Pool([args.opponent, as_opponent(frozen)])
        model.set_env(gymnasium.make(env_id, opponents=pool, flat=True))
        model.learn(total_timesteps=args.self_play_steps, reset_num_timesteps=False)
    rate = win_rate(model, env_id, args.eval_games, args.seed + 10_000)
    if args.out is not None:
        model.save(args.out)
    if not args.quiet:
        print(f"{env_id}: {model.num_timesteps} steps, win share {rate:.2f} against random in {args.eval_games} games")
    return {"env_id": env_id, "steps": int(model.num_timesteps), "win_rate": rate, "model": model}


if __name__ == "__main__":
    main()
