"""The team agent (`team`): information-set MCTS whose teammates read each other, for a cooperative game whose
folder has a `team` part (Silencio's: `tabletop.games.silencio.team`, the game half of this agent).

Silencio forbids talk, not a shared way of playing. Every seat of a team runs this same agent, so each seat knows
the *public policy* of its teammates (never their hands) and reads their actions through it. On top of the
single-observer ISMCTS of `tabletop.agents.ismcts` (kept as the baseline under the spec `ismcts`; both are
configurations of the search core, `tabletop.agents.search`) it adds:

1. **A convention the team shares** ("lowest first"): a seat that plays a card of a colour from its hand plays its
   lowest playable hand card of that colour. Playing the higher one would kill the lower one in its own hand, so the
   convention costs nothing in practice; it tells the others that the cards skipped by the play were not in that
   hand. The convention binds the agent's own choice, the moves of every seat inside its search tree and its rollouts.
2. **Determinizations weighted by what the teammates did** (`Belief`). The seat reads its log (the only history it
   sees) and turns every teammate action into the set of cards the teammate could not have held then: a pass means
   it held no playable card (the rules force a play otherwise, ruling C-4), and a card played from hand by the
   convention means it held none of the cards the play skipped. A hidden card of a teammate's sampled hand was in
   that hand at the time of the action unless a card went face down into or out of that hand since (C-18), so
   while no such hand-over happened the constraint holds for the sample. The likelihood of the teammate's observed
   actions under the team's policy is then 1 for a consistent sample and 0 for one the policy rules out; the search
   draws `seat.sample(seed)` samples and keeps a consistent one (rejection sampling, at most `tries` draws per
   iteration; when none is consistent it repairs the last one, swapping each ruled-out card for an allowed card of
   the deck or of another teammate's hidden cards, `repair`; one that cannot be repaired is kept as drawn and
   counted in `TeamSearch.fallbacks`).
3. **Fast rollouts** that read the determinized state directly (no view built per step): the card that kills the
   fewest cards still held by the team (in the determinization), dark effects priced as the heuristic prices them
   (a green dark effect no green card can follow ends the game, priced by the cards still held; a yellow dark
   effect by what the next seat's random card would kill in the sample, `random_play_cost`, or with `yellow=off`
   at a fixed 0.6 card), red light used,
   the other light effects declined, the most playable oracle card given to the next seat.
A sample can leave a seat owing a decision with no legal action (an effect chosen while a start-of-turn shrine
was "kept", ruling C-4, when the sample dealt that seat no playable card: the sampler does not know that the
choice revealed a playable card); such a playout is scored as it stands and counted in `TeamSearch.dead_ends`.

4. **A tree of the seat's own decisions** (`others=policy`, the default): below the root the tree holds only this
   seat's decisions until another seat is to move; the other seats then play by the rollout policy, which knows
   their hands in the sample (in the single-observer tree, `others=tree`, a teammate's node chooses by the
   statistics of all samples together, as if it did not know its own hand). With the yellow pricing of 3 it is the
   default since round 4: on the idle machine, 3 players at 0.25 s, the same 100 deals, 0.98 cards left against
   1.29 for the single-observer tree with the fixed price (docs/silencio-team.md).
5. **Tree reuse**: when the seat decides again before anybody else acted (an effect choice or a shrine after its
   own play), the search goes on in the subtree of the action it played.

6. **Partner models** (`partners=models`, issue 28; the default stays `partners=convention`, the belief above):
   per teammate a weighted belief over how it decides (`MODELS` of the team part: the convention, the heuristic,
   a reasonable person who errs now and then, random), its weights moved by the public evidence of its choices;
   the convention's play constraints become soft (a sampled hand holding k of the cards a play skipped has
   likelihood L_m(k) under model m, and a deal is drawn in proportion to the product over the teammates of their
   model mixtures), the passes stay hard; in the playouts each teammate plays by a model drawn from its weights
   (the heuristic's own choices read from the sample as that seat knows it, `heuristic_rollout`, or random
   moves). `assume=heuristic|random|human|team` sets every teammate's prior to that kind; the table hints pass
   the real seats' kinds (`table_hint_search`). With `partners=choices` the same models read each teammate choice
   among the moves it had: in a sampled deal the hand it chose from is rebuilt and each model's likelihood of
   that choice taken (the heuristic's: whether its own choice in that seat, with what that seat knew, is the card
   played), a deal weighs the product over the teammates of their model mixtures, deals are drawn by importance
   resampling from a pool that grows by a draw an iteration, and a teammate's playout model is drawn from the
   picked deal's posterior (`ChoiceBelief` of the team part).

Spec parameters (`team:time=0.25`, `team:iters=400,belief=off`): `iters`, `time` (as for `ismcts`), `c`
(exploration, default 0.7), `w` (score weight, default 1.0), `rollout` (`fast`, `heuristic` or `random`), `belief`,
`convention`, `reuse` (`on`/`off`, default on; `convention=off` also turns the belief's play constraints off),
`yellow` (`on`/`off`, default on), `partners` (`convention`, default, `models` or `choices`), `assume` (`any`,
default, `team`, `heuristic`, `random`, `human`: with `partners=models|choices`, what every teammate is taken to
be), `tries`
(draws per determinization, default 20), `others` (`policy`, default, or `tree`), `widen` (a node considers
shrines only after this many visits; 0, the default, always), `policy` (a shipped network, `policy=silen-3p`: its
probabilities of the moves the convention allows guide the root, the most probable expanded first and lifted in the
root's selection by PUCT's prior term, `cp * P(a) * sqrt(N) / (1 + n)`; the policy-guided team of issue 26) and `cp`
(that term's weight, default `DEFAULT_CP`, 0.1). Games with a `team` part only (Silencio); with
`partners=convention` every seat of the team is assumed to run this agent (with other teammates the belief reads
their actions by a policy they do not follow: `partners=models` is for them).
With an iteration budget and a fixed seed the same view and log give the same move.

`hints(seat)` is Silencio's hint search (what the server, the line mode and the full-screen app show through
`tabletop.agents.hints`, the search of the game's `hard` level): this agent's search from the seat's view and
log, each hinted move with the expected cards left and the share of perfect games in its samples.
"""

from __future__ import annotations

import copy
import math
from bisect import bisect_right
from types import ModuleType
from typing import Any

from mypy_extensions import mypyc_attr

from tabletop.agents import base
from tabletop.agents.base import Agent
from tabletop.agents.ismcts import DEFAULT_SECONDS, IsmctsSearch
from tabletop.agents.search import Candidate, Node, Reuse, RolloutPolicy, make_rollout, search_hints
from tabletop.agents.spec import InvalidAgentSpec, Params, register_kind
from tabletop.core import Action, Rng, SeatHandle, State, game_info, games
from tabletop.core.logwords import default_name
from tabletop.core.parts import part

DEFAULT_TRIES = 20
TABLE_PARTNERS = "models"
"""How an agent seated beside teammates not all of its kind reads them (`TeamAgent.at_table`): the partner models,
which left fewer cards than the convention beside heuristic and random teammates at the server's budget
(docs/silencio-team.md, "The hard level")."""
PARTNERS = ("models", "choices", "convention")
"""`partners=models`: a belief over each teammate's way of deciding (`PartnerBelief`: the convention, the heuristic,
a reasonable person, random), soft deal weights and a rollout per teammate's model; `partners=choices`: the same
models, each teammate choice weighed by its likelihood among the moves it had in the sampled deal (`ChoiceBelief`),
deals drawn by importance resampling; `partners=convention`: every teammate is taken to run this agent (hard
rule-outs, the belief before issue 28)."""
DEFAULT_PARTNERS = "convention"
"""The default stays the belief the pinned positions and the `hard` level were measured with; `partners=models` is
the issue-28 agent, and the table hints (`table_hint_search`) use it (docs/silencio-team.md, issue 28)."""
DEFAULT_CP = 0.1
"""The weight of a policy's prior at the root (`team:policy=NAME,cp=...`): at 0.1, 3,000 iterations from 60 positions of
12 heuristic deals (3 players) chose the policy's move 30 times against 21 without it (`cp=0`), and the team's own
choice 37 times (43 for `cp=0`, whose expansion order alone changes the tree); at 1.0 the policy's move 56 times."""
DEFAULT_WIDEN = 0
"""With `widen=N` a node of the tree considers taking a shrine only once visited N times (0, the default: always;
the widening did not measurably help)."""


def team_part(game: str) -> ModuleType:
    """The game's `team` part, or InvalidAgentSpec naming the games that have one."""
    module = part(game, "team")
    if module is None:
        having = [game_info(g).title for g in games() if part(g, "team") is not None]
        raise InvalidAgentSpec(f"the team agent plays {' and '.join(having) or 'no game here'} only, not {game}; "
                               f"use ismcts for {game}")
    return module


# ---- the search ----------------------------------------------------------------------------------------------


class TeamSearch(IsmctsSearch):
    """ISMCTS with belief-weighted determinizations and the team's convention at every seat's node."""

    def __init__(
        self,
        seat: SeatHandle,
        rollout: RolloutPolicy,
        seed: int,
        c: float = 0.7,
        w: float | None = None,
        belief: Any | None = None,
        convention: bool = True,
        tries: int = DEFAULT_TRIES,
        widen: int = DEFAULT_WIDEN,
        own_tree: bool = False,
    ) -> None:
        super().__init__(seat, rollout, seed, c, w)
        self.team = team_part(seat.info.name)
        self.widen = widen
        self.own_tree = own_tree
        self.belief = belief
        self.convention = convention
        self.tries = tries
        self.fallbacks = 0
        self.repaired = 0
        self.rejected = 0
        self.dead_ends = 0
        self.assumes = ""
        """What the search assumed of the teammates, ending every reason (a table hint's; "" otherwise)."""
        self.partners = belief is not None and hasattr(belief, "soft_weight")
        """Whether the belief is a partner-model one (soft deal weights, a rollout policy per teammate's model)."""
        self.accepted_weight = 0.0  # the sum of the soft weights of the samples kept (a diagnostic)
        self.choices = belief is not None and hasattr(belief, "deal_weight")
        """Whether the partner models read each teammate choice among the moves it had (`partners=choices`)."""
        self._deal_terms: list[list[float]] | None = None  # per seat, the kept deal's posterior terms over models
        self._pool: list[tuple[State, float, list[list[float]]]] = []  # weighted deals drawn (`partners=choices`)
        self._cum: list[float] = []  # their weights' running sums
        self.model_mass: list[list[float]] = []
        """Per seat, the summed posterior over `MODELS` of the deals kept (`partners=choices`; a diagnostic: the
        search's reading of how each teammate decides)."""
        if self.partners:
            assert belief is not None
            self._forbidden = belief.hard_forbidden()
            self._soft = belief.active_soft()
            self._post = belief.posterior()
            self._soft_on = any(self._soft)
            self._heuristic = self.team.heuristic_rollout()
            if self.choices:
                self._choices = belief.active_choices()
                self._soft_on = any(self._choices)
                self.model_mass = [[0.0] * len(self.team.MODELS) for _ in range(seat.players)]
        else:
            self._forbidden = belief.forbidden() if belief is not None else None
        self._known = self.team.known_cards(seat.view(), seat.players) if belief is not None else None
        self._stuck = self.team.stuck
        self._filter = self.team.convention_filter if convention else None
        self.prior: dict[Action, float] | None = None
        """A trained policy's probabilities of the root's actions (`team:policy=NAME`): expanded most probable first
        and, at the root, each child's selection lifted by `cp * P(a) * sqrt(N) / (1 + n)` (PUCT's prior term)."""
        self.cp = DEFAULT_CP

    def set_prior(self, actions: list[Action], probs: list[float], cp: float) -> None:
        """Guide the root by a policy's probabilities of `actions` (see `prior`)."""
        self.prior = {a: float(q) for a, q in zip(actions, probs, strict=True)}
        self.cp = cp

    def expand_choice(self, node: Node, untried: list[Action]) -> Action:
        prior = self.prior
        if prior is None or node is not self.root or (self.must is not None and self.must in untried):
            return super().expand_choice(node, untried)
        best = untried[0]
        best_p = -1.0
        for a in untried:
            q = prior.get(a, 0.0)
            if q > best_p:
                best, best_p = a, q
        return best

    def select(self, node: Node, legal: list[Action], seat: int) -> Action:
        prior = self.prior
        if prior is None or node is not self.root:
            return super().select(node, legal, seat)
        best: Action = legal[0]
        best_ucb = -math.inf
        c = self.c
        lift = self.cp * math.sqrt(max(node.visits, 1))
        children = node.children
        for a in legal:
            child = children[a]
            ucb = (self.value(child, seat) + c * math.sqrt(math.log(child.avail) / child.visits)
                   + lift * prior.get(a, 0.0) / (1 + child.visits))
            if ucb > best_ucb:
                best, best_ucb = a, ucb
        return best

    def determinize(self) -> State:
        """A sample of the seat's view that the teammates' observed actions do not rule out (module docstring)."""
        if self.choices:
            return self._determinize_choices()
        if self.partners:
            return self._determinize_soft()
        return self._determinize_hard()

    def _determinize_hard(self) -> State:
        """A sample that the hard constraints do not rule out: at most `tries` draws, then the last repaired."""
        belief = self.belief
        state = self.seat.sample(self.rng.next64() >> 1)
        if belief is None or not any(self._forbidden or ()):
            return state
        for _ in range(self.tries - 1):
            if belief.weight(state, self._forbidden, self._known) > 0:
                return state
            self.rejected += 1
            state = self.seat.sample(self.rng.next64() >> 1)
        if belief.weight(state, self._forbidden, self._known) > 0:
            return state
        self.rejected += 1
        assert self._forbidden is not None and self._known is not None
        if self.team.repair(state, self.seat.seat, self._forbidden, self._known):
            self.repaired += 1
        else:
            self.fallbacks += 1
        return state

    def _determinize_choices(self) -> State:
        """A deal drawn in proportion to the likelihood of the teammates' choices under their model mixtures
        (`ChoiceBelief.deal_weight`), by importance resampling from a pool that grows by one draw an iteration
        (`tries` draws the first time): each draw is a sample of the view that the passes do not rule out (or the
        last of `tries` repaired, as with the hard belief), weighed once; a deal is picked from the pool by weight
        and played on a copy with its deck reshuffled (`fresh_copy`). The picked deal's posterior terms choose
        each teammate's model in its playout. With no teammate choice in force, the hard belief's sample."""
        belief = self.belief
        assert belief is not None
        if not self._soft_on:
            self._deal_terms = None
            return self._determinize_hard()
        pool, cum = self._pool, self._cum
        for _ in range(self.tries if not pool else 1):
            state = self._determinize_hard()
            w, terms = belief.deal_weight(state, self._choices)
            pool.append((state, w, terms))
            cum.append((cum[-1] if cum else 0.0) + w)
        x = (self.rng.next64() >> 11) * (1.0 / (1 << 53)) * cum[-1]
        k = min(bisect_right(cum, x), len(pool) - 1)
        state, w, terms = pool[k]
        self.accepted_weight += w
        self._deal_terms = terms
        for q, t in enumerate(terms):
            z = sum(t) or 1.0
            mass = self.model_mass[q]
            for m, v in enumerate(t):
                mass[m] += v / z
        copy: State = self.team.fresh_copy(state, self.rng.next64() >> 1)
        return copy

    def _determinize_soft(self) -> State:
        """A sample drawn in proportion to the teammates' likelihood under their model mixtures (rejection: a sample
        is kept with probability its soft weight, at most `tries` draws; then the likeliest one drawn). A sample the
        passes rule out is redrawn, then repaired, as with the hard belief."""
        belief = self.belief
        assert belief is not None and self._forbidden is not None and self._known is not None
        hard = any(self._forbidden)
        best: State | None = None
        best_w = -1.0
        last: State | None = None
        for _ in range(self.tries):
            state = self.seat.sample(self.rng.next64() >> 1)
            last = state
            if hard and belief.weight(state, self._forbidden, self._known) <= 0:
                self.rejected += 1
                continue
            w = belief.soft_weight(state, self._soft, self._post, self._known) if self._soft_on else 1.0
            if w >= 1.0 or (self.rng.next64() >> 11) * (1.0 / (1 << 53)) < w:
                self.accepted_weight += w
                return state
            self.rejected += 1
            if w > best_w:
                best, best_w = state, w
        if best is not None:
            self.accepted_weight += best_w
            return best
        assert last is not None
        if self.team.repair(last, self.seat.seat, self._forbidden, self._known):
            self.repaired += 1
        else:
            self.fallbacks += 1
        return last

    def tree_actions(self, state: State, node: Node) -> list[Action] | None:
        """The convention's actions (none once another seat decides, with `own_tree`); None at a dead end."""
        if self.own_tree and state.to_move != self.seat.seat:
            return None  # another seat decides: its own (sampled) hand is known to the rollout policy, not the tree
        legal = state.legal_actions()
        if self._filter is not None:
            legal = self._filter(state, legal)
        if self.widen and node.visits < self.widen:
            narrow = [a for a in legal if a.verb != "shrine"]
            if narrow:
                legal = narrow
        must = self.must
        if must is not None and node is self.root and must not in legal and must in state.legal_actions():
            legal = [*legal, must]  # a review values the move played, convention or not
        if not legal:  # a sample the rules cannot go on from (module docstring): scored as it stands
            self.dead_ends += 1
            return None
        return legal

    def playout(self, state: State) -> None:
        rollout, stuck = self.rollout, self._stuck
        if self.partners:
            self._playout_models(state)
            return
        while state.to_move is not None:
            if stuck(state):
                self.dead_ends += 1
                break
            state.apply(rollout(state))

    def _playout_models(self, state: State) -> None:
        """Play on with every teammate deciding by a model drawn from its weights for this playout: the rollout
        policy for `convention` and `heuristic`, any legal action for `random`, and for `reasonable` the rollout
        policy but any legal action with probability `REASONABLE_ERROR` a move."""
        stuck, rng = self._stuck, self.rng
        me = self.seat.seat
        error = [0.0] * len(self._post)
        policy = [self.rollout] * len(self._post)
        terms = self._deal_terms if self.choices else None
        models = self.team.MODELS
        for q, pq in enumerate(self._post):
            if q == me:
                continue
            if terms is not None:
                t = terms[q]
                pq = dict(zip(models, (v / (sum(t) or 1.0) for v in t), strict=True))
            m = _draw(pq, (rng.next64() >> 11) * (1.0 / (1 << 53)))
            if m == "random":
                error[q] = 1.0
            elif m != "convention":
                policy[q] = self._heuristic
                if m == "reasonable":
                    error[q] = self.team.REASONABLE_ERROR
        while state.to_move is not None:
            if stuck(state):
                self.dead_ends += 1
                break
            q = state.to_move
            e = error[q]
            if e and (e >= 1.0 or (rng.next64() >> 11) * (1.0 / (1 << 53)) < e):
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
            else:
                state.apply(policy[q](state))

    def candidates(self) -> list[Candidate]:
        """As `IsmctsSearch.candidates`, among the actions the convention allows the seat."""
        allowed = set(map(id, self.root_legal()))
        return [c for c in super().candidates() if id(c.action) in allowed]

    def root_legal(self) -> list[Action]:
        """The seat's legal actions now that the convention allows (it applies to the seat's own hand, which is
        the same in every sample of its view)."""
        legal = self.seat.legal_actions()
        if not self.convention:
            return legal
        allowed: list[Action] = self.team.convention_filter(self.seat.sample(0), legal)
        return allowed

    def reason_for(self, action: Action) -> str:
        """The team part's reason: the expected result after `action` (if searched) and the seat's cards it kills."""
        node = self.root.children.get(action)
        me = self.seat.seat
        searched = node is not None and node.visits > 0
        mean = self.score(node, me) if searched and node is not None else None
        perfect = self.win(node, me) if searched and node is not None else 0.0
        reason: str = self.team.hint_reason(self.seat.sample(self.seed), me, action, mean, perfect)
        if self.assumes:
            reason = f"{reason}; {self.assumes}" if reason else self.assumes
        return reason

    def hint_candidates(self, top: int) -> list[Candidate]:
        """The first `top` candidates, each with the game's reason (`reason_for`)."""
        return [Candidate(c.action, c.visits, c.value, self.reason_for(c.action)) for c in self.candidates()[:top]]


def _draw(weights: dict[str, float], x: float) -> str:
    """The key whose share of the weights (in order) covers `x` in [0, 1) (the last key past rounding)."""
    last = ""
    for key, w in weights.items():
        last = key
        x -= w
        if x < 0:
            break
    return last


@mypyc_attr(native_class=False)  # copied with copy.copy (at_table): a plain class, its methods compiled
class TeamAgent:
    """The team agent (see the module docstring); reproducible from its seed with an iteration budget."""

    name = "team"

    def __init__(
        self,
        game: str,
        seed: int = 0,
        iters: int | None = None,
        seconds: float | None = None,
        rollout: str | RolloutPolicy = "fast",
        c: float = 0.7,
        w: float | None = None,
        belief: bool = True,
        convention: bool = True,
        reuse: bool = True,
        tries: int = DEFAULT_TRIES,
        widen: int = DEFAULT_WIDEN,
        own_tree: bool = True,
        yellow: bool = True,
        partners: str = DEFAULT_PARTNERS,
        kinds: list[str | None] | None = None,
        policy: Any | None = None,
        cp: float | None = None,
    ) -> None:
        self.team = team_part(game)
        self.policy = policy
        """A trained network (`tabletop.agents.policy.PolicyAgent`) whose probabilities guide the root (`policy=`)."""
        self.cp = DEFAULT_CP if cp is None else cp
        if partners not in PARTNERS:
            raise InvalidAgentSpec(f"partners must be one of {', '.join(PARTNERS)}, not {partners!r}")
        self.partners = partners
        self.kinds = list(kinds) if kinds is not None else None
        """Per seat, what is known of how it decides (an agent spec or level, "human", None), for the partner
        models' priors (`partners=models`); None: nothing is known of any seat."""
        if iters is None and seconds is None:
            seconds = DEFAULT_SECONDS
        self.game = game
        self.iters = iters
        self.seconds = seconds
        self.c = c
        self.w = w
        self.use_belief = belief
        self.convention = convention
        self.reuse = reuse
        self.tries = tries
        self.widen = widen
        self.own_tree = own_tree
        self.yellow = yellow
        self._rng = Rng(seed)
        if isinstance(rollout, str):
            fast = rollout == "fast"
            self._rollout = (self.team.fast_rollout(convention, yellow) if fast
                             else make_rollout(rollout, game, seed ^ 0x5A17))
        else:
            self._rollout = rollout
        self.last_search: TeamSearch | None = None
        self._belief: Any | None = None
        self._reuse = Reuse(table_lines=False, needs_legal_child=False)
        self.reused = 0

    def at_table(self, me: int, kinds: list[str | None]) -> TeamAgent:
        """This agent for the table as it is (the server's AI seats: `kinds` per seat, an AI level or spec, "human",
        None for unknown; `me` is the agent's seat). When every teammate is known to run this agent (`hard`,
        `team`), the agent itself: the convention reads them exactly. Otherwise a copy that reads each teammate by
        the partner model of its kind (`TABLE_PARTNERS`; an explicit `partners=models|choices` is kept), as
        measured in docs/silencio-team.md ("The hard level"). Reads only who sits where, a public fact."""
        mates = [kinds[q] if q < len(kinds) else None for q in range(max(len(kinds), me + 1)) if q != me]
        if self.partners == "convention" and all(self.team.kind_model(k) == "convention" for k in mates):
            return self
        agent = copy.copy(self)
        agent.partners = self.partners if self.partners != "convention" else TABLE_PARTNERS
        agent.kinds = list(kinds)
        agent.last_search = None
        agent._belief = None
        agent._reuse = Reuse(table_lines=False, needs_legal_child=False)
        agent.reused = 0
        return agent

    def act(self, seat: SeatHandle) -> Action:
        """The most visited allowed root action after a search from this seat's view and log."""
        legal = seat.legal_actions()
        seed = self._rng.next64() >> 1
        log = seat.log()
        self._read(seat, log)
        kept = self._reuse.take(seat, log) if self.reuse else None
        self._reuse.clear()
        if len(legal) == 1:
            self.last_search = None
            return legal[0]
        search = self.new_search(seat, seed)
        if kept is not None:
            search.root, search.lo, search.hi = kept
            self.reused += 1
        allowed = search.root_legal()
        if len(allowed) == 1:
            action = allowed[0]
        else:
            if self.policy is not None:
                search.set_prior(allowed, self.policy.priors(seat, allowed), self.cp)
            search.run(self.iters, self.seconds)
            action = search.candidates()[0].action
        self.last_search = search
        self._reuse.keep(seat, search, action, len(log))
        return action

    def _read(self, seat: SeatHandle, log: list[dict[str, Any]]) -> Any:
        """The seat's belief, brought up to date with its log (started afresh for another seat or a shorter log)."""
        belief = self._belief
        if belief is None or belief.seat != seat.seat or belief.read > len(log):
            if self.partners == "choices" and self.convention:
                belief = self._belief = self.team.new_choice_belief(seat.seat, seat.players, seat.view(),
                                                                    self.kinds)
            elif self.partners == "models" and self.convention:
                belief = self._belief = self.team.new_partner_belief(seat.seat, seat.players, seat.view(),
                                                                     self.kinds)
            else:
                belief = self._belief = self.team.new_belief(seat.seat, seat.players, seat.view(), self.convention)
        belief.update(log)
        belief.check(seat.view())
        return belief

    def new_search(self, seat: SeatHandle, seed: int) -> TeamSearch:
        """A search (not run yet) from the seat's view, with this agent's settings and its belief as last read."""
        belief = self._belief if self.use_belief else None
        return TeamSearch(seat, self._rollout, seed, self.c, self.w, belief, self.convention, self.tries,
                          self.widen, self.own_tree)


# ---- hints -----------------------------------------------------------------------------------------------------


def hint_search(seat: SeatHandle, seed: int) -> TeamSearch:
    """The search behind the team hints (the agent's default settings, its belief read from the seat's log)."""
    agent = TeamAgent(seat.info.name, seed=seed, iters=1)
    agent._read(seat, seat.log())
    return agent.new_search(seat, seed)


def table_hint_search(seat: SeatHandle, seed: int, kinds: list[str | None]) -> TeamSearch:
    """The hint search for the table as it is: each teammate read by the model of its kind (`kinds`, per seat:
    an AI level or spec, "human", None), every reason ending with what it assumed (`assumed_text`)."""
    agent = TeamAgent(seat.info.name, seed=seed, iters=1, partners="models", kinds=kinds)
    agent._read(seat, seat.log())
    search = agent.new_search(seat, seed)
    search.assumes = assumed_text(seat.seat, seat.players, kinds)
    return search


KIND_WORDS = {"easy": "easy AI", "random": "easy AI", "medium": "medium AI", "heuristic": "medium AI",
              "hard": "hard AI", "team": "hard AI", "human": "a person", "person": "a person"}


def assumed_text(me: int, players: int, kinds: list[str | None]) -> str:
    """What a table hint assumed of the teammates: "assumes Player 2 medium AI, Player 3 a person" (seats from 1; a
    seat of no known kind is read from its play)."""
    parts = []
    for q in range(players):
        if q == me:
            continue
        kind = kinds[q] if q < len(kinds) else None
        word = KIND_WORDS.get(kind.split(":")[0].lower()) if kind else None
        parts.append(f"{default_name(q)} {word or 'read from its play'}")
    return "assumes " + ", ".join(parts)


def hints(
    seat: SeatHandle,
    seconds: float | None = base.HINT_SECONDS,
    iters: int | None = None,
    seed: int = 0,
    top: int = 5,
) -> list[base.Candidate]:
    """Hints from the team agent's own search (Silencio's `hard` level), from the seat's view and log only.

    Returns up to `top` actions the team's convention allows, the move the agent would play first, each a
    `Candidate` as the other games' hints are: the search samples behind it, its value in [0, 1] (the search's
    reward: a perfect game and fewer cards left), and the team part's reason (Silencio: the expected result in
    cards, `1.3 cards left on average, perfect in 31%`, and for a card played, the cards of the seat's own it
    leaves unplayable). `seconds` caps the search; pass None and `iters` for a search reproducible from `seed`.
    """
    return search_hints(hint_search, seat, seconds, iters, seed, top)


# ---- the spec ------------------------------------------------------------------------------------------------

_ALLOWED = ("iters", "time", "rollout", "c", "w", "belief", "convention", "reuse", "tries", "widen", "others",
            "yellow", "partners", "assume", "policy", "cp")
ASSUME = ("any", "team", "heuristic", "random", "human")
"""`assume=K`: every teammate's prior is that of kind K (`any`, the default: nothing known)."""


def _factory(game: str, seed: int, params: dict[str, str]) -> Agent:
    p = Params("team", params, _ALLOWED, game)
    team_part(game)
    iters = p.integer("iters")
    seconds = p.number("time")
    c = p.number("c", positive=False)
    w = p.number("w", positive=False)
    tries = p.integer("tries")
    widen = p.integer("widen", 0)
    others = p.choice("others", ("policy", "tree"), "policy")
    rollout = p.choice("rollout", ("fast", "heuristic", "random"), "fast")
    partners = p.choice("partners", PARTNERS, DEFAULT_PARTNERS)
    assume = p.choice("assume", ASSUME, "any")
    kinds: list[str | None] | None = None if assume == "any" else [assume] * 4
    cp = p.number("cp", positive=False)
    policy: Any | None = None
    if params.get("policy"):  # a shipped network's probabilities guide the root (the policy-guided team)
        from tabletop.agents.policy import PolicyAgent, find_shipped, load_policy, policy_agent

        policy = policy_agent(game, load_policy(find_shipped(params["policy"], game).path), seed)
        if not isinstance(policy, PolicyAgent):
            raise InvalidAgentSpec(f"team: policy={params['policy'][:40]!r} gives no probabilities to guide by")
    elif cp is not None:
        raise InvalidAgentSpec("team: cp weighs a policy's prior; give policy=NAME (a shipped policy) too")
    return TeamAgent(
        game, seed, iters, seconds, rollout, 0.7 if c is None else c, w,
        p.switch("belief", True), p.switch("convention", True), p.switch("reuse", True),
        DEFAULT_TRIES if tries is None else tries, DEFAULT_WIDEN if widen is None else widen,
        others == "policy", p.switch("yellow", True), partners, kinds, policy, DEFAULT_CP if cp is None else cp,
    )


register_kind("team", _factory)

__all__ = ["TeamAgent", "TeamSearch", "assumed_text", "hint_search", "hints", "table_hint_search", "team_part"]
