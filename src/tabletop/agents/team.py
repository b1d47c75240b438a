"""The Silencio team agent (`team`): information-set MCTS whose teammates read each other.

Silencio forbids talk, not a shared way of playing. Every seat of a team runs this same agent, so each seat knows
the *public policy* of its teammates (never their hands) and reads their actions through it. On top of the
single-observer ISMCTS of `tabletop.agents.ismcts` (kept as the baseline under the spec `ismcts`) it adds:

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

Spec parameters (`team:time=0.25`, `team:iters=400,belief=off`): `iters`, `time` (as for `ismcts`), `c`
(exploration, default 0.7), `w` (score weight, default 1.0), `rollout` (`fast`, `heuristic` or `random`), `belief`,
`convention`, `reuse` (`on`/`off`, default on; `convention=off` also turns the belief's play constraints off),
`yellow` (`on`/`off`, default on), `tries` (draws per determinization, default 20), `others` (`policy`, default,
or `tree`), `widen` (a node considers shrines only after this many visits; 0, the default, always). Silencio
only; every seat of the team is assumed to run this agent (with other teammates the belief reads their actions by
a policy they do not follow).
With an iteration budget and a fixed seed the same view and log give the same move.

`hints(seat)` is Silencio's hint search (what the server, the line mode and the full-screen app show through
`tabletop.agents.guided.hints_for`): this agent's search from the seat's view and log, each hinted move with the
expected cards left and the share of perfect games in its samples.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from tabletop.agents import base
from tabletop.agents.base import Agent
from tabletop.agents.ismcts import DEFAULT_SECONDS, Candidate, RolloutPolicy, Search, _Node, make_rollout
from tabletop.agents.spec import InvalidAgentSpec, register_kind
from tabletop.core import Action, Rng, SeatHandle, State
from tabletop.games.silencio.notation import (
    END,
    GREEN,
    P_BLUE_DARK,
    P_GREEN_ACT,
    P_RED_LIGHT,
    PASS,
    PASSING,
    PLAY,
    RED,
    SHRINE_LARGE,
    SHRINE_SMALL,
    START,
    YELLOW,
    card,
    card_text,
    parse_card,
)
from tabletop.games.silencio.rules import SilencioState

DARK_COST = (0.1, 0.8, 0.6, 0.35)
"""What a dark effect usually costs the team, by colour (red, blue, yellow, green), in cards."""
ORACLE_WEIGHT = 0.2
"""How much killing a card that lies in the oracle costs (it can still reach a hand)."""
DEFAULT_TRIES = 20
DEFAULT_WIDEN = 0
"""With `widen=N` a node of the tree considers taking a shrine only once visited N times (0, the default: always;
the widening did not measurably help)."""

_PLAY = re.compile(r"^p(\d) played ([rbyg]\d+)(.*)$")
_RANDOM = re.compile(r"^p(\d) drew ([rbyg]\d+) at random: played$")
_TAKE = re.compile(r"^p(\d) took ([rbyg]\d+) from its row$")
_PLACE = re.compile(r"^p(\d) placed ([rbyg]\d+) face up")
_GIFT = re.compile(r"^p(\d) gave (?:a card|[rbyg]\d+) to p(\d)$")
_PASS = re.compile(r"^p(\d) passed$")
_DARK = " (dark effect)"


# ---- the convention ------------------------------------------------------------------------------------------


def convention_filter(state: SilencioState, legal: list[Action]) -> list[Action]:
    """The legal actions the convention allows: a card played from hand is the lowest playable one of its colour
    in that hand (cards lying in front of players, and every other action, are untouched)."""
    if state.phase != START:
        return legal
    p = state.to_move
    assert p is not None
    hand = state.hands[p]
    lowest: dict[int, int] = {}
    for c in hand:
        if state._playable(c):
            col = c >> 4
            if col not in lowest or c < lowest[col]:
                lowest[col] = c
    if not lowest:
        return legal
    out = []
    for a in legal:
        if a.verb == "play":
            c = int(a.args[0])
            if c in hand and lowest[c >> 4] != c:
                continue
        out.append(a)
    return out


# ---- the belief ----------------------------------------------------------------------------------------------


class Belief:
    """What a seat's log says its teammates could not have held, as constraints on a sample (module docstring).

    `update(log)` reads the log entries the seat has not read yet; `weight(state)` is the likelihood of the
    teammates' observed actions under the team's policy for a sampled state: 1.0 if consistent, else 0.0.
    """

    def __init__(self, seat: int, players: int, max_value: int, plays: bool = True,
                 rows: list[list[int]] | None = None) -> None:
        self.seat = seat
        self.players = players
        self.max_value = max_value
        self.plays = plays
        self.read = 0
        self.rows: list[list[int]] = [list(r) for r in rows] if rows is not None else [[], [], [], []]
        """The rows as the log has built them (a game's log starts from empty rows)."""
        self.trusted = True
        """False once the rows read from the log differ from the table's (a position not reached by play):
        the belief then rules nothing out."""
        self.fronts: set[int] = set()
        self.green_only = False
        self.forced = False  # the next play is a yellow-dark random one, not a choice
        self.last_gift = [-1] * players  # index of the last face-down hand-over into or out of each seat's hand
        self.constraints: list[tuple[int, int, frozenset[int]]] = []  # (seat, event index, cards not held then)

    def _top(self, col: int) -> int:
        row = self.rows[col]
        return row[-1] if row else 1

    def update(self, log: list[dict[str, Any]]) -> None:
        """Read the entries from `self.read` on (`log` is the seat's whole log)."""
        for i in range(self.read, len(log)):
            self._event(i, str(log[i]["text"]))
        self.read = len(log)

    def _event(self, i: int, text: str) -> None:
        if m := _PLAY.match(text):
            p, c, how = int(m[1]), parse_card(m[2]), m[3]
            col, v = c >> 4, c & 15
            top = self._top(col)
            if self.plays and p != self.seat and not self.forced and c not in self.fronts and v > top + 1:
                self.constraints.append((p, i, frozenset(card(col, u) for u in range(top + 1, v))))
            self.fronts.discard(c)
            self.rows[col].append(v)
            self.forced = False
            self.green_only = col == GREEN and how == _DARK
        elif _RANDOM.match(text):
            self.forced = True
        elif m := _PASS.match(text):
            p = int(m[1])
            if p != self.seat:
                cols = (GREEN,) if self.green_only else range(4)
                self.constraints.append((p, i, frozenset(
                    card(col, u) for col in cols for u in range(self._top(col) + 1, self.max_value + 1))))
        elif m := _TAKE.match(text):
            c = parse_card(m[2])
            self.rows[c >> 4].pop()
        elif m := _PLACE.match(text):
            self.fronts.add(parse_card(m[2]))
        elif m := _GIFT.match(text):
            self.last_gift[int(m[1])] = i
            self.last_gift[int(m[2])] = i

    def check(self, view: dict[str, Any]) -> None:
        """Distrust the belief for good if the rows it read from the log are not the table's."""
        if [self.rows[i] for i in range(4)] != [list(r) for r in view["rows"].values()]:
            self.trusted = False

    def forbidden(self) -> list[frozenset[int]]:
        """Per seat, the cards a hidden card of its hand cannot be (the constraints still in force)."""
        out: list[set[int]] = [set() for _ in range(self.players)]
        if not self.trusted:
            return [frozenset()] * self.players
        for p, i, cards in self.constraints:
            if i > self.last_gift[p]:
                out[p] |= cards
        return [frozenset(s) for s in out]

    def weight(self, state: State, forbidden: list[frozenset[int]] | None = None,
               known: list[frozenset[int]] | None = None) -> float:
        """The likelihood (0 or 1) of the teammates' observed actions, under the team's policy, in a sample.

        `known` lists per seat the hand cards this seat knows (they are never resampled, and may have reached the
        hand in the open after the action); only the other cards are checked.
        """
        assert isinstance(state, SilencioState)
        forbidden = self.forbidden() if forbidden is None else forbidden
        for q, hand in enumerate(state.hands):
            bad = forbidden[q]
            if q == self.seat or not bad:
                continue
            seen = known[q] if known is not None else frozenset()
            for c in hand:
                if c in bad and c not in seen:
                    return 0.0
        return 1.0


def _known_cards(view: dict[str, Any], players: int) -> list[frozenset[int]]:
    out: list[frozenset[int]] = []
    for q in range(players):
        out.append(frozenset(parse_card(t) for t in view["known"].get(str(q), [])))
    return out


def repair(state: SilencioState, seat: int, forbidden: list[frozenset[int]], known: list[frozenset[int]]) -> bool:
    """Make a sample consistent by swapping each ruled-out hidden card of a teammate's hand with an allowed card
    of the deck (in the deck's shuffled order) or of another teammate's hidden cards; False if one cannot be."""
    hands = state.hands
    for q in range(len(hands)):
        bad = forbidden[q]
        if q == seat or not bad:
            continue
        for c in [c for c in hands[q] if c in bad and c not in known[q]]:
            deck = state.deck
            for i, d in enumerate(deck):
                if d not in bad:
                    deck[i] = c
                    state.known[c] = 0
                    break
            else:
                for r in range(len(hands)):
                    if r in (seat, q) or c in forbidden[r]:
                        continue
                    d = next((d for d in hands[r] if d not in bad and d not in known[r]), -1)
                    if d >= 0:
                        hands[r].remove(d)
                        hands[r].append(c)
                        hands[r].sort()
                        state.known[c] = 1 << r
                        break
                else:
                    return False
            hands[q].remove(c)
            hands[q].append(d)
            hands[q].sort()
            state.known[d] = 1 << q
    state._legal = None
    return True


# ---- fast rollouts -------------------------------------------------------------------------------------------


def fast_rollout(convention: bool = True, random_play: bool = False) -> RolloutPolicy:
    """A rollout policy reading the determinized Silencio state directly (see the module docstring); with
    `random_play` a yellow dark effect is priced by what the next seat's random card would kill in this state
    (`random_play_cost`), otherwise by the fixed `DARK_COST`."""

    def policy(state: State) -> Action:
        assert isinstance(state, SilencioState)
        legal = state._legal_now()
        if len(legal) == 1:
            return legal[0]
        phase = state.phase
        if phase == START:
            return _start(state, legal, convention, random_play)
        if phase == PASSING:
            return max(legal, key=lambda a: (int(a.args[0]) & 15, int(a.args[0])))
        if phase == END:
            return legal[-1]  # "end" is listed last
        pending = state.pending
        if pending == P_RED_LIGHT:
            return legal[0]  # "use red light"
        if pending == P_BLUE_DARK:
            return _blue_dark(state, legal)
        last = legal[-1]
        if last.verb == "skip":
            return last
        if pending == P_GREEN_ACT and last.verb == "renew oracle":
            return last
        return legal[0]

    return policy


def random_play_cost(state: SilencioState, p: int, c: int, held: list[bool]) -> float:
    """The cards a yellow dark effect created by p playing `c` is expected to kill: the next seat plays a random
    card of its hand (ruling C-7), which kills the held cards of its colour it skips; a card it cannot lay kills
    nothing. `held` marks the cards held in hands and in front of players (`c` included)."""
    hand = state.hands[(p + 1) % state.players]
    if not hand:
        return 0.0
    rows = state.rows
    col_c, v_c = c >> 4, c & 15
    killed = 0
    for x in hand:
        col, v = x >> 4, x & 15
        if col == col_c:
            top = v_c
        else:
            row = rows[col]
            top = row[-1] if row else 1
        base = col * 16
        for u in range(top + 1, v):
            if held[base + u]:
                killed += 1
    return killed / len(hand)


def _start(state: SilencioState, legal: list[Action], convention: bool, random_play: bool = False) -> Action:
    p = state.to_move
    assert p is not None
    plays = [a for a in legal if a.verb == "play"]
    mine = state.hands[p]
    if convention and len(plays) > 1:  # the convention: of a colour, only the lowest playable hand card
        lowest = [99] * 4
        for a in plays:
            c = int(a.args[0])
            if c in mine and c < lowest[c >> 4]:
                lowest[c >> 4] = c
        plays = [a for a in plays if int(a.args[0]) not in mine or lowest[int(a.args[0]) >> 4] == int(a.args[0])]
    if not plays:
        for a in legal:
            if a.verb == "shrine":
                return a  # a shrine that makes a play possible (C-4): taken rather than passing
        return PASS if PASS in legal else legal[0]
    held = [False] * 64
    n_held = 0
    for group in (state.hands, state.fronts):
        for cards in group:
            for c in cards:
                held[c] = True
                n_held += 1
    in_oracle = [False] * 64
    for c in state.oracle:
        in_oracle[c] = True
    own_left = len(mine) + len(state.fronts[p])
    skip_dark = state.skip_dark
    best: tuple[float, int, int] | None = None
    best_dark = 0.0
    for a in plays:
        c = int(a.args[0])
        col, v = c >> 4, c & 15
        row = state.rows[col]
        top = row[-1] if row else 1
        cost = 0.0
        for u in range(top + 1, v):
            k = col * 16 + u
            if held[k]:
                cost += 1.0
            elif in_oracle[k]:
                cost += ORACLE_WEIGHT
        own = c in mine or c in state.fronts[p]
        dark = 0.0
        if v == top + 1 and not (own and own_left == 1) and not (col == GREEN and v == state.max_value):
            if col == GREEN:
                follow = any(held[GREEN * 16 + u] for u in range(v + 1, state.max_value + 1))
                dark = DARK_COST[GREEN] if follow else float(n_held - 1)
            elif col == YELLOW and random_play:
                dark = random_play_cost(state, p, c, held)
            else:
                dark = DARK_COST[col]
            if not skip_dark:
                cost += dark
        if not own:
            cost += 0.05
        key = (cost, v, c)
        if best is None or key < best:
            best, best_dark = key, dark
    assert best is not None
    cost, _, c = best
    if c not in mine and c not in state.fronts[p] and cost >= 0.5 and PASS in legal:
        return PASS
    if best_dark >= 0.6 and not skip_dark and own_left > 1:
        for shrine in (SHRINE_SMALL[RED], SHRINE_LARGE[RED]):
            if shrine in legal:
                return shrine
    return PLAY[c]


def _blue_dark(state: SilencioState, legal: list[Action]) -> Action:
    p = state.to_move
    assert p is not None
    nxt = (p + 1) % state.players

    def key(a: Action) -> tuple[int, int, int]:
        c, q = int(a.args[0]), int(a.args[1])
        row = state.rows[c >> 4]
        top = row[-1] if row else 1
        v = c & 15
        return (0 if q == nxt else 1, 0 if v > top else 1, v - top if v > top else -v)

    return min(legal, key=key)


# ---- the search ----------------------------------------------------------------------------------------------


class TeamSearch(Search):
    """ISMCTS with belief-weighted determinizations and the team's convention at every seat's node."""

    def __init__(
        self,
        seat: SeatHandle,
        rollout: RolloutPolicy,
        seed: int,
        c: float = 0.7,
        w: float | None = None,
        belief: Belief | None = None,
        convention: bool = True,
        tries: int = DEFAULT_TRIES,
        widen: int = DEFAULT_WIDEN,
        own_tree: bool = False,
    ) -> None:
        super().__init__(seat, rollout, seed, c, w)
        self.widen = widen
        self.own_tree = own_tree
        self.belief = belief
        self.convention = convention
        self.tries = tries
        self.fallbacks = 0
        self.repaired = 0
        self.rejected = 0
        self.dead_ends = 0
        self._forbidden = belief.forbidden() if belief is not None else None
        self._known = _known_cards(seat.view(), seat.players) if belief is not None else None

    def determinize(self) -> State:
        """A sample of the seat's view that the teammates' observed actions do not rule out (module docstring)."""
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
        assert isinstance(state, SilencioState) and self._forbidden is not None and self._known is not None
        if repair(state, self.seat.seat, self._forbidden, self._known):
            self.repaired += 1
        else:
            self.fallbacks += 1
        return state

    def _legal(self, state: State) -> list[Action]:
        legal = state.legal_actions()
        if self.convention and isinstance(state, SilencioState):
            return convention_filter(state, legal)
        return legal

    def iterate(self) -> None:
        """One iteration: as `Search.iterate`, from a weighted determinization, with the convention applied."""
        state = self.determinize()
        node = self.root
        path = [node]
        me = self.seat.seat
        while state.to_move is not None:
            if self.own_tree and state.to_move != me:
                break  # another seat decides: its own (sampled) hand is known to the rollout policy, not to the tree
            legal = self._legal(state)
            if self.widen and node.visits < self.widen:
                narrow = [a for a in legal if a.verb != "shrine"]
                if narrow:
                    legal = narrow
            if not legal:  # a sample the rules cannot go on from (module docstring): scored as it stands
                self.dead_ends += 1
                break
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
            if not state._legal_now():
                self.dead_ends += 1
                break
            state.apply(self.rollout(state))
        win, shaped = self._reward(state)
        for v in path:
            v.visits += 1
            vw, vs = v.win, v.score
            for p in range(self.players):
                vw[p] += win[p]
                vs[p] += shaped[p]
        self.iterations += 1

    def candidates(self) -> list[Candidate]:
        """As `Search.candidates`, among the actions the convention allows the seat."""
        allowed = set(map(id, self.root_legal()))
        return [c for c in super().candidates() if id(c.action) in allowed]

    def root_legal(self) -> list[Action]:
        """The seat's legal actions now that the convention allows (it applies to the seat's own hand, which is
        the same in every sample of its view)."""
        legal = self.seat.legal_actions()
        if not self.convention:
            return legal
        sample = self.seat.sample(0)
        assert isinstance(sample, SilencioState)
        return convention_filter(sample, legal)


class TeamAgent:
    """The Silencio team agent (see the module docstring); reproducible from its seed with an iteration budget."""

    name = "team"

    def __init__(
        self,
        game: str = "silencio",
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
    ) -> None:
        if game != "silencio":
            raise InvalidAgentSpec(f"the team agent plays Silencio only, not {game}; use ismcts for {game}")
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
            self._rollout = fast_rollout(convention, yellow) if fast else make_rollout(rollout, game, seed ^ 0x5A17)
        else:
            self._rollout = rollout
        self.last_search: TeamSearch | None = None
        self._belief: Belief | None = None
        self._last: tuple[int, int, Action] | None = None  # (seat, log length when it decided, action played)
        self.reused = 0

    def act(self, seat: SeatHandle) -> Action:
        """The most visited allowed root action after a search from this seat's view and log."""
        legal = seat.legal_actions()
        seed = self._rng.next64() >> 1
        log = seat.log()
        self._read(seat, log)
        reusable = self._reusable(seat, log)
        self._last = None
        if len(legal) == 1:
            self.last_search = None
            return legal[0]
        search = self.new_search(seat, seed)
        if reusable is not None:
            search.root = reusable.root
            search.lo, search.hi = reusable.lo, reusable.hi
            self.reused += 1
        allowed = search.root_legal()
        if len(allowed) == 1:
            action = allowed[0]
        else:
            search.run(self.iters, self.seconds)
            action = search.candidates()[0].action
        self.last_search = search
        self._last = (seat.seat, len(log), action)
        return action

    def _read(self, seat: SeatHandle, log: list[dict[str, Any]]) -> Belief:
        """The seat's belief, brought up to date with its log (started afresh for another seat or a shorter log)."""
        belief = self._belief
        if belief is None or belief.seat != seat.seat or belief.read > len(log):
            view = seat.view()
            belief = self._belief = Belief(seat.seat, seat.players, int(view["max_value"]), self.convention)
        belief.update(log)
        belief.check(seat.view())
        return belief

    def new_search(self, seat: SeatHandle, seed: int) -> TeamSearch:
        """A search (not run yet) from the seat's view, with this agent's settings and its belief as last read."""
        belief = self._belief if self.use_belief else None
        return TeamSearch(seat, self._rollout, seed, self.c, self.w, belief, self.convention, self.tries,
                          self.widen, self.own_tree)

    def _reusable(self, seat: SeatHandle, log: list[dict[str, Any]]) -> TeamSearch | None:
        """The last search, rooted at the action it played, if only this seat has acted since."""
        last, prev = self._last, self.last_search
        if not self.reuse or last is None or prev is None or last[0] != seat.seat or len(log) < last[1]:
            return None
        if any(e["seat"] != seat.seat for e in log[last[1]:]):
            return None
        child = prev.root.children.get(last[2])
        if child is None or child.visits == 0:
            return None
        prev.root = child
        return prev


# ---- hints -----------------------------------------------------------------------------------------------------


def hints(
    seat: SeatHandle,
    seconds: float | None = base.HINT_SECONDS,
    iters: int | None = None,
    seed: int = 0,
    top: int = 5,
) -> list[base.Candidate]:
    """Silencio hints from the team agent's own search (the `hard` level), from the seat's view and log only.

    Returns up to `top` actions the team's convention allows, the move the agent would play first, each a
    `tabletop.agents.guided.Candidate` as the other games' hints are: the search samples behind it, its value in
    [0, 1] (the search's reward: a perfect game and fewer cards left), and a reason giving the expected result in
    cards (`1.3 cards left on average, perfect in 31%`) and, for a card played, the cards of the seat's own it
    leaves unplayable.
    `seconds` caps the search; pass None and `iters` for a search reproducible from `seed`.
    """
    if not seat.legal_actions():
        return []
    if seconds is None and iters is None:
        raise ValueError("hints need a budget: seconds or iters")
    agent = TeamAgent(seed=seed, iters=iters, seconds=seconds)
    agent._read(seat, seat.log())
    search = agent.new_search(seat, seed)
    search.run(iters, seconds)
    sample = seat.sample(seed)
    assert isinstance(sample, SilencioState)
    out = []
    for cand in search.candidates()[:top]:
        node = search.root.children.get(cand.action)
        parts = []
        if node is not None and node.visits:
            left = -node.score[seat.seat] / node.visits  # the team score is minus the cards left
            parts.append(f"{left:.1f} cards left on average, perfect in {node.win[seat.seat] / node.visits:.0%}")
        lost = _own_cards_skipped(sample, seat.seat, cand.action)
        if lost:
            parts.append("leaves your " + ", ".join(card_text(c) for c in lost) + " unplayable")
        out.append(base.Candidate(cand.action, cand.visits, cand.value, "; ".join(parts)))
    return out


def _own_cards_skipped(state: SilencioState, seat: int, action: Action) -> list[int]:
    """The cards in the seat's hand or in front of it that playing `action` (a card) would skip in its row: the
    same in every sample of the seat's view, as the seat's own cards are."""
    if action.verb != "play":
        return []
    c = int(action.args[0])
    top = state.top(c >> 4)
    mine = set(state.hands[seat]) | set(state.fronts[seat])
    return [x for x in sorted(mine) if x >> 4 == c >> 4 and top < (x & 15) < (c & 15)]


# ---- the spec ------------------------------------------------------------------------------------------------

_SWITCH = {"on": True, "off": False, "true": True, "false": False}
_ALLOWED = ("iters", "time", "rollout", "c", "w", "belief", "convention", "reuse", "tries", "widen", "others",
            "yellow")


def _number(params: dict[str, str], key: str, cast: Callable[[str], float], positive: bool) -> float | None:
    if key not in params:
        return None
    try:
        value = cast(params[key])
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        kind = "a positive integer" if cast is int else "a positive number" if positive else "a number ≥ 0"
        raise InvalidAgentSpec(f"team parameter {key}={params[key][:20]!r} must be {kind}")
    return value


def _switch(params: dict[str, str], key: str, default: str = "on") -> bool:
    value = params.get(key, default).lower()
    if value not in _SWITCH:
        raise InvalidAgentSpec(f"team parameter {key}={params[key][:20]!r} must be on or off")
    return _SWITCH[value]


def _factory(game: str, seed: int, params: dict[str, str]) -> Agent:
    unknown = sorted(set(params) - set(_ALLOWED))
    if unknown:
        raise InvalidAgentSpec(f"unknown team parameter(s) {', '.join(u[:20] for u in unknown)}; "
                               f"allowed: {', '.join(_ALLOWED)}")
    if game != "silencio":
        raise InvalidAgentSpec(f"the team agent plays Silencio only, not {game}; use ismcts for {game}")
    iters = _number(params, "iters", int, True)
    seconds = _number(params, "time", float, True)
    c = _number(params, "c", float, False)
    w = _number(params, "w", float, False)
    tries = _number(params, "tries", int, True)
    widen = _number(params, "widen", int, False)
    others = params.get("others", "policy").lower()
    if others not in ("policy", "tree"):
        raise InvalidAgentSpec(f"team parameter others={params['others'][:20]!r} must be policy or tree")
    rollout = params.get("rollout", "fast").lower()
    if rollout not in ("fast", "heuristic", "random"):
        raise InvalidAgentSpec(f"team parameter rollout={params['rollout'][:20]!r} must be fast, heuristic or random")
    return TeamAgent(
        game, seed, None if iters is None else int(iters), seconds, rollout, 0.7 if c is None else c, w,
        _switch(params, "belief"), _switch(params, "convention"), _switch(params, "reuse"),
        DEFAULT_TRIES if tries is None else int(tries), DEFAULT_WIDEN if widen is None else int(widen),
        others == "policy", _switch(params, "yellow", "on"),
    )


register_kind("team", _factory)

__all__ = ["Belief", "TeamAgent", "TeamSearch", "convention_filter", "fast_rollout", "hints"]
