"""Silencio rules: the state, its setup, the turn (passing, playing, shrines, the tavern, the end) and the results.

The colour effects a card creates are in `effects.py`, what each seat sees (view, log words) in `view.py`, the cards
and action texts in `notation.py`; the package docstring summarises the rules and lists the notation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from tabletop.core import Action, Rng, Seat, State, View
from tabletop.core.logwords import entry as log_entry
from tabletop.games.silencio.components import COMPONENTS
from tabletop.games.silencio.effects import (
    dark_created,
    dark_effect,
    done_effect,
    effect_actions,
    offer_light,
    resolve_effect,
)
from tabletop.games.silencio.notation import (
    ALL_KNOW,
    BLUE,
    COLOURS,
    EFFECT,
    END,
    END_TURN,
    GIVE,
    GREEN,
    KEEP,
    LARGE,
    OVER,
    PASS,
    PASSING,
    PLAY,
    RED,
    SHRINE_LARGE,
    SHRINE_SMALL,
    START,
    TAVERN_COLOUR,
    TAVERN_COUNT,
    UNLOCK,
    YELLOW,
    card,
    card_text,
    parse_card,
    value_of,
)
from tabletop.games.silencio.view import event_texts, table_view


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
    passes: int
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
        s.passes = 0  # passes in succession since a card was last played (ruling C-5, version 3)
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
        """Test support: a position at the start of `to_move`'s turn, cards written as text (`r5`); a decision with a
        single legal action is then taken as in play (ruling C-9), so the position may have moved on.

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
        s._settle()
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
        s.passed_cards, s.passes, s.phase = self.passed_cards, self.passes, self.phase
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
                texts = entry[1] = event_texts(entry[0])
            out.append(log_entry(entry[0][1], texts[1] if entry[2] & bit else texts[0]))
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
            return self._start_actions(p)  # ruling C-4
        if phase == EFFECT:
            return effect_actions(self, p)
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
        able = bool(out)
        if not own:
            # ruling C-8: able only with cards lying in front of others, the player may pass, also after a shrine;
            # ruling C-4 (version 3): a player who cannot play may pass, even when a shrine could make it able to play
            out.append(PASS)
        if not self.shrine_taken:
            if able:
                out.extend(self._shrine_actions())
            else:
                out.extend(self._shrine_unlocks(p))  # ruling C-4: only a shrine after which it can play
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

    # ---- applying ----------------------------------------------------------------------------------------
    def _reveals(self, action: Action, after: Self) -> bool:
        """Ruling C-23: a pass or a phrase tells the team something; otherwise, whether any seat learned where a
        card is that it did not know (a card played from a hidden hand, handed over, drawn or shown)."""
        if action.verb in ("pass", "tavern") or len(after.deck) != len(self.deck):
            return True
        flow = after._ev[self._nev + (action.verb == "play"):after._nev]  # what followed the action's own play
        if any(e[0][0] in ("pass", "random", "tavern", "play") for e in flow):
            # the flow passed or played for a seat (ruling C-9: its only legal action, which tells the table it had
            # no other, even when the card lay face up) or played at random (C-7)
            return True
        return any(k & ~b for k, b in zip(after.known, self.known, strict=True))

    def _apply(self, a: Action) -> None:
        self._do(a)
        self._settle()

    def _settle(self) -> None:
        """Ruling C-9 (version 3): a decision with one legal answer is not asked. While the seat to move has a single
        legal action, the engine takes it for that seat (logged like the same action chosen; not in the history,
        so records and replays are unchanged by it). The legal actions left pending are cached for `apply`."""
        while self.to_move is not None:
            legal = self._legal_actions()
            if len(legal) != 1:
                self._legal = legal
                return
            self._do(legal[0])

    def _do(self, a: Action) -> None:
        verb, p = a.verb, self.to_move
        assert p is not None
        if verb == "play":
            self._play(p, int(a.args[0]))
        elif verb == "pass":
            self._note(("pass", p))
            self.passes += 1
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
            resolve_effect(self, p, a)

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
        """Start seat p's turn (a forced pass is then taken for it by `_settle`, ruling C-9)."""
        self.turn, self.shrine_taken, self.tavern_used = p, False, False
        self.phase, self.to_move = START, p
        if self.random_play == p:  # ruling C-7: before any shrine or tavern
            self.random_play = -1
            self._random_play(p)

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
        self.passes = 0
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
                dark_created(self, )  # ruling C-11: a dark effect skipped by red light is still created
                halves[-1] = True  # ruling C-21: laid dark half up exactly when it creates a dark effect
                if skip_dark:
                    self._note(("play", p, c, "dark skipped"))
                else:
                    self._note(("play", p, c, "dark"))
                    dark_effect(self, p, col)
        elif skip_light:
            self._note(("play", p, c, "light skipped"))
        else:
            self._note(("play", p, c, "light"))
            offer_light(self, p, col)
        if self.phase == END:
            self._enter_end()

    def _enter_end(self) -> None:
        if self.shrine_taken or not any(self.shrines):
            self._finish_turn()

    def _take_shrine(self, p: int, index: int, col: int) -> None:
        # ruling C-4: during a start-of-turn shrine the player in turn's own choices keep it a play (KEEP: it could
        # play before) or give it one (UNLOCK: it took the shrine to become able to play)
        self.enable = 0 if self.phase != START else KEEP if self._can_play(p) else UNLOCK
        self.shrines[index] = False
        self.shrine_taken = True
        self._note(("shrine", p, index, col))
        self.after = self.phase
        offer_light(self, p, col)
        if self.phase != EFFECT:
            self.phase = self.after
            done_effect(self, )

    def _say(self, p: int, phrase: str, arg: int | str) -> None:
        self.tavern_used, self.tavern_open, self.tavern_count = True, False, 0
        text = {
            "count": f"I have {arg} card(s) that I cannot play.",
            "high": f"I have only cards with a high value of {arg}.",
            "avoid": f"Please do not play {arg} cards.",
        }[phrase]
        self.said.append((p, text))
        self._note(("say", p, text))

    def _finish_turn(self) -> None:
        if self._game_ended():
            return
        self._begin_turn((self.turn + 1) % self.players)

    def _game_ended(self) -> bool:
        """Ruling C-5: the game ends as soon as no card can be played (anywhere, by anyone, also after a shrine), or
        (version 3) when every player has passed in succession with no card played.

        A player who could play after taking a shrine (C-4) is not unable to play, so the first test waits for it;
        but it may decline the shrine and pass, and a whole round of such passes ends the game ("If all players
        pass, the game ends").
        """
        if self.passes >= self.players or (
                not self._any_playable() and not any(self._shrine_unlocks(q) for q in range(self.players))):
            self.phase, self.to_move, self.pending = OVER, None, -1
            return True
        return False

    # ---- results -----------------------------------------------------------------------------------------
    def scores(self) -> list[float]:
        """Cooperative: every seat scores minus the cards left."""
        return [-float(self.cards_left())] * self.players

    def _game_winners(self) -> list[Seat]:
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

    # ---- views (view.py) ---------------------------------------------------------------------------------
    def _view(self, seat: Seat | None) -> View:
        return table_view(self, seat)

    # ---- sampling ----------------------------------------------------------------------------------------
    def _sample(self, seat: Seat, rng: Rng) -> Self:
        """Redeal every card seat cannot place: others' unknown hand cards and the deck (order included).

        The result depends only on what seat sees and on `rng` (the pool is sorted before it is shuffled,
        hands are kept sorted, and private log entries between other seats lose their card), so a search
        agent gets the same determinizations from any two states seat cannot tell apart (ruling C-15).
        """
        s = self.clone()
        bit = 1 << seat
        laid_open = self.to_move is None  # once over, every hand lies open on the table (C-19): none is redealt
        pool = list(s.deck)
        kept: list[list[int]] = []
        for q, hand in enumerate(s.hands):
            if q == seat:
                kept.append([])
                continue
            kept.append(sorted(c for c in hand if laid_open or s.known[c] & bit))
            pool.extend(c for c in hand if not (laid_open or s.known[c] & bit))
        pool.sort()
        sizes = [len(hand) for hand in s.hands]
        for _ in range(SAMPLE_TRIES):
            deal = list(pool)
            rng.shuffle(deal)
            for q in range(s.players):
                if q == seat:
                    continue
                dealt = [deal.pop() for _ in range(sizes[q] - len(kept[q]))]
                for c in dealt:
                    s.known[c] = 1 << q
                s.hands[q] = sorted(kept[q] + dealt)
            # The seat to move is being asked, so it has two legal actions at least (a single one would have been
            # taken for it, C-9): a deal that leaves it fewer contradicts what the table saw, so it is dealt again
            # (the test reads only the sample itself, so two states the seat cannot tell apart still give the same
            # samples)
            # A start-of-turn shrine's effect in progress tells everyone whether the player in turn could play when it
            # took the shrine (ruling C-4: KEEP, and its own choices keep it so since; UNLOCK, its hand unchanged
            # since): a deal that says otherwise leads the game to a decision with no legal action
            if s.enable and not laid_open and s.turn != seat and s._can_play(s.turn) != (s.enable == KEEP):
                continue
            if laid_open or s.to_move is None or s.to_move == seat or len(s._legal_actions()) > 1:
                break
        for c in deal:
            s.known[c] = 0
        s.deck = deal
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
                self.pend_a, self.after, self.passed_cards, self.enable, self.passes],
            "rng": self.rng.state, "history": self.history,
        }


SAMPLE_TRIES = 1000
"""Deals a sample may draw before it keeps one that leaves the seat to move fewer than two legal actions (the true
deal is among the deals drawn from, and such hands are a large share of them)."""


def check_first_player(value: Any, players: int) -> str | None:
    """The first-player option must name a seat of this game."""
    if value != "random" and int(value) >= players:
        return f"seat {value} does not exist in a {players}-player game; choose random or 0..{players - 1}"
    return None
