"""The trained-policy agent: `policy:path=FILE.npz` plays a network trained with `tabletop.rl`, in numpy.

The file is a NumPy `.npz` archive read with `allow_pickle=False`, so loading it can never execute code. It holds:

- `meta`: a 0-d unicode array, JSON `{"format": "tabletop-mlp-v1", "game": ..., "players": n, "obs": size,
  "actions": N, "activation": "tanh" | "relu", "layers": k}`;
- `w0`, `b0`, ... `w{k-1}`, `b{k-1}`: float32 weights of an MLP from the observation (`tabletop.rl.encode`, size
  `obs`) to one logit per action of the game's fixed action space (`tabletop.rl.actions`, its first `actions`
  indices; the space is append-only, so actions added later simply get no logit).

The agent picks the legal action with the highest logit (`sample=true`: samples from the softmax over the legal
actions, seeded). No search, no heuristic fallback; when none of the legal actions has a logit (all were added to
the game after training) it takes the first legal one. Parameters: `path` (required), `sample` (true/false).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from tabletop.agents.base import Agent
from tabletop.agents.spec import InvalidAgentSpec, register_kind
from tabletop.core import Action, Rng, SeatHandle, game_info

FORMAT = "tabletop-mlp-v1"
ACTIVATIONS = ("tanh", "relu")


class PolicyNet:
    """An MLP read from an `.npz` file (see the module docstring); numpy only."""

    def __init__(self, path: str | Path) -> None:
        try:
            import numpy as np
        except ModuleNotFoundError:
            raise InvalidAgentSpec("the policy agent needs numpy: pip install 'tabletop[rl]'") from None
        self._np = np
        p = Path(path)
        if p.suffix != ".npz":
            raise InvalidAgentSpec(f"a policy file is a .npz weights file, not {str(p.name)[:60]!r}")
        try:
            with np.load(p, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
        except FileNotFoundError:
            raise InvalidAgentSpec(f"policy file {str(path)[:120]} does not exist") from None
        except (OSError, ValueError, EOFError) as e:
            raise InvalidAgentSpec(f"policy file {str(path)[:120]} is not a readable .npz weights file: "
                                   f"{str(e)[:80]}") from None
        if "meta" not in arrays:
            raise InvalidAgentSpec(f"policy file {str(path)[:120]} has no 'meta' entry")
        try:
            meta = json.loads(str(arrays["meta"]))
        except ValueError:
            raise InvalidAgentSpec(f"policy file {str(path)[:120]}: 'meta' is not JSON") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise InvalidAgentSpec(f"policy file {str(path)[:120]}: format must be {FORMAT}")
        try:
            self.game = str(meta["game"])
            self.players = int(meta["players"])
            self.obs = int(meta["obs"])
            self.actions = int(meta["actions"])
            self.activation = str(meta["activation"])
            layers = int(meta["layers"])
        except (KeyError, TypeError, ValueError):
            raise InvalidAgentSpec(f"policy file {str(path)[:120]}: meta needs game, players, obs, actions, "
                                   "activation and layers") from None
        if self.activation not in ACTIVATIONS:
            raise InvalidAgentSpec(f"policy activation must be one of {', '.join(ACTIVATIONS)}")
        self.weights: list[tuple[Any, Any]] = []
        width = self.obs
        for i in range(layers):
            w, b = arrays.get(f"w{i}"), arrays.get(f"b{i}")
            if w is None or b is None or w.ndim != 2 or b.ndim != 1 or w.shape[0] != width or w.shape[1] != b.shape[0]:
                raise InvalidAgentSpec(f"policy file {str(path)[:120]}: layer {i} is missing or has the wrong shape")
            if not (np.issubdtype(w.dtype, np.floating) and np.issubdtype(b.dtype, np.floating)):
                raise InvalidAgentSpec(f"policy file {str(path)[:120]}: layer {i} weights must be floats")
            self.weights.append((w.astype(np.float32), b.astype(np.float32)))
            width = w.shape[1]
        if layers < 1 or width != self.actions:
            raise InvalidAgentSpec(f"policy file {str(path)[:120]}: the last layer must give {self.actions} logits")

    def logits(self, obs: Any) -> Any:
        """The action logits of one observation vector."""
        np = self._np
        x = obs
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(self.weights):
            x = x @ w + b
            if i < last:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        return x


class PolicyAgent:
    """Plays the legal action a trained network prefers (see the module docstring)."""

    name = "policy"

    def __init__(self, game: str, net: PolicyNet, seed: int = 0, sample: bool = False) -> None:
        from tabletop.spaces import action_space, encoder

        if net.game != game:
            raise InvalidAgentSpec(f"this policy was trained for {net.game}, not {game}")
        self.game = game
        self.net = net
        self.sample = sample
        self._rng = Rng(seed)
        self.space = action_space(game, net.players)
        self.encoder = encoder(game, net.players)
        if self.encoder.size != net.obs:
            raise InvalidAgentSpec(f"this policy reads {net.obs} observation values; {game} with {net.players} "
                                   f"players now encodes {self.encoder.size}")

    def act(self, seat: SeatHandle) -> Action:
        """The legal action with the highest logit (or sampled from the legal softmax)."""
        if seat.players != self.net.players:
            raise InvalidAgentSpec(f"this policy was trained for {self.net.players} players, not {seat.players}")
        legal = seat.legal_actions()
        logits = self.net.logits(self.encoder.encode(seat.view()))
        idx = self.space.indices(legal)
        scored = [(float(logits[i]), k) for k, i in enumerate(idx) if i < self.net.actions]
        if not scored:
            return legal[0]
        if not self.sample:
            return legal[max(scored)[1]]
        top = max(v for v, _ in scored)
        weights = [math.exp(v - top) for v, _ in scored]
        r = (self._rng.next64() >> 11) / float(1 << 53) * sum(weights)
        for w, (_, k) in zip(weights, scored, strict=True):
            r -= w
            if r <= 0:
                return legal[k]
        return legal[scored[-1][1]]


def _factory(game: str, seed: int, params: dict[str, str]) -> Agent:
    unknown = sorted(set(params) - {"path", "sample"})
    if unknown:
        raise InvalidAgentSpec(f"unknown policy parameter(s) {', '.join(unknown)}; allowed: path, sample")
    if not params.get("path"):
        raise InvalidAgentSpec("the policy agent needs a weights file: policy:path=FILE.npz")
    sample = params.get("sample", "false").lower()
    if sample not in ("true", "false"):
        raise InvalidAgentSpec(f"policy parameter sample={params['sample'][:20]!r} must be true or false")
    game_info(game)
    return PolicyAgent(game, PolicyNet(params["path"]), seed, sample == "true")


register_kind("policy", _factory)
