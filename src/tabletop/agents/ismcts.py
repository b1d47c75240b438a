"""Information-set Monte Carlo tree search, single observer (Cowling, Powley & Whitehouse 2012, SO-ISMCTS): the
baseline configuration of the search core (`tabletop.agents.search`).

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

The reward vector of the core is `2 * players` floats: each seat's win share, then each seat's shaped score.

Spec parameters (`ismcts:iters=2000`, `ismcts:time=1.0,rollout=heuristic`): `iters` (iteration budget), `time`
(seconds per move), `rollout` (`random` or `heuristic`), `c` (exploration constant, default 0.7), `w` (score weight).
With neither `iters` nor `time` the budget is 1.0 s per move (an interactive move never takes more than about 1 s);
with both, search stops at whichever comes first.
"""

from __future__ import annotations

import math
from typing import Any

from mypy_extensions import mypyc_attr

from tabletop.agents.base import Agent, Candidate
from tabletop.agents.search import Node, RolloutPolicy, make_rollout, random_rollout
from tabletop.agents.search import Search as _Core
from tabletop.agents.spec import Params, register_kind
from tabletop.core import Action, Rng, SeatHandle, State

__all__ = ["DEFAULT_SECONDS", "HINT_ITERS", "IsmctsAgent", "IsmctsSearch", "Search", "hints", "make_rollout",
           "random_rollout"]

DEFAULT_SECONDS = 1.0
"""The per-move budget when a spec gives neither `iters` nor `time`."""
HINT_ITERS = 1000
"""The default iteration budget of `hints`."""


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed outside the compiled modules (tests)
class IsmctsSearch(_Core):
    """One ISMCTS search from a seat handle; `run` grows the tree, `candidates` reads the root."""

    def __init__(
        self,
        seat: SeatHandle,
        rollout: RolloutPolicy,
        seed: int,
        c: float = 0.7,
        w: float | None = None,
    ) -> None:
        super().__init__(seat, seed, 2 * seat.players)
        self.rollout = rollout
        self.c = c
        self.w = (1.0 if self.cooperative else 0.25) if w is None else w

    def ahead_action(self, state: State) -> Action:
        return self.rollout(state)

    def select(self, node: Node, legal: list[Action], seat: int) -> Action:
        best: Action = legal[0]
        best_ucb = -math.inf
        c = self.c
        children = node.children
        for a in legal:
            child = children[a]
            ucb = self.value(child, seat) + c * math.sqrt(math.log(child.avail) / child.visits)
            if ucb > best_ucb:
                best, best_ucb = a, ucb
        return best

    def playout(self, state: State) -> None:
        rollout = self.rollout
        while state.to_move is not None:
            state.apply(rollout(state))

    def value(self, node: Node, seat: int) -> float:
        """Mean reward of `seat` at `node`, scaled to [0, 1]."""
        n = node.visits
        if n == 0:
            return 0.0
        span = self.hi - self.lo
        shaped = (node.reward[self.players + seat] / n - self.lo) / span if span > 0 else 0.5
        return (node.reward[seat] / n + self.w * shaped) / (1.0 + self.w)

    def node_value(self, node: Node) -> float:
        return self.value(node, self.seat.seat)

    def action_score(self, action: Action) -> float | None:
        node = self.root.children.get(action)
        if not self.cooperative or node is None or not node.visits:
            return None
        return self.score(node, self.seat.seat)

    def win(self, node: Node, seat: int) -> float:
        """`seat`'s mean win share at `node`."""
        return node.reward[seat] / node.visits if node.visits else 0.0

    def score(self, node: Node, seat: int) -> float:
        """`seat`'s mean shaped score at `node` (raw: its margin, or the team's score in a cooperative game)."""
        return node.reward[self.players + seat] / node.visits if node.visits else 0.0

    def reward(self, state: State) -> list[float]:
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
        return win + shaped

    def candidates(self) -> list[Candidate]:
        """Root actions legal for the seat now, most visited first (ties: higher value, then legal order)."""
        me = self.seat.seat
        return self.ranked(self.seat.legal_actions(), lambda node: self.value(node, me))


Search = IsmctsSearch
"""The baseline search under its historical name."""


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
        self.last_search: IsmctsSearch | None = None

    def act(self, seat: SeatHandle) -> Action:
        """The most visited root action after a search from this seat's view."""
        legal = seat.legal_actions()
        seed = self._rng.next64() >> 1
        if len(legal) == 1:
            return legal[0]
        search = IsmctsSearch(seat, self._rollout, seed, self.c, self.w)
        search.run(self.iters, self.seconds)
        self.last_search = search
        return search.candidates()[0].action


def hint_search(seat: SeatHandle, seed: int) -> IsmctsSearch:
    """The search behind the baseline's hints (random rollouts), not run yet."""
    return IsmctsSearch(seat, make_rollout("random", seat.info.name, seed ^ 0x5A17), seed)


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
    None for a search fixed by `iters` alone, reproducible from `seed`). The hints every client shows are
    `tabletop.agents.hints.hints` (the search of the game's `hard` level).
    """
    if not seat.legal_actions():
        return []
    search = IsmctsSearch(seat, make_rollout(rollout, seat.info.name, seed ^ 0x5A17), seed)
    search.run(iters, seconds)
    return [(c.action, c.visits, c.value) for c in search.candidates()[:top]]


def _factory(game: str, seed: int, params: dict[str, Any]) -> Agent:
    p = Params("ismcts", params, ("iters", "time", "rollout", "c", "w"), game)
    iters = p.integer("iters")
    seconds = p.number("time")
    c = p.number("c", positive=False)
    w = p.number("w", positive=False)
    rollout = p.text("rollout", "random")
    return IsmctsAgent(game, seed, iters, seconds, rollout, 0.7 if c is None else c, w)


register_kind("ismcts", _factory)
