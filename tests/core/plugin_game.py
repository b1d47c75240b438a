"""`plugnines`, the game of the test plugin (tests/core/test_plugins.py writes this file into its package).

Two players, nine cards 1..9: three to each hand (hidden from the other), three stay face down. Each trick, the
leader plays a card, then the other; the higher card takes the trick and leads the next. One point a trick; most
points wins. Actions: `play N`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from tabletop.core import Action, ActionTable, GameInfo, Rng, Seat, State, View

A = ActionTable(lambda verb, args: f"{verb} {args[0]}")


class Nines(State):
    hands: list[list[int]]
    deck: list[int]
    trick: list[int]
    taken: list[int]
    points: list[int]
    entries: list[str]

    @classmethod
    def setup(cls, players: int, seed: int, options: Mapping[str, Any]) -> Self:
        s = cls.__new__(cls)
        s._init_base(players, seed, options)
        cards = list(range(1, 10))
        s.rng.shuffle(cards)
        s.hands, s.deck = [sorted(cards[0:3]), sorted(cards[3:6])], sorted(cards[6:])
        s.trick, s.taken, s.points, s.entries = [], [], [0, 0], []
        s.to_move = 0
        return s

    def _legal_actions(self) -> list[Action]:
        assert self.to_move is not None
        return [A("play", c) for c in self.hands[self.to_move]]

    def _apply(self, action: Action) -> None:
        seat, card = self.to_move, int(action.args[0])
        assert seat is not None
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.entries.append(f"p{seat} plays {card}")
        self.to_move = 1 - seat
        if len(self.trick) == 2:
            winner = seat if card > self.trick[0] else 1 - seat
            self.points[winner] += 1
            self.taken += self.trick
            self.trick = []
            self.to_move = winner if self.hands[winner] else None

    def _reveals(self, action: Action, after: Self) -> bool:
        return True  # a card from a hidden hand

    def _view(self, seat: Seat | None) -> View:
        return {
            "hand": list(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "trick": list(self.trick),
            "points": list(self.points),
            "to_move": self.to_move,
            "log_pos": len(self.entries),
            "log": self._log(seat, max(0, len(self.entries) - 3)),
        }

    def _log(self, seat: Seat | None, start: int) -> list[dict[str, Any]]:
        return [{"seat": int(t[1]), "text": t} for t in self.entries[start:]]

    def _sample(self, seat: Seat, rng: Rng) -> Self:
        s = self.clone()
        unseen = sorted(self.hands[1 - seat] + self.deck)
        rng.shuffle(unseen)
        n = len(self.hands[1 - seat])
        s.hands[1 - seat], s.deck = sorted(unseen[:n]), sorted(unseen[n:])
        return s

    def clone(self) -> Self:
        s = self.__class__.__new__(self.__class__)
        s._copy_base(self)
        s.hands, s.deck, s.trick = [h.copy() for h in self.hands], self.deck.copy(), self.trick.copy()
        s.taken, s.points, s.entries = self.taken.copy(), self.points.copy(), self.entries.copy()
        return s

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def winners(self) -> list[Seat]:
        if self.to_move is not None:
            return []
        return [p for p in (0, 1) if self.points[p] == max(self.points)]

    def component_counts(self) -> dict[str, int]:
        return {"cards": sum(map(len, [*self.hands, self.deck, self.trick, self.taken]))}

    def snapshot(self) -> dict[str, Any]:
        return {"hands": self.hands, "deck": self.deck, "trick": self.trick, "points": self.points, "log": self.entries}


INFO = GameInfo("plugnines", "Plug Nines", 2, 2, False, "1", (), Nines)
