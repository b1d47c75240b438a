"""Information-set Monte Carlo tree search, single observer (Cowling, Powley & Whitehouse 2012, SO-ISMCTS).

The agent sees the game only through its seat handle. Each iteration:

1. *determinize*: draw a full state consistent with the seat's view, `seat.sample(seed)` (never the true state;
   the sample also redraws every future chance draw); when the seat owes a decision in a simultaneous step but is
   not yet `to_move` (a secret bid), the seats before it in that step decide in the sample by the rollout policy
   (their real choices are hidden from it), so that the seat's own decision is next at the root;
2. *select*: walk the one tree of the seat's information set, at each node choosing among the children whose
   action is legal in this determinization by UCB1 with availability counts, `mean + c * sqrt(ln(avail) / visits)`,
   where `avail` counts the iterations in which the child was legal (the paper's fix for subset-armed bandits);
3. *expand* one untried action legal in the determinization;
4. *roll out* to the end of the game with a pluggable policy (uniform random, or the game's heuristic agent
   driven through a `SeatHandle` on the determinized state for the seat to move);
5. *backpropagate* a reward vector with one entry per seat; each node is scored from the view of the seat that
   chose its action.

Reward of seat p at the end of a rollout (`reward = win + w * shaped`, reported scaled to [0, 1]):

- `win` is 1/k if p is one of k winners, else 0 (for a cooperative game every seat shares the team's result);
- `shaped` is the score margin in competitive games (p's score minus the best other score), and the team score
  in cooperative games; it is normalised to [0, 1] by the lowest and highest value seen in this search, so no
  game-specific score range is assumed. `w` defaults to 0.25 (competitive) and 1.0 (cooperative, where a perfect
  game is rare and the score is the main signal).

The move played is the most visited root action (ties: higher value, then the order of the legal actions). With an
iteration budget and a fixed seed the same view gives the same move; with a time budget the count of iterations,
and so possibly the move, depends on the machine's speed.

Spec parameters (`ismcts:iters=2000`, `ismcts:time=1.0,rollout=heuristic`): `iters` (iteration budget), `time`
(seconds per move), `rollout` (`random` or `heuristic`), `c` (exploration constant, default 0.7), `w` (score weight).
With neither `iters` nor `time` the budget is 1.0 s per move (an interactive move never takes more than about 1 s);
with both, search stops at whichever comes first.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.agents.base import Agent
from tabletop.agents.spec import InvalidAgentSpec, register_kind
from tabletop.core import Action, Rng, SeatHandle, State, game_info

DEFAULT_SECONDS = 1.0
"""The per-move budget when a spec gives neither `iters` nor `time`."""
HINT_ITERS = 1000
"""The default iteration budget of `hints`."""

RolloutPolicy = Callable[[State], Action]
"""Picks the action of `state.to_move` in a determinized state during a rollout (the state is not modified)."""


def random_rollout(seed: int) -> RolloutPolicy:
    """A rollout policy that plays uniformly random legal actions."""
    rng = Rng(seed)

    def policy(state: State) -> Action:
        return rng.choice(state.legal_actions())

    return policy


def heuristic_rollout(game: str, seed: int) -> RolloutPolicy:
    """A rollout policy that asks the game's heuristic agent, through a seat handle on the determinized state."""
    try:
        module = importlib.import_module(f"tabletop.games.{game}.heuristic")
    except ModuleNotFoundError:
        raise InvalidAgentSpec(f"{game} has no heuristic agent, so rollout=heuristic is not available") from None
    agent: Agent = module.HeuristicAgent(seed)

    def policy(state: State) -> Action:
        seat = state.to_move
        assert seat is not None
        return agent.act(SeatHandle(state, seat))

    return policy


def make_rollout(kind: str, game: str, seed: int) -> RolloutPolicy:
    """The rollout policy called `kind` (`random` or `heuristic`)."""
    if kind == "random":
        return random_rollout(seed)
    if kind == "heuristic":
        return heuristic_rollout(game, seed)
    raise InvalidAgentSpec(f"unknown rollout policy {kind!r}; expected random or heuristic")


class _Node:
    """A node of the information-set tree: the edge statistics of the action that led here."""

    __slots__ = ("avail", "children", "score", "visits", "win")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.win = [0.0] * players  # sum over visits of each seat's win share
        self.score = [0.0] * players  # sum over visits of each seat's shaped score (raw, normalised when read)


@dataclass
class Candidate:
    """One root action after a search: how often it was tried and its estimated value in [0, 1] for the seat."""

    action: Action
    visits: int
    value: float
    win: float


class Search:
    """One ISMCTS search from a seat handle; `run` grows the tree, `candidates` reads the root."""

    def __init__(
        self,
        seat: SeatHandle,
        rollout: RolloutPolicy,
        seed: int,
        c: float = 0.7,
        w: float | None = None,
    ) -> None:
        self.seat = seat
        self.players = seat.players
        self.cooperative = seat.info.cooperative
        self.rollout = rollout
        self.c = c
        self.w = (1.0 if self.cooperative else 0.25) if w is None else w
        self.rng = Rng(seed)
        self.root = _Node(self.players)
        self.iterations = 0
        self.lo = math.inf  # range of the shaped score seen so far
        self.hi = -math.inf
        self.ahead = seat.to_move != seat.seat and bool(seat.legal_actions())
        """Whether the seat decides ahead of its turn (simultaneous step): each sample is advanced to its decision."""

    def run(self, iters: int | None = None, seconds: float | None = None) -> None:
        """Search until `iters` iterations or `seconds` have passed (whichever first; at least one iteration)."""
        deadline = None if seconds is None else time.perf_counter() + seconds
        done = 0
        while True:
            self.iterate()
            done += 1
            if iters is not None and done >= iters:
                return
            if deadline is not None and time.perf_counter() >= deadline:
                return

    def iterate(self) -> None:
        """One determinize-select-expand-rollout-backpropagate iteration."""
        state = self.seat.sample(self.rng.next64() >> 1)
        if self.ahead:
            me = self.seat.seat
            while state.to_move is not None and state.to_move != me and me in state.deciding():
                state.apply(self.rollout(state))  # a seat before this one in the step, its choice unseen
            if state.to_move != me:  # cannot happen in a simultaneous step; never grow the root with others' moves
                self.iterations += 1
                return
        node = self.root
        path = [node]
        while state.to_move is not None:
            legal = state.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                action = untried[self.rng.below(len(untried))]
                child = _Node(self.players)
                child.avail = 1
                children[action] = child
                state.apply(action)
                path.append(child)
                break
            action = self._select(node, legal, state.to_move)
            node = children[action]
            state.apply(action)
            path.append(node)
        while state.to_move is not None:
            state.apply(self.rollout(state))
        win, shaped = self._reward(state)
        for v in path:
            v.visits += 1
            vw, vs = v.win, v.score
            for p in range(self.players):
                vw[p] += win[p]
                vs[p] += shaped[p]
        self.iterations += 1

    def _select(self, node: _Node, legal: list[Action], seat: int) -> Action:
        best: Action = legal[0]
        best_ucb = -math.inf
        c = self.c
        for a in legal:
            child = node.children[a]
            ucb = self._value(child, seat) + c * math.sqrt(math.log(child.avail) / child.visits)
            if ucb > best_ucb:
                best, best_ucb = a, ucb
        return best

    def _value(self, node: _Node, seat: int) -> float:
        """Mean reward of `seat` at `node`, scaled to [0, 1]."""
        n = node.visits
        if n == 0:
            return 0.0
        span = self.hi - self.lo
        shaped = (node.score[seat] / n - self.lo) / span if span > 0 else 0.5
        return (node.win[seat] / n + self.w * shaped) / (1.0 + self.w)

    def _reward(self, state: State) -> tuple[list[float], list[float]]:
        players = self.players
        winners = state.winners()
        scores = [float(s) for s in state.scores()]
        win = [0.0] * players
        if self.cooperative:
            if winners:
                win = [1.0] * players
            team = sum(scores) / players
            shaped = [team] * players
        else:
            for p in winners:
                win[p] += 1.0 / len(winners)
            shaped = []
            for p in range(players):
                others = [scores[q] for q in range(players) if q != p]
                shaped.append(scores[p] - max(others) if others else scores[p])
        lo, hi = min(shaped), max(shaped)
        if lo < self.lo:
            self.lo = lo
        if hi > self.hi:
            self.hi = hi
        return win, shaped

    def candidates(self) -> list[Candidate]:
        """Root actions legal for the seat now, most visited first (ties: higher value, then legal order)."""
        legal = self.seat.legal_actions()
        me = self.seat.seat
        out: list[tuple[int, float, int, Candidate]] = []
        for i, a in enumerate(legal):
            node = self.root.children.get(a)
            if node is None:
                cand = Candidate(a, 0, 0.0, 0.0)
            else:
                win = node.win[me] / node.visits if node.visits else 0.0
                cand = Candidate(a, node.visits, self._value(node, me), win)
            out.append((-cand.visits, -cand.value, i, cand))
        out.sort(key=lambda t: t[:3])
        return [t[3] for t in out]


class IsmctsAgent:
    """Single-observer ISMCTS (see the module docstring); reproducible from its seed with an iteration budget."""

    name = "ismcts"

    def __init__(
        self,
        game: str,
        seed: int = 0,
        iters: int | None = None,
        seconds: float | None = None,
        rollout: str | RolloutPolicy = "random",
        c: float = 0.7,
        w: float | None = None,
    ) -> None:
        if iters is None and seconds is None:
            seconds = DEFAULT_SECONDS
        self.game = game
        self.iters = iters
        self.seconds = seconds
        self.c = c
        self.w = w
        self._rng = Rng(seed)
        self._rollout = make_rollout(rollout, game, seed ^ 0x5A17) if isinstance(rollout, str) else rollout
        self.last_search: Search | None = None

    def act(self, seat: SeatHandle) -> Action:
        """The most visited root action after a search from this seat's view."""
        legal = seat.legal_actions()
        seed = self._rng.next64() >> 1
        if len(legal) == 1:
            return legal[0]
        search = Search(seat, self._rollout, seed, self.c, self.w)
        search.run(self.iters, self.seconds)
        self.last_search = search
        return search.candidates()[0].action


def hints(
    seat: SeatHandle,
    iters: int = HINT_ITERS,
    seed: int = 0,
    top: int = 5,
    rollout: str = "random",
    seconds: float | None = 2 * DEFAULT_SECONDS,
) -> list[tuple[Action, int, float]]:
    """The top candidate actions for `seat` with visit counts and estimated value in [0, 1], from its view only.

    The value is the seat's mean search reward (mostly its chance of winning; see the module docstring).
    `seconds` also caps the search time (default 2 s, so a hint at the table never keeps a player waiting; pass
    None for a search fixed by `iters` alone, reproducible from `seed`).
    """
    if not seat.legal_actions():
        return []
    search = Search(seat, make_rollout(rollout, seat.info.name, seed ^ 0x5A17), seed)
    search.run(iters, seconds)
    return [(c.action, c.visits, c.value) for c in search.candidates()[:top]]


def _float(params: dict[str, str], key: str, spec: str, positive: bool = True) -> float | None:
    if key not in params:
        return None
    try:
        value = float(params[key])
    except ValueError:
        raise InvalidAgentSpec(f"ismcts parameter {key}={params[key]!r} must be a number ({spec})") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise InvalidAgentSpec(f"ismcts parameter {key}={params[key]!r} must be a positive number")
    return value


def _factory(game: str, seed: int, params: dict[str, Any]) -> Agent:
    allowed = {"iters", "time", "rollout", "c", "w"}
    unknown = sorted(set(params) - allowed)
    if unknown:
        raise InvalidAgentSpec(f"unknown ismcts parameter(s) {', '.join(unknown)}; allowed: iters, time, rollout, c, w")
    iters: int | None = None
    if "iters" in params:
        try:
            iters = int(params["iters"])
        except ValueError:
            iters = 0
        if iters <= 0:
            raise InvalidAgentSpec(f"ismcts parameter iters={params['iters']!r} must be a positive integer")
    seconds = _float(params, "time", "seconds per move")
    c = _float(params, "c", "exploration constant", positive=False)
    w = _float(params, "w", "score weight", positive=False)
    rollout = str(params.get("rollout", "random")).lower()
    game_info(game)
    return IsmctsAgent(game, seed, iters, seconds, rollout, 0.7 if c is None else c, w)


register_kind("ismcts", _factory)
