"""The game half of the team agent for Silencio (the game's `team` part; docs/architecture.md, "The parts of a
game"): the convention the team shares, what a seat's log says its teammates could not hold, and fast rollouts.

The search that uses them is `tabletop.agents.team` (its module docstring explains the agent); this module is what
it needs to know about Silencio, next to the rules, the view and the log wording it reads:

- `convention_filter(state, legal)`: the legal actions the team's convention ("lowest first") allows;
- `new_belief(seat, players, view, plays)`: a `Belief` reading the seat's log (`update(log)`, `check(view)`,
  `forbidden()`, `weight(state, forbidden, known)`), the cards a teammate could not have held;
- `new_partner_belief(seat, players, view, kinds)`: a `PartnerBelief` (issue 28): per teammate, weights over
  `MODELS` (the convention, the heuristic, a reasonable person, random; priors by `model_prior` of the seat's
  kind), soft deal weights (`soft_weight`), the passes' hard constraints (`hard_forbidden`);
- `new_choice_belief(seat, players, view, kinds)`: a `ChoiceBelief` (`partners=choices`): the same models, each
  teammate choice weighed in a sample by its likelihood among the moves it had (`deal_weight`, `active_choices`);
  `fresh_copy(state, seed)` redraws a pooled deal's deck and chance;
- `heuristic_rollout()`: the heuristic's choices read from a sample as the deciding seat knows it;
- `known_cards(view, players)`: per seat, the hand cards the viewing seat knows;
- `repair(state, seat, forbidden, known)`: make a sample consistent with the belief;
- `fast_rollout(convention, random_play)`: a rollout policy reading the sampled state directly;
- `stuck(state)`: whether a sampled seat owes a decision with no legal action (ruling C-4; the playout ends there);
- `hint_reason(sample, seat, action, mean_score, perfect)`: the reason a team hint gives.

The log lines read by `Belief` are written by `tabletop.games.silencio.view`: a change of their wording shows in
tests/agents/test_team.py (the belief's tests read real games' logs).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from tabletop.core import Action, Rng, State
from tabletop.core.logwords import notation_text
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

__all__ = [
    "MODELS",
    "Belief",
    "Choice",
    "ChoiceBelief",
    "PartnerBelief",
    "convention_filter",
    "fast_rollout",
    "fresh_copy",
    "heuristic_rollout",
    "hint_reason",
    "kind_model",
    "known_cards",
    "model_prior",
    "new_belief",
    "new_choice_belief",
    "new_partner_belief",
    "own_cards_skipped",
    "random_play_cost",
    "repair",
    "stuck",
]

RolloutPolicy = Callable[[State], Action]

DARK_COST = (0.1, 0.8, 0.6, 0.35)
"""What a dark effect usually costs the team, by colour (red, blue, yellow, green), in cards."""
ORACLE_WEIGHT = 0.2
"""How much killing a card that lies in the oracle costs (it can still reach a hand)."""

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
        self.soft: list[tuple[int, int, frozenset[int]]] = []
        """The play constraints again, for the partner models' soft likelihoods (`PartnerBelief`); the passes,
        which the rules force, stay in `constraints` only."""
        self.gaps: list[list[int]] = [[] for _ in range(players)]
        """Per seat, the values each of its choices from hand skipped in its row (public: read from the log)."""

    def _top(self, col: int) -> int:
        row = self.rows[col]
        return row[-1] if row else 1

    def update(self, log: list[dict[str, Any]]) -> None:
        """Read the entries from `self.read` on (`log` is the seat's whole log)."""
        for i in range(self.read, len(log)):
            self._event(i, notation_text(log[i]))
        self.read = len(log)

    def _event(self, i: int, text: str) -> None:
        if m := _PLAY.match(text):
            p, c, how = int(m[1]), parse_card(m[2]), m[3]
            col, v = c >> 4, c & 15
            top = self._top(col)
            if p != self.seat and not self.forced and c not in self.fronts and v > top:
                self.gaps[p].append(v - top - 1)
            if self.plays and p != self.seat and not self.forced and c not in self.fronts and v > top + 1:
                skipped = (p, i, frozenset(card(col, u) for u in range(top + 1, v)))
                self.constraints.append(skipped)
                self.soft.append(skipped)
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


# ---- partner models -------------------------------------------------------------------------------------------

MODELS = ("convention", "heuristic", "reasonable", "random")
"""How a teammate may decide: `convention` (the team agent: lowest first, little waste), `heuristic` (the `medium`
level: the card that kills the fewest live cards, which within a colour is also the lowest), `reasonable` (a
person: the heuristic's choice, but any card now and then), `random` (the `easy` level: any legal action)."""

SKIP_LIKELIHOOD = {"convention": 0.02, "heuristic": 0.05, "random": 1.0}
"""Per hidden card of the teammate's sampled hand that a play of its skipped: how likely that play was under the
model, relative to a play skipping none (a small floor rather than 0: nobody is certain to follow a rule)."""
REASONABLE_ERROR = 0.2
"""How often the `reasonable` model plays any card instead of the heuristic's: a play skipping k of its own hidden
cards has likelihood (1 - e) * 0.05**k + e."""
GAP_RATIO = {"convention": 0.3, "heuristic": 0.3, "reasonable": 0.4, "random": 0.75}
"""The public evidence of a choice from hand: it skipped g values of its row with probability (1 - r) * r**g
under the model (a player who wastes little skips few values; a random card skips about three)."""
KIND_MODEL = {"team": "convention", "hard": "convention", "heuristic": "heuristic", "medium": "heuristic",
              "random": "random", "easy": "random", "human": "reasonable", "person": "reasonable"}
"""The model assumed for a seat whose kind is known (an agent spec's kind, a server level, a person)."""
KNOWN_PRIOR = 0.85
"""The prior weight of the model of a seat whose kind is known (the rest spread over the others: graceful when
the seat plays unlike its kind)."""
ANY_PRIOR = {"convention": 0.7, "heuristic": 0.1, "reasonable": 0.1, "random": 0.1}
"""The prior over the models of a teammate nothing is known about: mostly the convention (beside copies of itself
the agent then plays as before issue 28; a first prior of 0.4 on it, the rest spread evenly, left 3.67 cards
against 1.33 in self-play over 6 deals: the random and careless rollouts blur the search), the others enough for
the evidence of a teammate's choices to move the weights (a random teammate's jumps do within a few plays)."""


def kind_model(kind: str | None) -> str | None:
    """The model assumed for a teammate of `kind` (an agent spec or level, "human"), None when unknown."""
    return KIND_MODEL.get(kind.split(":")[0].lower()) if kind else None


def model_prior(kind: str | None) -> dict[str, float]:
    """The prior over `MODELS` for a teammate of `kind` (None or an unknown kind: `ANY_PRIOR`)."""
    model = kind_model(kind)
    if model is None:
        return dict(ANY_PRIOR)
    rest = (1.0 - KNOWN_PRIOR) / (len(MODELS) - 1)
    return {m: KNOWN_PRIOR if m == model else rest for m in MODELS}


class PartnerBelief(Belief):
    """Per teammate, a weighted belief over how it decides (`MODELS`), and soft deal weights.

    The passes stay hard constraints (the rules force a play), repaired as before. A play from hand that skipped
    cards of its row is a soft constraint: a sampled hand holding k of them then had likelihood L_m(k) under model
    m (`SKIP_LIKELIHOOD`, `REASONABLE_ERROR`). A deal's weight is, over the teammates q, the product of
    sum_m pi_q(m) prod_e L_m(k_e): the mixture of the models, each explaining all of q's choices. The model weights
    pi_q start at the prior (`model_prior` of the seat's kind, when known) and follow the public evidence of q's
    choices (how many values each skipped, `GAP_RATIO`). When no model explains the choices, the random model
    keeps the deals possible (its likelihood is 1): the belief falls back to what the rules alone rule out.
    Only the seat's log and view are read, as for `Belief`.
    """

    def __init__(self, seat: int, players: int, max_value: int, kinds: list[str | None] | None = None,
                 rows: list[list[int]] | None = None) -> None:
        super().__init__(seat, players, max_value, True, rows)
        kinds = kinds if kinds is not None else [None] * players
        self.priors = [model_prior(kinds[q] if q < len(kinds) else None) for q in range(players)]

    def posterior(self) -> list[dict[str, float]]:
        """Per seat, the weights of the models after its choices' public evidence (the seat itself: its prior)."""
        out = []
        for q in range(self.players):
            w = dict(self.priors[q])
            if q != self.seat:
                for g in self.gaps[q]:
                    for m in MODELS:
                        r = GAP_RATIO[m]
                        w[m] *= (1 - r) * r ** min(g, 12)
            total = sum(w.values()) or 1.0
            out.append({m: x / total for m, x in w.items()})
        return out

    def hard_forbidden(self) -> list[frozenset[int]]:
        """Per seat, the cards the rules rule out (the passes' constraints still in force)."""
        out: list[set[int]] = [set() for _ in range(self.players)]
        if not self.trusted:
            return [frozenset()] * self.players
        soft = set(self.soft)
        for con in self.constraints:
            p, i, cards = con
            if con not in soft and i > self.last_gift[p]:
                out[p] |= cards
        return [frozenset(s) for s in out]

    def active_soft(self) -> list[list[frozenset[int]]]:
        """Per seat, the skipped-card sets of its plays still in force (no face-down hand-over since)."""
        out: list[list[frozenset[int]]] = [[] for _ in range(self.players)]
        if not self.trusted:
            return out
        for p, i, cards in self.soft:
            if i > self.last_gift[p]:
                out[p].append(cards)
        return out

    def soft_weight(self, state: State, soft: list[list[frozenset[int]]], post: list[dict[str, float]],
                    known: list[frozenset[int]] | None = None) -> float:
        """The likelihood of the teammates' plays in a sample under their model mixtures (passes not included:
        `weight` with `hard_forbidden` checks them)."""
        assert isinstance(state, SilencioState)
        total = 1.0
        for q, sets in enumerate(soft):
            if q == self.seat or not sets:
                continue
            hand = state.hands[q]
            seen = known[q] if known is not None else frozenset()
            ks = [sum(1 for c in hand if c in cards and c not in seen) for cards in sets]
            if not any(ks):
                continue
            pq = post[q]
            mix = 0.0
            for m, pm in pq.items():
                if pm <= 0.0:
                    continue
                like = 1.0
                for k in ks:
                    if k:
                        if m == "reasonable":
                            like *= (1 - REASONABLE_ERROR) * SKIP_LIKELIHOOD["heuristic"] ** k + REASONABLE_ERROR
                        else:
                            like *= SKIP_LIKELIHOOD[m] ** k
                mix += pm * like
            total *= mix
        return total


CHOICE_ERROR = {"convention": 0.05, "heuristic": 0.1}
"""How often a careful model's teammate plays a card the model would not have chosen in the sampled hand (a small
floor: the reconstruction of what the teammate knew is not exact, and nobody follows a rule for sure)."""
CONVENTION_TEMPERATURE = 0.25
"""The convention model (the team agent, a search) among the moves the convention allows: careful, not certain to
take the cheapest; a move of heuristic cost k is chosen with weight exp(-k / T)."""
PASS_COST = 0.5
"""The heuristic's cost of a pass (it passes rather than play a card of another's that costs this much)."""
CHOICE_MEMO = 4096
"""How many sampled hands a choice remembers its likelihoods for (a search draws the same hands again)."""
_ORACLE_TAKE = re.compile(r"^p(\d) took ([rbyg]\d+) from the oracle and put ([rbyg]\d+) there$")
_ORACLE_GIVE = re.compile(r"^p(\d) gave oracle card ([rbyg]\d+) to p(\d)$")
_RED_LIGHT = re.compile(r"^p(\d) used red light")

Likelihoods = tuple[float, float, float, float]


class Choice:
    """A teammate's card chosen at the start of its turn, as the seat's log shows it: what was public then (the
    rows' tops, the cards in front of players and whose they were, the green-only rule, a dark effect skipped by
    red light; the live-card weights of `base`, read from the seat's view when the log was read), and the cards
    that left or reached that hand in the open since, in order, so that a sample's hand of now gives the hand it
    chose from (`hand_then`). What does not depend on the hand is computed once (`_prepare`); the likelihoods of a
    hand are remembered (`CHOICE_MEMO`)."""

    __slots__ = ("_memo", "_static", "base", "card", "fronts", "green_only", "i", "own", "seat", "skip_dark",
                 "tops", "undo")

    def __init__(self, seat: int, i: int, c: int, own: bool, tops: tuple[int, ...], green_only: bool,
                 fronts: tuple[tuple[int, int], ...], skip_dark: bool = False) -> None:
        self.seat, self.i, self.card, self.own = seat, i, c, own
        self.tops, self.green_only, self.fronts, self.skip_dark = tops, green_only, fronts, skip_dark
        self.undo: list[tuple[int, bool]] = [(c, False)] if own else []
        """The hand's changes in the open since the choice, in order: (card, True) for a card that reached it
        (taken back from a row or from the oracle), (card, False) for one that left it (played, laid face up,
        put into the oracle)."""
        self.base: list[float] | None = None
        self._static: tuple[list[tuple[int, float, tuple[int, ...], tuple[float, ...], bool, bool, str]],
                            list[int]] | None = None
        self._memo: dict[tuple[int, ...], Likelihoods | None] = {}

    def hand_then(self, hand: list[int]) -> set[int]:
        """The hand the choice was made from, given the teammate's hand of now in a sample (the changes since
        undone, the last first)."""
        out = set(hand)
        for c, arrived in reversed(self.undo):
            if arrived:
                out.discard(c)
            else:
                out.add(c)
        return out

    def _prepare(self, max_value: int, hand_size: int) -> None:
        """Per card that the hand could have played, what its heuristic cost is without the hand (`base` weights
        of the cards it skips, the cards in front counted as held, the dark effect's price, the 0.05 for a card
        not the teammate's own), and the cards it skips whose weight becomes 1 if the hand holds them."""
        base = self.base
        assert base is not None
        tops, q = self.tops, self.seat
        fronts_held = {f for f, _ in self.fronts}
        own_left = hand_size + sum(1 for _, o in self.fronts if o == q)
        entries = []
        for col in range(4):
            if self.green_only and col != GREEN:
                continue
            top = tops[col]
            for v in range(top + 1, max_value + 1):
                x = col * 16 + v
                owner = next((o for f, o in self.fronts if f == x), -1)
                in_front = owner >= 0
                own = owner == q if in_front else True
                cost = 0.0
                skipped: list[int] = []
                extra: list[float] = []
                for u in range(top + 1, v):
                    k = col * 16 + u
                    if k in fronts_held:
                        cost += 1.0
                    else:
                        cost += base[k]
                        skipped.append(k)
                        extra.append(1.0 - base[k])
                if (v == top + 1 and not (own and own_left == 1) and not (col == GREEN and v == max_value)
                        and not self.skip_dark):
                    cost += DARK_COST[col]
                if not own:
                    cost += 0.05
                entries.append((x, cost, tuple(skipped), tuple(extra), in_front, own, card_text(x)))
        self._static = (entries, [f for f, _ in self.fronts])

    def heuristic_card(self, hand: set[int], max_value: int) -> int | None:
        """What the heuristic (`HeuristicAgent`) would have played in the teammate's seat from `hand`, knowing
        what it knew then (-1: it would have passed; None: it could play nothing)."""
        chosen = self._choose(hand, max_value)
        return None if chosen is None else chosen[0]

    def _choose(self, hand: set[int], max_value: int) -> tuple[int, list[tuple[int, float]], bool] | None:
        """The heuristic's card (or -1 to pass), the playable cards the hand had (its own and in front) with the
        heuristic's cost of each, and whether it could pass."""
        if self._static is None:
            self._prepare(max_value, len(hand))
        assert self._static is not None
        entries, _ = self._static
        best: tuple[float, int, str] | None = None
        best_card, best_own = -1, False
        cands: list[tuple[int, float]] = []
        any_own = False
        for x, cost, skipped, extra, in_front, own, text in entries:
            if not in_front and x not in hand:
                continue
            any_own = any_own or own
            for k, e in zip(skipped, extra, strict=True):
                if k in hand:
                    cost += e
            cands.append((x, cost))
            key = (cost, x & 15, text)
            if best is None or key < best:
                best, best_card, best_own = key, x, own
        if best is None:
            return None
        can_pass = not any_own
        if not best_own and best[0] >= 0.5 and can_pass:
            best_card = -1  # the heuristic would have passed
        return best_card, cands, can_pass

    def likelihoods(self, hand: set[int], max_value: int) -> Likelihoods | None:
        """P(this choice | model, hand) for `MODELS` in order; None when the hand could not have made it (the
        reconstruction failed: the choice then says nothing). The convention: one of the moves it allows (of a
        colour, the lowest of the hand; any card in front; the pass if it had one), the cheaper ones likelier
        (`CONVENTION_TEMPERATURE`), `CHOICE_ERROR` any move;
        the heuristic: its own choice (`_choose`), `CHOICE_ERROR` any move; a reasonable person: the same with
        `REASONABLE_ERROR`; random: one over the moves it had (the plays and the pass)."""
        key = tuple(sorted(hand))
        memo = self._memo
        if key in memo:
            return memo[key]
        out = self._likelihoods(hand, max_value)
        if len(memo) < CHOICE_MEMO:
            memo[key] = out
        return out

    def _likelihoods(self, hand: set[int], max_value: int) -> Likelihoods | None:
        chosen = self._choose(hand, max_value)
        c = self.card
        if chosen is None or all(x != c for x, _ in chosen[1]):
            return None
        heuristic_choice, cands, can_pass = chosen
        n = len(cands) + (1 if can_pass else 0)
        lowest: dict[int, int] = {}
        for x, _ in cands:
            if x in hand and (x >> 4 not in lowest or x < lowest[x >> 4]):
                lowest[x >> 4] = x
        # the convention: a careful choice among the moves it allows (a softmin of the heuristic's costs; a pass
        # costs what the heuristic's threshold for it says)
        mine = 0.0
        z = math.exp(-PASS_COST / CONVENTION_TEMPERATURE) if can_pass else 0.0
        for x, cost in cands:
            if x not in hand or lowest[x >> 4] == x:
                e = math.exp(-cost / CONVENTION_TEMPERATURE)
                z += e
                if x == c:
                    mine = e
        e_c, e_h = CHOICE_ERROR["convention"], CHOICE_ERROR["heuristic"]
        conv = (1 - e_c) * mine / z + e_c / n
        hit = 1.0 if heuristic_choice == c else 0.0
        heur = (1 - e_h) * hit + e_h / n
        reasonable = (1 - REASONABLE_ERROR) * hit + REASONABLE_ERROR / n
        return conv, heur, reasonable, 1.0 / n


class ChoiceBelief(PartnerBelief):
    """Partner models read from each teammate choice among the moves it had (`partners=choices`, issue 28).

    The heuristic (and a person's careful part) decides only by what it knows, so in a sampled deal the seat can
    rebuild the hand a teammate chose a card from (its sampled hand of now, with the cards that left or reached it
    in the open since undone) and ask whether each model, in that seat with that hand, would have chosen what it
    did: `Choice.likelihoods`, soft (a careful model's miss keeps a small probability, `CHOICE_ERROR`; the random
    model's likelihood is one over the moves the hand had). A deal's weight is, over the teammates q, the mixture
    sum_m pi_q(m) prod_e P(e | m, hand) (`deal_weight`), and the model a teammate plays by in that deal's playout
    is drawn from the same terms (the posterior over the models given the deal). The passes stay hard constraints.
    Only the seat's log and view are read, as for `Belief`.
    """

    def __init__(self, seat: int, players: int, max_value: int, kinds: list[str | None] | None = None,
                 rows: list[list[int]] | None = None) -> None:
        super().__init__(seat, players, max_value, kinds, rows)
        self.choices: list[Choice] = []
        self.owner: dict[int, int] = {}
        """Who each card lying face up in front of a player belongs to."""
        self.skip_dark = False
        """Red light was used: the next card's dark effect is skipped (public, read from the log)."""
        self._unweighed: list[Choice] = []

    def _event(self, i: int, text: str) -> None:
        if m := _PLAY.match(text):
            p, c = int(m[1]), parse_card(m[2])
            own = c not in self.fronts
            if own:
                self._changed(p, c, False)
            if p != self.seat and not self.forced:
                choice = Choice(p, i, c, own, tuple(self._top(col) for col in range(4)), self.green_only,
                                tuple(sorted(self.owner.items())), self.skip_dark)
                self.choices.append(choice)
                self._unweighed.append(choice)
            self.owner.pop(c, None)
            self.skip_dark = False
        elif m := _PLACE.match(text):
            p, c = int(m[1]), parse_card(m[2])
            self.owner[c] = p
            self._changed(p, c, False)
        elif m := _ORACLE_TAKE.match(text):
            p = int(m[1])
            self._changed(p, parse_card(m[2]), True)
            self._changed(p, parse_card(m[3]), False)
        elif m := _ORACLE_GIVE.match(text):
            self._changed(int(m[3]), parse_card(m[2]), True)
        elif m := _TAKE.match(text):
            self._changed(int(m[1]), parse_card(m[2]), True)
        elif _RED_LIGHT.match(text):
            self.skip_dark = True
        super()._event(i, text)

    def posterior(self) -> list[dict[str, float]]:
        """Per seat, its prior: the choices weigh the models deal by deal (`deal_weight`), not from public
        evidence alone (a search's `model_mass` is its reading of them)."""
        return [dict(p) for p in self.priors]

    def _changed(self, p: int, c: int, arrived: bool) -> None:
        for ch in self.choices:
            if ch.seat == p:
                ch.undo.append((c, arrived))

    def check(self, view: dict[str, Any]) -> None:
        """As `Belief.check`; the choices read since get their live-card weights from this view (the oracle's
        cards 0.3 and the box's 0 as the heuristic counts them, a card of unknown place by the chance that it is in
        a hand rather than the deck)."""
        super().check(view)
        if not self._unweighed:
            return
        sizes = view["hand_sizes"]
        out_of_play = {parse_card(t) for t in view["box"]}
        oracle = {parse_card(t) for t in view["oracle"]}
        for ch in self._unweighed:
            hidden = sum(sizes) - sizes[ch.seat]
            p_hand = hidden / (hidden + view["deck"]) if hidden + view["deck"] else 0.0
            base = [p_hand] * 64
            for c in out_of_play:
                base[c] = 0.0
            for c in oracle:
                base[c] = HEURISTIC_ORACLE
            ch.base = base
        self._unweighed = []

    def active_choices(self) -> list[list[Choice]]:
        """Per seat, its choices still in force (no face-down hand-over since; none once the belief is
        distrusted)."""
        out: list[list[Choice]] = [[] for _ in range(self.players)]
        if not self.trusted:
            return out
        for ch in self.choices:
            if ch.i > self.last_gift[ch.seat] and ch.base is not None:
                out[ch.seat].append(ch)
        return out

    def deal_weight(self, state: State, choices: list[list[Choice]]) -> tuple[float, list[list[float]]]:
        """The likelihood of the teammates' choices in a sample under their model mixtures, and per seat the
        unnormalised posterior terms pi_q(m) prod_e P(e | m, hand) (in `MODELS` order; the seat itself and a
        teammate with no choice in force: its prior). A choice the sampled hand could not have made says
        nothing (the hand's reconstruction failed)."""
        assert isinstance(state, SilencioState)
        total = 1.0
        terms: list[list[float]] = []
        for q in range(self.players):
            prior = self.priors[q]
            t = [prior[m] for m in MODELS]
            if q != self.seat and choices[q]:
                hand = state.hands[q]
                for ch in choices[q]:
                    like = ch.likelihoods(ch.hand_then(hand), self.max_value)
                    if like is not None:
                        t = [a * b for a, b in zip(t, like, strict=True)]
                total *= sum(t)
            terms.append(t)
        return total, terms


def fresh_copy(state: State, seed: int) -> SilencioState:
    """A copy of a sample with the same hands, its deck reshuffled and its chance reseeded from `seed` (a deal
    drawn again from a `partners=choices` search's pool of weighted deals: the hands carry its weight, the deck's
    order and the random cards to come do not)."""
    assert isinstance(state, SilencioState)
    s = state.clone()
    rng = Rng(seed)
    rng.shuffle(s.deck)
    s.rng = Rng(rng.next64() >> 1)
    return s


def new_partner_belief(seat: int, players: int, view: dict[str, Any],
                       kinds: list[str | None] | None = None) -> PartnerBelief:
    """A `PartnerBelief` for `seat` reading its log from the start; `kinds`, per seat, what is known of how it
    decides (an agent spec or level, "human"; None: nothing)."""
    return PartnerBelief(seat, players, int(view["max_value"]), kinds)


def new_choice_belief(seat: int, players: int, view: dict[str, Any],
                      kinds: list[str | None] | None = None) -> ChoiceBelief:
    """A `ChoiceBelief` for `seat` reading its log from the start (`kinds` as for `new_partner_belief`)."""
    return ChoiceBelief(seat, players, int(view["max_value"]), kinds)


def new_belief(seat: int, players: int, view: dict[str, Any], plays: bool = True) -> Belief:
    """A belief for `seat`, reading its log from the start (`plays`: read the convention's play constraints)."""
    return Belief(seat, players, int(view["max_value"]), plays)


def known_cards(view: dict[str, Any], players: int) -> list[frozenset[int]]:
    """Per seat, the hand cards the viewing seat knows (never resampled)."""
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


def heuristic_rollout() -> RolloutPolicy:
    """The `heuristic` level's choices, read from the determinized state but from the deciding seat's knowledge
    only: a card counts as surely held when it is in that seat's hand, in front of a player or known to it (the
    sample's other hidden cards count by the chance that an unknown card is in a hand, the oracle's at 0.3), dark
    effects at the heuristic's fixed prices. The rollout of a teammate modelled as the heuristic or a person."""
    return fast_rollout(False, False, as_seen=True)


def fast_rollout(convention: bool = True, random_play: bool = False, as_seen: bool = False) -> RolloutPolicy:
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
            if as_seen:
                return _start_seen(state, legal)
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


HEURISTIC_ORACLE = 0.3
"""The heuristic's weight of an oracle card (`tabletop.games.silencio.heuristic`)."""


def _start_seen(state: SilencioState, legal: list[Action]) -> Action:
    """The heuristic's start-of-turn choice (`heuristic_rollout`) in a determinized state."""
    p = state.to_move
    assert p is not None
    plays = [a for a in legal if a.verb == "play"]
    if not plays:
        for a in legal:
            if a.verb == "shrine":
                return a
        return PASS if PASS in legal else legal[0]
    bit = 1 << p
    known = state.known
    weight = [0.0] * 64
    hidden_in_hands = 0
    for q, hand in enumerate(state.hands):
        for c in hand:
            if q == p or known[c] & bit:
                weight[c] = 1.0
            else:
                weight[c] = -1.0  # unknown to p: priced below
                hidden_in_hands += 1
    for cards in state.fronts:
        for c in cards:
            weight[c] = 1.0
    for c in state.deck:
        weight[c] = -1.0
    hidden = hidden_in_hands + len(state.deck)
    p_hand = hidden_in_hands / hidden if hidden else 0.0
    for c in state.oracle:
        weight[c] = HEURISTIC_ORACLE
    mine = state.hands[p]
    own_left = len(mine) + len(state.fronts[p])
    skip_dark = state.skip_dark
    best: tuple[float, int, int] | None = None
    for a in plays:
        c = int(a.args[0])
        col, v = c >> 4, c & 15
        row = state.rows[col]
        top = row[-1] if row else 1
        cost = 0.0
        for u in range(top + 1, v):
            x = weight[col * 16 + u]
            cost += p_hand if x < 0 else x
        own = c in mine or c in state.fronts[p]
        if (v == top + 1 and not (own and own_left == 1) and not (col == GREEN and v == state.max_value)
                and not skip_dark):
            cost += DARK_COST[col]
        if not own:
            cost += 0.05
        key = (cost, v, c)
        if best is None or key < best:
            best = key
    assert best is not None
    cost, v, c = best
    if c not in mine and c not in state.fronts[p] and cost >= 0.5 and PASS in legal:
        return PASS
    col = c >> 4
    row = state.rows[col]
    top = row[-1] if row else 1
    if v == top + 1 and DARK_COST[col] >= 0.6 and not skip_dark and own_left > 1:
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



def stuck(state: State) -> bool:
    """Whether the seat to move owes a decision with no legal action: a sample the rules cannot go on from (ruling
    C-4: a shrine chosen as "kept" when the sample dealt the seat no playable card)."""
    return state.to_move is not None and not state._legal_now()


def own_cards_skipped(state: SilencioState, seat: int, action: Action) -> list[int]:
    """The cards in the seat's hand or in front of it that playing `action` (a card) would skip in its row: the
    same in every sample of the seat's view, as the seat's own cards are."""
    if action.verb != "play":
        return []
    c = int(action.args[0])
    top = state.top(c >> 4)
    mine = set(state.hands[seat]) | set(state.fronts[seat])
    return [x for x in sorted(mine) if x >> 4 == c >> 4 and top < (x & 15) < (c & 15)]


def hint_reason(sample: SilencioState, seat: int, action: Action, mean_score: float | None, perfect: float) -> str:
    """A team hint's reason: the expected result in cards (`mean_score` is the team score, minus the cards left;
    None when the action was not searched) and, for a card played, the seat's own cards it leaves unplayable."""
    parts = []
    if mean_score is not None:
        parts.append(f"{abs(mean_score):.1f} cards left on average, perfect in {perfect:.0%}")  # score = -cards
    lost = own_cards_skipped(sample, seat, action)
    if lost:
        parts.append("leaves your " + ", ".join(card_text(c) for c in lost) + " unplayable")
    return "; ".join(parts)

