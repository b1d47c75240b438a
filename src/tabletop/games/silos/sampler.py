"""SILOS: the state rebuilt from what one seat saw (its view and its log), never from the state.

Nothing in SILOS is hidden: the view shows the whole table, and its `flow` the frame machine's stack (what is being
resolved, for whom, what follows), so the rebuilt state is the true one but for the order of the bag and of the
common deck (drawn from counts when drawn) and the rng, which `tabletop.core.belief` reseeds. The seat's log is kept
verbatim: the entries before the rebuild are the ones the seat was given, later ones the rebuilt state's own.
"""

from __future__ import annotations

from typing import Any, Self

from tabletop.core import LogEntry, Rng, View
from tabletop.games.silos.components import COMMON_CARDS, FACTION_CARDS, HUMAN_TYPES
from tabletop.games.silos.frames import LOG_SHOWN
from tabletop.games.silos.notation import COLORS, N_LOCATIONS, N_TYPES
from tabletop.games.silos.state import SilosState


class SampledSilos(SilosState):
    """A SILOS state rebuilt from a view: its log's entries before the rebuild are the seat's, as it was given them."""

    __slots__ = ("_seen",)
    _seen: list[LogEntry]

    def clone(self) -> Self:
        s = super().clone()
        s._seen = self._seen
        return s

    def _entries(self, k: int) -> list[dict[str, Any]]:
        new = self.lgn - len(self._seen)
        out = SilosState._entries(self, min(k, new)) if new > 0 else []
        rest = k - len(out)
        if rest > 0:
            out = [dict(e) for e in self._seen[max(0, len(self._seen) - rest):]] + out
        return out


    def _view_tail(self) -> tuple[dict[str, Any], ...]:
        return tuple(self._entries(LOG_SHOWN))


def sample_from_view(players: int, options: dict[str, Any], seat: int, view: View, log: list[LogEntry], rng: Rng,
                     legal: list[str] | None = None) -> SampledSilos:
    """The state `view` shows, as `SilosState._sample` gives it (nothing is hidden: `rng` is not needed, and
    `tabletop.core.belief` reseeds the result as `State.sample` does)."""
    return witness_from_view(players, options, seat, view, log, legal)._sample(seat, rng)


def witness_from_view(players: int, options: dict[str, Any], seat: int, view: View, log: list[LogEntry],
                      legal: list[str] | None = None) -> SampledSilos:
    """The state `view` shows (the seat's whole `log` kept as its history; `legal` is not needed)."""
    s = SampledSilos.__new__(SampledSilos)
    s._init_base(players, 0, options)
    s._init_tables(players, options)
    flow = view["flow"]
    colour = {c: i for i, c in enumerate(COLORS)}
    for loc in view["locations"]:
        i = int(loc["id"])
        for name, figs in loc["figures"].items():
            f = colour[name]
            s.plain[f * N_LOCATIONS + i] = int(figs["figures"])
            s.dist[f * N_LOCATIONS + i] = int(figs["distinguished"])
            if figs["leader"]:
                s.leader[f] = i
        for t, name in enumerate(HUMAN_TYPES):
            s.focus[i * N_TYPES + t] = int(loc["focus"].get(name, 0))
        if i:
            s.abd_cow[i] = int(bool(loc["cow"]))
            s.abd_human[i] = HUMAN_TYPES.index(loc["human"]) if loc["human"] is not None else -1
        s.crop[i] = colour[loc["crop_circle"]] if loc["crop_circle"] is not None else -1
        if loc["crop_circles_tile"]:
            s.crop_tile = i
        tile = loc["skill_tile"]
        s.skill[i] = -1 if tile is None or tile == "board" else colour[tile]
    s.rank = [colour[c] for c in view["ranks"]]
    s.ufo = int(view["ufo"])
    s.bag = [int(view["bag"][t]) for t in HUMAN_TYPES]
    s.hand = [int(view["hand"].get(t, 0)) for t in HUMAN_TYPES]
    supply = view["supply"]
    s.cow_pile, s.caps, s.emblem_supply = int(supply["cows"]), int(supply["caps"]), int(supply["emblems"])
    s.deck = [int(view["common_deck"][c]) for c in COMMON_CARDS]
    s.discard = [int(view["common_discards"][c]) for c in COMMON_CARDS]
    for p, sv in enumerate(view["seats"]):
        for t, name in enumerate(HUMAN_TYPES):
            s.hum[p * N_TYPES + t] = int(sv["humans"][name])
        s.cows[p], s.emblems[p] = int(sv["cows"]), int(sv["emblems"])
        for c, name in enumerate(FACTION_CARDS):
            s.fcards[p * 3 + c] = 0 if sv["faction_cards"][name] else 1
        for t, name in enumerate(COMMON_CARDS):
            s.held[p * 4 + t] = int(sv["held_common"].get(name, 0))
        s.crop_left[p] = int(sv["crop_tokens_left"])
    s.target = int(view["emblem_target"])
    s.active = int(view["active"])
    s.revealed = COMMON_CARDS.index(view["last_revealed"]) if view["last_revealed"] is not None else -1
    s.stack = [(int(f[0]), int(f[1]), int(f[2]), int(f[3])) for f in flow["stack"]]
    s.start = int(flow["start"])
    s.mc_count = int(flow["mind_controls"])
    s.to_move = view["to_move"]
    s._seen = list(log)
    s.lg, s.lgn = None, len(log)
    s._history = []
    s._legal = None
    return s
