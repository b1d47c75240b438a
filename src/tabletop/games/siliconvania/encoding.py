"""SiliconVania's encoding part (`tabletop.core.parts`, "encoding"; docs/rl.md): its observation encoder
(`ENCODER`, built on the framework `tabletop.spaces`), its fixed action space (`action_texts`) and the state fields
its fast and compiled encoders read (`ENCODED_FIELDS`; the compiled one, `_fastenc.c` beside this file, is given
their names by `bind`).
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from tabletop.core.state import View
from tabletop.spaces.observations import Encoder, Layout
from tabletop.spaces.observations import rel as _rel

ENCODED_FIELDS: tuple[tuple[str, str], ...] = (
    ("round", "the round, 1..8"),
    ("pools", "per selection pool, its tile ids"),
    ("xpool", "the tile ids of the exchange pool"),
    ("row", "the specialists (ranks) in the row"),
    ("tile_disc", "the discarded tile ids"),
    ("tile_deck", "the tiles left in the deck (only their number is read)"),
    ("spec_deck", "the specialists left in the deck (only their number is read)"),
    ("vamp_sup", "vampires in the supply"),
    ("cat_sup", "cats in the supply"),
    ("hound_sup", "hounds in the supply"),
    ("contract_sup", "contracts in the supply"),
    ("castle_sup", "the castle types still in the supply"),
    ("train_sup", "the trains still in the supply"),
    ("anti_sup", "the antiquities still in the supply"),
    ("revealed", "the bids of this round are revealed"),
    ("order", "the resolution order (seats)"),
    ("to_move", "the seat to move, None once over"),
    ("stack", "the decision tasks (kind, ...), the current one last"),
    ("grid", "per seat, its 16 city cells (tile id, -1: empty)"),
    ("anti", "per seat, the antiquity on each cell (-1: none)"),
    ("perim", "per seat, its 8 perimeter slots (castle 0-6, upgraded castle 7-13, train 20+, -1: empty)"),
    ("vamp", "per seat, its vampires"),
    ("cats", "per seat, its cats"),
    ("hounds", "per seat, its hounds"),
    ("contracts", "per seat, its contracts"),
    ("inn", "per seat, its innovation"),
    ("surv", "per seat, its survival"),
    ("bid_hand", "per seat, its silent bid cards in hand (a set code, notation.BID_CARDS)"),
    ("bid_events", "per seat, its bid history (card / recovery per round)"),
    ("objs", "per seat, its city objectives (ranks)"),
    ("known", "per seat, a bit per specialist of its hand that everyone saw enter it"),
    ("hand", "per seat, its specialist hand (ranks)"),
    ("disc", "per seat, its specialist discard pile (ranks)"),
    ("bid_spec", "per seat, the specialist of its bid (-1: no bid)"),
    ("bid_card", "per seat, the silent bid card of its bid"),
    ("bid_value", "per seat, the value of its bid (None before it is known)"),
    ("pending", "per seat, the tile ids it holds waiting to be placed"),
    ("shown", "per seat, a bit per specialist of its discard pile that was revealed"),
    ("bid_disc", "per seat, its silent bid cards discarded (a set code)"),
)
"""The state's fields the fast (`encode_state`) and compiled encoders read, with their meaning:
the one place their names are written (the compiled encoder gets them from here; tests/rl/test_encode.py checks
that each exists on fresh and played states and that the encoders read no other)."""

try:  # the compiled encoder (built at install from _fastenc.c; optional)
    from tabletop.games.siliconvania import _fastenc
except ImportError:  # pragma: no cover - without a C compiler: the pure-Python encoder, same observations
    _fastenc = None  # type: ignore[assignment]
else:
    _fastenc.bind(tuple(name for name, _ in ENCODED_FIELDS))


class SiliconVaniaEncoder(Encoder):
    """SiliconVania: per relative seat its city (tile ids, antiquities, perimeter), supplies and bids; the public
    pools, row and supply; my own hand, discards and bid cards."""

    def __init__(self, players: int) -> None:
        from tabletop.games.siliconvania import notation as r
        from tabletop.games.siliconvania import tasks as sv_tasks
        from tabletop.games.siliconvania.tasks import DECISION_NAMES

        self.game, self.players = "siliconvania", players
        n = players
        c = r.COMPONENTS
        self.nt = nt = r.N_TILES
        self.ranks = sorted(c.specialists)
        self.rank_index = {s: i for i, s in enumerate(self.ranks)}
        self.ns = ns = len(self.ranks)
        self.npools = 4 if n == 2 else n + 1
        self.decisions = tuple(dict.fromkeys(DECISION_NAMES.values()))
        lay = self.layout = Layout()
        self.o_round = lay.add("round", 8, "one-hot round 1..8")
        self.o_pools = lay.add("pools", self.npools * nt, f"per selection pool, its tiles (one entry per tile id "
                               f"0..{nt - 1})")
        self.o_exch = lay.add("exchange_pool", nt, "tiles in the exchange pool")
        self.o_row = lay.add("row", ns, f"specialists in the row (one entry per rank, {ns} ranks ascending)")
        self.o_gone = lay.add("tile_discards", nt, "discarded tiles")
        self.o_decks = lay.add("decks", 2, "tiles left in the deck / 88, specialists left / 70")
        self.o_supply = lay.add("supply", 4 + 7 + 6 + 5,
                                "vampires / 60, cats, hounds, contracts / 15; castles (7 types), trains (6) still in "
                                "the supply; antiquities of each kind / 3")
        self.o_order = lay.add("order", n * n, "resolution order: for position k, one-hot relative seat")
        self.o_move = lay.add("to_move", n, "one-hot relative seat to move")
        self.o_dec = lay.add("decision", len(self.decisions), "one-hot decision: " + ", ".join(self.decisions))
        self.per_seat = 16 * 2 + 16 * 5 + 8 * 3 + 7 + 4 + 2 + 8 + 8 + ns + ns + 3 + 8 + ns + 2 + 2
        self.o_seats = lay.add(
            "seats", n * self.per_seat,
            f"per relative seat ({self.per_seat}): grid cells filled and tile id / 88 (16 x 2), antiquity kind "
            "one-hot per cell (16 x 5), perimeter slot castle / upgraded castle / train (8 x 3), castle type per "
            "perimeter... (7: castle types held), vampires / 20, cats, hounds, contracts / 5; innovation and "
            "survival / 20; bid cards count one-hot (8); bid history: last revealed bid per round one-hot-ish "
            "(8, card / 7, recovery -1); objectives (ranks); known hand (ranks); hand size, discard size / 10, "
            "has bid; current bid card one-hot (8); bid specialist (ranks); bid value / 7, pending tiles / 4; "
            "revealed discards count / 10, objectives count / 5",
        )
        self.o_hand = lay.add("my_hand", ns, "my specialist hand (ranks)")
        self.o_disc = lay.add("my_discard", ns, "my specialist discard pile (ranks)")
        self.o_bids = lay.add("my_bid_cards", 8, "my silent bid cards in hand (0..7)")
        self.o_biddisc = lay.add("my_bid_discards", 8, "my silent bid cards discarded (0..7)")
        self.o_pending = lay.add("my_pending_tiles", nt, "tiles I hold waiting to be placed")
        # the fast path (encode_state) reads the state's own codes
        self._anti_kind = tuple(c.antiquities)
        self._decision_slot = {k: self.decisions.index(name) for k, name in sv_tasks.DECISION_NAMES.items()}
        self._bid_count = tuple(r.BID_COUNT)
        self._bid_cards = tuple(tuple(cs) for cs in r.BID_CARDS)
        ri_table = [-1] * (max(self.rank_index) + 1)
        for x, i in self.rank_index.items():
            ri_table[x] = i
        dec_table = [-1] * (max(self._decision_slot) + 1)
        for k, d in self._decision_slot.items():
            dec_table[k] = d
        bid_bits = [sum(1 << c for c in cs) for cs in self._bid_cards]
        head = [lay.size, n, nt, ns, self.o_round, self.o_pools, self.o_exch, self.o_row, self.o_gone, self.o_decks,
                self.o_supply, self.o_order, self.o_move, self.o_dec, self.o_seats, self.per_seat, self.o_hand,
                self.o_disc, self.o_bids, self.o_biddisc, self.o_pending]
        tables = [ri_table, list(self._anti_kind), dec_table, list(self._bid_count), bid_bits]
        at = len(head) + 9  # then (length, offset) of the first four tables and the offset of bid_bits
        cfg_tables: list[int] = []
        for t in tables:
            cfg_tables += t
        offsets = []
        for t in tables:
            offsets.append(at)
            at += len(t)
        head += [len(ri_table), offsets[0], len(self._anti_kind), offsets[1], len(dec_table), offsets[2],
                 len(self._bid_count), offsets[3], offsets[4]]
        assert len(bid_bits) == len(self._bid_count)
        self._compiled(None if _fastenc is None else _fastenc.encode, head + cfg_tables)

    def fill(self, view: View, out: np.ndarray) -> None:
        n, me, nt, ri = self.players, view["seat"], self.nt, self.rank_index
        rnd = view["round"]
        if 1 <= rnd <= 8:
            out[self.o_round + rnd - 1] = 1
        for k, pool in enumerate(view["pools"]):
            for t in pool:
                out[self.o_pools + k * nt + t] = 1
        for t in view["exchange_pool"]:
            out[self.o_exch + t] = 1
        for s in view["row"]:
            out[self.o_row + ri[s]] = 1
        for t in view["tile_discards"]:
            out[self.o_gone + t] = 1
        out[self.o_decks] = view["tile_deck"] / 88
        out[self.o_decks + 1] = view["specialist_deck"] / 70
        sup, b = view["supply"], self.o_supply
        out[b] = sup["vampires"] / 60
        out[b + 1] = sup["cats"] / 15
        out[b + 2] = sup["hounds"] / 15
        out[b + 3] = sup["contracts"] / 15
        for c in sup["castles"]:
            out[b + 4 + c] = 1
        for t in sup["trains"]:
            out[b + 11 + t] = 1
        for a in set(sup["antiquities"]):
            out[b + 17 + a] = sup["antiquities"].count(a) / 3
        for k, q in enumerate(view["order"]):
            out[self.o_order + k * n + _rel(q, me, n)] = 1
        if view["to_move"] is not None:
            out[self.o_move + _rel(view["to_move"], me, n)] = 1
        if view["decision"] in self.decisions:
            out[self.o_dec + self.decisions.index(view["decision"])] = 1
        ns = self.ns
        for q, s in enumerate(view["seats"]):
            b = self.o_seats + _rel(q, me, n) * self.per_seat
            for i, t in enumerate(s["grid"]):
                if t >= 0:
                    out[b + 2 * i] = 1
                    out[b + 2 * i + 1] = (t + 1) / 88
            b += 32
            for i, a in enumerate(s["antiquities"]):
                if a >= 0:
                    out[b + 5 * i + a] = 1
            b += 80
            for i, p in enumerate(s["perimeter"]):
                if 0 <= p < 7:
                    out[b + 3 * i] = 1
                elif 7 <= p < 14:
                    out[b + 3 * i + 1] = 1
                elif p >= 20:
                    out[b + 3 * i + 2] = 1
            b += 24
            for p in s["perimeter"]:
                if 0 <= p < 14:
                    out[b + p % 7] = 1
            b += 7
            out[b] = s["vampires"] / 20
            out[b + 1] = s["cats"] / 5
            out[b + 2] = s["hounds"] / 5
            out[b + 3] = s["contracts"] / 5
            b += 4
            out[b] = s["innovation"] / 20
            out[b + 1] = s["survival"] / 20
            b += 2
            out[b + min(7, s["bid_cards_count"])] = 1
            b += 8
            for k, e in enumerate(s["bid_history"][-8:]):
                out[b + k] = e / 7
            b += 8
            for r in s["objectives"]:
                out[b + ri[r]] = 1
            b += ns
            for r in s["known_hand"]:
                out[b + ri[r]] = 1
            b += ns
            out[b] = s["hand_size"] / 10
            out[b + 1] = s["discard_size"] / 10
            out[b + 2] = s["has_bid"]
            b += 3
            bid = s.get("bid")
            if bid is not None:
                out[b + bid[0]] = 1
            b += 8
            if bid is not None and bid[1] in ri:
                out[b + ri[bid[1]]] = 1
            b += ns
            out[b] = (s.get("bid_value") or 0) / 7
            out[b + 1] = len(s["pending_tiles"]) / 4
            b += 2
            out[b] = len(s["revealed_discards"]) / 10
            out[b + 1] = len(s["objectives"]) / 5
        mine = view["seats"][me]
        for r in mine.get("hand", ()):
            out[self.o_hand + ri[r]] = 1
        for r in mine.get("discard", ()):
            out[self.o_disc + ri[r]] = 1
        for c in mine.get("bid_cards", ()):
            out[self.o_bids + c] = 1
        for c in mine.get("bid_discards", ()):
            out[self.o_biddisc + c] = 1
        for t in mine["pending_tiles"]:
            out[self.o_pending + t] = 1

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        o = self._zeros()
        self._board(o, state)
        self._tail(o, state, seat)
        for q in range(self.players):
            self._seat(o, state, q, seat)
        self._mine(o, state, seat)
        return np.frombuffer(o, np.float32)

    def _board(self, o: array[float], state: Any) -> None:
        """Write `round` ... `supply` (zeroed before)."""
        nt, ri = self.nt, self.rank_index
        rnd = state.round
        if 1 <= rnd <= 8:
            o[self.o_round + rnd - 1] = 1
        for k, pool in enumerate(state.pools):
            base = self.o_pools + k * nt
            for t in pool:
                o[base + t] = 1
        for t in state.xpool:
            o[self.o_exch + t] = 1
        for x in state.row:
            o[self.o_row + ri[x]] = 1
        for t in state.tile_disc:
            o[self.o_gone + t] = 1
        o[self.o_decks] = len(state.tile_deck) / 88
        o[self.o_decks + 1] = len(state.spec_deck) / 70
        b = self.o_supply
        o[b] = max(0, state.vamp_sup) / 60
        o[b + 1] = state.cat_sup / 15
        o[b + 2] = state.hound_sup / 15
        o[b + 3] = state.contract_sup / 15
        for c in state.castle_sup:
            o[b + 4 + c] = 1
        for t in state.train_sup:
            o[b + 11 + t] = 1
        kinds = self._anti_kind
        counts = [0] * 5
        for x in state.anti_sup:
            counts[kinds[x]] += 1
        for a, c in enumerate(counts):
            if c:
                o[b + 17 + a] = c / 3

    def _tail(self, o: array[float], state: Any, me: int) -> None:
        """Write `order`, `to_move` and `decision` (zeroed before)."""
        n = self.players
        if state.revealed:
            for k, q in enumerate(state.order):
                o[self.o_order + k * n + (q - me) % n] = 1
        to_move = state.to_move
        if to_move is not None:
            o[self.o_move + (to_move - me) % n] = 1
            if state.stack:
                d = self._decision_slot.get(state.stack[-1][0], -1)
                if d >= 0:
                    o[self.o_dec + d] = 1

    def _seat(self, o: array[float], state: Any, q: int, me: int) -> None:
        """Write seat `q`'s block of `seats` (zeroed before)."""
        n, ri, ns, kinds = self.players, self.rank_index, self.ns, self._anti_kind
        revealed = state.revealed
        b = self.o_seats + (q - me) % n * self.per_seat
        grid = state.grid[q]
        if grid.count(-1) != 16:  # (a C-speed skip of an empty city)
            for i, t in enumerate(grid):
                if t >= 0:
                    o[b + 2 * i] = 1
                    o[b + 2 * i + 1] = (t + 1) / 88
        b += 32
        anti = state.anti[q]
        if anti.count(-1) != 16:
            for i, x in enumerate(anti):
                if x >= 0:
                    o[b + 5 * i + kinds[x]] = 1
        b += 80
        perim = state.perim[q]
        if perim.count(-1) != 8:
            for i, p in enumerate(perim):
                if 0 <= p < 7:
                    o[b + 3 * i] = 1
                    o[b + 24 + p] = 1
                elif 7 <= p < 14:
                    o[b + 3 * i + 1] = 1
                    o[b + 24 + p - 7] = 1
                elif p >= 20:
                    o[b + 3 * i + 2] = 1
        b += 24 + 7
        o[b] = state.vamp[q] / 20
        o[b + 1] = state.cats[q] / 5
        o[b + 2] = state.hounds[q] / 5
        o[b + 3] = state.contracts[q] / 5
        b += 4
        o[b] = state.inn[q] / 20
        o[b + 1] = state.surv[q] / 20
        b += 2
        o[b + min(7, self._bid_count[state.bid_hand[q]])] = 1
        b += 8
        for k, e in enumerate(state.bid_events[q][-8:]):
            o[b + k] = e / 7
        b += 8
        objs = state.objs[q]
        for x in objs:
            o[b + ri[x]] = 1
        b += ns
        known, hand = state.known[q], state.hand[q]
        for x in hand:
            if known >> x & 1:
                o[b + ri[x]] = 1
        b += ns
        disc = state.disc[q]
        o[b] = len(hand) / 10
        o[b + 1] = len(disc) / 10
        spec = state.bid_spec[q]
        o[b + 2] = spec >= 0
        b += 3
        if revealed or (q == me and spec >= 0):
            card = state.bid_card[q]
            o[b + card] = 1
            if spec in ri:
                o[b + 8 + ri[spec]] = 1
        b += 8 + ns
        if revealed:
            o[b] = (state.bid_value[q] or 0) / 7
        o[b + 1] = len(state.pending[q]) / 4
        b += 2
        shown = state.shown[q]
        if shown and disc:
            o[b] = sum(1 for x in disc if shown >> x & 1) / 10
        o[b + 1] = len(objs) / 5

    def _mine(self, o: array[float], state: Any, me: int) -> None:
        """Write `my_hand` ... `my_pending_tiles` (zeroed before)."""
        ri = self.rank_index
        for x in state.hand[me]:
            o[self.o_hand + ri[x]] = 1
        for x in state.disc[me]:
            o[self.o_disc + ri[x]] = 1
        bid_cards = self._bid_cards
        if state.bid_hand[me]:
            for c in bid_cards[state.bid_hand[me]]:
                o[self.o_bids + c] = 1
        if state.bid_disc[me]:
            for c in bid_cards[state.bid_disc[me]]:
                o[self.o_biddisc + c] = 1
        for t in state.pending[me]:
            o[self.o_pending + t] = 1


ENCODER = SiliconVaniaEncoder
"""The game's observation encoder (`tabletop.spaces.encoder(game, players)` builds `ENCODER(players)`)."""


def action_texts(players: int) -> list[str]:
    """Every action text this game can form with its components, under every option, in mapping order (the
    order is part of the mapping: append new kinds at the end)."""
    from tabletop.games.siliconvania import notation as r

    fmt, c = r._fmt, r.COMPONENTS
    ranks = sorted(c.specialists)
    cells, positions = range(16), range(24)
    bids = range(len(c.bid_cards) + 1)  # 0: no bid card left (ruling V-13)
    pools = 4 if players == 2 else players + 1
    out = [fmt("bid", (b, s)) for b in bids for s in ranks]
    out += [fmt("bid", (b, s, 0)) for b in bids if r.BID_COST[b] > 0 for s in ranks]
    out += [fmt("recover", (b,)) for b in bids if b > 0]
    out += [fmt("pool", (k,)) for k in range(1, pools + 1)]
    out += [fmt("place", (t, i)) for t in range(r.N_TILES) for i in cells]
    out += [fmt("castle", (k, sl)) for k in range(len(c.types)) for sl in range(8)]
    out += [fmt("train", (t, sl)) for t in range(len(c.trains)) for sl in range(8)]
    out += [fmt("upgrade", (sl,)) for sl in range(8)]
    out += ["relocate skip", "relocate done"]
    out += [fmt("relocate", ("swap", i, j)) for i in cells for j in cells if i != j]
    out += [fmt("relocate", ("move", i, j)) for i in positions for j in positions if i != j]
    out += ["swap skip"]
    out += [fmt("swap", (o, s)) for o in ranks for s in ranks if o != s]
    out += ["exchange skip"]
    out += [fmt("exchange", (i, t)) for i in cells for t in range(r.N_TILES)]
    out += [fmt("antiquity", (k, i)) for k in range(5) for i in cells]
    out += [fmt("take", (s,)) for s in ranks]
    out += [fmt("objective", (s,)) for s in ranks]
    return out
