"""Guided ISMCTS: the "hard" search for the competitive games, and the hints built on it.

A configuration of the search core (`tabletop.agents.search`), like the baseline `tabletop.agents.ismcts` (kept
unchanged under its own spec name `ismcts`), with four changes that let a short budget go further:

1. **Cut-off evaluation.** A rollout plays at most `depth` random steps after the tree and then scores the
   position with the game's own position value (the `value` of the game's `ai` part), instead of playing
   random moves to the end (a SILOS game is about 180 decisions, so a full random rollout costs more than 20
   cut-off ones and says less). Seat p's reward at a cut-off is `sigmoid((v_p - max_{q != p} v_q) / scale)`, a
   win probability guessed from the value margin; at the end of a game it is the seat's share of the win (0.85)
   plus a sigmoid of its score margin (0.15). Games without a position value (Silencio, toy games) roll out to
   the end and are scored like the baseline (win share plus the score margin normalised over the search).
2. **A heuristic prior at the root.** The game's heuristic agent decides once from the seat's view; its action
   is expanded first, and the other root actions are expanded in the order of their one-step value on a sample
   (each option applied to a determinization and scored with the position value), best first.
3. **Progressive widening.** A node with visits n considers at most `ceil(pw * sqrt(n + 1))` children (at least
   two), so with many options (SiliconVania's bids: card x specialist) the iterations go deep on the promising
   few instead of trying each option once. New children are added in prior order at the root, at random below.
4. **Tree reuse.** After the seat's move the agent keeps the subtree under the action it played. When the seat
   decides again before any other seat has acted (the seat's log shows only its own lines and the table's since;
   a SiliconVania seat placing the tiles it took, a SILOS seat moving several figures), the kept subtree is the
   root of the new search, with its statistics: the tree holds only the seats' actions (chance is redrawn in
   every determinization), so nothing else stands between. Otherwise, or when none of the kept node's actions is
   legal now, it starts afresh.

Everything comes from the seat handle: `seat.sample` (determinizations), `seat.legal_actions`, `seat.log` and the
heuristic agent, which itself decides through the handle. With `iters` and a seed the move is reproducible.

Spec `guided:time=0.25` (parameters `iters`, `time`, `depth` (cut-off, default 8), `c` (exploration, default
0.5), `pw` (widening, default 2.0), `reuse` (true/false, default true), `trust`, `policy`, `value`). `policy=NAME` (a
shipped policy, e.g. `guided:policy=silos-2p,time=0.25`) puts the policy's greedy choice first at the root where the
heuristic's would be, and it stands unless the most searched move has a higher mean reward (`trust`, default 0 with
a policy: at 1.0, the first default, the policy-guided search won 0.365 of 100 SILOS games against `hard`, at 0 it
won 0.547 of 200; docs/rl.md): the policy-guided search of issue 26. With a learned judgement (SiliconVania's
`vania-Np`), `value=policy` also scores the cut-offs by it in the game's position value's stead (`value=game`, the
default: at 0.25 s it won 0.475 of 40 games against `hard`, no better than the root prior alone). Both cores: not
used; the search runs in the process that asks (the server already runs AI moves and hints in worker processes).
The hints every client shows are `tabletop.agents.hints` (this search's `hint_candidates` in SILOS and SiliconVania).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from tabletop.agents.base import HINT_SECONDS, Agent, Candidate
from tabletop.agents.search import Node, Reuse, heuristic_agent, search_hints
from tabletop.agents.search import Search as _Core
from tabletop.agents.spec import InvalidAgentSpec, Params, register_kind
from tabletop.core import Action, Rng, SeatHandle, State
from tabletop.core.parts import part

DEFAULT_SECONDS = 1.0
"""The per-move budget when a spec gives neither `iters` nor `time`."""
Evaluator = Callable[[Any, int], float]


@dataclass(frozen=True)
class PositionValue:
    """A game's position value for cut-off rollouts: `value(state, seat)` and the margin that counts as decisive."""

    value: Evaluator
    scale: float
    score_scale: float
    depth: int
    """The default cut-off: random steps after the tree before the position is scored."""


def position_value(game: str) -> PositionValue | None:
    """The position value of `game` (its `ai` part's `value`, `VALUE_SCALE`, `SCORE_SCALE`, `CUTOFF_DEPTH`), or
    None when its rollouts play to the end."""
    ai = part(game, "ai")
    if ai is None or not hasattr(ai, "value"):
        return None
    return PositionValue(ai.value, float(ai.VALUE_SCALE), float(ai.SCORE_SCALE), int(ai.CUTOFF_DEPTH))


def _sigmoid(x: float) -> float:
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


@mypyc_attr(allow_interpreted_subclasses=True)  # subclassed outside the compiled modules (tests)
class GuidedSearch(_Core):
    """One guided search from a seat handle (see the module docstring); `run` grows it, `candidates` reads it.

    The reward vector is one float per seat."""

    def __init__(
        self,
        seat: SeatHandle,
        seed: int,
        depth: int | None = None,
        c: float = 0.5,
        pw: float = 2.0,
        root: Node | None = None,
        prior: bool = True,
        trust: float | None = None,
        first: Agent | None = None,
        value: Evaluator | None = None,
    ) -> None:
        super().__init__(seat, seed, seat.players, root)
        self.first = first
        self.game = seat.info.name
        self.c = c
        self.pw = pw
        self.trust = trust
        pv = None if self.cooperative else position_value(self.game)
        if pv is not None and value is not None:  # a learned judgement scores the cut-offs in the game's stead
            pv = PositionValue(value, pv.scale, pv.score_scale, pv.depth)
        self.pv = pv
        self.depth = depth if depth is not None else self.pv.depth if self.pv is not None else 0
        self.reused = self.root.visits
        legal = seat.legal_actions()
        self.heuristic_action: Action | None = None
        self.one_step: dict[Action, float] = {}
        self.order: list[Action] = self._root_order(legal, prior)

    # ---- the root prior ---------------------------------------------------------------------------------------
    def _root_order(self, legal: list[Action], prior: bool) -> list[Action]:
        """Root actions in the order they are expanded: the heuristic's choice (or the `first` agent's: a trained
        policy's), then by one-step value."""
        order = list(legal)
        self.rng.shuffle(order)
        if not prior or len(legal) < 2:
            return order
        if self.pv is not None:
            base = self.seat.sample(self.rng.next64() >> 1)
            if base.to_move == self.seat.seat:
                me = self.seat.seat
                for a in legal:
                    s = base.clone()
                    s.apply(a)
                    self.one_step[a] = self.pv.value(s, me)
                order.sort(key=lambda a: -self.one_step.get(a, 0.0))
        agent = heuristic_agent(self.game, self.rng.next64() >> 1) if self.first is None else self.first
        if agent is not None:  # also for a secret bid owed ahead of the seat's turn: the heuristic bids blind too
            h = agent.act(self.seat)
            self.heuristic_action = h
            order.remove(h)
            order.insert(0, h)
        return order

    # ---- the hooks --------------------------------------------------------------------------------------------
    def expand_choice(self, node: Node, untried: list[Action]) -> Action:
        if node is self.root:
            if self.must is not None and self.must in untried:
                return self.must
            legal_set = set(untried)
            return next((a for a in self.order if a in legal_set), untried[0])
        return untried[self.rng.below(len(untried))]

    def select(self, node: Node, legal: list[Action], seat: int) -> Action:
        best: Action | None = None
        best_ucb = -math.inf
        c = self.c
        children = node.children
        for a in legal:
            child = children.get(a)
            if child is None:
                continue
            if child.visits == 0:
                return a
            ucb = child.reward[seat] / child.visits + c * math.sqrt(math.log(max(child.avail, 1)) / child.visits)
            if ucb > best_ucb:
                best, best_ucb = a, ucb
        assert best is not None
        return best

    def playout(self, state: State) -> None:
        steps = 0
        limit_steps = self.depth if self.pv is not None else 1 << 30
        rng = self.rng
        while state.to_move is not None and steps < limit_steps:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            steps += 1

    def reward(self, state: State) -> list[float]:
        players = self.players
        if state.to_move is not None:  # a cut-off: the position value's margin
            assert self.pv is not None
            values = [self.pv.value(state, p) for p in range(players)]
            return [_sigmoid((values[p] - max(values[q] for q in range(players) if q != p)) / self.pv.scale)
                    for p in range(players)]
        winners = state.winners()
        scores = [float(s) for s in state.scores()]
        if self.cooperative:
            team = sum(scores) / players
            self.lo, self.hi = min(self.lo, team), max(self.hi, team)
            span = self.hi - self.lo
            shaped = (team - self.lo) / span if span > 0 else 0.5
            return [(1.0 if winners else 0.0) * 0.5 + 0.5 * shaped] * players
        out = []
        for p in range(players):
            win = 1.0 / len(winners) if p in winners else 0.0
            margin = scores[p] - max(scores[q] for q in range(players) if q != p)
            if self.pv is not None:
                shaped = _sigmoid(margin / self.pv.score_scale)
            else:
                self.lo, self.hi = min(self.lo, margin), max(self.hi, margin)
                span = self.hi - self.lo
                shaped = (margin - self.lo) / span if span > 0 else 0.5
            out.append(0.85 * win + 0.15 * shaped)
        return out

    # ---- reading the root -------------------------------------------------------------------------------------
    def candidates(self) -> list[Candidate]:
        """Root actions legal for the seat now, the one to play first, then most visited first (ties: higher
        value, then the prior order). The one to play is the most visited, unless the heuristic's choice was
        searched and the most visited is not clearly better: its mean reward must beat the heuristic's by more
        than `trust` standard errors (a binomial estimate from both counts), so a search with too few samples to
        tell them apart keeps the rule of thumb (with `trust` None, the default, the most visited is played)."""
        me = self.seat.seat
        rank = {a: i for i, a in enumerate(self.order)}
        ranked = self.ranked(self.seat.legal_actions(), lambda node: node.reward[me] / node.visits, rank)
        h = self.heuristic_action
        if self.trust is None or h is None or not ranked or ranked[0].action == h:
            return ranked
        top = ranked[0]
        held = next((c for c in ranked if c.action == h), None)
        if held is None or held.visits == 0:
            return ranked
        se = math.sqrt(top.value * (1 - top.value) / max(top.visits, 1)
                       + held.value * (1 - held.value) / held.visits)
        if top.value - held.value > self.trust * se:
            return ranked
        ranked.remove(held)
        return [held, *ranked]

    def node_value(self, node: Node) -> float:
        return node.reward[self.seat.seat] / node.visits

    def reason_for(self, action: Action) -> str:
        return reason(self, action)

    def hint_candidates(self, top: int) -> list[Candidate]:
        """The first `top` candidates, each with its reason (`reason`)."""
        out = self.candidates()[:top]
        for cand in out:
            cand.reason = reason(self, cand.action)
        return out


class GuidedAgent:
    """Guided ISMCTS for one seat (see the module docstring); reproducible from its seed with an iteration budget."""

    name = "guided"

    def __init__(
        self,
        game: str,
        seed: int = 0,
        iters: int | None = None,
        seconds: float | None = None,
        depth: int | None = None,
        c: float = 0.5,
        pw: float = 2.0,
        reuse: bool = True,
        trust: float | None = None,
        first: Agent | None = None,
        value: Evaluator | None = None,
    ) -> None:
        if iters is None and seconds is None:
            seconds = DEFAULT_SECONDS
        self.game = game
        self.iters = iters
        self.seconds = seconds
        self.depth = depth
        self.c = c
        self.pw = pw
        self.reuse = reuse
        self.trust = trust
        self.first = first
        self.value = value
        self._rng = Rng(seed)
        self.last_search: GuidedSearch | None = None
        self._reuse = Reuse(table_lines=True, needs_legal_child=True)  # the subtree under the action played last

    def act(self, seat: SeatHandle) -> Action:
        """The most visited root action after a guided search from this seat's view."""
        legal = seat.legal_actions()
        seed = self._rng.next64() >> 1
        if len(legal) == 1:
            self._reuse.clear()
            return legal[0]
        log = seat.log()
        kept = self._reuse.take(seat, log) if self.reuse else None
        search = GuidedSearch(seat, seed, self.depth, self.c, self.pw, root=kept[0] if kept else None,
                              trust=self.trust, first=self.first, value=self.value)
        search.run(self.iters, self.seconds)
        self.last_search = search
        best = search.candidates()[0].action
        self._reuse.keep(seat, search, best, len(log))
        return best


# ---- hints ----------------------------------------------------------------------------------------------------


def hint_search(seat: SeatHandle, seed: int) -> GuidedSearch:
    """The search behind the guided hints, not run yet."""
    return GuidedSearch(seat, seed)


def hints(
    seat: SeatHandle,
    seconds: float | None = HINT_SECONDS,
    iters: int | None = None,
    seed: int = 0,
    top: int = 5,
) -> list[Candidate]:
    """The guided search's hints for `seat` (`tabletop.agents.hints.hints` with this search, whatever the game's
    `hard` level): the top candidate actions from its view only, each with the samples behind it, its estimated
    win probability (a share of the search's reward, 0 to 1) and a one-line reason where the game can give one.

    `seconds` caps the search (default 2 s); pass None and `iters` for a search reproducible from `seed`.
    """
    return search_hints(hint_search, seat, seconds, iters, seed, top)


def reason(search: GuidedSearch, action: Action) -> str:
    """One line on why `action` is worth considering: what it changes at once (on one sample of the table, the
    seat's knowledge only: the `explain` of the game's `ai` part), and whether the game's heuristic would play it
    too."""
    parts: list[str] = []
    ai = part(search.game, "ai")
    explain = getattr(ai, "explain", None)
    if explain is not None:
        base = search.seat.sample(search.rng.next64() >> 1)
        if base.to_move == search.seat.seat:
            after = base.clone()
            after.apply(action)
            text = explain(base, after, search.seat.seat)
            if text:
                parts.append(text)
    if action == search.heuristic_action:
        parts.append("the rule-of-thumb choice too")
    return "; ".join(parts)


# ---- spec -----------------------------------------------------------------------------------------------------

ALLOWED = ("iters", "time", "depth", "c", "pw", "reuse", "trust", "policy", "value")


def _factory(game: str, seed: int, params: dict[str, str]) -> Agent:
    p = Params("guided", params, ALLOWED, game)
    iters = p.integer("iters", 1)
    depth = p.integer("depth", 0)
    seconds = p.number("time")
    c = p.number("c", positive=False)
    pw = p.number("pw")
    trust = p.number("trust", positive=False)
    reuse = p.switch("reuse", True, ("true", "false"))
    judged = p.choice("value", ("policy", "game"), "game") == "policy"  # not the default: docs/rl.md
    first: Agent | None = None
    value: Evaluator | None = None
    if params.get("policy"):  # a shipped policy's greedy choice leads the root, where the heuristic's would
        from tabletop.agents.policy import LookaheadPolicy, find_shipped, load_policy, policy_agent

        policy = load_policy(find_shipped(params["policy"], game).path)
        first = policy_agent(game, policy, seed)
        if trust is None:
            trust = 0.0  # the policy's choice stands unless the most searched move has a higher mean reward
        if judged:
            if not isinstance(policy, LookaheadPolicy):
                raise InvalidAgentSpec(f"guided: value=policy needs a learned judgement; {params['policy'][:40]!r} "
                                       "is a network without a value (use value=game)")
            value = policy.judge()
    elif judged:
        raise InvalidAgentSpec("guided: value=policy needs policy=NAME (a shipped learned judgement)")
    return GuidedAgent(game, seed, iters, seconds, depth, 0.5 if c is None else c, 2.0 if pw is None else pw,
                       reuse, trust, first, value)


register_kind("guided", _factory)

