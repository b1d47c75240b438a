"""The game half of the team agent for Silencio (the game's `team` part; docs/architecture.md, "The parts of a
game"): the convention the team shares, what a seat's log says its teammates could not hold, and fast rollouts.

The search that uses them is `tabletop.agents.team` (its module docstring explains the agent); this module is what
it needs to know about Silencio, next to the rules, the view and the log wording it reads:

- `convention_filter(state, legal)`: the legal actions the team's convention ("lowest first") allows;
- `new_belief(seat, players, view, plays)`: a `Belief` reading the seat's log (`update(log)`, `check(view)`,
  `forbidden()`, `weight(state, forbidden, known)`), the cards a teammate could not have held;
- `known_cards(view, players)`: per seat, the hand cards the viewing seat knows;
- `repair(state, seat, forbidden, known)`: make a sample consistent with the belief;
- `fast_rollout(convention, random_play)`: a rollout policy reading the sampled state directly;
- `stuck(state)`: whether a sampled seat owes a decision with no legal action (ruling C-4; the playout ends there);
- `hint_reason(sample, seat, action, mean_score, perfect)`: the reason a team hint gives.

The log lines read by `Belief` are written by `tabletop.games.silencio.view`: a change of their wording shows in
tests/agents/test_team.py (the belief's tests read real games' logs).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tabletop.core import Action, State
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

__all__ = ["Belief", "convention_filter", "fast_rollout", "hint_reason", "known_cards", "new_belief",
           "own_cards_skipped", "random_play_cost", "repair", "stuck"]

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

