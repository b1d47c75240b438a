"""Two tiny hidden-information card games implementing the `State` contract, for agent and arena tests.

`toyduel` (competitive, 2-4 players): a deck of cards 1..DECK; each seat is dealt HAND cards, hidden from the
others. Each trick, the seats play one card each in turn order starting from the trick's leader (played cards are
public); the highest card takes the trick and leads the next. A seat scores 1 per trick; most tricks wins (ties
share the win). Actions: `play N`.

`toycoop` (cooperative, 2-4 players): same deal and play, but the team scores a point for each trick whose cards
were played in increasing order; every seat's score is the team score, and the team wins with all tricks increasing.

Registered only inside the `toy_games` fixture (never at import), so the conformance harness and other tests never
see them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from tabletop.core import Action, ActionTable, GameInfo, Rng, Seat, State, View
from tabletop.core import registry as _registry

DECK = 13
HAND = 4

A = ActionTable(lambda verb, args: f"{verb} {args[0]}")


class ToyDuel(State):
    """The toy trick game; see the module docstring."""

    hands: list[list[int]]
    deck: list[int]
    trick: list[tuple[int, int]]  # (seat, card) played in the current trick
    leader: int
    points: list[int]
    team: int  # increasing tricks (toycoop)
    tricks_left: int

    @classmethod
    def setup(cls, players: int, seed: int, options: Mapping[str, Any]) -> Self:
        s = cls.__new__(cls)
        s._init_base(players, seed, options)
        cards = list(range(1, DECK + 1))
        s.rng.shuffle(cards)
        s.hands = [sorted(cards[i * HAND : (i + 1) * HAND]) for i in range(players)]
        s.deck = cards[players * HAND :]
        s.trick = []
        s.leader = 0
        s.points = [0] * players
        s.team = 0
        s.tricks_left = HAND
        s.to_move = 0
        return s

    def _legal_actions(self) -> list[Action]:
        assert self.to_move is not None
        return [A("play", c) for c in self.hands[self.to_move]]

    def _apply(self, action: Action) -> None:
        seat = self.to_move
        assert seat is not None
        card = int(action.args[0])
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.players:
            self.to_move = (seat + 1) % self.players
            return
        cards = [c for _, c in self.trick]
        winner = max(self.trick, key=lambda t: t[1])[0]
        self.points[winner] += 1
        if cards == sorted(cards):
            self.team += 1
        self.trick = []
        self.leader = winner
        self.tricks_left -= 1
        self.to_move = winner if self.tricks_left else None

    def _view(self, seat: Seat | None) -> View:
        return {
            "hand": list(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "trick": [list(t) for t in self.trick],
            "leader": self.leader,
            "points": list(self.points),
            "team": self.team,
            "played": sorted(set(range(1, DECK + 1)) - {c for h in self.hands for c in h} - set(self.deck)),
            "to_move": self.to_move,
        }

    def _log(self, seat: Seat | None, start: int) -> list[dict[str, Any]]:
        return []

    def _sample(self, seat: Seat, rng: Rng) -> Self:
        s = self.clone()
        unseen = sorted([c for p in range(self.players) if p != seat for c in self.hands[p]] + self.deck)
        rng.shuffle(unseen)
        for p in range(self.players):
            if p != seat:
                n = len(self.hands[p])
                s.hands[p] = sorted(unseen[:n])
                unseen = unseen[n:]
        s.deck = unseen
        return s

    def clone(self) -> Self:
        s = self.__class__.__new__(self.__class__)
        s._copy_base(self)
        s.hands = [h.copy() for h in self.hands]
        s.deck = self.deck.copy()
        s.trick = self.trick.copy()
        s.leader = self.leader
        s.points = self.points.copy()
        s.team = self.team
        s.tricks_left = self.tricks_left
        return s

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def winners(self) -> list[Seat]:
        if self.to_move is not None:
            return []
        best = max(self.points)
        return [p for p in range(self.players) if self.points[p] == best]

    def component_counts(self) -> dict[str, int]:
        return {"cards": sum(len(h) for h in self.hands) + len(self.deck) + len(self.trick)}

    def snapshot(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "deck": self.deck,
            "trick": self.trick,
            "points": self.points,
            "rng": self.rng.state,
        }


class ToyCoop(ToyDuel):
    """The cooperative variant: the team's score is its count of increasing tricks."""

    def scores(self) -> list[float]:
        return [float(self.team)] * self.players

    def winners(self) -> list[Seat]:
        if self.to_move is not None or self.team < HAND:
            return []
        return list(range(self.players))


DUEL = GameInfo("toyduel", "Toy Duel", 2, 4, False, "1", (), ToyDuel)
COOP = GameInfo("toycoop", "Toy Coop", 2, 4, True, "1", (), ToyCoop)


def register_toys() -> None:
    """Add the toy games to the registry."""
    _registry.games()  # load the built-in games first so they are not re-imported later
    _registry.register(DUEL)
    _registry.register(COOP)


def unregister_toys() -> None:
    """Remove the toy games from the registry again."""
    for info in (DUEL, COOP):
        _registry._REGISTRY.pop(info.name, None)
