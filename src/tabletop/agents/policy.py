"""The trained-policy agent: `policy:path=FILE.npz` plays a policy trained for tabletop, in numpy.

The file is a NumPy `.npz` archive read with `allow_pickle=False`, so loading it can never execute code. Its
`meta` (a 0-d unicode array of JSON) names one of two formats:

- `tabletop-mlp-v1` (`PolicyNet`; `examples/train.py`): `{"format", "game", "players": n, "obs": size,
  "actions": N, "activation": "tanh" | "relu", "layers": k}` and `w0`, `b0`, ... `w{k-1}`, `b{k-1}`: float32
  weights of an MLP from the observation (`tabletop.rl.encode`, size `obs`) to one logit per action of the game's
  fixed action space (`tabletop.rl.actions`, its first `actions` indices; the space is append-only, so actions added
  later simply get no logit). The agent picks the legal action with the highest logit (`sample=true`: samples from
  the softmax over the legal actions, seeded). No search, no heuristic fallback; when none of the legal actions has
  a logit (all were added to the game after training) it takes the first legal one.
- `tabletop-lookahead-v1` (`LookaheadPolicy`; `examples/train_lookahead.py`): `{"format", "game", "players",
  "features": [names], "temperature": t}` and `w`, one float per feature: a learned judgement of a position, played
  by the game's own lookahead player (its `heuristic` part's `learned_agent`, reading `features(state, seat)` named
  by `FEATURES`; the file's names must be the game's names of today). SiliconVania's policies are of this kind:
  the heuristic's one-step lookahead on a sample of the table, with a fitted value of the city in place of the
  hand-written one (`sample=true`: each lookahead option with probability proportional to exp(value / t)).

Parameters: `path` (a weights file) or `name` (a shipped policy), and `sample` (true/false).

**Shipped policies** live in `tabletop/rl/policies/` (`shipped_dir()`), one layout for all: `NAME.npz` (the
weights) and `NAME.toml` beside it (its model card: `[policy]`, `[training]`, and `[results]` as written by
`scripts/rl_eval.py`). `policy:NAME` (the bare first parameter is the name: `policy:silos-2p,sample=true`) names
one by its file name or by its game and player count (`policy:silencio-3p` is `silen-3p.npz`). Without `sample`,
a named policy plays the mode its card measured stronger (`[results] play`), else greedy. `ladder(game, players)`
lists the strength levels and the shipped policies for that table, ordered by their measured strength
(`position`: easy 0, medium 1, hard 2; a policy 1 + its relative margin over `medium` in its card, within
0.1-1.9, since no policy was measured against `hard`).
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from tabletop.agents.base import Agent
from tabletop.agents.spec import InvalidAgentSpec, register_kind
from tabletop.core import Action, Rng, SeatHandle, game_info
from tabletop.core.errors import UnknownGame
from tabletop.core.parts import part as game_part

FORMAT = "tabletop-mlp-v1"
LOOKAHEAD_FORMAT = "tabletop-lookahead-v1"
ACTIVATIONS = ("tanh", "relu")


def _read(path: str | Path) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """numpy, the arrays and the JSON `meta` of a policy file; clear errors for anything else."""
    try:
        import numpy as np
    except ModuleNotFoundError:
        raise InvalidAgentSpec("the policy agent needs numpy: pip install 'tabletop[rl]'") from None
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
    if not isinstance(meta, dict):
        raise InvalidAgentSpec(f"policy file {str(path)[:120]}: format must be {FORMAT} or {LOOKAHEAD_FORMAT}")
    return np, arrays, meta


class PolicyNet:
    """An MLP read from an `.npz` file (see the module docstring); numpy only."""

    def __init__(self, path: str | Path, read: tuple[Any, dict[str, Any], dict[str, Any]] | None = None) -> None:
        np, arrays, meta = _read(path) if read is None else read
        self._np = np
        if meta.get("format") != FORMAT:
            raise InvalidAgentSpec(f"policy file {str(path)[:120]}: format must be {FORMAT} (a network) or "
                                   f"{LOOKAHEAD_FORMAT} (a learned judgement)")
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


class LookaheadPolicy:
    """A learned judgement read from an `.npz` file of format `tabletop-lookahead-v1` (see the module docstring):
    weights over the game's `heuristic.FEATURES`, played by the game's `heuristic.learned_agent`."""

    def __init__(self, path: str | Path, read: tuple[Any, dict[str, Any], dict[str, Any]] | None = None) -> None:
        np, arrays, meta = _read(path) if read is None else read
        where = f"policy file {str(path)[:120]}"
        try:
            self.game = str(meta["game"])
            self.players = int(meta["players"])
            names = [str(f) for f in meta["features"]]
            self.temperature = float(meta.get("temperature", 0.1))
        except (KeyError, TypeError, ValueError):
            raise InvalidAgentSpec(f"{where}: meta needs game, players and features") from None
        if not math.isfinite(self.temperature) or self.temperature <= 0:
            raise InvalidAgentSpec(f"{where}: temperature must be a positive number")
        try:
            info = game_info(self.game)
        except UnknownGame:
            raise InvalidAgentSpec(f"{where}: unknown game {self.game[:40]!r}") from None
        if not info.min_players <= self.players <= info.max_players:
            raise InvalidAgentSpec(f"{where}: {info.title} is played by {info.min_players}-{info.max_players}")
        module = game_part(self.game, "heuristic")
        wanted = getattr(module, "FEATURES", None)
        self._make = getattr(module, "learned_agent", None)
        if wanted is None or self._make is None:
            raise InvalidAgentSpec(f"{where}: {info.title} has no learned judgement to play it")
        if names != list(wanted):
            raise InvalidAgentSpec(f"{where}: its {len(names)} features are not the {len(wanted)} that "
                                   f"{info.title}'s judgement reads now")
        w = arrays.get("w")
        if w is None or w.ndim != 1 or w.shape[0] != len(names) or not np.issubdtype(w.dtype, np.floating):
            raise InvalidAgentSpec(f"{where}: 'w' must be {len(names)} floats, one per feature")
        if not np.all(np.isfinite(w)):
            raise InvalidAgentSpec(f"{where}: its weights must be finite")
        self.weights = [float(x) for x in w]

    def judge(self) -> Callable[[Any, int], float]:
        """The learned judgement itself, `judge(state, seat)`: the seat's final score it foresees from its city now
        (what the guided search scores its cut-offs with under `guided:policy=NAME`)."""
        make = self._make
        assert make is not None
        value: Callable[[Any, int], float] = make(self.weights, 0, 0.0).value
        return value

    def agent(self, seed: int = 0, sample: bool = False) -> Agent:
        """The agent that plays it: greedy, or sampling its lookahead at the file's temperature."""
        make = self._make
        assert make is not None
        agent: Agent = make(self.weights, seed, self.temperature if sample else 0.0)
        return agent


Policy = PolicyNet | LookaheadPolicy


def load_policy(path: str | Path) -> Policy:
    """The policy in `path`, of either format (`tabletop-mlp-v1` or `tabletop-lookahead-v1`)."""
    read = _read(path)
    if read[2].get("format") == LOOKAHEAD_FORMAT:
        return LookaheadPolicy(path, read)
    return PolicyNet(path, read)


def policy_agent(game: str, policy: Policy, seed: int = 0, sample: bool = False) -> Agent:
    """The agent that plays `policy` in `game` (a clear error when it was trained for another game)."""
    if policy.game != game:
        raise InvalidAgentSpec(f"this policy was trained for {policy.game}, not {game}")
    if isinstance(policy, LookaheadPolicy):
        return _Seated(policy.agent(seed, sample), policy.players, sample)
    return PolicyAgent(game, policy, seed, sample)


class _Seated:
    """A learned-judgement agent that refuses a table of another size, like `PolicyAgent`."""

    name = "policy"

    def __init__(self, inner: Agent, players: int, sample: bool) -> None:
        self.inner = inner
        self.players = players
        self.sample = sample

    def act(self, seat: SeatHandle) -> Action:
        if seat.players != self.players:
            raise InvalidAgentSpec(f"this policy was trained for {self.players} players, not {seat.players}")
        return self.inner.act(seat)


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

    def priors(self, seat: SeatHandle, actions: list[Action]) -> list[float]:
        """The network's softmax over `actions` (some of the seat's legal actions) from the seat's view: a search's
        prior (`team:policy=NAME`). An action outside the network's space gets none; uniform if none is inside."""
        if seat.players != self.net.players:
            raise InvalidAgentSpec(f"this policy was trained for {self.net.players} players, not {seat.players}")
        logits = self.net.logits(self.encoder.encode(seat.view()))
        idx = self.space.indices(actions)
        scored = [float(logits[i]) if i < self.net.actions else -math.inf for i in idx]
        top = max(scored, default=-math.inf)
        if top == -math.inf:
            return [1.0 / len(actions)] * len(actions) if actions else []
        weights = [math.exp(v - top) for v in scored]
        total = sum(weights)
        return [w / total for w in weights]

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


def shipped_dir() -> Path:
    """The folder of the policies that come with tabletop (`tabletop/rl/policies/`), without importing tabletop.rl."""
    return Path(str(resources.files("tabletop").joinpath("rl", "policies")))


@dataclass(frozen=True)
class Shipped:
    """A shipped policy: its name (the file's stem), what it plays, its files and its model card."""

    name: str
    game: str
    players: int
    path: Path
    card: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def results(self) -> dict[str, Any]:
        """The card's `[results]` table (empty when it was not measured)."""
        r = self.card.get("results", {})
        return r if isinstance(r, dict) else {}

    @property
    def position(self) -> float:
        """Where it sits among the levels (easy 0, medium 1, hard 2) by its measured result against `medium`;
        2.5 (after them) when its card has no result."""
        r = self.results
        try:
            if "team_cards_left" in r:  # Silencio: fewer cards left than the heuristic team is stronger
                base = float(r["medium_cards_left"])
                margin = (base - float(r["team_cards_left"])) / max(base, 1e-9)
            else:
                fair = 1.0 / self.players
                margin = (max(float(r["greedy_win"]), float(r["sampled_win"])) - fair) / fair
        except (KeyError, TypeError, ValueError):
            return 2.5
        return 1.0 + max(-0.9, min(0.9, margin))

    @property
    def play_sampled(self) -> bool:
        """Whether it plays sampled by default (its card's `[results] play`)."""
        return self.results.get("play") == "sampled"


def read_card(path: Path) -> dict[str, Any]:
    """A model card (`NAME.toml`) as a dict; empty when it is missing or not TOML."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}


@lru_cache(maxsize=4)
def _shipped(folder: str, names: tuple[str, ...], stamp: tuple[int, ...]) -> tuple[Shipped, ...]:
    """The policies `names` in `folder`, read again whenever a file's modification time (`stamp`) changes."""
    out: list[Shipped] = []
    for name in names:
        path = Path(folder) / f"{name}.npz"
        try:
            net = load_policy(path)
        except InvalidAgentSpec:
            continue
        out.append(Shipped(name, net.game, net.players, path, read_card(path.with_suffix(".toml"))))
    return tuple(out)


def shipped_policies(game: str | None = None, players: int | None = None, folder: Path | None = None) -> list[Shipped]:
    """The shipped policies (of `game` with `players` when given), by name; a file that does not load is left out."""
    folder = shipped_dir() if folder is None else folder
    if not folder.is_dir():
        return []
    files = sorted([*folder.glob("*.npz"), *folder.glob("*.toml")])
    names = tuple(p.stem for p in files if p.suffix == ".npz")
    found = _shipped(str(folder), names, tuple(p.stat().st_mtime_ns for p in files))
    return [s for s in found if (game is None or s.game == game) and (players is None or s.players == players)]


def find_shipped(name: str, game: str) -> Shipped:
    """The shipped policy `name` (its file name, or `<game>-<n>p`) for `game`; a clear error listing them if none."""
    name = name.strip().lower()
    mine = shipped_policies(game)
    for s in mine:
        if name in (s.name, f"{s.game}-{s.players}p"):
            return s
    others = [s for s in shipped_policies() if name in (s.name, f"{s.game}-{s.players}p")]
    if others:
        raise InvalidAgentSpec(f"policy {name[:40]} plays {others[0].game}, not {game}; for {game}: "
                               f"{', '.join(s.name for s in mine) or 'none shipped'}")
    raise InvalidAgentSpec(f"no shipped policy named {name[:40]!r}; for {game}: "
                           f"{', '.join(s.name for s in mine) or 'none shipped'} (or policy:path=FILE.npz)")


def ladder(game: str, players: int, folder: Path | None = None) -> list[tuple[str, float]]:
    """The levels and the shipped policies (of `folder`, default `shipped_dir()`) for `game` with `players`,
    weakest first: (spec, position)."""
    from tabletop.agents.levels import LEVELS

    rows: list[tuple[float, int, str]] = [(float(i), 0, level) for i, level in enumerate(LEVELS)]
    rows += [(s.position, 1, f"policy:{s.name}") for s in shipped_policies(game, players, folder)]
    return [(spec, pos) for pos, _, spec in sorted(rows)]


def _factory(game: str, seed: int, params: dict[str, str]) -> Agent:
    unknown = sorted(set(params) - {"path", "name", "sample"})
    if unknown:
        raise InvalidAgentSpec(f"unknown policy parameter(s) {', '.join(unknown)}; allowed: path, name, sample")
    if bool(params.get("path")) == bool(params.get("name")):
        raise InvalidAgentSpec("the policy agent needs a weights file (policy:path=FILE.npz) or a shipped "
                               "policy's name (e.g. policy:silos-2p): one of the two")
    game_info(game)
    default = "false"
    if params.get("name"):
        shipped = find_shipped(params["name"], game)
        path: str | Path = shipped.path
        default = "true" if shipped.play_sampled else "false"
    else:
        path = params["path"]
    sample = params.get("sample", default).lower()
    if sample not in ("true", "false"):
        raise InvalidAgentSpec(f"policy parameter sample={params['sample'][:20]!r} must be true or false")
    return policy_agent(game, load_policy(path), seed, sample == "true")


register_kind("policy", _factory)
