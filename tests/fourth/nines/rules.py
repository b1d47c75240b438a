"""The rules of Nines: deal, tricks, score (see the package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from tabletop.core import Action, ActionTable, Rng, Seat, State, View
from tabletop.core.logwords import entry

A = ActionTable(lambda verb, args: f"{verb} {args[0]}")
CARDS = tuple(range(1, 10))


def play(card: int) -> Action:
    return A("play", card)


class NinesState(State):
    dealt: list[list[int]]
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
        n = int(options.get("hand", 3))
        cards = list(CARDS)
        s.rng.shuffle(cards)
        s.hands = [sorted(cards[0:n]), sorted(cards[n:2 * n])]
        s.dealt, s.deck = [h.copy() for h in s.hands], sorted(cards[2 * n:])
        s.trick, s.taken, s.points, s.entries = [], [], [0, 0], []
        s.to_move = 0
        return s

    def _legal_actions(self) -> list[Action]:
        assert self.to_move is not None
        return [play(c) for c in self.hands[self.to_move]]

    def _apply(self, action: Action) -> None:
        assert self.to_move is not None
        self._play(self.to_move, int(action.args[0]))
        while self.to_move is not None and len(self.hands[self.to_move]) == 1:
            self._play(self.to_move, self.hands[self.to_move][0])  # the last trick has no choice: it plays itself

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.entries.append(f"{{p{seat}}} played {card}")
        self.to_move = 1 - seat
        if len(self.trick) == 2:
            winner = seat if card > self.trick[0] else 1 - seat
            self.points[winner] += 1
            self.taken += self.trick
            self.trick = []
            self.entries.append(f"{{p{winner}}} took the trick")
            self.to_move = winner if self.hands[winner] else None

    def _reveals(self, action: Action, after: Self) -> bool:
        return True  # every play shows a card of a hidden hand

    def _view(self, seat: Seat | None) -> View:
        return {
            "seat": seat,
            "hand": list(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "face_down": len(self.deck),
            "trick": list(self.trick),
            "taken": list(self.taken),
            "points": list(self.points),
            "to_move": self.to_move,
            "result": {"points": list(self.points), "winners": self.winners()} if self.is_over else None,
            "log_pos": len(self.entries),
            "log": self._log(seat, max(0, len(self.entries) - 3)),
        }

    def _log(self, seat: Seat | None, start: int) -> list[dict[str, Any]]:
        return [entry(int(t[2]), t) for t in self.entries[start:]]  # "{p0} ...": the seat's token first

    def _sample(self, seat: Seat, rng: Rng) -> Self:
        s = self.clone()
        other = 1 - seat
        unseen = sorted(self.hands[other] + self.deck)
        rng.shuffle(unseen)
        n = len(self.hands[other])
        s.hands[other], s.deck = sorted(unseen[:n]), sorted(unseen[n:])
        s.dealt[other] = sorted(s.hands[other] + [c for c in self.dealt[other] if c not in self.hands[other]])
        return s

    def clone(self) -> Self:
        s = self.__class__.__new__(self.__class__)
        s._copy_base(self)
        s.hands, s.dealt = [h.copy() for h in self.hands], [h.copy() for h in self.dealt]
        s.deck, s.trick, s.taken = self.deck.copy(), self.trick.copy(), self.taken.copy()
        s.points, s.entries = self.points.copy(), self.entries.copy()
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
        return {"hands": self.hands, "dealt": self.dealt, "deck": self.deck, "trick": self.trick,
                "taken": self.taken, "points": self.points, "log": self.entries}
