"""Throughput of the environments against the raw engine, measured in the same run (`scripts/rl_bench.py`).

Per game and player count, random play (a uniformly random legal action each decision):

- *engine*: `legal_actions()`, a choice, `apply()`: the engine's cost of one decision;
- *AEC*: `observe(agent)` (encoding and mask) for the agent to move, a choice from the mask, `step()`,
  on the bare environment (`tabletop.rl.env`, no PettingZoo wrapper);

  The choice reads the int8 mask as bool (`mask.view(np.bool_)`, no copy: `np.flatnonzero` on an int8 vector of
  SiliconVania's 9,485 actions costs about 27 µs, on its bool view under 2 µs), takes its `.nonzero()[0]` (about
  1.3 µs, where `np.flatnonzero`'s wrapper costs 3 µs) and draws with `random.Random` like the engine's loop (numpy's
  `Generator.integers` costs 2.4 µs a call, `randrange` 0.4 µs): the benchmark measures the environment, not the
  consumer's choice;
- *wrapped*: the same through PettingZoo's usual debugging wrappers (AssertOutOfBounds, OrderEnforcing), with
  `last()` as a user would call it.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tabletop.core import new_game


@dataclass
class BenchRow:
    """One game and player count: microseconds per decision (medians over the repetitions) and the AEC / engine
    ratio of each repetition (both sides measured back to back, so a load change shifts both)."""

    game: str
    players: int
    engine_us: float
    aec_us: float
    wrapped_us: float
    ratios: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        """The median of the repetitions' ratios (the ratio of the medians with one repetition)."""
        return statistics.median(self.ratios) if self.ratios else self.aec_us / self.engine_us


def _engine(game: str, players: int, seconds: float) -> float:
    rng = random.Random(0)
    steps, seed, spent = 0, 0, 0.0
    while spent < seconds:
        state = new_game(game, players, seed)
        seed += 1
        t0 = time.process_time()
        n = 0
        while state.to_move is not None and n < 3000:
            state.apply(rng.choice(state.legal_actions()))
            n += 1
        spent += time.process_time() - t0
        steps += n
    return spent / steps * 1e6


def _aec(game: str, players: int, seconds: float, wrapped: bool) -> float:
    from tabletop.rl.aec import raw_env as make_env

    rng = random.Random(0)
    steps, seed, spent = 0, 0, 0.0
    while spent < seconds:
        e = make_env(game, players=players, max_steps=3000)
        if wrapped:
            from pettingzoo.utils import wrappers

            e = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(e))
        e.reset(seed=seed)
        seed += 1
        t0 = time.process_time()
        n = 0
        if wrapped:
            for _agent in e.agent_iter():
                obs, _, term, trunc, _ = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                legal = obs["action_mask"].view(np.bool_).nonzero()[0]
                e.step(int(legal[rng.randrange(len(legal))]))
                n += 1
        else:
            base = e
            while not (base.terminations[base.agent_selection] or base.truncations[base.agent_selection]):
                obs = base.observe(base.agent_selection)
                legal = obs["action_mask"].view(np.bool_).nonzero()[0]
                base.step(int(legal[rng.randrange(len(legal))]))
                n += 1
        spent += time.process_time() - t0
        steps += n
    return spent / steps * 1e6


def bench(games: list[tuple[str, int]], seconds: float = 2.0, repeat: int = 1,
          progress: Callable[[], None] | None = None) -> list[BenchRow]:
    """Microseconds per decision of the engine, the bare AEC environment and the wrapped one (CPU time).

    With `repeat` > 1 the whole sweep runs that many times, interleaved (every game once, then again), and each
    row keeps the medians and the ratio of every repetition. `progress` is called after each measurement pair."""
    runs: dict[tuple[str, int], list[tuple[float, float, float]]] = {g: [] for g in games}
    for _ in range(repeat):
        for game, players in games:
            engine = _engine(game, players, seconds)
            aec = _aec(game, players, seconds, False)
            wrapped = _aec(game, players, seconds, True)
            runs[(game, players)].append((engine, aec, wrapped))
            if progress is not None:
                progress()
    rows = []
    for (game, players), rs in runs.items():
        rows.append(BenchRow(game, players, statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs),
                             statistics.median(r[2] for r in rs), [r[1] / r[0] for r in rs]))
    return rows


def table(rows: list[BenchRow]) -> str:
    """A Markdown table of the rows (the ratio column: median, and the range over the repetitions)."""
    out = ["| game | players | engine µs/decision | AEC µs/step | AEC / engine | wrapped µs/step | wrapped steps/s |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        spread = f" ({min(r.ratios):.1f}-{max(r.ratios):.1f})" if len(r.ratios) > 1 else ""
        out.append(f"| {r.game} | {r.players} | {r.engine_us:.1f} | {r.aec_us:.1f} | {r.ratio:.1f}×{spread} | "
                   f"{r.wrapped_us:.1f} | {1e6 / r.wrapped_us:,.0f} |")
    return "\n".join(out)
