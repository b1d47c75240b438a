"""Guided ISMCTS: the "hard" search for the competitive games, and the hints built on it.

The same single-observer information-set search as `tabletop.agents.ismcts` (the baseline, kept unchanged under
its own spec name `ismcts`), with four changes that let a short budget go further:

1. **Cut-off evaluation.** A rollout plays at most `depth` random steps after the tree and then scores the
   position with the game's own position value (the heuristic agent's `value`/`evaluate`), instead of playing
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
0.5), `pw` (widening, default 2.0), `reuse` (true/false, default true)); `hint:time=0.5` is a seat that always
plays the top hint (`hints_for`, what the server, the line mode and the full-screen app show). Both cores: not
used; the search runs in the process that asks (the server already runs AI moves and hints in worker processes).
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.agents.base import HINT_SECONDS, Agent, Candidate
from tabletop.agents.spec import InvalidAgentSpec, register_kind
from tabletop.core import Action, Rng, SeatHandle, State, game_info

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


def _silos() -> PositionValue:  # the games are loaded by module name only, like the heuristic agents
    return PositionValue(importlib.import_module("tabletop.games.silos.heuristic").value, 12.0, 1.0, 8)


def _siliconvania() -> PositionValue:
    return PositionValue(importlib.import_module("tabletop.games.siliconvania.heuristic").evaluate, 8.0, 5.0, 8)


POSITION_VALUES: dict[str, Callable[[], PositionValue]] = {"silos": _silos, "siliconvania": _siliconvania}
"""The games whose rollouts stop at `depth` and are scored by the game's position value."""


def position_value(game: str) -> PositionValue | None:
    """The position value of `game`, or None when its rollouts play to the end."""
    make = POSITION_VALUES.get(game)
    return None if make is None else make()


def _sigmoid(x: float) -> float:
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


class _Node:
    """The edge statistics of the action that led here: visits, availability, summed reward per seat."""

    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = [0.0] * players


def _heuristic(game: str, seed: int) -> Agent | None:
    try:
        module = importlib.import_module(f"tabletop.games.{game}.heuristic")
    except ModuleNotFoundError:
        return None
    agent: Agent = module.HeuristicAgent(seed)
    return agent


class GuidedSearch:
    """One guided search from a seat handle (see the module docstring); `run` grows it, `candidates` reads it."""

    def __init__(
        self,
        seat: SeatHandle,
        seed: int,
        depth: int | None = None,
        c: float = 0.5,
        pw: float = 2.0,
        root: _Node | None = None,
        prior: bool = True,
        trust: float | None = None,
    ) -> None:
        self.seat = seat
        self.game = seat.info.name
        self.players = seat.players
        self.cooperative = seat.info.cooperative
        self.c = c
        self.pw = pw
        self.trust = trust
        self.rng = Rng(seed)
        self.pv = None if self.cooperative else position_value(self.game)
        self.depth = depth if depth is not None else self.pv.depth if self.pv is not None else 0
        self.root = root if root is not None else _Node(self.players)
        self.reused = self.root.visits
        self.iterations = 0
        self.lo = math.inf
        self.hi = -math.inf
        self.ahead = seat.to_move != seat.seat and bool(seat.legal_actions())
        legal = seat.legal_actions()
        self.heuristic_action: Action | None = None
        self.one_step: dict[Action, float] = {}
        self.order: list[Action] = self._root_order(legal, prior)

    # ---- the root prior ---------------------------------------------------------------------------------------
    def _root_order(self, legal: list[Action], prior: bool) -> list[Action]:
        """Root actions in the order they are expanded: the heuristic's choice, then by one-step value."""
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
        agent = _heuristic(self.game, self.rng.next64() >> 1)
        if agent is not None:  # also for a secret bid owed ahead of the seat's turn: the heuristic bids blind too
            h = agent.act(self.seat)
            self.heuristic_action = h
            order.remove(h)
            order.insert(0, h)
        return order

    # ---- the search -------------------------------------------------------------------------------------------
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

    def _rollout_action(self, state: State) -> Action:
        legal = state.legal_actions()
        return legal[self.rng.below(len(legal))]

    def iterate(self) -> None:
        """One determinize-select-expand-rollout-backpropagate iteration."""
        state = self.seat.sample(self.rng.next64() >> 1)
        me = self.seat.seat
        if self.ahead:
            while state.to_move is not None and state.to_move != me and me in state.deciding():
                state.apply(self._rollout_action(state))  # a seat before this one in the step, its choice unseen
            if state.to_move != me:
                self.iterations += 1
                return
        node = self.root
        path = [node]
        while state.to_move is not None:
            legal = state.legal_actions()
            children = node.children
            limit = max(2, math.ceil(self.pw * math.sqrt(node.visits + 1)))
            tried = 0
            untried: list[Action] = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
                    tried += 1
            if untried and (tried < limit or tried == 0):
                if node is self.root:
                    legal_set = set(untried)
                    action = next((a for a in self.order if a in legal_set), untried[0])
                else:
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
        steps = 0
        limit_steps = self.depth if self.pv is not None else 1 << 30
        while state.to_move is not None and steps < limit_steps:
            state.apply(self._rollout_action(state))
            steps += 1
        reward = self._reward(state)
        for v in path:
            v.visits += 1
            r = v.reward
            for p in range(self.players):
                r[p] += reward[p]
        self.iterations += 1

    def _select(self, node: _Node, legal: list[Action], seat: int) -> Action:
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

    def _reward(self, state: State) -> list[float]:
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

    def candidates(self) -> list[Candidate]:
        """Root actions legal for the seat now, the one to play first, then most visited first (ties: higher
        value, then the prior order). The one to play is the most visited, unless the heuristic's choice was
        searched and the most visited is not clearly better: its mean reward must beat the heuristic's by more
        than `trust` standard errors (a binomial estimate from both counts), so a search with too few samples to
        tell them apart keeps the rule of thumb (with `trust` None, the default, the most visited is played)."""
        me = self.seat.seat
        rank = {a: i for i, a in enumerate(self.order)}
        out: list[tuple[int, float, int, Candidate]] = []
        for a in self.seat.legal_actions():
            node = self.root.children.get(a)
            visits = node.visits if node is not None else 0
            value = node.reward[me] / visits if node is not None and visits else 0.0
            out.append((-visits, -value, rank.get(a, len(rank)), Candidate(a, visits, value)))
        out.sort(key=lambda t: t[:3])
        ranked = [t[3] for t in out]
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


# ---- tree reuse -----------------------------------------------------------------------------------------------


def _only_own_since(seat: SeatHandle, start: int) -> bool:
    """Whether every line of the seat's log from `start` on is the seat's own or the table's."""
    log = seat.log()
    return len(log) >= start and all(entry.get("seat") in (None, seat.seat) for entry in log[start:])


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
        self._rng = Rng(seed)
        self.last_search: GuidedSearch | None = None
        self._kept: _Node | None = None  # the subtree under the action played last
        self._kept_at = 0  # the seat's log length just after that action

    def _reused_root(self, seat: SeatHandle) -> _Node | None:
        if not self.reuse or self._kept is None:
            return None
        node = self._kept
        if seat.to_move != seat.seat or not _only_own_since(seat, self._kept_at) or node.visits == 0:
            return None
        if not any(a in node.children for a in seat.legal_actions()):
            return None
        return node

    def act(self, seat: SeatHandle) -> Action:
        """The most visited root action after a guided search from this seat's view."""
        legal = seat.legal_actions()
        seed = self._rng.next64() >> 1
        if len(legal) == 1:
            self._kept = None
            return legal[0]
        root = self._reused_root(seat)
        search = GuidedSearch(seat, seed, self.depth, self.c, self.pw, root=root, trust=self.trust)
        search.run(self.iters, self.seconds)
        self.last_search = search
        best = search.candidates()[0].action
        self._kept = search.root.children.get(best)
        self._kept_at = len(seat.log())
        return best


# ---- hints ----------------------------------------------------------------------------------------------------


def hints(
    seat: SeatHandle,
    seconds: float | None = HINT_SECONDS,
    iters: int | None = None,
    seed: int = 0,
    top: int = 5,
) -> list[Candidate]:
    """The top candidate actions for `seat` from its view only, each with the samples behind it, its estimated win
    probability (a share of the search's reward, 0 to 1) and a one-line reason where the game can give one.

    `seconds` caps the search (default 2 s); pass None and `iters` for a search reproducible from `seed`.
    """
    if not seat.legal_actions():
        return []
    if seconds is None and iters is None:
        raise ValueError("hints need a budget: seconds or iters")
    search = GuidedSearch(seat, seed)
    search.run(iters, seconds)
    out = search.candidates()[:top]
    for cand in out:
        cand.reason = reason(search, cand.action)
    return out


def reason(search: GuidedSearch, action: Action) -> str:
    """One line on why `action` is worth considering: what it changes at once (on one sample of the table, the
    seat's knowledge only), and whether the game's heuristic would play it too."""
    parts: list[str] = []
    explain = EXPLAINERS.get(search.game)
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


def _silos_explain(before: Any, after: Any, me: int) -> str:
    notation = importlib.import_module("tabletop.games.silos.notation")
    n_locations, n_types = notation.N_LOCATIONS, notation.N_TYPES
    out: list[str] = []
    de = after.emblems[me] - before.emblems[me]
    if de:
        out.append(f"{de:+d} emblem" + ("s" if abs(de) != 1 else ""))
    dh = sum(after.hum[me * n_types:(me + 1) * n_types]) - sum(before.hum[me * n_types:(me + 1) * n_types])
    if dh:
        out.append(f"{dh:+d} human" + ("s" if abs(dh) != 1 else ""))
    dc = after.cows[me] - before.cows[me]
    if dc:
        out.append(f"{dc:+d} cow" + ("s" if abs(dc) != 1 else ""))
    lead_b = sum(1 for loc in range(n_locations) if before.ranking(loc)[:1] == [me])
    lead_a = sum(1 for loc in range(n_locations) if after.ranking(loc)[:1] == [me])
    if lead_a != lead_b:
        out.append(f"leads {lead_a} location{'s' if lead_a != 1 else ''} (was {lead_b})")
    if not out:
        return ""
    return ", ".join(out)


SV_PARTS = (("blood", "blood"), ("animals", "animals"), ("housed", "housed vampires"), ("diversity", "diversity"),
            ("contracts", "contracts"), ("objectives", "objectives"), ("tiaras", "tiaras"))


def _siliconvania_explain(before: Any, after: Any, me: int) -> str:
    b, a = before.breakdown(me), after.breakdown(me)
    changes = [f"{label} {a[key] - b[key]:+d}" for key, label in SV_PARTS if a[key] != b[key]]
    total = a["total"] - b["total"]
    if not changes and not total:
        return ""
    return f"{total:+d} VP now" + (f" ({', '.join(changes)})" if changes else "")


EXPLAINERS: dict[str, Callable[[Any, Any, int], str]] = {"silos": _silos_explain,
                                                         "siliconvania": _siliconvania_explain}


# ---- spec -----------------------------------------------------------------------------------------------------

ALLOWED = ("iters", "time", "depth", "c", "pw", "reuse", "trust")


def _number(params: dict[str, str], key: str, positive: bool = True) -> float | None:
    if key not in params:
        return None
    try:
        value = float(params[key])
    except ValueError:
        raise InvalidAgentSpec(f"guided parameter {key}={params[key][:20]!r} must be a number") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise InvalidAgentSpec(f"guided parameter {key}={params[key][:20]!r} must be a positive number")
    return value


def _integer(params: dict[str, str], key: str, low: int) -> int | None:
    if key not in params:
        return None
    try:
        value = int(params[key])
    except ValueError:
        value = low - 1
    if value < low:
        raise InvalidAgentSpec(f"guided parameter {key}={params[key][:20]!r} must be an integer of at least {low}")
    return value


def _factory(game: str, seed: int, params: dict[str, str]) -> Agent:
    unknown = sorted(set(params) - set(ALLOWED))
    if unknown:
        raise InvalidAgentSpec(f"unknown guided parameter(s) {', '.join(u[:20] for u in unknown)}; "
                               f"allowed: {', '.join(ALLOWED)}")
    iters = _integer(params, "iters", 1)
    depth = _integer(params, "depth", 0)
    seconds = _number(params, "time")
    c = _number(params, "c", positive=False)
    pw = _number(params, "pw")
    trust = _number(params, "trust", positive=False)
    reuse = params.get("reuse", "true").lower()
    if reuse not in ("true", "false"):
        raise InvalidAgentSpec(f"guided parameter reuse={params['reuse'][:20]!r} must be true or false")
    game_info(game)
    return GuidedAgent(game, seed, iters, seconds, depth, 0.5 if c is None else c, 2.0 if pw is None else pw,
                       reuse == "true", trust)


register_kind("guided", _factory)


class HintAgent:
    """Plays the top hint (`hints_for`) for its seat, searched for `seconds`: how good following the hints is."""

    name = "hint"

    def __init__(self, seed: int = 0, seconds: float = HINT_SECONDS) -> None:
        self._rng = Rng(seed)
        self.seconds = seconds

    def act(self, seat: SeatHandle) -> Action:
        """The first action `hints_for` lists."""
        legal = seat.legal_actions()
        seed = self._rng.next64() >> 1
        if len(legal) == 1:
            return legal[0]
        return hints_for(seat, seconds=self.seconds, seed=seed, top=1)[0].action


def _hint_factory(game: str, seed: int, params: dict[str, str]) -> Agent:
    unknown = sorted(set(params) - {"time"})
    if unknown:
        raise InvalidAgentSpec(f"unknown hint parameter(s) {', '.join(u[:20] for u in unknown)}; allowed: time")
    seconds = _number(params, "time")
    game_info(game)
    return HintAgent(seed, HINT_SECONDS if seconds is None else seconds)


register_kind("hint", _hint_factory)


# ---- hints for any game -----------------------------------------------------------------------------------------


def hints_for(
    seat: SeatHandle,
    seconds: float | None = HINT_SECONDS,
    iters: int | None = None,
    seed: int = 0,
    top: int = 5,
) -> list[Candidate]:
    """Hints from the best search this package has for the seat's game, the search of its `hard` level: the guided
    search where the game has a position value (SILOS, SiliconVania), the team agent's in Silencio
    (`tabletop.agents.team.hints`: expected cards left as the reason), else the baseline ISMCTS
    (`tabletop.agents.ismcts.hints`, no reasons)."""
    if position_value(seat.info.name) is not None:
        return hints(seat, seconds, iters, seed, top)
    if seat.info.name == "silencio":
        from tabletop.agents.team import hints as team_hints

        return team_hints(seat, seconds, iters, seed, top)
    from tabletop.agents.ismcts import hints as ismcts_hints

    return [Candidate(a, visits, value) for a, visits, value in
            ismcts_hints(seat, iters=iters or 10**9, seed=seed, top=top, seconds=seconds)]
