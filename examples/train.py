"""Train a masked policy for any game and player count on CPU; write numpy weights and a model card beside them.

    pip install -e '.[train]'            # torch (CPU), gymnasium, pettingzoo
    nice -n 19 python examples/train.py --game silos --players 3 --minutes 10 --seed 0
    tabletop arena silos --players 3 --agents "policy:silos-3p;medium" --games 200

Two phases, both seeded from `--seed` (torch on one thread, every game and opponent drawn from numpy generators
seeded from it), so the same command with the same `--bc-games` and `--updates` gives the same weights (the model
card records both, and the exact command that reproduces the file):

1. **Imitation** (`--bc-games` games): every seat is the game's heuristic (`medium`), a seat's action replaced by a
   random legal one with probability `--explore` (so the data holds states the heuristic would not reach); every
   decision is a sample (observation, mask, the heuristic's choice, the seat's final reward). The MLP's policy head
   learns the heuristic's choice (cross-entropy over the legal actions), its value head the final reward. The
   observations are kept as uint16 codes of their values (`Codebook`, lossless); in an action space of more than
   `LARGE` actions (SiliconVania's 9,485) only the legal actions' logits are computed (`ActorCritic.legal_forward`).
   With `--dagger R`, R rounds of DAgger follow: the policy plays `--dagger-games` games (every seat in Silencio,
   else one rotated seat among heuristic seats), each of its decisions labelled with the heuristic's choice in that
   state; the labels join the data and the policy is fitted again (a third of `--bc-epochs`). Imitation alone
   learns the heuristic's states only, and a policy's small mistakes lead it to states it never saw.
2. **Self-play PPO** (`--updates` updates of `--steps` learner decisions): the learner plays a seat drawn at each
   reset; each other seat is drawn from a pool of past versions of the policy (a frozen copy saved every
   `--snapshot-every` updates, the last `--pool` kept, sampling from their softmax) and the heuristic, half and half.
   In Silencio (cooperative) every other seat is the learner's current policy: a team of one policy, rewarded
   with the team's reward (`1 - cards_left / cards_dealt`, plus 1 for a perfect game).

The weights are the policy part only (body and logits, float16 in a compressed `.npz`, format `tabletop-mlp-v1`
of `tabletop.agents.policy`, read with numpy alone, never pickled). The model card (`NAME.toml` beside
`NAME.npz`) says how it was trained; `scripts/rl_eval.py` adds its measured results (the strength the lobby and
the terminal order it by). With `--minutes`, each phase stops at its share of the budget (a third for imitation)
if it has not reached its count: the card then records the counts actually run.
"""

from __future__ import annotations

import argparse
import json
import platform
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from tabletop.agents import make_agent
from tabletop.agents.policy import FORMAT
from tabletop.core import SeatHandle, game_info, new_game
from tabletop.rl.aec import final_rewards
from tabletop.rl.gym import Pool, single_agent
from tabletop.spaces import action_space, encoder

POLICY_DIR = Path(__file__).resolve().parent.parent / "src" / "tabletop" / "rl" / "policies"
SHORT = {"silos": "silos", "silencio": "silen", "siliconvania": "vania"}
"""The file (and lobby label) name of each game's policies: `<short>-<n>p` (a label has at most 10 characters)."""


def policy_name(game: str, players: int) -> str:
    """The shipped file name (without `.npz`) of the policy for `game` with `players`."""
    return f"{SHORT.get(game, game[:5])}-{players}p"


LARGE = 4096
"""An action space larger than this (SiliconVania's 9,485) is trained the sparse way: the imitation's softmax over
each decision's legal logits alone (`ActorCritic.legal_forward`), and the output layer starting at zero, so the rows
of actions never legal in training stay zero (they compress to nothing: that layer is most of the file). Smaller
spaces keep the dense masked softmax and the orthogonal start, so their cards' `reproduce` lines still give their
weights bit for bit."""


class ActorCritic(nn.Module):  # type: ignore[misc]
    def __init__(self, obs: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)
        if actions > LARGE:
            nn.init.zeros_(self.pi.weight)
        else:
            nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        logits = self.pi(h).masked_fill(mask == 0, -1e9)
        return logits, self.v(h).squeeze(-1)

    def legal_forward(self, x: torch.Tensor, idx: torch.Tensor, valid: torch.Tensor) -> tuple[torch.Tensor,
                                                                                                torch.Tensor]:
        """The logits of the legal actions only: row b holds those of the indices `idx[b]` (padded, `valid` False
        where padding), the same values as `forward`'s at those indices. A SiliconVania decision has about 20
        legal actions of 9,485: gathering their rows of the output layer costs that much less than the full layer
        and its mask."""
        h = self.body(x)
        logits = torch.einsum("blh,bh->bl", self.pi.weight[idx], h) + self.pi.bias[idx]
        return logits.masked_fill(~valid, -1e9), self.v(h).squeeze(-1)


def numpy_layers(model: ActorCritic) -> list[tuple[np.ndarray, np.ndarray]]:
    layers = [model.body[0], model.body[2], model.pi]
    return [(layer.weight.detach().numpy().T.astype(np.float32).copy(),
             layer.bias.detach().numpy().astype(np.float32).copy()) for layer in layers]


def save_npz(model: ActorCritic, path: Path, game: str, players: int, obs: int, actions: int) -> None:
    """The policy part (body + logits) as float16 numpy arrays: what `policy:NAME` and `policy:path=` read."""
    arrays: dict[str, Any] = {}
    layers = numpy_layers(model)
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"] = w.astype(np.float16)
        arrays[f"b{i}"] = b.astype(np.float16)
    meta = {"format": FORMAT, "game": game, "players": players, "obs": obs, "actions": actions,
            "activation": "tanh", "layers": len(layers)}
    arrays["meta"] = np.array(json.dumps(meta))
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)


class FrozenPolicy:
    """A numpy copy of the policy as an opponent callable (observation, mask) -> index, sampling its softmax."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], seed: int) -> None:
        self.layers = layers
        self.rng = np.random.default_rng(seed)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        x = obs
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < len(self.layers) - 1:
                x = np.tanh(x)
        legal = np.flatnonzero(mask)
        z = x[legal].astype(np.float64)
        p = np.exp(z - z.max())
        return int(legal[self.rng.choice(len(legal), p=p / p.sum())])


Data = tuple[list[np.ndarray], list[np.ndarray], list[int], list[float], int]
"""Labelled decisions: observations (as `CODES` codes), legal indices, the heuristic's choices, the seats' final
rewards, games played."""


class Codebook:
    """Observations stored as uint16 codes of their values, losslessly: an observation holds few distinct values
    (SiliconVania's 1,673 entries under 100 in all, fractions like k/88), so 3,000 games' 340,000 decisions take 1.1
    GB instead of 2.3 GB of float32. Codes are only ever appended: a stored code keeps its value."""

    def __init__(self) -> None:
        self.code: dict[float, int] = {}
        self.values = np.zeros(0, dtype=np.float32)

    def encode(self, x: np.ndarray) -> np.ndarray:
        uniq, inverse = np.unique(x, return_inverse=True)
        codes = np.empty(len(uniq), dtype=np.uint16)
        for i, v in enumerate(uniq.tolist()):
            c = self.code.get(v)
            if c is None:
                c = self.code[v] = len(self.code)
                if c >= 2**16:
                    raise OverflowError("more than 65,536 distinct observation values")
                self.values = np.append(self.values, np.float32(v))
            codes[i] = c
        return codes[inverse.reshape(-1)]

    def decode(self, codes: np.ndarray) -> np.ndarray:
        return self.values[codes]


CODES = Codebook()
"""The codebook of every observation `_labelled` stores (one per process: the codes only grow)."""
Layers = list[tuple[np.ndarray, np.ndarray]]


def imitation_data(game: str, players: int, games: int, explore: float, seed: int, deadline: float,
                   max_decisions: int) -> Data:
    """Decisions of heuristic games (see the module docstring), each seat's action replaced by a random legal one
    with probability `explore`."""
    return _labelled(game, players, games, seed, deadline, max_decisions, explore, None)


def policy_data(layers: Layers, game: str, players: int, games: int, seed: int, deadline: float,
                max_decisions: int) -> Data:
    """DAgger's data: games where the policy plays (every seat in a cooperative game, else one seat, rotated, among
    heuristic seats), each of its decisions labelled with the heuristic's choice in that same state: the states the
    policy reaches, which the heuristic's own games never show it (its mistakes compound there)."""
    return _labelled(game, players, games, seed, deadline, max_decisions, 0.0, layers)


def _labelled(game: str, players: int, games: int, seed: int, deadline: float, max_decisions: int, explore: float,
              layers: Layers | None) -> Data:
    """Games labelled by the heuristic: the heuristic plays (`layers` None, with `explore`), or the policy of
    `layers` plays its seats (the other seats' heuristic moves are not recorded)."""
    space, enc = action_space(game, players), encoder(game, players)
    coop = game_info(game).cooperative
    rng = np.random.default_rng(seed)
    obs: list[np.ndarray] = []
    legal_idx: list[np.ndarray] = []
    choice: list[int] = []
    reward: list[float] = []
    played = 0
    for g in range(games):
        if time.perf_counter() > deadline:
            break
        state = new_game(game, players, int(rng.integers(0, 2**63)))
        agents = [make_agent("heuristic", game, int(rng.integers(0, 2**63))) for _ in range(players)]
        handles = [SeatHandle(state, p) for p in range(players)]
        me = g % players
        seats: list[int] = []
        for _ in range(max_decisions):
            p = state.to_move
            if p is None:
                break
            best = agents[p].act(handles[p])
            if layers is not None and not (coop or p == me):
                state.apply(best)
                continue
            legal = state.legal_actions()
            idx = space.indices(legal)
            x = enc.encode_fast(state, p)
            obs.append(CODES.encode(x))
            legal_idx.append(np.asarray(idx, dtype=np.int64))
            k = legal.index(best)
            choice.append(idx[k])
            seats.append(p)
            if layers is not None:
                for n, (w, b) in enumerate(layers):
                    x = x @ w + b
                    if n < len(layers) - 1:
                        x = np.tanh(x)
                k = int(np.argmax(x[np.asarray(idx)]))
            elif rng.random() < explore:
                k = int(rng.integers(0, len(legal)))
            state.apply(legal[k])
        final = final_rewards(state) if state.to_move is None else [0.0] * players
        reward.extend(final[p] for p in seats)
        played = g + 1
    return obs, legal_idx, choice, reward, played


def imitate(model: ActorCritic, opt: torch.optim.Optimizer, data: tuple[Any, ...], n_actions: int, epochs: int,
            batch: int, holdout: float = 0.1) -> tuple[float, float]:
    """Fit the policy head to the heuristic's choices and the value head to the final rewards, `epochs` passes.

    The last `holdout` of the decisions (whole games: they are in game order) are kept out of training; after each
    epoch the policy's greedy choice is scored on them, and the weights of the best epoch are kept. Returns the last
    training loss and the best held-out accuracy (the share of held-out decisions where the greedy choice is the
    heuristic's). In a large action space (`LARGE`) the softmax is over each decision's legal actions, their logits
    alone computed (`ActorCritic.legal_forward`): the same loss as the full masked softmax over `n_actions`, at a
    fraction of its cost (SiliconVania, 2 players, width 128: an epoch in a quarter of the time)."""
    obs, legal_idx, choice, reward, _ = data
    cut = len(obs) - int(len(obs) * holdout) if len(obs) >= 20 else len(obs)
    codes = np.stack(obs)
    r = torch.tensor(reward, dtype=torch.float32)
    sparse = n_actions > LARGE
    target = ([int(np.flatnonzero(idx == c)[0]) for idx, c in zip(legal_idx, choice, strict=True)] if sparse
              else [])  # the choice's place among its legal indices

    def step(rows: list[int]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The logits (over the legal actions or, dense, all of them masked), the values and the targets."""
        if not sparse:
            x = torch.from_numpy(CODES.decode(codes[rows]))
            mask = torch.zeros((len(rows), n_actions), dtype=torch.int8)
            for row, k in enumerate(rows):
                mask[row, torch.from_numpy(legal_idx[k])] = 1
            logits, v = model(x, mask)
            return logits, v, torch.tensor([choice[k] for k in rows])
        x, idx, valid, y = rows_of(rows)
        logits, v = model.legal_forward(x, idx, valid)
        return logits, v, y

    def rows_of(rows: list[int]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        width = max(len(legal_idx[k]) for k in rows)
        idx = np.zeros((len(rows), width), dtype=np.int64)
        valid = np.zeros((len(rows), width), dtype=bool)
        for row, k in enumerate(rows):
            n = len(legal_idx[k])
            idx[row, :n] = legal_idx[k]
            valid[row, :n] = True
        x = torch.from_numpy(CODES.decode(codes[rows]))
        return x, torch.from_numpy(idx), torch.from_numpy(valid), torch.tensor([target[k] for k in rows])

    def held_out_accuracy() -> float:
        if cut == len(obs):
            return float("nan")
        hits = 0
        with torch.no_grad():
            for i in range(cut, len(obs), 4096):
                logits, _, y = step(list(range(i, min(i + 4096, len(obs)))))
                hits += int((logits.argmax(1) == y).sum())
        return hits / (len(obs) - cut)

    loss_v, best_acc = 0.0, -1.0
    best = {k: v.clone() for k, v in model.state_dict().items()}
    for epoch in range(epochs):
        perm = torch.randperm(cut)
        for i in range(0, cut, batch):
            j = perm[i:i + batch].tolist()
            logits, v, y = step(j)
            loss = nn.functional.cross_entropy(logits, y) + 0.5 * (v - r[j]).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            opt.step()
            loss_v = float(loss.detach())
        acc = held_out_accuracy()
        print(f"imitation epoch {epoch + 1}: loss {loss_v:.3f}, held-out accuracy {acc:.3f}", flush=True)
        if acc != acc or acc > best_acc:  # nan (no hold-out): keep the last
            best_acc = acc if acc == acc else best_acc
            best = {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(best)
    return loss_v, best_acc


def evaluate(layers: list[tuple[np.ndarray, np.ndarray]], game: str, players: int, games: int, seed: int,
             max_steps: int) -> float:
    """The greedy policy's win share in `games` seat-rotated games, one policy seat among heuristic seats, on the
    deals seed, seed+1, ... (the same deals at every call: checkpoints are compared on equal terms). Silencio: the
    team reward of a team of the policy, 1 - cards left / cards dealt."""
    enc, space = encoder(game, players), action_space(game, players)
    coop = game_info(game).cooperative
    total = 0.0
    for g in range(games):
        state = new_game(game, players, seed + g)
        me = g % players
        heur = [make_agent("heuristic", game, 7919 * g + p) for p in range(players)]
        handles = [SeatHandle(state, p) for p in range(players)]
        for _ in range(max_steps):
            p = state.to_move
            if p is None:
                break
            if coop or p == me:
                legal = state.legal_actions()
                x = enc.encode_fast(state, p)
                for i, (w, b) in enumerate(layers):
                    x = x @ w + b
                    if i < len(layers) - 1:
                        x = np.tanh(x)
                idx = space.indices(legal)
                state.apply(legal[int(np.argmax(x[np.asarray(idx)]))])
            else:
                state.apply(heur[p].act(handles[p]))
        if state.to_move is None:
            winners = list(state.winners())
            total += final_rewards(state)[0] if coop else (1.0 / len(winners) if me in winners else 0.0)
    return total / games


def train(args: argparse.Namespace) -> dict[str, Any]:
    game = game_info(args.game).name
    players = args.players
    cooperative = game_info(game).cooperative
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    enc, space = encoder(game, players), action_space(game, players)
    model = ActorCritic(enc.size, space.n, args.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=args.bc_lr)
    start, cpu0 = time.perf_counter(), time.process_time()
    budget = args.minutes * 60 if args.minutes else float("inf")
    log: dict[str, Any] = {"bc_games": 0, "bc_samples": 0, "updates": 0, "episodes": 0}

    # 1. imitation of the heuristic
    if args.bc_games:
        data = imitation_data(game, players, args.bc_games, args.explore, int(rng.integers(0, 2**63)),
                              start + budget / 3, args.max_steps)
        log["bc_games"], log["bc_samples"] = data[4], len(data[0])
        loss, acc = imitate(model, opt, data, space.n, args.bc_epochs, args.batch) if data[0] else (float("nan"),
                                                                                                     float("nan"))
        log["bc_loss"], log["bc_accuracy"] = round(loss, 4), round(acc, 4)
        log["bc_seconds"] = round(time.perf_counter() - start, 1)
        log["bc_cpu_seconds"] = round(time.process_time() - cpu0, 1)
        print(f"imitation: {data[4]} games, {len(data[0])} decisions, loss {loss:.3f}, held-out accuracy "
              f"{acc:.3f}, {log['bc_seconds']:.0f}s", flush=True)
        # 1b. DAgger: the policy's own games labelled by the heuristic, added to the data, the policy fitted again
        log["dagger_rounds"], log["dagger_games"] = 0, 0
        drawn = 0  # round seeds drawn from rng: a round the budget cuts short has drawn its seed too
        for r in range(args.dagger):
            if time.perf_counter() > start + budget * 2 / 3:
                break
            drawn += 1
            more = policy_data(numpy_layers(model), game, players, args.dagger_games, int(rng.integers(0, 2**63)),
                               start + budget * 2 / 3, args.max_steps)
            if more[4] < args.dagger_games:  # cut short by the budget: dropped, so the card's counts reproduce it
                break
            data = (*(a + b for a, b in zip(data[:4], more[:4], strict=True)), data[4] + more[4])
            loss, acc = imitate(model, opt, data, space.n, max(1, args.bc_epochs // 3), args.batch)
            log["dagger_rounds"], log["dagger_games"] = r + 1, log["dagger_games"] + more[4]
            log["bc_accuracy"] = round(acc, 4)
            print(f"dagger round {r + 1}: {more[4]} policy games, {len(data[0])} decisions in all, held-out "
                  f"accuracy {acc:.3f}, {time.perf_counter() - start:.0f}s", flush=True)
        for _ in range(drawn, args.dagger_seeds):  # the seed of the round cut short, drawn again by `reproduce`
            rng.integers(0, 2**63)
        log["dagger_seeds"] = max(drawn, args.dagger_seeds)
        log["dagger_seconds"] = round(time.perf_counter() - start, 1)
        del data

    # 2. self-play PPO against a pool of past versions (and the heuristic); Silencio: a team of the live policy.
    # Every --eval-every updates the greedy policy plays --eval-games fixed deals against the heuristic; the best
    # evaluated weights (the imitation's included, as update 0) are the ones written.
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    eval_seed = int(rng.integers(0, 2**31))
    best_score, best_update = -1.0, 0
    best_state = {k: v.clone() for k, v in model.state_dict().items()}
    curve: list[tuple[int, float]] = []
    if args.eval_every and args.eval_games:
        best_score = evaluate(numpy_layers(model), game, players, args.eval_games, eval_seed, args.max_steps)
        curve.append((0, best_score))
        print(f"update    0  evaluation vs heuristic {best_score:.3f}", flush=True)
    live = FrozenPolicy(numpy_layers(model), int(rng.integers(0, 2**63)))
    pool: Pool = Pool([live] if cooperative else ["heuristic", FrozenPolicy(live.layers, int(rng.integers(0, 2**63)))])
    env = single_agent(game, players=players, opponents=pool, max_steps=args.max_steps)
    obs, _ = env.reset(seed=int(rng.integers(0, 2**31)))
    returns: list[float] = []
    update = 0
    while update < args.updates and time.perf_counter() - start < budget:
        b_obs, b_mask, b_act, b_logp, b_val, b_rew, b_done = [], [], [], [], [], [], []
        with torch.no_grad():
            for _ in range(args.steps):
                x = torch.from_numpy(obs["observation"]).unsqueeze(0)
                m = torch.from_numpy(obs["action_mask"]).unsqueeze(0)
                logits, v = model(x, m)
                dist = torch.distributions.Categorical(logits=logits)
                a = dist.sample()
                b_obs.append(x[0])
                b_mask.append(m[0])
                b_act.append(a[0])
                b_logp.append(dist.log_prob(a)[0])
                b_val.append(v[0])
                obs, r, term, trunc, _ = env.step(int(a[0]))
                b_rew.append(float(r))
                b_done.append(term or trunc)
                if term or trunc:
                    returns.append(float(r))
                    obs, _ = env.reset()
            last_v = model(torch.from_numpy(obs["observation"]).unsqueeze(0),
                           torch.from_numpy(obs["action_mask"]).unsqueeze(0))[1][0]
        values = torch.stack(b_val)
        adv = torch.zeros(args.steps)
        gae = torch.tensor(0.0)
        for t in reversed(range(args.steps)):
            nxt = last_v if t == args.steps - 1 else values[t + 1]
            nonterminal = 0.0 if b_done[t] else 1.0
            delta = b_rew[t] + args.gamma * nxt * nonterminal - values[t]
            gae = delta + args.gamma * args.lam * nonterminal * gae
            adv[t] = gae
        ret = adv + values
        t_obs, t_mask, t_act, t_logp = torch.stack(b_obs), torch.stack(b_mask), torch.stack(b_act), torch.stack(b_logp)
        for _ in range(args.epochs):
            perm = torch.randperm(args.steps)
            for i in range(0, args.steps, args.batch):
                j = perm[i:i + args.batch]
                logits, v = model(t_obs[j], t_mask[j])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(t_act[j]) - t_logp[j]).exp()
                a_j = (adv[j] - adv[j].mean()) / (adv[j].std() + 1e-8)
                pg = -torch.min(ratio * a_j, ratio.clamp(1 - args.clip, 1 + args.clip) * a_j).mean()
                loss = pg + args.vf * 0.5 * (v - ret[j]).pow(2).mean() - args.ent * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 0.5)
                opt.step()
        update += 1
        live.layers = numpy_layers(model)
        if not cooperative and update % args.snapshot_every == 0:
            snaps = [m for m in pool.members if isinstance(m, FrozenPolicy)][-(args.pool - 1):]
            snaps.append(FrozenPolicy(live.layers, int(rng.integers(0, 2**63))))
            pool.members[:] = ["heuristic"] * len(snaps) + snaps
        recent = returns[-100:]
        score = ""
        if args.eval_every and args.eval_games and update % args.eval_every == 0:
            value = evaluate(live.layers, game, players, args.eval_games, eval_seed, args.max_steps)
            curve.append((update, value))
            score = f"  evaluation vs heuristic {value:.3f}"
            if value > best_score:
                best_score, best_update = value, update
                best_state = {k: v.clone() for k, v in model.state_dict().items()}
        print(f"update {update:4d}  {time.perf_counter() - start:6.0f}s  episodes {len(returns):5d}  "
              f"return(100) {float(np.mean(recent)) if recent else float('nan'):.3f}{score}", flush=True)
    if args.eval_every and args.eval_games:
        model.load_state_dict(best_state)
        log["kept_update"], log["kept_evaluation"] = best_update, round(best_score, 4)
        log["curve"] = curve
        print(f"kept the weights of update {best_update} (evaluation {best_score:.3f})", flush=True)
    log["updates"], log["episodes"] = update, len(returns)
    log["final_return_100"] = round(float(np.mean(returns[-100:])), 4) if returns else None
    log["seconds"] = round(time.perf_counter() - start, 1)
    log["cpu_seconds"] = round(time.process_time() - cpu0, 1)
    save_npz(model, args.out, game, players, enc.size, space.n)
    return log


def write_card(args: argparse.Namespace, log: dict[str, Any]) -> Path:
    """The model card beside the weights: how it was trained and the command that reproduces it exactly."""
    card = args.out.with_suffix(".toml")
    opponents = ("the live policy at every other seat (a team of one policy)" if game_info(args.game).cooperative
                 else f"a pool: the heuristic and the last {args.pool} snapshots of the policy, half and half")
    repro = ["python", "examples/train.py", "--game", args.game, "--players", str(args.players), "--seed",
             str(args.seed), "--bc-games", str(log["bc_games"]), "--bc-epochs", str(args.bc_epochs), "--bc-lr",
             str(args.bc_lr), "--dagger", str(log.get("dagger_rounds", 0)), "--dagger-games", str(args.dagger_games),
             *(["--dagger-seeds", str(log["dagger_seeds"])] if log.get("dagger_seeds", 0) > log.get("dagger_rounds", 0)
               else []),
             "--updates", str(log["updates"]), "--minutes", "0", "--hidden", str(args.hidden),
             "--steps", str(args.steps), "--lr", str(args.lr), "--eval-every", str(args.eval_every), "--eval-games",
             str(args.eval_games), "--out", str(args.out_arg)]
    lines = [
        f"# Model card of {args.out.name}: a masked MLP policy for {game_info(args.game).title}, "
        f"{args.players} players (examples/train.py).",
        "# [results] is written by scripts/rl_eval.py (arena games against the heuristic, `medium`).",
        "",
        "[policy]",
        f'name = "{args.out.stem}"',
        f'game = "{args.game}"',
        f"players = {args.players}",
        f'architecture = "MLP {enc_size(args)}-{args.hidden}-{args.hidden}-{action_space(args.game, args.players).n}'
        ' tanh, float16 weights, masked softmax over the legal actions"',
        "",
        "[training]",
        f'command = "{" ".join(shlex.quote(a) for a in sys.argv)}"'.replace("\\", "\\\\"),
        f'reproduce = "{" ".join(shlex.quote(a) for a in repro)}"',
        f"seed = {args.seed}",
        f"imitation_games = {log['bc_games']}",
        f"imitation_decisions = {log['bc_samples']}",
        f"imitation_epochs = {args.bc_epochs}",
        f"imitation_held_out_accuracy = {log.get('bc_accuracy', 'nan')}",
        f"imitation_seconds = {log.get('bc_seconds', 0.0)}",
        f"dagger_rounds = {log.get('dagger_rounds', 0)}",
        f"dagger_games = {log.get('dagger_games', 0)}",
        f"imitation_cpu_seconds = {log.get('bc_cpu_seconds', 0.0)}",
        f"ppo_updates = {log['updates']}",
        f"ppo_steps_per_update = {args.steps}",
        f"ppo_episodes = {log['episodes']}",
        f"final_training_return = {log['final_return_100'] if log['final_return_100'] is not None else 'nan'}",
        f"wall_seconds = {log['seconds']}",
        f"cpu_seconds = {log['cpu_seconds']}",
        *([f"kept_update = {log['kept_update']}",
           f"kept_evaluation = {log['kept_evaluation']}",
           f"evaluation = \"greedy, {args.eval_games} seat-rotated games against the heuristic every "
           f"{args.eval_every} updates, the same deals each time; the best evaluated weights are written\"",
           f"curve = {json.dumps([list(c) for c in log['curve']])}"] if "kept_update" in log else []),
        f'opponents = "{opponents}"',
        f'machine = "{platform.machine()}, {platform.python_implementation()} {platform.python_version()}, torch '
        f'{torch.__version__}, 1 thread, nice 19 on a 2-core machine shared with other jobs"',
    ]
    card.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return card


def plot(log: dict[str, Any], path: Path, title: str) -> None:
    """The learning curve: the greedy policy's evaluation against the heuristic at each evaluated update."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    xs, ys = zip(*log["curve"], strict=True) if log.get("curve") else ((), ())
    ax.plot(xs, ys, "o-", label="greedy policy vs the heuristic (evaluation games)")
    if "kept_update" in log:
        ax.axvline(log["kept_update"], color="green", lw=0.8, ls=":", label=f"kept: update {log['kept_update']}")
    ax.set_xlabel("PPO update (0: after imitation)")
    ax.set_ylabel("win share" if not log.get("cooperative") else "team reward")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def enc_size(args: argparse.Namespace) -> int:
    return encoder(args.game, args.players).size


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--game", required=True)
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--minutes", type=float, default=10.0, help="wall-clock budget (0: no limit; counts decide)")
    p.add_argument("--bc-games", type=int, default=400, help="heuristic games to imitate (0: no imitation)")
    p.add_argument("--bc-epochs", type=int, default=12, help="imitation passes (the best on held-out games is kept)")
    p.add_argument("--bc-lr", type=float, default=1e-3, help="the imitation's learning rate")
    p.add_argument("--explore", type=float, default=0.1)
    p.add_argument("--dagger", type=int, default=0, help="DAgger rounds after the imitation (0: none)")
    p.add_argument("--dagger-games", type=int, default=300, help="the policy's games labelled in each DAgger round")
    p.add_argument("--dagger-seeds", type=int, default=0,
                   help="draw this many DAgger round seeds at least (a `reproduce` line's: a run whose last round the "
                        "budget cut short drew that round's seed, and the later draws follow it)")
    p.add_argument("--updates", type=int, default=10_000, help="PPO updates at most")
    p.add_argument("--steps", type=int, default=512, help="learner decisions per update")
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--hidden", type=int, default=0, help="hidden width (0: 128, SiliconVania 64 for its size)")
    p.add_argument("--lr", type=float, default=3e-4, help="PPO's learning rate")
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--vf", type=float, default=0.5)
    p.add_argument("--ent", type=float, default=0.005)
    p.add_argument("--pool", type=int, default=4, help="past versions kept in the self-play pool")
    p.add_argument("--snapshot-every", type=int, default=5)
    p.add_argument("--eval-every", type=int, default=10, help="PPO updates between evaluations (0: keep the last)")
    p.add_argument("--eval-games", type=int, default=40, help="games of each evaluation against the heuristic")
    p.add_argument("--max-steps", type=int, default=3000, help="truncate a game after this many decisions")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="", help="weights file (default: src/tabletop/rl/policies/<short>-<n>p.npz)")
    p.add_argument("--plot", default="", help="also draw the learning curve (the evaluations) into this image")
    args = p.parse_args(argv)
    info = game_info(args.game)
    args.game = info.name
    if not info.min_players <= args.players <= info.max_players:
        p.error(f"{info.title} plays with {info.min_players}-{info.max_players} players, not {args.players}")
    if args.hidden <= 0:
        args.hidden = 64 if args.game == "siliconvania" else 128
    args.out_arg = args.out or str(Path("src/tabletop/rl/policies") / f"{policy_name(args.game, args.players)}.npz")
    args.out = Path(args.out) if args.out else POLICY_DIR / f"{policy_name(args.game, args.players)}.npz"
    log = train(args)
    card = write_card(args, log)
    if args.plot:
        log["cooperative"] = info.cooperative
        plot(log, Path(args.plot), f"{info.title}, {args.players} players: imitation, then PPO self-play")
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB) and {card}", flush=True)
    return log


if __name__ == "__main__":
    main()
