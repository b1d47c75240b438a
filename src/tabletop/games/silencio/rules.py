"""Silencio rules: the state, its legal actions and their effects. See the package docstring for the notation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from tabletop.core import Action, ActionTable, Rng, Seat, State, View
from tabletop.games.silencio.components import COMPONENTS

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
COLOURS = COMPONENTS.colours
LETTERS = "rbyg"
LARGE = 4  # shrine index of the large (purple) shrine; small shrines are indexed by colour
SHRINE_NAMES = (*COLOURS, "large")

# Phases
PASSING, START, EFFECT, END, OVER = range(5)
PHASE_NAMES = ("passing", "start of turn", "effect", "end of turn", "over")

KEEP, UNLOCK = 1, 2  # a start-of-turn shrine's effect: the player in turn could play before it, or could not

# Pending effect decisions (phase EFFECT)
P_RED_LIGHT, P_BLUE_LIGHT, P_YELLOW_LIGHT, P_GREEN_LIGHT, P_GREEN_ACT, P_GREEN_RETURN, P_BLUE_DARK = range(7)
PENDING_TEXT = (
    "red light effect: skip the next card's dark effect?",
    "blue light effect: take the last card of a row other than blue?",
    "yellow light effect: place a card from hand face up in front of you?",
    "green light effect: choose a player to make a swap?",
    "green light effect: chosen to give a card, swap with the oracle or renew the oracle",
    "green light effect: give a card back",
    "blue dark effect: give an oracle card to another player",
)

PUBLIC = 1 << 7  # knowledge bit: everyone (and spectators) know where the card is
ALL_KNOW = 0xFF
TAVERN_PHRASES = ("count", "high", "avoid")
PLAY_HOW = {
    "light": " (light)", "dark": " (dark effect)", "dark skipped": " (dark effect skipped: red)",
    "light skipped": " (light effect skipped: red)", "last": " as last card (no effect)",
    "final": ", the team's last card: the game is over", "top green": " (highest green: no dark effect)",
}
LOG_TAIL = 20  # the view carries the last entries of its seat's log; the whole history is `log(seat, start)`


def card(colour: int, value: int) -> int:
    """Card id of a colour and value."""
    return colour * 16 + value


def colour_of(c: int) -> int:
    return c >> 4


def value_of(c: int) -> int:
    return c & 15


def card_text(c: int) -> str:
    """`r5`, `g13`."""
    return f"{LETTERS[c >> 4]}{c & 15}"


def parse_card(text: str) -> int:
    """The card id written as `r5`; ValueError otherwise."""
    t = text.strip().lower()
    if len(t) < 2 or t[0] not in LETTERS or not t[1:].isdigit() or not 2 <= int(t[1:]) <= 13:
        raise ValueError(f"{text!r} is not a card; cards are written r5, b10, y2, g13")
    return card(LETTERS.index(t[0]), int(t[1:]))


def _format(verb: str, args: tuple[int | str, ...]) -> str:
    a = args
    if verb in ("play", "give", "place", "take", "return"):
        return f"{verb} {card_text(int(a[0]))}"
    if verb == "giveto":
        return f"give {card_text(int(a[0]))} to p{a[1]}"
    if verb == "oracle":
        return f"oracle {card_text(int(a[0]))} to p{a[1]}"
    if verb == "swap":
        return f"swap {card_text(int(a[0]))} for {card_text(int(a[1]))}"
    if verb == "shrine":
        return f"shrine {COLOURS[int(a[0])]}" if a[0] != LARGE else f"shrine large {COLOURS[int(a[1])]}"
    if verb == "choose":
        return f"choose p{a[0]}"
    if verb == "tavern":
        return f"tavern {a[0]} {a[1]}"
    return verb  # pass, end, skip, use, renew


A = ActionTable(_format)
PASS, END_TURN, SKIP, USE_RED, RENEW = A("pass"), A("end"), A("skip"), A("use red light"), A("renew oracle")
PLAY = [A("play", c) for c in range(64)]
GIVE = [A("give", c) for c in range(64)]
# Every other action, interned once here so the hot path only indexes lists (ids that are not cards: PASS).
_CARD = [2 <= c & 15 <= 13 for c in range(64)]
TAKE = [A("take", c) if _CARD[c] else PASS for c in range(64)]
PLACE = [A("place", c) if _CARD[c] else PASS for c in range(64)]
RETURN = [A("return", c) if _CARD[c] else PASS for c in range(64)]
GIVETO = [[A("giveto", c, r) if _CARD[c] else PASS for r in range(4)] for c in range(64)]
ORACLE = [[A("oracle", c, q) if _CARD[c] else PASS for q in range(4)] for c in range(64)]
SWAP = [[A("swap", o, c) if _CARD[o] and _CARD[c] else PASS for c in range(64)] for o in range(64)]
CHOOSE = [A("choose", q) for q in range(4)]
SHRINE_SMALL = [A("shrine", col) for col in range(4)]
SHRINE_LARGE = [A("shrine", LARGE, col) for col in range(4)]
TAVERN_COUNT = [A("tavern", "count", n) for n in range(49)]
TAVERN_COLOUR = [A("tavern", phrase, COLOURS[col]) for phrase in ("high", "avoid") for col in range(4)]


class SilencioState(State):
    """A game of Silencio. Cards are ints (colour * 16 + value); rows hold the values played, bottom first."""

    hands: list[list[int]]
    fronts: list[list[int]]
    rows: list[list[int]]
    oracle: list[int]
    deck: list[int]
    box: list[int]
    shrines: list[bool]
    known: list[int]
    said: list[tuple[int, str]]
    _ev: list[list[Any]]
    _nev: int
    halves: list[list[bool]]
    enable: int
    max_value: int
    first: int
    tavern: bool
    tavern_open: bool
    tavern_count: int
    skip_dark: bool
    skip_light: bool
    green_only: bool
    random_play: int
    turn: int
    shrine_taken: bool
    tavern_used: bool
    pending: int
    pend_a: int
    after: int
    passed_cards: int
    phase: int

    # ---- setup -------------------------------------------------------------------------------------------
    @classmethod
    def setup(cls, players: int, seed: int, options: Mapping[str, Any]) -> Self:
        s = cls.__new__(cls)
        s._init_base(players, seed, options)
        s.max_value = COMPONENTS.max_value[players]
        cards = [card(c, v) for c in range(4) for v in range(2, s.max_value + 1)]
        s.rng.shuffle(cards)
        size = COMPONENTS.hand_size[players]
        s.hands = [cards[i * size:(i + 1) * size] for i in range(players)]
        s.deck = cards[players * size:]
        s.oracle = [s.deck.pop() for _ in range(players)]
        s.box, s.fronts, s.rows = [], [[] for _ in range(players)], [[], [], [], []]
        s.known = [0] * 64
        for p, hand in enumerate(s.hands):
            for c in hand:
                s.known[c] = 1 << p
        for c in s.oracle:
            s.known[c] = ALL_KNOW
        dark = options.get("dark_shrines", "none")
        s.shrines = [True] * 5
        if dark in ("large", "all"):
            s.shrines[LARGE] = False
        if dark in ("small", "all"):
            s.shrines[:4] = [False] * 4
        first = options.get("first_player", "random")
        s.first = s.rng.below(players) if first == "random" else int(first)
        s.tavern = options.get("variant") == "tavern"
        s.tavern_open, s.tavern_count = False, 0
        s.said = []
        s._ev, s._nev = [], 0  # the history: [event, its texts once worded, seats that see its card] (see _note)
        s.halves = [[], [], [], []]  # per row, parallel to rows: True for a card laid dark half up (ruling C-21)
        s.enable = 0  # a start-of-turn shrine's effect is being carried out: KEEP or UNLOCK (ruling C-4)
        s.skip_dark = s.skip_light = s.green_only = False
        s.random_play = -1
        s.turn, s.shrine_taken, s.tavern_used = s.first, False, False
        s.pending, s.pend_a, s.after = -1, 0, START
        s.passed_cards = 0
        s.phase = PASSING
        s.to_move = s.first
        return s

    @classmethod
    def position(
        cls,
        players: int,
        hands: Sequence[Iterable[str]],
        rows: Mapping[str, Sequence[int]] | None = None,
        oracle: Iterable[str] = (),
        deck: Iterable[str] | None = None,
        fronts: Sequence[Iterable[str]] | None = None,
        to_move: int = 0,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        **flags: Any,
    ) -> Self:
        """Test support: a position at the start of `to_move`'s turn, cards written as text (`r5`).

        Rows map colour names to the values played. Cards not placed go to the deck (shuffled by seed) unless
        `deck` is given, in which case they go to the box. `flags` set state fields such as `skip_dark=True`,
        `green_only=True`, `random_play=1`, `shrines=[...]`, `tavern_open=True`.
        """
        from tabletop.core.options import resolve_options
        from tabletop.core.registry import game_info

        s = cls.setup(players, seed, resolve_options(game_info("silencio").options, options, players))
        used: set[int] = set()

        def take(texts: Iterable[str]) -> list[int]:
            out = [parse_card(t) for t in texts]
            for c in out:
                if c in used or value_of(c) > s.max_value:
                    raise ValueError(f"card {card_text(c)} is used twice or not in a {players}-player game")
                used.add(c)
            return out

        s.hands = [take(h) for h in hands]
        s.fronts = [take(f) for f in fronts] if fronts is not None else [[] for _ in range(players)]
        s.rows = [[], [], [], []]
        for name, values in (rows or {}).items():
            s.rows[COLOURS.index(name)] = list(values)
            # as if each card had been played by the rules: a follow-on card lies dark half up
            s.halves[COLOURS.index(name)] = [v == (values[i - 1] if i else 1) + 1 for i, v in enumerate(values)]
            take(card_text(card(COLOURS.index(name), v)) for v in values)
        s.oracle = take(oracle)
        rest = [card(c, v) for c in range(4) for v in range(2, s.max_value + 1) if card(c, v) not in used]
        if deck is not None:
            s.deck = take(deck)
            s.box = [c for c in rest if c not in used]
        else:
            s.rng.shuffle(rest)
            s.deck, s.box = rest, []
        s.known = [0] * 64
        for p, hand in enumerate(s.hands):
            for c in hand:
                s.known[c] = 1 << p
        for c in (*s.oracle, *s.box, *(c for f in s.fronts for c in f)):
            s.known[c] = ALL_KNOW
        for key, value in flags.items():
            if not hasattr(s, key):
                raise ValueError(f"unknown state field {key!r}")
            setattr(s, key, value)
        s.phase = START
        s._begin_turn(to_move)
        return s

    # ---- copying -----------------------------------------------------------------------------------------
    def clone(self) -> Self:
        s = self.__class__.__new__(self.__class__)
        s._copy_base(self)
        s.max_value = self.max_value
        s.hands = [h.copy() for h in self.hands]
        s.fronts = [f.copy() for f in self.fronts]
        s.rows = [r.copy() for r in self.rows]
        s.oracle, s.deck, s.box = self.oracle.copy(), self.deck.copy(), self.box.copy()
        s.shrines, s.known = self.shrines.copy(), self.known.copy()
        s.said = self.said.copy()
        s._ev, s._nev = self._ev, self._nev  # shared: entries before _nev never change (see _note)
        s.halves = [h.copy() for h in self.halves]
        s.enable = self.enable
        s.first, s.tavern, s.tavern_open, s.tavern_count = self.first, self.tavern, self.tavern_open, self.tavern_count
        s.skip_dark, s.skip_light, s.green_only = self.skip_dark, self.skip_light, self.green_only
        s.random_play, s.turn = self.random_play, self.turn
        s.shrine_taken, s.tavern_used = self.shrine_taken, self.tavern_used
        s.pending, s.pend_a, s.after = self.pending, self.pend_a, self.after
        s.passed_cards, s.phase = self.passed_cards, self.phase
        return s

    # ---- history -----------------------------------------------------------------------------------------
    @property
    def events(self) -> list[tuple[Any, ...]]:
        """The events so far as tuples, oldest first (`("play", p, card, how)`, `("pass", p)`, ...): for tests."""
        return [e[0] for e in self._ev[:self._nev]]

    def _note(self, e: tuple[Any, ...]) -> None:
        """Append event `e` to the history, which clones share (audit 12).

        The list is append-only up to each state's `_nev`: a state whose list another clone has extended copies its
        own prefix before appending, so an entry never changes once written. Its texts are worded the first time
        a log asks for them (kept in the entry, shared: they depend on the event only). A card handed over face
        down (ruling C-18) is named only for the giver and the receiver (the seats of the entry's mask).
        """
        ev = self._ev
        if len(ev) != self._nev:
            ev = self._ev = ev[:self._nev]
        kind = e[0]
        ev.append([e, None, (1 << e[1]) | (1 << e[2]) if kind == "give" or kind == "giveto" else 0])
        self._nev += 1

    def _log(self, seat: Seat | None, start: int) -> list[dict[str, Any]]:
        """Every event from `start` on, worded as `seat` saw it (a spectator sees what a bystander sees)."""
        bit = 0 if seat is None else 1 << seat
        out = []
        for entry in self._ev[start:self._nev]:
            texts = entry[1]
            if texts is None:
                texts = entry[1] = self._event_texts(entry[0])
            out.append({"seat": entry[0][1], "text": texts[1] if entry[2] & bit else texts[0]})
        return out

    # ---- queries -----------------------------------------------------------------------------------------
    def top(self, colour: int) -> int:
        """Value of the last card in a row (the small shrine counts as 1)."""
        row = self.rows[colour]
        return row[-1] if row else COMPONENTS.row_start

    def _playable(self, c: int) -> bool:
        col = c >> 4
        if self.green_only and col != GREEN:
            return False
        row = self.rows[col]
        return (c & 15) > (row[-1] if row else 1)

    def _any_playable(self) -> bool:
        for group in (self.hands, self.fronts):
            for cards in group:
                for c in cards:
                    if self._playable(c):
                        return True
        return False

    def cards_left(self) -> int:
        """Cards still held: in hands and lying in front of players (ruling C-1)."""
        return sum(map(len, self.hands)) + sum(map(len, self.fronts))

    # ---- legal actions -----------------------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        phase, p = self.phase, self.to_move
        assert p is not None
        if phase == START:
            return self._start_actions(p)
        if phase == EFFECT:
            return self._effect_actions(p)
        if phase == END:
            return [*self._shrine_actions(), END_TURN]
        return [GIVE[c] for c in sorted(self.hands[p])]  # PASSING

    def _start_actions(self, p: int) -> list[Action]:
        out = [PLAY[c] for c in sorted(self.hands[p]) if self._playable(c)]  # the hand's order is private
        out.extend(PLAY[c] for c in self.fronts[p] if self._playable(c))
        own = bool(out)
        for q in range(self.players):
            if q != p:
                out.extend(PLAY[c] for c in self.fronts[q] if self._playable(c))
        if out:
            if not self.shrine_taken:
                if not own:
                    out.append(PASS)  # able only with cards lying in front of others (ruling C-8)
                out.extend(self._shrine_actions())
        elif not self.shrine_taken and (unlock := self._shrine_unlocks(p)):
            out.extend(unlock)  # ruling C-4: unable to play now but able after a shrine, so not unable: no pass
        else:
            out.append(PASS)
        if self.tavern_open and not self.tavern_used:
            out.extend(self._tavern_actions(p))
        return out

    def _shrine_unlocks(self, p: int) -> list[Action]:
        """Ruling C-4: the start-of-turn shrines after which p, who cannot play now, can play by its own choices.

        A blue light takes back the last card of a non-blue row (that card can be laid again; under green dark only
        a green one); a green light lets p choose itself and swap a playable oracle card for a hand card. A player
        who holds no card (in hand or in front, C-1) must pass: "or you have no cards in hand, you must pass".
        """
        shrines = self.shrines
        if not (shrines[BLUE] or shrines[GREEN] or shrines[LARGE]):
            return []
        hand = self.hands[p]
        if not hand and not self.fronts[p]:
            return []
        rows = self.rows
        blue = bool(rows[GREEN] if self.green_only else rows[RED] or rows[YELLOW] or rows[GREEN])
        green = bool(hand) and any(self._playable(o) for o in self.oracle)
        out = []
        if blue and shrines[BLUE]:
            out.append(SHRINE_SMALL[BLUE])
        if green and shrines[GREEN]:
            out.append(SHRINE_SMALL[GREEN])
        if shrines[LARGE]:
            if blue:
                out.append(SHRINE_LARGE[BLUE])
            if green:
                out.append(SHRINE_LARGE[GREEN])
        return out

    def _shrine_actions(self) -> list[Action]:
        shrines = self.shrines
        out = [SHRINE_SMALL[col] for col in range(4) if shrines[col]]
        if shrines[LARGE]:
            out.extend(SHRINE_LARGE)
        return out

    def _tavern_actions(self, p: int) -> list[Action]:
        out = TAVERN_COUNT[:len(self.hands[p]) + len(self.fronts[p]) + 1]  # ruling C-14: cards in front count (C-1)
        out.extend(TAVERN_COLOUR)
        return out

    def _effect_actions(self, p: int) -> list[Action]:
        k = self.pending
        if k == P_RED_LIGHT:
            return [USE_RED, SKIP]
        if self.enable == UNLOCK:  # ruling C-4: a shrine taken to become able to play is used for that
            return self._enabling_effect_actions(p)
        if k == P_BLUE_LIGHT:
            return [*(TAKE[card(col, self.rows[col][-1])] for col in (RED, YELLOW, GREEN) if self.rows[col]), SKIP]
        if k == P_YELLOW_LIGHT:
            return [*(PLACE[c] for c in sorted(self.hands[p])), SKIP]
        if k == P_GREEN_LIGHT:
            any_oracle = bool(self.oracle or self.deck)
            return [*(CHOOSE[q] for q in range(self.players) if any_oracle or self.hands[q]), SKIP]
        if k == P_GREEN_ACT:
            out = self._green_options(p)
            if self.enable and p == self.turn:  # ruling C-4: the player in turn keeps a card to play
                hand = self.hands[p]
                out = [a for a in out if a.verb != "swap"
                       or self._keeps_play([*(c for c in hand if c != a.args[1]), int(a.args[0])])]
            return out
        if k == P_GREEN_RETURN:
            out = [RETURN[c] for c in sorted(self.hands[p])]
            if self.enable:  # ruling C-4: the player in turn keeps a card to play
                t = self.turn
                if p == t:
                    out = [a for a in out if self._keeps_play([c for c in self.hands[t] if c != a.args[0]])]
                elif self.pend_a == t:
                    out = [a for a in out if self._keeps_play([*self.hands[t], int(a.args[0])])]
            return out
        # P_BLUE_DARK
        return [ORACLE[c][q] for c in self.oracle for q in range(self.players) if q != p]

    def _keeps_play(self, hand: list[int]) -> bool:
        """Could the player in turn play holding `hand` (cards in front of anyone count too)?"""
        return any(self._playable(c) for c in hand) or any(self._playable(c) for f in self.fronts for c in f)

    def _enabling_effect_actions(self, p: int) -> list[Action]:
        """The effect choices after which p, who took a shrine at the start while unable to play, can play."""
        k = self.pending
        if k == P_BLUE_LIGHT:
            cols = (GREEN,) if self.green_only else (RED, YELLOW, GREEN)
            return [TAKE[card(col, self.rows[col][-1])] for col in cols if self.rows[col]]
        if k == P_GREEN_LIGHT:
            return [CHOOSE[p]]
        # P_GREEN_ACT, chosen: itself
        return [SWAP[o][c] for o in self.oracle if self._playable(o) for c in sorted(self.hands[p])]

    def _green_options(self, q: int) -> list[Action]:
        hand = sorted(self.hands[q])
        out = [GIVETO[c][r] for c in hand for r in range(self.players) if r != q]
        out.extend(SWAP[o][c] for o in self.oracle for c in hand)  # ruling C-13: never the card just taken
        if self.oracle or self.deck:
            out.append(RENEW)
        return out

    # ---- applying ----------------------------------------------------------------------------------------
    def _reveals(self, action: Action, after: Self) -> bool:
        """Ruling C-23: a pass or a phrase tells the team something; otherwise, whether any seat learned where a
        card is that it did not know (a card played from a hidden hand, handed over, drawn or shown)."""
        if action.verb in ("pass", "tavern") or len(after.deck) != len(self.deck):
            return True
        if any(e[0][0] in ("pass", "random", "tavern") for e in after._ev[self._nev:after._nev]):
            return True  # the flow passed for a seat (ruling C-9) or played at random (C-7)
        return any(k & ~b for k, b in zip(after.known, self.known, strict=True))

    def _apply(self, a: Action) -> None:
        verb, p = a.verb, self.to_move
        assert p is not None
        if verb == "play":
            self._play(p, int(a.args[0]))
        elif verb == "pass":
            self._note(("pass", p))
            self._finish_turn()
        elif verb == "end":
            self._finish_turn()
        elif verb == "shrine":
            self._take_shrine(p, int(a.args[0]), int(a.args[-1]))
        elif verb == "tavern":
            self._say(p, str(a.args[0]), a.args[1])
        elif verb == "give":
            self._pass_card(p, int(a.args[0]))
        else:
            self._resolve_effect(p, a)

    def _pass_card(self, p: int, c: int) -> None:
        left = (p + 1) % self.players
        self._give_privately(p, left, c)
        self._note(("give", p, left, c))
        self.passed_cards += 1
        if self.passed_cards == self.players:
            self.phase = START
            self._begin_turn(self.first)
        else:
            self.to_move = left

    def _give_privately(self, p: int, r: int, c: int) -> None:
        """p hands card c face down to r: only p and r learn which card it was (ruling C-18).

        Every other seat (and a spectator) saw only "a card" go, so it can no longer tell which of the cards it
        knew in p's hand is still there: it forgets them all, whichever card went. r saw the card and keeps
        what it knew.
        """
        hand = self.hands[p]
        hand.remove(c)
        self.hands[r].append(c)
        both = (1 << p) | (1 << r)
        known = self.known
        known[c] = both
        for d in hand:
            known[d] &= both

    def _begin_turn(self, p: int) -> None:
        """Start seat p's turn; passes for it when it has no choice at all (ruling C-9)."""
        while True:
            self.turn, self.shrine_taken, self.tavern_used = p, False, False
            self.phase, self.to_move = START, p
            if self.random_play == p:  # ruling C-7: before any shrine or tavern
                self.random_play = -1
                if self._random_play(p):
                    return
            if self._can_play(p) or self.tavern_open or self._shrine_unlocks(p):
                return
            self._note(("pass", p))
            if self._game_ended():
                return
            p = (p + 1) % self.players

    def _can_play(self, p: int) -> bool:
        """True if p can play a card: from hand or from in front of any player."""
        if any(self._playable(c) for c in self.hands[p]):
            return True
        return any(self._playable(c) for f in self.fronts for c in f)

    def _random_play(self, p: int) -> bool:
        """Yellow dark effect on p: a random card from hand is played if it can be; True if it was."""
        hand = self.hands[p]
        if not hand:
            return False
        c = hand[self.rng.below(len(hand))]
        if self._playable(c):
            self._note(("random", p, c, True))
            self._play(p, c)
            return True
        self.known[c] = ALL_KNOW  # everyone saw the card before it went back
        self._note(("random", p, c, False))
        return False

    def _play(self, p: int, c: int) -> None:
        col, v = c >> 4, c & 15
        if c in self.hands[p]:
            self.hands[p].remove(c)
        else:
            for f in self.fronts:
                if c in f:
                    f.remove(c)
                    break
        self.known[c] = ALL_KNOW
        row = self.rows[col]
        follows = v == (row[-1] if row else 1) + 1
        row.append(v)
        halves = self.halves[col]
        halves.append(False)
        self.green_only = False
        skip_dark, skip_light = self.skip_dark, self.skip_light
        self.skip_dark = self.skip_light = False
        if not self.hands[p] and not self.fronts[p] and self.cards_left() == 0:
            self._note(("play", p, c, "final"))  # ruling C-5: the team's last card ends the game at once
            self.phase, self.to_move, self.pending, self.random_play = OVER, None, -1, -1
            return
        self.phase, self.after = END, END
        if follows:
            if not self.hands[p] and not self.fronts[p]:
                self._note(("play", p, c, "last"))  # ruling C-2: the last card creates no effect
            elif col == GREEN and v == self.max_value:  # ruling C-10: no dark effect, no tavern step
                self._note(("play", p, c, "top green"))
            else:
                self._dark_created()  # ruling C-11: a dark effect skipped by red light is still created
                halves[-1] = True  # ruling C-21: laid dark half up exactly when it creates a dark effect
                if skip_dark:
                    self._note(("play", p, c, "dark skipped"))
                else:
                    self._note(("play", p, c, "dark"))
                    self._dark(p, col)
        elif skip_light:
            self._note(("play", p, c, "light skipped"))
        else:
            self._note(("play", p, c, "light"))
            self._offer_light(p, col)
        if self.phase == END:
            self._enter_end()

    def _dark_created(self) -> None:
        """Ruling C-12: only dark effects created while the tavern is closed count toward opening it."""
        if self.tavern and not self.tavern_open:
            self.tavern_count += 1
            if self.tavern_count >= COMPONENTS.tavern_opens_after:
                self.tavern_open = True

    def _dark(self, p: int, col: int) -> None:
        if col == RED:
            self.skip_light = True
        elif col == BLUE:
            if self.oracle:
                self._pend(P_BLUE_DARK, p)
        elif col == YELLOW:
            self.random_play = (p + 1) % self.players
        else:
            self.green_only = True

    def _offer_light(self, p: int, col: int) -> None:
        """Offer p the (optional) light effect of `col`; skipped at once when it has no possible use."""
        if col == RED:
            self._pend(P_RED_LIGHT, p)
        elif col == BLUE:
            if self.rows[RED] or self.rows[YELLOW] or self.rows[GREEN]:
                self._pend(P_BLUE_LIGHT, p)
        elif col == YELLOW:
            if self.hands[p]:
                self._pend(P_YELLOW_LIGHT, p)
        elif self.oracle or self.deck or any(self.hands):  # someone can be chosen (see _green_options)
            self._pend(P_GREEN_LIGHT, p)

    def _pend(self, kind: int, who: int, a: int = 0) -> None:
        self.phase, self.pending, self.pend_a = EFFECT, kind, a
        self.to_move = who

    def _done_effect(self) -> None:
        self.pending, self.enable = -1, 0
        self.phase, self.to_move = self.after, self.turn
        if self.after == END:
            self._enter_end()
        elif not self._start_has_choice():
            self._note(("pass", self.turn))
            self._finish_turn()

    def _start_has_choice(self) -> bool:
        t = self.turn
        return (self._can_play(t) or (self.tavern_open and not self.tavern_used)
                or (not self.shrine_taken and bool(self._shrine_unlocks(t))))

    def _enter_end(self) -> None:
        if self.shrine_taken or not any(self.shrines):
            self._finish_turn()

    def _resolve_effect(self, p: int, a: Action) -> None:
        verb, args = a.verb, a.args
        if verb == "skip":
            self._note(("skip", p))
        elif verb == "use red light":
            self.skip_dark = True
            self._note(("red", p))
        elif verb == "take":
            c = int(args[0])
            self.rows[c >> 4].pop()
            self.halves[c >> 4].pop()
            self.hands[p].append(c)
            self.known[c] = ALL_KNOW
            self._note(("take", p, c))
        elif verb == "place":
            c = int(args[0])
            self.hands[p].remove(c)
            self.fronts[p].append(c)
            self.known[c] = ALL_KNOW
            self._note(("place", p, c))
        elif verb == "choose":
            q = int(args[0])
            self._note(("choose", p, q))
            self._pend(P_GREEN_ACT, q, p)  # ruling C-3: the chosen player picks the action and its details
            return
        elif verb == "giveto":
            c, r = int(args[0]), int(args[1])
            self._give_privately(p, r, c)
            self._note(("giveto", p, r, c))
            self._pend(P_GREEN_RETURN, r, p)
            return
        elif verb == "return":
            c, r = int(args[0]), self.pend_a
            self._give_privately(p, r, c)
            self._note(("giveto", p, r, c))
        elif verb == "swap":
            o, c = int(args[0]), int(args[1])
            i = self.oracle.index(o)
            self.hands[p].remove(c)
            self.hands[p].append(o)
            self.oracle[i] = c
            self.known[o] = self.known[c] = ALL_KNOW
            self._note(("swap", p, o, c))
        elif verb == "renew oracle":
            self.box.extend(self.oracle)
            self.oracle = [self.deck.pop() for _ in range(min(self.players, len(self.deck)))]
            for c in self.oracle:
                self.known[c] = ALL_KNOW
            self._note(("renew", p))
        elif verb == "oracle":
            c, q = int(args[0]), int(args[1])
            i = self.oracle.index(c)
            self.hands[q].append(c)
            self.known[c] = ALL_KNOW
            if self.deck:
                self.oracle[i] = self.deck.pop()
                self.known[self.oracle[i]] = ALL_KNOW
            else:
                del self.oracle[i]  # ruling C-6: an empty deck leaves the spot empty
            self._note(("oracle", p, q, c))
        self._done_effect()

    def _take_shrine(self, p: int, index: int, col: int) -> None:
        # ruling C-4: a start-of-turn shrine always ends in a play (UNLOCK: taken to become able to play)
        self.enable = 0 if self.phase != START else KEEP if self._can_play(p) else UNLOCK
        self.shrines[index] = False
        self.shrine_taken = True
        self._note(("shrine", p, index, col))
        self.after = self.phase
        self._offer_light(p, col)
        if self.phase != EFFECT:
            self.phase = self.after
            self._done_effect()

    def _say(self, p: int, phrase: str, arg: int | str) -> None:
        self.tavern_used, self.tavern_open, self.tavern_count = True, False, 0
        text = {
            "count": f"I have {arg} card(s) that I cannot play.",
            "high": f"I have only cards with a high value of {arg}.",
            "avoid": f"Please do not play {arg} cards.",
        }[phrase]
        self.said.append((p, text))
        self._note(("say", p, text))
        if not self._start_has_choice():
            self._note(("pass", p))
            self._finish_turn()

    def _finish_turn(self) -> None:
        if self._game_ended():
            return
        self._begin_turn((self.turn + 1) % self.players)

    def _game_ended(self) -> bool:
        """Ruling C-5: the game ends as soon as no card can be played (anywhere, by anyone, also after a shrine).

        A round of passes alone does not end it: a player who took a shrine at the start of the turn and then
        passed may have handed another player a playable card. A player who can play after taking a shrine (C-4)
        is not unable to play: while one does, the game goes on.
        """
        if not self._any_playable() and not any(self._shrine_unlocks(q) for q in range(self.players)):
            self.phase, self.to_move, self.pending = OVER, None, -1
            return True
        return False

    # ---- results -----------------------------------------------------------------------------------------
    def scores(self) -> list[float]:
        """Cooperative: every seat scores minus the cards left."""
        return [-float(self.cards_left())] * self.players

    def winners(self) -> list[Seat]:
        """All seats on a perfect game (no cards left), none otherwise."""
        return list(range(self.players)) if self.phase == OVER and self.cards_left() == 0 else []

    def result_tier(self) -> str:
        """`perfect`, `almost` or `keep_trying` by cards left and player count (the rulebook's table)."""
        left = self.cards_left()
        if left == 0:
            return "perfect"
        return "almost" if left <= COMPONENTS.almost_max[self.players] else "keep_trying"

    def component_counts(self) -> dict[str, int]:
        where = [*self.hands, *self.fronts, self.oracle, self.deck, self.box]
        played = sum(map(len, self.rows))
        return {"journey cards": sum(map(len, where)) + played,
                "distinct cards": len({c for w in where for c in w}) + played}

    # ---- views -------------------------------------------------------------------------------------------
    def _knows(self, seat: Seat | None, c: int) -> bool:
        return bool(self.known[c] & (PUBLIC if seat is None else 1 << seat))

    def _view(self, seat: Seat | None) -> View:
        over = self.phase == OVER
        v: View = {
            "game": "silencio",
            "players": self.players,
            "seat": seat,
            "to_move": self.to_move,
            "turn": None if over or self.phase == PASSING else self.turn,
            "first_player": self.first,
            "phase": PHASE_NAMES[self.phase],
            "decision": self._decision_text(),
            "max_value": self.max_value,
            "rows": {COLOURS[i]: list(r) for i, r in enumerate(self.rows)},
            "halves": {COLOURS[i]: ["dark" if d else "light" for d in h] for i, h in enumerate(self.halves)},
            "shrines": {SHRINE_NAMES[i]: ("light" if lit else "dark") for i, lit in enumerate(self.shrines)},
            "oracle": [card_text(c) for c in self.oracle],
            "deck": len(self.deck),
            "box": sorted(card_text(c) for c in self.box),
            "hand_sizes": [len(h) for h in self.hands],
            "hand": None if seat is None else [card_text(c) for c in sorted(self.hands[seat])],
            "known": {
                str(q): [card_text(c) for c in sorted(self.hands[q]) if self._knows(seat, c)]
                for q in range(self.players) if q != seat
            },
            "fronts": [[card_text(c) for c in f] for f in self.fronts],
            "effects": {
                "skip_next_dark": self.skip_dark,
                "skip_next_light": self.skip_light,
                "green_only": self.green_only,
                "random_play": None if self.random_play < 0 else self.random_play,
            },
            "tavern": None if not self.tavern else {
                "open": self.tavern_open,
                "dark_effects": self.tavern_count,
                "opens_at": COMPONENTS.tavern_opens_after,
            },
            "said": [[p, t] for p, t in self.said],
            "log": self._log(seat, max(0, self._nev - LOG_TAIL)),
            "log_pos": self._nev,
            "cards_left": self.cards_left(),
            "result": None,
        }
        if over:
            tier = self.result_tier()
            v["result"] = {
                "tier": tier, "cards_left": self.cards_left(), "text": COMPONENTS.tiers[tier],
                # the game is over: the hands are laid open to count them (ruling C-19)
                "hands": [[card_text(c) for c in sorted(h)] for h in self.hands],
            }
        return v

    def _decision_text(self) -> str:
        if self.phase == OVER:
            return "the game is over"
        if self.phase == PASSING:
            return f"p{self.to_move} passes a card to the left"
        if self.phase == EFFECT:
            return f"p{self.to_move}: {PENDING_TEXT[self.pending]}"
        if self.phase == END:
            return f"p{self.to_move} may take a light shrine, or end the turn"
        return f"p{self.to_move} plays a card" + (" (green only)" if self.green_only else "")

    def _event_texts(self, e: tuple[Any, ...]) -> tuple[str, str]:
        """An event's text for those who did not see its card and for those who did (the same but for gifts)."""
        kind, p = e[0], e[1]
        if kind == "give" or kind == "giveto":
            q, c = e[2], e[3]
            public = f"p{p} gave a card to p{q}"
            return public, (f"p{p} gave {card_text(c)} to p{q}" if c >= 0 else public)
        text = self._event_text(e)
        return text, text

    def _event_text(self, e: tuple[Any, ...]) -> str:
        kind, p = e[0], e[1]
        if kind == "play":
            return f"p{p} played {card_text(e[2])}{PLAY_HOW[e[3]]}"
        if kind == "pass":
            return f"p{p} passed"
        if kind == "random":
            return f"p{p} drew {card_text(e[2])} at random: " + ("played" if e[3] else "cannot be played, back to hand")
        if kind == "shrine":
            name = "large shrine" if e[2] == LARGE else f"{COLOURS[e[2]]} shrine"
            return f"p{p} took the {name} ({COLOURS[e[3]]} light)"
        if kind == "take":
            return f"p{p} took {card_text(e[2])} from its row"
        if kind == "place":
            return f"p{p} placed {card_text(e[2])} face up in front of them"
        if kind == "choose":
            return f"p{p} chose p{e[2]} for the green light"
        if kind == "swap":
            return f"p{p} took {card_text(e[2])} from the oracle and put {card_text(e[3])} there"
        if kind == "renew":
            return f"p{p} renewed the oracle"
        if kind == "oracle":
            return f"p{p} gave oracle card {card_text(e[3])} to p{e[2]}"
        if kind == "red":
            return f"p{p} used red light: the next card's dark effect is skipped"
        if kind == "say":
            return f"p{p} at the tavern: \"{e[2]}\""
        return f"p{p} skipped the light effect"

    # ---- sampling ----------------------------------------------------------------------------------------
    def _sample(self, seat: Seat, rng: Rng) -> Self:
        """Redeal every card seat cannot place: others' unknown hand cards and the deck (order included).

        The result depends only on what seat sees and on `rng` (the pool is sorted before it is shuffled,
        hands are kept sorted, and private log entries between other seats lose their card), so a search
        agent gets the same determinizations from any two states seat cannot tell apart (ruling C-15).
        """
        s = self.clone()
        bit = 1 << seat
        pool = list(s.deck)
        kept: list[list[int]] = []
        for q, hand in enumerate(s.hands):
            if q == seat:
                kept.append([])
                continue
            kept.append(sorted(c for c in hand if s.known[c] & bit))
            pool.extend(c for c in hand if not s.known[c] & bit)
        pool.sort()
        rng.shuffle(pool)
        for q, hand in enumerate(s.hands):
            if q == seat:
                continue
            dealt = [pool.pop() for _ in range(len(hand) - len(kept[q]))]
            for c in dealt:
                s.known[c] = 1 << q
            s.hands[q] = sorted(kept[q] + dealt)
        for c in pool:
            s.known[c] = 0
        s.deck = pool
        # the seat's view shows its hand sorted and the box sorted: their internal orders (which decide a later
        # yellow-dark random card) are not something it can tell, so the sample does not keep them (audit 19)
        s.hands[seat] = sorted(s.hands[seat])
        s.box.sort()
        s._ev = [e if not e[2] or e[2] & bit else [(*e[0][:3], -1), None, 0] for e in s._ev[:s._nev]]
        s._history = []  # the true actions name the cards others passed privately: a belief has no history
        return s

    def snapshot(self) -> dict[str, Any]:
        return {
            "hands": self.hands, "fronts": self.fronts, "rows": self.rows, "oracle": self.oracle,
            "deck": self.deck, "box": self.box, "shrines": self.shrines, "known": self.known,
            "said": self.said, "log": [list(e[0]) for e in self._ev[:self._nev]], "halves": self.halves,
            "first": self.first, "phase": self.phase,
            "turn": self.turn, "to_move": self.to_move, "flags": [
                self.skip_dark, self.skip_light, self.green_only, self.random_play,
                self.shrine_taken, self.tavern_used, self.tavern_open, self.tavern_count, self.pending,
                self.pend_a, self.after, self.passed_cards, self.enable],
            "rng": self.rng.state, "history": self.history,
        }


def check_first_player(value: Any, players: int) -> str | None:
    """The first-player option must name a seat of this game."""
    if value != "random" and int(value) >= players:
        return f"seat {value} does not exist in a {players}-player game; choose random or 0..{players - 1}"
    return None
