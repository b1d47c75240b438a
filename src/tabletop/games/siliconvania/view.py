"""SiliconVania: what each seat sees. The public part of every seat, the seat's own secrets (hand, discards, silent
bid cards, its bid before the reveal), and the silent bid cards a sample deals another seat (ruling V-22).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Final

from tabletop.core import Rng, View
from tabletop.games.siliconvania.notation import BID_CARDS, BID_COUNT, COMPONENTS
from tabletop.games.siliconvania.tasks import DECISION_NAMES

if TYPE_CHECKING:
    from tabletop.games.siliconvania.rules import SiliconVaniaState

LOG_TAIL: Final = 16  # the recent end of the seat's log carried by a view (the whole of it: `log(seat)`)


def public_seat(s: SiliconVaniaState, p: int) -> dict[str, Any]:
    """What everyone knows of seat p (ruling V-22 for the silent bid cards, V-20 for the specialists)."""
    known, shown = s.known[p], s.shown[p]
    return {
        "grid": s.grid[p].copy(),
        "antiquities": [COMPONENTS.antiquities[x] if x >= 0 else -1 for x in s.anti[p]],
        "perimeter": s.perim[p].copy(),
        "vampires": s.vamp[p], "cats": s.cats[p], "hounds": s.hounds[p],
        "contracts": s.contracts[p], "innovation": s.inn[p], "survival": s.surv[p],
        "bid_cards_count": BID_COUNT[s.bid_hand[p]],
        "bid_history": list(s.bid_events[p]),
        "objectives": s.objs[p].copy(),
        "hand_size": len(s.hand[p]), "discard_size": len(s.disc[p]),
        "known_hand": sorted(r for r in s.hand[p] if known >> r & 1),
        "revealed_discards": sorted(r for r in s.disc[p] if shown >> r & 1),
        "pending_tiles": s.pending[p].copy(),
        "has_bid": s.bid_spec[p] >= 0,
        "bid": [s.bid_card[p], s.bid_spec[p]] if s.revealed else None,
        "bid_value": s.bid_value[p] if s.revealed else None,
    }

def table_view(s: SiliconVaniaState, seat: int | None) -> View:
    """All that `seat` may see (None: a spectator): everyone's public seat, and its own hand and bid."""
    seats = [public_seat(s, p) for p in range(s.players)]
    if seat is not None:
        me = seats[seat]
        me["hand"] = sorted(s.hand[seat])
        me["discard"] = sorted(s.disc[seat])
        me["bid_cards"] = BID_CARDS[s.bid_hand[seat]].copy() if s.bid_hand[seat] else []
        me["bid_discards"] = BID_CARDS[s.bid_disc[seat]].copy() if s.bid_disc[seat] else []
        if s.bid_spec[seat] >= 0:
            me["bid"] = [s.bid_card[seat], s.bid_spec[seat]]
            if not s.revealed:
                me["bid_as_0"] = bool(s.bid_free[seat])
    top = s.stack[-1] if s.stack and s.to_move is not None else None
    v: View = {
        "game": "siliconvania", "players": s.players, "seat": seat, "round": s.round,
        "to_move": s.to_move, "decision": DECISION_NAMES.get(top[0], "") if top else "",
        "pools": [p.copy() for p in s.pools], "exchange_pool": s.xpool.copy(),
        "row": s.row.copy(), "tile_deck": len(s.tile_deck), "tile_discards": sorted(s.tile_disc),
        "specialist_deck": len(s.spec_deck), "order": s.order.copy() if s.revealed else [],
        "supply": {"vampires": max(0, s.vamp_sup), "cats": s.cat_sup, "hounds": s.hound_sup,
                   "contracts": s.contract_sup, "castles": s.castle_sup.copy(),
                   "trains": s.train_sup.copy(), "antiquities": sorted(COMPONENTS.antiquities[x] for x in s.anti_sup)},
        "seats": seats,
        "log": s._log(seat, max(0, s.log_len - LOG_TAIL)),
        "log_pos": s.log_len,
        "flow": public_flow(s),
    }
    if s._final is not None:
        v["final"] = copy.deepcopy(s._final)
        v["winners"] = s.winners()
    return v


def public_flow(s: SiliconVaniaState) -> dict[str, Any]:
    """The flow's public machinery, the same for every seat and spectators: the task stack (who decides what next),
    the supply's exact pieces, what everyone knows of the specialists (V-20), the bids once revealed (a bid still
    secret reads -1, the seat's own included: its own bid is in its seat's `bid`), so that a seat played from afar
    rebuilds the state (the `sampler` part)."""
    n = s.players
    secret = [not s.revealed and s.bid_spec[q] >= 0 for q in range(n)]
    return {
        "stack": [list(t) for t in s.stack], "in_flight": s.in_flight.copy(), "met": s.met.copy(),
        "shown": s.shown.copy(), "known": s.known.copy(), "antiquities": [a.copy() for a in s.anti],
        "antiquity_supply": s.anti_sup.copy(), "order": s.order.copy(), "bid_value": s.bid_value.copy(),
        "bid_card": [-1 if secret[q] else s.bid_card[q] for q in range(n)],
        "bid_spec": [-1 if secret[q] else s.bid_spec[q] for q in range(n)],
        "bid_free": [0 if secret[q] else s.bid_free[q] for q in range(n)],
        "vampire_supply": s.vamp_sup,
    }


def sample_bid_cards(events: tuple[int, ...], rng: Rng) -> tuple[int, int]:
    """A seat's silent bid cards (hand, discard bitmasks) consistent with its public bid events (cards revealed,
    0 for none, -1 for a recovery of an unseen card): each recovery picks at random among the cards that leave every
    later reveal possible."""
    hand, disc = 0b1111111, 0
    for i, e in enumerate(events):
        if e > 0:
            hand &= ~(1 << (e - 1))
            disc |= 1 << (e - 1)
        elif e < 0:
            cands = [c for c in range(7) if disc >> c & 1
                     and bids_feasible(events, i + 1, hand | 1 << c, disc & ~(1 << c))]
            c = cands[rng.below(len(cands))]
            hand |= 1 << c
            disc &= ~(1 << c)
    return hand, disc


def bids_feasible(events: tuple[int, ...], i: int, hand: int, disc: int) -> bool:
    """Whether events[i:] can happen from this hand and discard (recoveries earliest-needed-first, which is optimal)."""
    for j in range(i, len(events)):
        e = events[j]
        if e > 0:
            bit = 1 << (e - 1)
            if not hand & bit:
                return False
            hand &= ~bit
            disc |= bit
        elif e < 0:
            best, when = -1, len(events) + 1
            for c in range(7):
                if disc >> c & 1:
                    nxt = next((k for k in range(j + 1, len(events)) if events[k] == c + 1), len(events))
                    if best < 0 or nxt < when:
                        best, when = c, nxt
            if best < 0:
                return False
            hand |= 1 << best
            disc &= ~(1 << best)
    return True
