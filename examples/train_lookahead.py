"""Train a learned judgement for a game's lookahead player (SiliconVania): numpy only, a few minutes on CPU.

    nice -n 19 python examples/train_lookahead.py --game siliconvania --players 3 --seed 0
    python scripts/rl_eval.py src/tabletop/rl/policies/vania-3p.npz --games 200
    tabletop arena siliconvania --players 3 --agents "policy:vania-3p;medium" --games 200

Why not the masked MLP of `examples/train.py`: in SiliconVania an action's worth is where a tile lands in a city of
16 cells and 8 slots, which a network from the observation to 9,485 action logits reads poorly (its imitation of
the heuristic matched a third of the heuristic's choices and won 0-9% against it). The heuristic (`medium`) judges
each option by trying it on a sample of the table and scoring the city it would leave with a hand-written sum. This
trainer keeps that lookahead and learns the judgement instead (TD-Gammon's afterstates, fitted by Monte Carlo
regression): a linear function of the game's `heuristic.features` (the city's score breakdown, its promise terms,
tracks, meeples and cards, each also scaled by the game's progress) fitted to predict the seat's final score.

Rounds, all drawn from `--seed` (every game's deal and agents from its round and index, so the same command gives
the same weights with any `--workers`):

0. `--games` games with the heuristic at every seat, each lookahead option replaced by a random tried one with
   probability `--explore`; every decision records the features of the state it left (the afterstate) and, at the
   end, the seat's final score.
1. Ridge regression (`--ridge`, on standardised features) over every round's records so far; then the fitted
   judgement plays `--eval-games` seat-rotated games against the heuristic (deals 2,000,000 + g: not the deals
   `scripts/rl_eval.py` measures) and its win share is recorded.
2. Self-play against a pool (`--rounds` rounds): each seat is the latest judgement (half), a past one of the last
   `--pool` (a quarter; the heuristic while there is none) or the heuristic (a quarter), all exploring; the records
   join the data and step 1 runs again. The best evaluated judgement is written.

The weights file is the `tabletop-lookahead-v1` format of `tabletop.agents.policy` (`meta` and `w`, one float per
feature; read with `allow_pickle=False`); the model card beside it says how it was trained, and
`scripts/rl_eval.py` adds its results.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import resource
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from tabletop.agents.policy import LOOKAHEAD_FORMAT, shipped_policies
from tabletop.core import SeatHandle, game_info, new_game
from tabletop.core.parts import part

POLICY_DIR = Path(__file__).resolve().parent.parent / "src" / "tabletop" / "rl" / "policies"
EVAL_DEALS = 2_000_000
TEMPERATURE = 0.1
"""The sampled form's temperature, in points of final score (a file may set another)."""


def _module(game: str) -> Any:
    module = part(game, "heuristic")
    if module is None or not hasattr(module, "FEATURES") or not hasattr(module, "learned_agent"):
        raise SystemExit(f"{game} has no learned judgement (its heuristic part needs FEATURES and learned_agent)")
    return module


def _agent(game: str, weights: list[float] | None, seed: int, explore: float) -> Any:
    return _module(game).HeuristicAgent(seed, weights, 0.0, explore)


def play_recorded(job: tuple[str, int, int, list[list[float] | None], int, float]) -> tuple[Any, Any]:
    """One training game: (afterstate features, final score) of every decision of every seat."""
    game, players, deal, seats, agent_seed, explore = job
    features = _module(game).features
    agents = [_agent(game, w, agent_seed + p, explore) for p, w in enumerate(seats)]
    state: Any = new_game(game, players, deal)
    handles = [SeatHandle(state, p) for p in range(players)]
    rows: list[list[float]] = []
    who: list[int] = []
    while state.to_move is not None:
        p = state.to_move
        state.apply(agents[p].act(handles[p]))
        rows.append(features(state, p))
        who.append(p)
    scores = state.scores()
    return np.asarray(rows, dtype=np.float32), np.asarray([scores[p] for p in who], dtype=np.float32)


def play_eval(job: tuple[str, int, int, list[float], int]) -> float:
    """One evaluation game: the judgement at seat g mod players among heuristic seats; its share of the win."""
    game, players, g, weights, _ = job
    me = g % players
    agents = [_agent(game, None, 7919 * g + p, 0.0) for p in range(players)]
    agents[me] = _agent(game, weights, 31 * g, 0.0)
    state: Any = new_game(game, players, EVAL_DEALS + g)
    handles = [SeatHandle(state, p) for p in range(players)]
    while state.to_move is not None:
        p = state.to_move
        state.apply(agents[p].act(handles[p]))
    winners = state.winners()
    return 1.0 / len(winners) if me in winners else 0.0


def fit(xs: list[Any], ys: list[Any], ridge: float) -> list[float]:
    """Ridge regression of the final scores on the features (standardised; the bias unpenalised)."""
    x = np.concatenate(xs).astype(np.float64)
    y = np.concatenate(ys).astype(np.float64)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    a = x / scale
    penalty = ridge * np.eye(a.shape[1])
    penalty[0, 0] = 0.0
    w = np.linalg.solve(a.T @ a + penalty, a.T @ y) / scale
    return [float(v) for v in w]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--game", default="siliconvania")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--rounds", type=int, default=4, help="self-play rounds after the heuristic's games")
    p.add_argument("--games", type=int, default=1000, help="games per round")
    p.add_argument("--explore", type=float, default=0.1, help="chance a lookahead plays a random tried option")
    p.add_argument("--ridge", type=float, default=1.0)
    p.add_argument("--pool", type=int, default=4, help="past judgements kept in the self-play pool")
    p.add_argument("--eval-games", type=int, default=100, help="games of each evaluation against the heuristic")
    p.add_argument("--workers", type=int, default=2, help="processes (the weights do not depend on it)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="", help="weights file (default: the shipped policy of that game and player "
                                             "count, e.g. src/tabletop/rl/policies/vania-3p.npz)")
    args = p.parse_args(argv)
    info = game_info(args.game)
    if not info.min_players <= args.players <= info.max_players:
        p.error(f"{info.title} is played by {info.min_players}-{info.max_players}")
    module = _module(args.game)
    names = list(module.FEATURES)
    shipped = shipped_policies(args.game, args.players)  # by default the shipped policy of that table is replaced
    default = shipped[0].path if shipped else POLICY_DIR / f"{args.game}-{args.players}p.npz"
    out = Path(args.out) if args.out else default
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    xs: list[Any] = []
    ys: list[Any] = []
    pool: list[list[float]] = []
    curve: list[list[float]] = []
    best: tuple[float, int, list[float]] | None = None
    latest: list[float] | None = None
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.workers) as workers:
        for rnd in range(args.rounds + 1):
            jobs = []
            for g in range(args.games):
                seats: list[list[float] | None] = []
                for _ in range(args.players):
                    r = rng.random()
                    if latest is None or r < 0.25:
                        seats.append(None)
                    elif r < 0.5 and pool:
                        seats.append(pool[int(rng.integers(len(pool)))])
                    else:
                        seats.append(latest)
                deal = args.seed * 10_000_000 + rnd * 100_000 + g
                jobs.append((args.game, args.players, deal, seats, deal * 8, args.explore))
            decisions = 0
            for x, y in workers.imap(play_recorded, jobs, chunksize=8):
                xs.append(x)
                ys.append(y)
                decisions += len(y)
            if latest is not None:
                pool = [*pool, latest][-args.pool:]
            latest = fit(xs, ys, args.ridge)
            shares = list(workers.imap(play_eval, [(args.game, args.players, g, latest, 0)
                                                   for g in range(args.eval_games)], chunksize=4))
            win = float(np.mean(shares))
            curve.append([rnd, round(win, 4)])
            print(f"round {rnd}: {args.games} games, {decisions} decisions (all rounds: "
                  f"{sum(len(y) for y in ys)}), win share against the heuristic {win:.3f} over {args.eval_games} "
                  f"games, {time.perf_counter() - started:.0f} s", flush=True)
            if best is None or win > best[0]:
                best = (win, rnd, latest)
    assert best is not None
    meta = {"format": LOOKAHEAD_FORMAT, "game": args.game, "players": args.players, "features": names,
            "temperature": TEMPERATURE}
    np.savez_compressed(out, meta=np.array(json.dumps(meta)), w=np.asarray(best[2], dtype=np.float64))
    wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime + children.ru_utime + children.ru_stime
    command = " ".join(shlex.quote(a) for a in ["examples/train_lookahead.py", *(sys.argv[1:] if argv is None
                                                                                  else argv)])
    card = {
        "policy": {"name": out.stem, "game": args.game, "players": args.players,
                   "architecture": (f"a learned linear judgement of the city ({len(names)} features of "
                                    f"{args.game}'s heuristic.features) in the heuristic's one-step lookahead and "
                                    f"bidding; sampled form: softmax over the lookahead's values at temperature "
                                    f"{TEMPERATURE} points")},
        "training": {
            "command": command,
            "reproduce": (f"python examples/train_lookahead.py --game {args.game} --players {args.players} "
                          f"--rounds {args.rounds} --games {args.games} --explore {args.explore} --ridge "
                          f"{args.ridge} --pool {args.pool} --eval-games {args.eval_games} --seed {args.seed}"),
            "seed": args.seed, "rounds": args.rounds, "games_per_round": args.games,
            "decisions": int(sum(len(y) for y in ys)), "explore": args.explore, "ridge": args.ridge,
            "kept_round": best[1], "kept_evaluation": round(best[0], 4),
            "evaluation": (f"greedy, {args.eval_games} seat-rotated games against the heuristic after each round, "
                           f"deals {EVAL_DEALS}..{EVAL_DEALS + args.eval_games - 1}; the best evaluated judgement "
                           "is written"),
            "curve": curve,
            "opponents": ("round 0: the heuristic at every seat; then each seat the latest judgement (1/2), one of "
                          f"the last {args.pool} judgements (1/4) or the heuristic (1/4), all exploring"),
            "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
            "machine": (f"{platform.machine()}, CPython {platform.python_version()}, {args.workers} worker "
                        f"processes, nice {os.nice(0)}, {os.cpu_count()} cores"),
        },
    }
    lines = [f"# Model card of {out.name}: a learned judgement for {info.title}'s lookahead player, "
             f"{args.players} players (examples/train_lookahead.py).",
             "# [results] is written by scripts/rl_eval.py (arena games against the heuristic, `medium`).", ""]
    for section, body in card.items():
        lines.append(f"[{section}]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in body.items()]
        lines.append("")
    out.with_suffix(".toml").write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {out} (kept round {best[1]}: {best[0]:.3f}) and {out.with_suffix('.toml').name}; "
          f"{wall:.0f} s wall, {cpu:.0f} s CPU")


if __name__ == "__main__":
    main()
