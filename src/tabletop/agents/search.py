"""The search core: information-set Monte Carlo tree search written once, with hooks for what the agents vary.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): one tree over the seat's information set, grown by
iterations that each play one determinization of the hidden information. The agents `ismcts`
(`tabletop.agents.ismcts`), `guided` (`tabletop.agents.guided`) and `team` (`tabletop.agents.team`) are
configurations of `Search`: subclasses that set its widening and override its hooks, never its loop.

One iteration (`Search.iterate`):

1. `determinize()`: a full state consistent with the seat's view (default `seat.sample(seed)`; the team search
   weights the samples by what the teammates did). When the seat owes a decision in a simultaneous step ahead of
   its turn (a secret bid), the seats before it in the step decide in the sample by `ahead_action` (their real
   choices are hidden from it), so that the seat's own decision is next at the root.
2. Walk the tree: at each node the actions of `tree_actions(state, node)` (default the legal actions; None stops
   the walk: the team search leaves the other seats' decisions to its rollout). A child legal in this
   determinization has its availability counted. While some legal action has no child, and progressive widening
   (`pw`: at most `max(2, ceil(pw * sqrt(visits + 1)))` children considered; None, no limit) allows another,
   `expand_choice(node, untried)` picks the child to add (default uniformly at random), and the walk ends.
   Otherwise `select(node, legal, seat)` picks the child (each configuration's UCB1 with availability counts).
3. `playout(state)`: on from the new leaf (to the end with a rollout policy, or a few steps and a cut-off).
4. `reward(state)`: a flat vector of `width` floats, summed into every node of the path (each node is read from
   the view of the seat that chose its action: the configurations lay out the vector per seat).

The tree holds only the seats' actions (chance is redrawn in every determinization), so the subtree under the
action a seat played stays valid for its next decision as long as no other seat has acted in between: `Reuse`
keeps it. Budgets (`run`): an iteration count, a time, or both (whichever comes first; at least one iteration);
with an iteration count and a fixed seed a search is reproducible.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from mypy_extensions import mypyc_attr

from tabletop.agents.base import Agent, Candidate
from tabletop.agents.spec import InvalidAgentSpec
from tabletop.core import Action, Rng, SeatHandle, State
from tabletop.core.parts import part

__all__ = ["Candidate", "Node", "Progress", "Reuse", "RolloutPolicy", "Search", "heuristic_rollout",
           "make_rollout", "random_rollout", "search_hints"]

RolloutPolicy = Callable[[State], Action]
"""Picks the action of `state.to_move` in a determinized state during a rollout (the state is not modified)."""
Progress = Callable[[float], bool]
"""Told the share of a search's budget spent (0 to 1) between chunks of iterations; returns False to stop early."""


def random_rollout(seed: int) -> RolloutPolicy:
    """A rollout policy that plays uniformly random legal actions."""
    rng = Rng(seed)

    def policy(state: State) -> Action:
        return rng.choice(state.legal_actions())

    return policy


def heuristic_agent(game: str, seed: int) -> Agent | None:
    """The game's heuristic agent (its `heuristic` part), or None for a game without one."""
    module = part(game, "heuristic")
    if module is None:
        return None
    agent: Agent = module.HeuristicAgent(seed)
    return agent


def heuristic_rollout(game: str, seed: int) -> RolloutPolicy:
    """A rollout policy that asks the game's heuristic agent, through a seat handle on the determinized state."""
    agent = heuristic_agent(game, seed)
    if agent is None:
        raise InvalidAgentSpec(f"{game} has no heuristic agent, so rollout=heuristic is not available")

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


class Node:
    """A node of the information-set tree: the statistics of the action that led here.

    `visits` (iterations through it), `avail` (iterations in which its action was legal), `reward` (the summed
    reward vectors, `width` floats laid out by the configuration) and `children` by action."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self, width: int) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = [0.0] * width


@mypyc_attr(allow_interpreted_subclasses=True)  # searches outside the compiled modules (tests) subclass it
class Search:
    """One search from a seat handle: `run` grows the tree, `candidates` reads its root (module docstring).

    A configuration sets `width` (the reward vector's length) and `pw`, and overrides the hooks `determinize`,
    `ahead_action`, `tree_actions`, `expand_choice`, `select`, `playout`, `reward` and `candidates`."""

    pw: float | None = None
    """Progressive widening: a node considers at most max(2, ceil(pw * sqrt(visits + 1))) children (None: all)."""
    must: Action | None = None
    """A root action expanded before any other (a review values the move played: `tabletop.agents.review`)."""

    def __init__(self, seat: SeatHandle, seed: int, width: int, root: Node | None = None) -> None:
        self.seat = seat
        self.players = seat.players
        self.cooperative = seat.info.cooperative
        self.width = width
        self.seed = seed
        self.rng = Rng(seed)
        self.root = root if root is not None else Node(width)
        self.iterations = 0
        self.dead_ends = 0  # playouts that reached a decision with no legal action (a dead-end sample): scored as is
        self.lo = math.inf  # the range of a shaped score seen so far, for the configurations that normalise it
        self.hi = -math.inf
        self.ahead = seat.to_move != seat.seat and bool(seat.legal_actions())
        """Whether the seat decides ahead of its turn (simultaneous step): each sample is advanced to its decision."""
        self._plain_tree = type(self).tree_actions is Search.tree_actions  # the loop then asks the state itself

    # ---- budgets ---------------------------------------------------------------------------------------------
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

    def run_with_progress(self, iters: int | None, seconds: float | None, progress: Progress,
                          chunk: int = 20) -> None:
        """`run` in chunks of `chunk` iterations, telling `progress` the share of the budget spent after each one
        (the larger of the iterations' and the time's share); it stops early when `progress` returns False. With
        an iteration budget the iterations are the same as `run(iters)`'s."""
        start = time.perf_counter()
        deadline = None if seconds is None else start + seconds
        done = 0
        while True:
            n = chunk if iters is None else min(chunk, iters - done)
            self.run(n, None if deadline is None else max(0.0, deadline - time.perf_counter()))
            done += n
            now = time.perf_counter()
            share = 0.0 if iters is None else done / iters
            if seconds:
                share = max(share, (now - start) / seconds)
            finished = (iters is not None and done >= iters) or (deadline is not None and now >= deadline)
            if not progress(min(1.0, share)) or finished:
                return

    # ---- one iteration ----------------------------------------------------------------------------------------
    def iterate(self) -> None:
        """One determinize-select-expand-playout-backpropagate iteration."""
        state = self.determinize()
        if self.ahead:
            me = self.seat.seat
            while state.to_move is not None and state.to_move != me and me in state.deciding():
                state.apply(self.ahead_action(state))  # a seat before this one in the step, its choice unseen
            if state.to_move != me:  # cannot happen in a simultaneous step; never grow the root with others' moves
                self.iterations += 1
                return
        pw = self.pw
        tree_actions = None if self._plain_tree else self.tree_actions
        node = self.root
        path = [node]
        dead = False
        while state.to_move is not None:
            if tree_actions is None:
                legal = state.legal_actions()
            else:
                found = tree_actions(state, node)
                if found is None:
                    break
                legal = found
            if not legal:  # a dead-end sample (e.g. Silencio's ruling C-4 under a redrawn hand): scored as it stands
                dead = True
                break
            children = node.children
            untried: list[Action] = []
            tried = 0
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
                    tried += 1
            if untried and (pw is None or tried == 0 or tried < max(2, math.ceil(pw * math.sqrt(node.visits + 1)))):
                action = self.expand_choice(node, untried)
                child = Node(self.width)
                child.avail = 1
                children[action] = child
                state.apply(action)
                path.append(child)
                break
            action = self.select(node, legal, state.to_move)
            node = children[action]
            state.apply(action)
            path.append(node)
        if not dead:
            try:
                self.playout(state)
            except (ValueError, IndexError):  # a rollout asked to choose among no action
                if state.to_move is None or state.legal_actions():
                    raise
                dead = True
        if dead:
            self.dead_ends += 1  # a dead-end sample, in the tree or the playout: scored as it stands (as the team does)
        reward = self.reward(state)
        for v in path:
            v.visits += 1
            r = v.reward
            i = 0
            for x in reward:
                r[i] += x
                i += 1  # noqa: SIM113 (enumerate is slower on this hot path)
        self.iterations += 1

    # ---- hooks ------------------------------------------------------------------------------------------------
    def determinize(self) -> State:
        """A full state consistent with the seat's view."""
        return self.seat.sample(self.rng.next64() >> 1)

    def ahead_action(self, state: State) -> Action:
        """The choice of a seat deciding before this one in a simultaneous step (default: uniformly random)."""
        legal = state.legal_actions()
        return legal[self.rng.below(len(legal))]

    def tree_actions(self, state: State, node: Node) -> list[Action] | None:
        """The actions the tree considers at `node` for `state.to_move`; None ends the walk there."""
        return state.legal_actions()

    def expand_choice(self, node: Node, untried: list[Action]) -> Action:
        """The untried action to add as a child of `node` (default: uniformly at random; `must` first at the root)."""
        if self.must is not None and node is self.root and self.must in untried:
            return self.must
        return untried[self.rng.below(len(untried))]

    def select(self, node: Node, legal: list[Action], seat: int) -> Action:  # pragma: no cover - abstract
        """The child of `node` to walk into, for `seat`, among `legal` (all of which have a child unless widened)."""
        raise NotImplementedError

    def playout(self, state: State) -> None:  # pragma: no cover - abstract
        """Play on from the new leaf (the state is the iteration's own)."""
        raise NotImplementedError

    def reward(self, state: State) -> list[float]:  # pragma: no cover - abstract
        """The reward vector (`width` floats) of the position the playout reached."""
        raise NotImplementedError

    def candidates(self) -> list[Candidate]:  # pragma: no cover - abstract
        """The seat's legal root actions, the one to play first."""
        raise NotImplementedError

    def hint_candidates(self, top: int) -> list[Candidate]:
        """The first `top` candidates as hints, each with the configuration's reason (default: none)."""
        return self.candidates()[:top]

    def node_value(self, node: Node) -> float:  # pragma: no cover - abstract
        """The seat's value of a visited node, in [0, 1], as `candidates` ranks it."""
        raise NotImplementedError

    def action_value(self, action: Action) -> tuple[float, int]:
        """(value, visits) of a root action for the seat ((0.0, 0) if it was never searched)."""
        node = self.root.children.get(action)
        if node is None or not node.visits:
            return 0.0, 0
        return self.node_value(node), node.visits

    def action_score(self, action: Action) -> float | None:
        """The seat's expected score after a root action where the configuration keeps it (a cooperative game's
        team score), else None."""
        return None

    def reason_for(self, action: Action) -> str:
        """One line on why `action` is worth playing, where the configuration can say (default: "")."""
        return ""

    # ---- reading the root -------------------------------------------------------------------------------------
    def ranked(self, legal: list[Action], value: Callable[[Node], float],
               rank: dict[Action, int] | None = None) -> list[Candidate]:
        """`legal` as candidates, most visited first (ties: higher `value`, then `rank`, else the order of
        `legal`); an action without a child has 0 visits and value 0."""
        out: list[tuple[int, float, int, Candidate]] = []
        children = self.root.children
        for i, a in enumerate(legal):
            node = children.get(a)
            if node is None or not node.visits:
                cand = Candidate(a, 0 if node is None else node.visits, 0.0)
            else:
                cand = Candidate(a, node.visits, value(node))
            out.append((-cand.visits, -cand.value, i if rank is None else rank.get(a, len(rank)), cand))
        out.sort(key=lambda t: t[:3])
        return [t[3] for t in out]


def search_hints(
    make: Callable[[SeatHandle, int], Search],
    seat: SeatHandle,
    seconds: float | None,
    iters: int | None,
    seed: int,
    top: int,
    progress: Progress | None = None,
) -> list[Candidate]:
    """Run the search `make(seat, seed)` for the budget and read its `top` hints (`tabletop.agents.hints.hints`
    documents the arguments); empty when the seat owes no decision."""
    if not seat.legal_actions():
        return []
    if seconds is None and iters is None:
        raise ValueError("hints need a budget: seconds or iters")
    search = make(seat, seed)
    if progress is None:
        search.run(iters, seconds)
    else:
        search.run_with_progress(iters, seconds, progress)
    return search.hint_candidates(top)


class Reuse:
    """Tree reuse: the subtree under the action a seat played, kept for the seat's next decision.

    `keep` remembers the search, the action played and the seat's log length; `take` gives the kept subtree back
    (`(node, lo, hi)`: the node and the search's score range) when the same seat decides next before any other
    seat acted: every log line since is the seat's own (or, with `table_lines`, the table's), the node was
    visited, and (with `needs_legal_child`) one of its children is legal now."""

    def __init__(self, table_lines: bool, needs_legal_child: bool) -> None:
        self.table_lines = table_lines
        self.needs_legal_child = needs_legal_child
        self._kept: tuple[int, int, Node, float, float] | None = None  # seat, log length, node, lo, hi

    def clear(self) -> None:
        """Forget the kept subtree."""
        self._kept = None

    def keep(self, seat: SeatHandle, search: Search, action: Action, log_length: int) -> None:
        """Remember the subtree under `action`, played by `seat` when its log had `log_length` lines."""
        node = search.root.children.get(action)
        self._kept = None if node is None else (seat.seat, log_length, node, search.lo, search.hi)

    def take(self, seat: SeatHandle, log: list[dict[str, Any]]) -> tuple[Node, float, float] | None:
        """The kept subtree, if the seat may search on from it now (see the class docstring)."""
        kept = self._kept
        if kept is None:
            return None
        who, at, node, lo, hi = kept
        if who != seat.seat or len(log) < at or node.visits == 0:
            return None
        allowed = (None, seat.seat) if self.table_lines else (seat.seat,)
        if any(entry.get("seat") not in allowed for entry in log[at:]):
            return None
        if self.needs_legal_child and (
            seat.to_move != seat.seat or not any(a in node.children for a in seat.legal_actions())
        ):
            return None
        return node, lo, hi
