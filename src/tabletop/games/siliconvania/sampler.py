"""SiliconVania: a full state rebuilt from what one seat saw (its view and its log), never from the state.

The view shows every seat's city, tracks, supplies, objectives and what everyone knows of its specialists (V-20),
the seat's own hand, discards, silent bid cards and bid, and (`flow`) the task stack and the bids once revealed. From
them a *witness* is built: a state the seat cannot tell from the true one, its unknown cards (other seats' hidden
specialists, the specialist deck, their silent bid cards and secret bids, the tile stack's order) filled in any
consistent way. `SiliconVaniaState._sample` then redraws all of those from the witness exactly as it would from the
true state (a sample depends only on what the seat can tell: audit 19), so a remote seat's samples are the engine's.
The seat's log is kept verbatim (entries before the rebuild as given; later ones the state's own).
"""

from __future__ import annotations

import copy
from typing import Any, Self

from tabletop.core import LogEntry, Rng, View
from tabletop.games.siliconvania.decisions import options_bid
from tabletop.games.siliconvania.notation import COMPONENTS
from tabletop.games.siliconvania.rules import SiliconVaniaState
from tabletop.games.siliconvania.view import sample_bid_cards


class SampledVania(SiliconVaniaState):
    """A SiliconVania state rebuilt from a view: its log's entries before the rebuild are the seat's, as it was
    given them (every seat's log of a belief reads them)."""

    _seen: list[LogEntry]

    def clone(self) -> Self:
        s = super().clone()
        s._seen = self._seen
        return s

    def _log(self, seat: int | None, start: int) -> list[LogEntry]:
        n0 = len(self._seen)
        out = [dict(e) for e in self._seen[start:]] if start < n0 else []
        return out + SiliconVaniaState._log(self, seat, max(start, n0))


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        if c > 0:
            m |= 1 << (c - 1)
    return m


def sample_from_view(players: int, options: dict[str, Any], seat: int, view: View, log: list[LogEntry], rng: Rng,
                     legal: list[str] | None = None) -> SampledVania:
    """A sample for `seat` from its `view` and whole `log`, drawn with `rng` as `SiliconVaniaState._sample` draws
    (`legal` is not needed: the view shows the flow). `tabletop.core.belief` reseeds the result as `State.sample`."""
    return witness_from_view(players, options, seat, view, log, legal)._sample(seat, rng)


def witness_from_view(players: int, options: dict[str, Any], seat: int, view: View, log: list[LogEntry],
                      legal: list[str] | None = None) -> SampledVania:
    """A state the seat cannot tell from the true one (its unknown cards filled in any consistent way)."""
    n = players
    w = SampledVania.setup(players, 0, options)
    w.options = dict(options)
    flow = view["flow"]
    seats = view["seats"]
    me = seats[seat]
    w.round = int(view["round"])
    w.revealed = int(me["bid_value"] is not None)
    w.to_move = view["to_move"]
    w.grid = [list(sv["grid"]) for sv in seats]
    w.anti = [list(a) for a in flow["antiquities"]]
    w.perim = [list(sv["perimeter"]) for sv in seats]
    w.vamp = [int(sv["vampires"]) for sv in seats]
    w.cats = [int(sv["cats"]) for sv in seats]
    w.hounds = [int(sv["hounds"]) for sv in seats]
    w.contracts = [int(sv["contracts"]) for sv in seats]
    w.inn = [int(sv["innovation"]) for sv in seats]
    w.surv = [int(sv["survival"]) for sv in seats]
    w.met = list(flow["met"])
    w.bid_events = [tuple(int(e) for e in sv["bid_history"]) for sv in seats]
    w.bid_card, w.bid_spec = list(flow["bid_card"]), list(flow["bid_spec"])
    w.bid_free, w.bid_value = list(flow["bid_free"]), list(flow["bid_value"])
    w.in_flight, w.order = list(flow["in_flight"]), list(flow["order"])
    w.pending = [list(sv["pending_tiles"]) for sv in seats]
    sup = view["supply"]
    w.vamp_sup = int(flow["vampire_supply"])
    w.cat_sup, w.hound_sup, w.contract_sup = int(sup["cats"]), int(sup["hounds"]), int(sup["contracts"])
    w.castle_sup, w.train_sup = list(sup["castles"]), list(sup["trains"])
    w.anti_sup = list(flow["antiquity_supply"])
    w.tile_disc = sorted(view["tile_discards"])
    w.objs = [list(sv["objectives"]) for sv in seats]
    w.xpool = list(view["exchange_pool"])
    w.pools = [list(p) for p in view["pools"]]
    w.row = list(view["row"])
    w.stack = [(int(t[0]), int(t[1]), int(t[2]), int(t[3])) for t in flow["stack"]]
    w.shown, w.known = list(flow["shown"]), list(flow["known"])
    w._final = copy.deepcopy(view["final"]) if "final" in view else None

    # the seat's own secrets, as its view shows them
    w.hand = [[] for _ in range(n)]
    w.disc = [[] for _ in range(n)]
    w.bid_hand, w.bid_disc = [0] * n, [0] * n
    w.hand[seat] = sorted(me["hand"])
    w.disc[seat] = sorted(me["discard"])
    w.bid_hand[seat], w.bid_disc[seat] = _mask(me["bid_cards"]), _mask(me["bid_discards"])
    if "bid" in me and me["bid"] is not None:
        w.bid_card[seat], w.bid_spec[seat] = int(me["bid"][0]), int(me["bid"][1])
        if not w.revealed:
            w.bid_free[seat] = int(bool(me.get("bid_as_0")))

    # everything else: any consistent filling (the sample below redraws it all)
    specialists = [r for r, sp in sorted(COMPONENTS.specialists.items()) if sp.mark <= n]
    seen = set(w.hand[seat]) | set(w.disc[seat]) | set(w.row) | {r for o in w.objs for r in o}
    seen |= {w.bid_spec[q] for q in range(n) if w.in_flight[q]}
    for q in range(n):
        if q != seat:
            seen |= set(seats[q]["known_hand"]) | set(seats[q]["revealed_discards"])
    unseen = [r for r in specialists if r not in seen]
    for q in range(n):
        if q == seat:
            continue
        sv = seats[q]
        w.disc[q] = sorted(sv["revealed_discards"])
        if len(w.disc[q]) != int(sv["discard_size"]):
            raise ValueError(f"seat {q}'s discard pile holds cards nobody saw: its view cannot be rebuilt")
        known = list(sv["known_hand"])
        hidden = int(sv["hand_size"]) - len(known)
        if hidden > len(unseen):
            raise ValueError("the view does not add up: more hidden specialists than unseen ones")
        w.hand[q] = sorted(known + unseen[:hidden])
        del unseen[:hidden]
        w.bid_hand[q], w.bid_disc[q] = sample_bid_cards(w.bid_events[q], Rng(q))
        if bool(sv["has_bid"]) and not w.revealed:  # a committed bid, still secret: any of its options
            opts = options_bid(w, q, 0)
            w.bid_card[q], w.bid_spec[q] = int(opts[0].args[0]), int(opts[0].args[1])
    if len(unseen) != int(view["specialist_deck"]):
        raise ValueError("the view does not add up: its unseen specialists are not the deck and hidden hands")
    w.spec_deck = unseen
    tiles = [i for i, t in enumerate(COMPONENTS.tiles) if t.mark <= n]
    placed = {t for g in w.grid for t in g if t >= 0} | {t for p in w.pending for t in p}
    placed |= {t for p in w.pools for t in p} | set(w.xpool) | set(w.tile_disc)
    w.tile_deck = [t for t in tiles if t not in placed]
    if len(w.tile_deck) != int(view["tile_deck"]):
        raise ValueError("the view does not add up: its unseen tiles are not the tile stack")
    w._seen = list(log)
    w.entries, w.log_len, w.plog = None, len(log), [None] * n
    w._history = []
    return w
