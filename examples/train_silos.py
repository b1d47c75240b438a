"""Train a masked policy for 2-player SILOS with PPO on CPU, plot its learning curve, save numpy weights.

    pip install -e '.[train]'            # torch==2.13.0 (the CPU build on these machines), gymnasium, pettingzoo
    python examples/train_silos.py --minutes 15 --out silos-policy.npz --plot silos-curve.png
    tabletop arena silos --players 2 --agents policy:path=silos-policy.npz,sample=true,random --games 200

The learner plays a seat drawn at every reset (so it learns both seats) against opponents given as agent specs
(default: random), through `tabletop.rl.single_agent`. Only the final result is rewarded: 1 for a win, 1/2 for a
shared win, 0 otherwise. The policy is an MLP from the observation (docs/rl.md) to one logit per action of the fixed
action space; illegal actions are masked out of the softmax (logit -1e9), so the policy never plays one. A value head
shares the body (actor-critic), advantages by GAE, the clipped PPO objective with an entropy bonus.

Every `--eval-every` updates the policy's own masked choice (sampled from its softmax over the legal actions: no
search, no fallback; exactly what `policy:path=FILE,sample=true` plays) plays `--eval-games` seat-rotated games
against random; the curve plots that win rate and the training return. (The greedy argmax of a young policy can
cycle, moving a figure back and forth; sampling is the policy as trained.)
The weights are written as `.npz` (format `tabletop-mlp-v1`, see tabletop.agents.policy), never pickled.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from tabletop.agents import make_agent
from tabletop.agents.policy import FORMAT, PolicyAgent, PolicyNet
from tabletop.core import SeatHandle, new_game
from tabletop.rl import single_agent

GAME, PLAYERS = "silos", 2


class ActorCritic(nn.Module):  # type: ignore[misc]
    def __init__(self, obs: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        logits = self.pi(h).masked_fill(mask == 0, -1e9)
        return logits, self.v(h).squeeze(-1)


def save_npz(model: ActorCritic, path: Path, obs: int, actions: int) -> None:
    """The policy part (body + logits) as numpy arrays: what `policy:path=` reads."""
    layers = [model.body[0], model.body[2], model.pi]
    arrays: dict[str, Any] = {}
    for i, layer in enumerate(layers):
        arrays[f"w{i}"] = layer.weight.detach().numpy().T.astype(np.float32).copy()
        arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float32).copy()
    meta = {"format": FORMAT, "game": GAME, "players": PLAYERS, "obs": obs, "actions": actions,
            "activation": "tanh", "layers": len(layers)}
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


def evaluate(path: Path, games: int, opponent: str, seed: int, sample: bool = True, limit: int = 3000) -> float:
    """Win share of the policy (its own masked choice: sampled, or greedy) in `games` seat-rotated games against
    `opponent`; a game still running after `limit` decisions counts as not won."""
    net = PolicyNet(path)
    total = 0.0
    for g in range(games):
        me = g % PLAYERS
        agents = [make_agent(opponent, GAME, seed + 7919 * g + p) for p in range(PLAYERS)]
        agents[me] = PolicyAgent(GAME, net, seed + g, sample=sample)
        state = new_game(GAME, PLAYERS, seed + g)
        handles = [SeatHandle(state, p) for p in range(PLAYERS)]
        for _ in range(limit):
            if state.to_move is None:
                break
            state.apply(agents[state.to_move].act(handles[state.to_move]))
        winners = state.winners()
        if me in winners:
            total += 1.0 / len(winners)
    return total / games


def train(args: argparse.Namespace) -> dict[str, Any]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    env = single_agent(GAME, players=PLAYERS, opponents=[args.opponent], max_steps=args.max_steps)
    obs_n = env.observation_space["observation"].shape[0]
    act_n = int(env.action_space.n)
    model = ActorCritic(obs_n, act_n, args.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    out = Path(args.out)
    curve: dict[str, list[float]] = {"update": [], "seconds": [], "return": [], "eval_update": [], "eval_win": []}
    start = time.perf_counter()
    obs, _ = env.reset(seed=args.seed)
    episode_returns: list[float] = []
    update = 0
    while True:
        if args.updates and update >= args.updates:
            break
        if args.minutes and time.perf_counter() - start > args.minutes * 60:
            break
        buf_obs, buf_mask, buf_act, buf_logp, buf_val, buf_rew, buf_done = [], [], [], [], [], [], []
        with torch.no_grad():
            for _ in range(args.steps):
                x = torch.from_numpy(obs["observation"]).unsqueeze(0)
                m = torch.from_numpy(obs["action_mask"]).unsqueeze(0)
                logits, v = model(x, m)
                dist = torch.distributions.Categorical(logits=logits)
                a = dist.sample()
                buf_obs.append(x[0])
                buf_mask.append(m[0])
                buf_act.append(a[0])
                buf_logp.append(dist.log_prob(a)[0])
                buf_val.append(v[0])
                obs, r, term, trunc, _ = env.step(int(a[0]))
                buf_rew.append(float(r))
                buf_done.append(term or trunc)
                if term or trunc:
                    episode_returns.append(float(r))
                    obs, _ = env.reset()
            x = torch.from_numpy(obs["observation"]).unsqueeze(0)
            last_v = model(x, torch.from_numpy(obs["action_mask"]).unsqueeze(0))[1][0]
        # GAE over the rollout (the learner's own decisions; the opponents' moves are part of the environment)
        values = torch.stack(buf_val)
        adv = torch.zeros(args.steps)
        gae = torch.tensor(0.0)
        for t in reversed(range(args.steps)):
            nxt = last_v if t == args.steps - 1 else values[t + 1]
            nonterminal = 0.0 if buf_done[t] else 1.0
            delta = buf_rew[t] + args.gamma * nxt * nonterminal - values[t]
            gae = delta + args.gamma * args.lam * nonterminal * gae
            adv[t] = gae
        ret = adv + values
        b_obs, b_mask = torch.stack(buf_obs), torch.stack(buf_mask)
        b_act, b_logp = torch.stack(buf_act), torch.stack(buf_logp)
        for _ in range(args.epochs):
            perm = torch.randperm(args.steps)
            for i in range(0, args.steps, args.batch):
                j = perm[i:i + args.batch]
                logits, v = model(b_obs[j], b_mask[j])
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(b_act[j])
                ratio = (logp - b_logp[j]).exp()
                a_j = adv[j]
                a_j = (a_j - a_j.mean()) / (a_j.std() + 1e-8)
                pg = -torch.min(ratio * a_j, ratio.clamp(1 - args.clip, 1 + args.clip) * a_j).mean()
                vf = 0.5 * (v - ret[j]).pow(2).mean()
                ent = dist.entropy().mean()
                loss = pg + args.vf * vf - args.ent * ent
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 0.5)
                opt.step()
        update += 1
        recent = episode_returns[-50:]
        curve["update"].append(update)
        curve["seconds"].append(time.perf_counter() - start)
        curve["return"].append(float(np.mean(recent)) if recent else float("nan"))
        if args.eval_every and update % args.eval_every == 0:
            save_npz(model, out, obs_n, act_n)
            win = evaluate(out, args.eval_games, "random", 10_000 + update)
            curve["eval_update"].append(update)
            curve["eval_win"].append(win)
            print(f"update {update:4d}  {curve['seconds'][-1]:6.0f}s  episodes {len(episode_returns):5d}  "
                  f"return(50) {curve['return'][-1]:.3f}  policy vs random {win:.2f}", flush=True)
        elif not args.quiet:
            print(f"update {update:4d}  {curve['seconds'][-1]:6.0f}s  episodes {len(episode_returns):5d}  "
                  f"return(50) {curve['return'][-1]:.3f}", flush=True)
    save_npz(model, out, obs_n, act_n)
    curve["episodes"] = [float(len(episode_returns))]
    return curve


def plot(curve: dict[str, list[float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(curve["update"], curve["return"], label="training return (last 50 episodes)", alpha=0.6)
    if curve["eval_update"]:
        ax.plot(curve["eval_update"], curve["eval_win"], "o-", label="policy (sampled) win rate vs random")
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("PPO update")
    ax.set_ylim(0, 1)
    ax.set_title("SILOS, 2 players: masked PPO on CPU")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--minutes", type=float, default=15.0, help="wall-clock budget (0: no limit)")
    p.add_argument("--updates", type=int, default=0, help="stop after this many updates (0: no limit)")
    p.add_argument("--steps", type=int, default=1024, help="learner decisions per update")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--vf", type=float, default=0.5)
    p.add_argument("--ent", type=float, default=0.01)
    p.add_argument("--max-steps", type=int, default=3000, help="truncate a game after this many decisions")
    p.add_argument("--opponent", default="random", help="agent spec of the other seat")
    p.add_argument("--eval-every", type=int, default=10, help="updates between greedy evaluations (0: never)")
    p.add_argument("--eval-games", type=int, default=40)
    p.add_argument("--threads", type=int, default=1, help="torch threads (1 is fastest on a shared machine)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="silos-policy.npz")
    p.add_argument("--plot", default="silos-curve.png", help="learning-curve image ('' for none)")
    p.add_argument("--curve", default="", help="also write the curve as JSON here")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    curve = train(args)
    if args.plot:
        plot(curve, Path(args.plot))
    if args.curve:
        Path(args.curve).write_text(json.dumps(curve), encoding="utf-8")
    return curve


if __name__ == "__main__":
    main()
