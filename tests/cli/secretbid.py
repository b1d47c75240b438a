"""`secretbid`: a tiny two-seat game with a secret action, to test what the terminal shows each seat.

Each seat in turn bids 1, 2 or 3 face down (`bid N`); once both have bid, the bids are revealed and the higher
wins (a tie is shared). A seat's log says "bid (face down)" for the other seat's bid until the reveal.
Registered only inside the `secretbid` fixture, so the conformance harness never sees it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from tabletop.core import Action, ActionTable, GameInfo, Rng, Seat, State, View
from tabletop.core import registry as _registry

A = ActionTable(lambda verb, args: f"{verb} {args[0]}")


class SecretBid(State):
    bids: list[int]
    events: list[tuple[int | None, str, int | None]]  # (actor, public text, seat that alone sees the secret text)

    @classmethod
    def setup(cls, players: int, seed: int, options: Mapping[str, Any]) -> Self:
        s = cls.__new__(cls)
        s._init_base(players, seed, options)
        s.bids = [0] * players
        s.events = []
        s.to_move = 0
        return s

    def _legal_actions(self) -> list[Action]:
        return [A("bid", n) for n in (1, 2, 3)]

    def _apply(self, action: Action) -> None:
        seat = self.to_move
        assert seat is not None
        self.bids[seat] = int(action.args[0])
        self.events.append((seat, "bid", seat))
        if seat + 1 < self.players:
            self.to_move = seat + 1
        else:
            self.events.append((None, "bids revealed: " + ", ".join(f"p{p} {b}" for p, b in enumerate(self.bids)),
                                None))
            self.to_move = None

    def _entry(self, event: tuple[int | None, str, int | None], seat: Seat | None) -> dict[str, Any]:
        actor, text, owner = event
        if owner is None:
            return {"seat": actor, "text": text}
        secret = owner == seat
        assert actor is not None
        return {"seat": actor, "text": f"bid {self.bids[actor]}" if secret else "bid (face down)"}

    def _log(self, seat: Seat | None, start: int) -> list[dict[str, Any]]:
        return [self._entry(e, seat) for e in self.events[start:]]

    def _view(self, seat: Seat | None) -> View:
        over = self.to_move is None
        return {
            "bids": [b if over or p == seat else None for p, b in enumerate(self.bids)],
            "log_pos": len(self.events),
            "log": self._log(seat, max(0, len(self.events) - 3)),
        }

    def _sample(self, seat: Seat, rng: Rng) -> Self:
        s = self.clone()
        for p in range(self.players):
            if p != seat and s.bids[p]:
                s.bids[p] = 1 + rng.below(3)
        return s

    def clone(self) -> Self:
        s = self.__class__.__new__(self.__class__)
        s._copy_base(self)
        s.bids = self.bids.copy()
        s.events = self.events.copy()
        return s

    def scores(self) -> list[float]:
        return [float(b) for b in self.bids]

    def winners(self) -> list[Seat]:
        if self.to_move is not None:
            return []
        return [p for p, b in enumerate(self.bids) if b == max(self.bids)]

    def component_counts(self) -> dict[str, int]:
        return {"seats": self.players}

    def snapshot(self) -> dict[str, Any]:
        return {"bids": self.bids, "events": self.events}


INFO = GameInfo("secretbid", "Secret Bid", 2, 2, False, "1", (), SecretBid)


def register() -> None:
    _registry.games()
    _registry.register(INFO)


def unregister() -> None:
    _registry._REGISTRY.pop(INFO.name, None)
