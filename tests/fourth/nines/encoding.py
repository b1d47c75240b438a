"""Nines' encoding part (`tabletop.core.parts`, "encoding"; docs/rl.md): its observation encoder on the framework
`tabletop.spaces`, read from a seat's view only, and its fixed action space. No compiled encoder: the environments
fall back to the view-based path (`Encoder.encode_state`, `encode_fast`)."""

from __future__ import annotations

import numpy as np

from tabletop.core.state import View
from tabletop.spaces.observations import Encoder, Layout, rel

from .rules import CARDS, play


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


ENCODER = NinesEncoder
