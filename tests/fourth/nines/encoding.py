"""Nines' encoding part (`tabletop.core.parts`, "encoding"; docs/rl.md): its observation encoder on the framework
`tabletop.spaces` (from a seat's view, `fill`, and the same from the state's fields, `encode_state`, reading only
`ENCODED_FIELDS`) and its fixed action space. No compiled encoder: `encode_fast` is `encode_state`."""

from __future__ import annotations

from typing import Any

import numpy as np

from tabletop.core.state import View
from tabletop.spaces.observations import Encoder, Layout, rel

from .rules import CARDS, play

ENCODED_FIELDS: tuple[tuple[str, str], ...] = (
    ("hands", "per seat, the cards in its hand (only the seat's own is read)"),
    ("trick", "the cards of the trick being played (only the first, the lead, is read)"),
    ("taken", "the cards of the finished tricks"),
    ("points", "per seat, the tricks it took"),
    ("to_move", "the seat to move, None once over"),
)
"""The state's fields `encode_state` reads, with their meaning."""


def action_texts(players: int) -> list[str]:
    """Every action Nines can offer: a card played."""
    return [play(c).text for c in CARDS]


class NinesEncoder(Encoder):
    """The seat's hand, the card led to the trick, the cards out of play, the tricks won (relative seats) and
    whether the seat leads."""

    def __init__(self, players: int) -> None:
        self.game, self.players = "nines", players
        self.layout = Layout()
        self._hand = self.layout.add("hand", 9, "one-hot per card 1..9: in the seat's hand")
        self._lead = self.layout.add("lead", 9, "one-hot per card 1..9: the card led to the current trick")
        self._out = self.layout.add("out", 9, "one-hot per card 1..9: taken in a finished trick")
        self._points = self.layout.add("points", 2, "tricks won / 4, the seat first, then the other")
        self._leading = self.layout.add("leading", 1, "1 when the seat is to lead the trick")

    def fill(self, view: View, out: np.ndarray) -> None:
        me = view["seat"]
        for c in view["hand"]:
            out[self._hand + c - 1] = 1.0
        for c in view["trick"][:1]:
            out[self._lead + c - 1] = 1.0
        for c in view["taken"]:
            out[self._out + c - 1] = 1.0
        for p, pts in enumerate(view["points"]):
            out[self._points + rel(p, me, 2)] = pts / 4
        out[self._leading] = 1.0 if view["to_move"] == me and not view["trick"] else 0.0

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        out = np.zeros(self.layout.size, dtype=np.float32)
        for c in state.hands[seat]:
            out[self._hand + c - 1] = 1.0
        trick = state.trick
        if trick:
            out[self._lead + trick[0] - 1] = 1.0
        for c in state.taken:
            out[self._out + c - 1] = 1.0
        for p, pts in enumerate(state.points):
            out[self._points + rel(p, seat, 2)] = pts / 4
        out[self._leading] = 1.0 if state.to_move == seat and not trick else 0.0
        return out


ENCODER = NinesEncoder
