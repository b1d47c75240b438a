"""SILOS's encoding part (`tabletop.core.parts`, "encoding"; docs/rl.md): its observation encoder
(`ENCODER`, built on the framework `tabletop.spaces`), its fixed action space (`action_texts`) and the state fields
its fast and compiled encoders read (`ENCODED_FIELDS`; the compiled one, `_fastenc.c` beside this file, is given
their names by `bind`).
"""

from __future__ import annotations

from array import array
from itertools import compress
from operator import attrgetter, ne
from typing import Any

import numpy as np

from tabletop.core.state import View
from tabletop.spaces.observations import Encoder, Layout
from tabletop.spaces.observations import rel as _rel

ENCODED_FIELDS: tuple[tuple[str, str], ...] = (
    ("plain", "per faction and location (f * 7 + i), its plain figures"),
    ("dist", "per faction and location, its distinguished figures"),
    ("leader", "per faction, the location of its leader (-1: not on the board)"),
    ("crop", "per location, the faction of its crop circle token (-1: none)"),
    ("rank", "the Town Hall ranks, best first (factions)"),
    ("focus", "per location and human type (i * 4 + t), its focus group"),
    ("abd_cow", "per location, a cow on its abduction space"),
    ("abd_human", "per location, the human type on its abduction space (-1: none)"),
    ("alt", "a bit per location on its alternate tile"),
    ("crop_tile", "the location of the crop circles tile (-1: none)"),
    ("skills_on", "the skill tiles module is on"),
    ("skill", "per location, the faction that claimed its skill tile (-1: on the board)"),
    ("ufo", "the location of the UFO (None: off the board)"),
    ("bag", "humans of each type in the bag"),
    ("hand", "drawn humans of each type waiting to be placed"),
    ("cow_pile", "cows in the supply"),
    ("caps", "caps in the supply"),
    ("emblem_supply", "emblems in the supply"),
    ("deck", "common cards of each kind left in the deck"),
    ("discard", "common cards of each kind discarded"),
    ("revealed", "the last revealed common card (-1: none)"),
    ("stack", "the decision frames (kind, seat, card, ...), the current one last"),
    ("target", "the emblems that end the game"),
    ("hum", "per seat and human type (p * 4 + t), the humans it holds"),
    ("held", "per seat and common card kind (p * 4 + k), the cards it holds"),
    ("fcards", "per seat and faction card (p * 3 + k), whether it is used"),
    ("emblems", "per seat, its emblems"),
    ("cows", "per seat, its cows"),
    ("crop_left", "per seat, its crop circle tokens left"),
    ("to_move", "the seat to move, None once over"),
    ("active", "the seat whose turn it is"),
)
"""The state's fields the fast (`encode_state`, `encode_delta`) and compiled encoders read, with their meaning:
the one place their names are written (the compiled encoder gets them from here; tests/rl/test_encode.py checks
that each exists on fresh and played states and that the encoders read no other)."""

try:  # the compiled encoder (built at install from _fastenc.c; optional)
    from tabletop.games.silos import _fastenc
except ImportError:  # pragma: no cover - without a C compiler: the pure-Python encoder, same observations
    _fastenc = None  # type: ignore[assignment]
else:
    _fastenc.bind(tuple(name for name, _ in ENCODED_FIELDS))


class SilosEncoder(Encoder):
    """SILOS: per location the figures and influence of each faction, focus groups and abduction spaces; supplies,
    decks, every faction's holdings and the phase. Factions are relative: mine, then the next seats clockwise, then
    (2 players) the non-player faction."""

    def __init__(self, players: int) -> None:
        from tabletop.games.silos import components as silos_components
        from tabletop.games.silos import frames as r
        from tabletop.games.silos import notation as silos_notation
        from tabletop.games.silos.components import COMMON_CARDS, FACTION_CARDS, HUMAN_TYPES

        self.game, self.players = "silos", players
        n = players
        self.nf = nf = 3 if n == 2 else n  # factions on the board (2 players: + the non-player faction)
        self.types = HUMAN_TYPES
        self.common = COMMON_CARDS
        self.faction_cards = FACTION_CARDS
        self.phases = (*r.FRAME_NAMES, "game over")
        lay = self.layout = Layout()
        per_loc = nf * 4 + (nf + 1) + 4 + 1 + 5 + 2 + (nf + 1) + (nf + 2)
        self.per_loc = per_loc
        self.o_loc = lay.add(
            "locations", 7 * per_loc,
            f"7 locations x {per_loc}: per relative faction (figures/7, leader, distinguished/7, influence/10); "
            f"who leads (one-hot faction or none); focus group count per human type / 7; cow on the abduction space; "
            f"human there (one-hot none, politician, government, influencer, professional); alternate tile; crop "
            f"circles tile here; crop circle token (one-hot faction or none); skill tile (one-hot module off, on the "
            f"board, claimed by faction f)",
        )
        self.o_ufo = lay.add("ufo", 7, "one-hot location of the UFO")
        self.o_ranks = lay.add("ranks", nf * nf, "Town Hall ranks: for rank r (best first), one-hot relative faction")
        self.o_bag = lay.add("bag", 4, "humans of each type in the bag / 14")
        self.o_hand = lay.add("hand", 4, "drawn humans of each type waiting to be placed / 4")
        self.o_supply = lay.add("supply", 3, "cows / 12, caps / 12, emblems / 20 in the supply")
        self.o_deck = lay.add("common_deck", 4, "common cards of each kind left in the deck / 8")
        self.o_disc = lay.add("common_discards", 4, "common cards of each kind discarded / 8")
        self.o_play = lay.add("card_in_play", 4, "common cards of each kind in play / 4")
        self.o_last = lay.add("last_revealed", 5, "one-hot last revealed common card (or none)")
        per_seat = 4 + 3 + 3 + 4 + 2
        self.per_seat = per_seat
        self.o_seats = lay.add(
            "seats", nf * per_seat,
            f"per relative faction ({per_seat}): humans of each type / 7, cows / 6, emblems / 5, emblems "
            "reached target, unused faction cards (sighting, confluence, powers), held common cards / 2, crop tokens "
            "left / 3, figures to place / 7",
        )
        self.o_target = lay.add("emblem_target", 1, "emblems that end the game / 5")
        self.o_phase = lay.add("phase", len(self.phases), "one-hot phase: " + ", ".join(self.phases))
        self.o_move = lay.add("to_move", n, "one-hot relative seat to move")
        self.o_active = lay.add("active", n, "one-hot relative seat whose turn it is")
        # the fast path (encode_state) reads the state's own codes: check they are the view's order
        assert silos_notation.N_LOCATIONS == 7 and silos_notation.N_TYPES == 4
        assert len(HUMAN_TYPES) == 4 and len(COMMON_CARDS) == 4 and len(FACTION_CARDS) == 3
        self._phase_slot = [self.phases.index(name) for name in r.FRAME_NAMES]
        self._discard_frames = (r.K_CARD_IN_PLAY, r.K_TOWN_HALL_SKILL)  # frames holding a card being discarded
        self._k_pos = r.K_POSITIONING
        self._figures = silos_components.COMPONENTS.figures
        self._delta: dict[int, tuple[array[float], list[int], list[Any], list[Any]]] = {}  # encode_delta's memory
        self._watched = attrgetter(*self._WATCH)
        self._compiled(None if _fastenc is None else _fastenc.encode, [
            lay.size, n, nf, per_loc, self.o_loc, self.o_ufo, self.o_ranks, self.o_bag, self.o_hand, self.o_supply,
            self.o_deck, self.o_disc, self.o_play, self.o_last, self.o_seats, per_seat, self.o_target, self.o_phase,
            self.o_move, self.o_active, len(self.phases), *self._discard_frames, self._k_pos, self._figures,
            len(self._phase_slot), *self._phase_slot,
        ])

    def _order(self, view: View) -> dict[str | None, int]:
        """Colour -> relative faction index (mine first; the non-player faction last)."""
        me, n = view["seat"], self.players
        order: dict[str | None, int] = {}
        for q, s in enumerate(view["seats"][:n]):
            order[s["color"]] = _rel(q, me, n)
        npf = view["non_player_faction"]
        if npf is not None:
            order[npf] = n
        return order

    def fill(self, view: View, out: np.ndarray) -> None:
        nf, types = self.nf, self.types
        fac = self._order(view)
        for i, loc in enumerate(view["locations"]):
            b = self.o_loc + i * self.per_loc
            for col, f in loc["figures"].items():
                k = b + fac[col] * 4
                out[k] = f["figures"] / 7
                out[k + 1] = f["leader"]
                out[k + 2] = f["distinguished"] / 7
            for col, x in loc["influence"].items():
                out[b + fac[col] * 4 + 3] = x / 10
            b += nf * 4
            out[b + (fac[loc["leads"]] if loc["leads"] is not None else nf)] = 1
            b += nf + 1
            for t, c in loc["focus"].items():
                out[b + types.index(t)] = c / 7
            b += 4
            out[b] = bool(loc["cow"])
            b += 1
            out[b + (0 if loc["human"] is None else 1 + types.index(loc["human"]))] = 1
            b += 5
            out[b] = loc["alternate"]
            out[b + 1] = loc["crop_circles_tile"]
            b += 2
            out[b + (fac[loc["crop_circle"]] if loc["crop_circle"] is not None else nf)] = 1
            b += nf + 1
            st = loc["skill_tile"]
            out[b + (0 if st is None else 1 if st == "board" else 2 + fac[st])] = 1
        if view["ufo"] is not None:
            out[self.o_ufo + view["ufo"]] = 1
        for r, col in enumerate(view["ranks"]):
            out[self.o_ranks + r * nf + fac[col]] = 1
        for t, c in view["bag"].items():
            out[self.o_bag + types.index(t)] = c / 14
        for t, c in view["hand"].items():
            out[self.o_hand + types.index(t)] = c / 4
        sup = view["supply"]
        out[self.o_supply] = sup["cows"] / 12
        out[self.o_supply + 1] = sup["caps"] / 12
        out[self.o_supply + 2] = sup["emblems"] / 20
        for k, key in enumerate(self.common):
            out[self.o_deck + k] = view["common_deck"].get(key, 0) / 8
            out[self.o_disc + k] = view["common_discards"].get(key, 0) / 8
            out[self.o_play + k] = view["card_in_play"].get(key, 0) / 4
        last = view["last_revealed"]
        out[self.o_last + (0 if last is None else 1 + self.common.index(last))] = 1
        target = view["emblem_target"]
        for s in view["seats"]:
            b = self.o_seats + fac[s["color"]] * self.per_seat
            for t, c in s["humans"].items():
                out[b + types.index(t)] = c / 7
            out[b + 4] = s["cows"] / 6
            out[b + 5] = s["emblems"] / 5
            out[b + 6] = s["emblems"] >= target
            for k, key in enumerate(self.faction_cards):
                out[b + 7 + k] = s["faction_cards"][key]
            for key, c in s["held_common"].items():
                out[b + 10 + self.common.index(key)] = c / 2
            out[b + 14] = s["crop_tokens_left"] / 3
            out[b + 15] = s["figures_to_place"] / 7
        out[self.o_target] = target / 5
        out[self.o_phase + self.phases.index(view["phase"])] = 1
        me, n = view["seat"], self.players
        if view["to_move"] is not None:
            out[self.o_move + _rel(view["to_move"], me, n)] = 1
        if view.get("active") is not None:
            out[self.o_active + _rel(view["active"], me, n)] = 1

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        o = self._zeros()
        fac = self._fac(seat)
        for i in range(7):
            self._location(o, state, i, fac)
        self._rest(o, state, seat, fac)
        return np.frombuffer(o, np.float32)

    def _fac(self, me: int) -> list[int]:
        """Faction -> relative index (mine first; the non-player faction last)."""
        n = self.players
        return [(f - me) % n if f < n else n for f in range(self.nf)]

    def _location(self, o: array[float], state: Any, i: int, fac: list[int]) -> None:
        """Write location `i`'s slice of `locations` (zeroed before)."""
        nf, nl, nt = self.nf, 7, 4
        plain, dist, leader, crop = state.plain, state.dist, state.leader, state.crop
        b = self.o_loc + i * self.per_loc
        ci = crop[i]
        inf = [0] * nf
        for f in range(nf):
            j = f * nl + i
            pl, di, le = plain[j], dist[j], leader[f] == i
            # the rules' influence, doubled: figure 2, leader 3, distinguished 4, crop circle token 2
            x = 2 * pl + 4 * di + (3 if le else 0) + (2 if ci == f else 0)
            inf[f] = x
            if pl or di or le:
                k = b + fac[f] * 4
                o[k] = pl / 7
                o[k + 1] = le
                o[k + 2] = di / 7
            if x:
                o[b + fac[f] * 4 + 3] = x / 2 / 10
        b += nf * 4
        top, best = nf, 0
        for f in state.rank:  # who leads: the most influence, ties to the higher Town Hall rank
            if inf[f] > best:
                top, best = fac[f], inf[f]
        o[b + top] = 1
        b += nf + 1
        focus = state.focus
        for t in range(nt):
            c = focus[i * nt + t]
            if c:
                o[b + t] = c / 7
        b += 4
        if i:
            o[b] = 1 if state.abd_cow[i] else 0
            h = state.abd_human[i]
            o[b + 1 + (0 if h < 0 else 1 + h)] = 1
        else:
            o[b + 1] = 1
        b += 6
        o[b] = state.alt >> i & 1
        o[b + 1] = state.crop_tile == i
        b += 2
        o[b + (fac[ci] if ci >= 0 else nf)] = 1
        b += nf + 1
        if state.skills_on:
            sk = state.skill[i]
            o[b + (2 + fac[sk] if sk >= 0 else 1)] = 1
        else:
            o[b] = 1

    def _rest(self, o: array[float], state: Any, me: int, fac: list[int]) -> None:
        """Write everything after `locations` (zeroed before)."""
        self._supplies(o, state, fac)
        self._seats(o, state, fac)
        self._tail(o, state, me)

    def _in_play(self, state: Any) -> list[int]:
        in_play = [0] * 4
        discard_frames = self._discard_frames
        for fr in state.stack:
            if fr[0] in discard_frames:
                in_play[fr[2]] += 1
        return in_play

    def _supplies(self, o: array[float], state: Any, fac: list[int]) -> None:
        """Write `ufo` ... `last_revealed` (zeroed before)."""
        nf = self.nf
        if state.ufo is not None:
            o[self.o_ufo + state.ufo] = 1
        for r, f in enumerate(state.rank):
            o[self.o_ranks + r * nf + fac[f]] = 1
        for t in range(4):
            o[self.o_bag + t] = state.bag[t] / 14
            if state.hand[t]:
                o[self.o_hand + t] = state.hand[t] / 4
        o[self.o_supply] = state.cow_pile / 12
        o[self.o_supply + 1] = state.caps / 12
        o[self.o_supply + 2] = state.emblem_supply / 20
        in_play = self._in_play(state)
        for k in range(4):
            o[self.o_deck + k] = state.deck[k] / 8
            o[self.o_disc + k] = state.discard[k] / 8
            o[self.o_play + k] = in_play[k] / 4
        o[self.o_last + (0 if state.revealed < 0 else 1 + state.revealed)] = 1

    def _seats(self, o: array[float], state: Any, fac: list[int]) -> None:
        """Write `seats` (zeroed before)."""
        n, nt = self.players, 4
        target = state.target
        hum, held, fcards, emblems = state.hum, state.held, state.fcards, state.emblems
        stack = state.stack
        placing = bool(stack) and stack[0][0] == self._k_pos
        plain, dist, leader = state.plain, state.dist, state.leader
        for p in range(n):
            b = self.o_seats + fac[p] * self.per_seat
            for t in range(nt):
                o[b + t] = hum[p * nt + t] / 7
            o[b + 4] = state.cows[p] / 6
            o[b + 5] = emblems[p] / 5
            o[b + 6] = emblems[p] >= target
            for k in range(3):
                o[b + 7 + k] = not fcards[p * 3 + k]
            for k in range(4):
                if held[p * 4 + k]:
                    o[b + 10 + k] = held[p * 4 + k] / 2
            o[b + 14] = state.crop_left[p] / 3
            if placing:  # figures of this faction on the board, from the location counts
                on = sum(plain[p * 7:p * 7 + 7]) + sum(dist[p * 7:p * 7 + 7]) + (1 if 0 <= leader[p] < 7 else 0)
                o[b + 15] = max(0, self._figures - on) / 7

    def _tail(self, o: array[float], state: Any, me: int) -> None:
        """Write `emblem_target` ... `active` (zeroed before)."""
        n = self.players
        stack = state.stack
        o[self.o_target] = state.target / 5
        o[self.o_phase + (self._phase_slot[stack[-1][0]] if stack else len(self.phases) - 1)] = 1
        if state.to_move is not None:
            o[self.o_move + (state.to_move - me) % n] = 1
        if state.active is not None:
            o[self.o_active + (state.active - me) % n] = 1

    # encode_delta watches these state fields, read in one C call and compared with the copies last seen (per seat)
    # in another; only the fields that changed are looked at in Python. What each feeds:
    _WATCH = ("plain", "dist", "focus", "crop", "abd_cow", "abd_human", "skill",  # 0-6: per location (j%7, j//4, j)
              "leader",  # 7: the locations it left and went to
              "rank", "alt", "crop_tile", "skills_on",  # 8-11: every location (ties, tiles); rank: supplies too
              "bag", "hand", "deck", "discard", "ufo", "cow_pile", "caps", "emblem_supply", "revealed",  # 12-20
              "hum", "cows", "emblems", "fcards", "held", "crop_left", "target")  # 21-27: seats (target: tail too)
    _WATCH_LOC_DIV = (7, 7, 4, 1, 1, 1, 1)

    def encode_delta(self, state: Any, seat: int) -> np.ndarray:
        watched = self._watched(state)
        stack = state.stack
        placing = bool(stack) and stack[0][0] == self._k_pos
        in_play = self._in_play(state)
        d = self._delta.get(seat)
        if d is None:
            o = self._zeros()
            fac = self._fac(seat)
            for i in range(7):
                self._location(o, state, i, fac)
            self._rest(o, state, seat, fac)
            snap = [x[:] if type(x) is list else x for x in watched]
            self._delta[seat] = (o, fac, snap, [in_play, placing])
            return np.frombuffer(o[:], np.float32)
        o, fac, snap, derived = d
        zero = self._zero
        dirty = 0  # bit i: location i
        supplies = seats = placing
        for k in compress(range(len(watched)), map(ne, watched, snap)):
            cur = watched[k]
            if k < 7:
                div = self._WATCH_LOC_DIV[k]
                for j in compress(range(len(cur)), map(ne, cur, snap[k])):
                    dirty |= 1 << (j % 7 if div == 7 else j // div)
            elif k == 7:
                old = snap[7]
                for f in compress(range(len(cur)), map(ne, cur, old)):
                    for x in (cur[f], old[f]):  # where it left and where it went
                        if 0 <= x < 7:
                            dirty |= 1 << x
            elif k < 12:
                dirty = 127
                supplies = supplies or k == 8
            elif k < 21:
                supplies = True
            else:
                seats = True
            snap[k] = cur[:] if type(cur) is list else cur
        if in_play != derived[0]:
            derived[0] = in_play
            supplies = True
        if placing != derived[1]:
            derived[1] = placing
            seats = True
        if dirty:
            per = self.per_loc
            for i in range(7):
                if dirty >> i & 1:
                    b = self.o_loc + i * per
                    o[b:b + per] = zero[b:b + per]
                    self._location(o, state, i, fac)
        if supplies:
            b, e = self.o_ufo, self.o_seats
            o[b:e] = zero[b:e]
            self._supplies(o, state, fac)
        if seats:
            b, e = self.o_seats, self.o_target
            o[b:e] = zero[b:e]
            self._seats(o, state, fac)
        b = self.o_target
        o[b:] = zero[b:]
        self._tail(o, state, seat)
        return np.frombuffer(o[:], np.float32)


ENCODER = SilosEncoder
"""The game's observation encoder (`tabletop.spaces.encoder(game, players)` builds `ENCODER(players)`)."""


def action_texts(players: int) -> list[str]:
    """Every action text this game can form with its components, under every option, in mapping order (the
    order is part of the mapping: append new kinds at the end)."""
    from tabletop.games.silos import notation as r

    fmt, nl, nt = r._action_text, r.N_LOCATIONS, r.N_TYPES
    locs = range(nl)
    out = ["stop", "skip", "done", "card common", "card sighting ufo", "card sighting reposition",
           "card confluence", "card powers"]
    out += [fmt("held", (t,)) for t in range(4)]
    out += [fmt("keep", ()), fmt("reject", ())]
    out += [fmt("exert", (i,)) for i in locs]
    out += [fmt("position", (k, i)) for k in range(2) for i in locs]
    out += [fmt("move", (k, a, b)) for k in range(3) for a in locs for b in r.NEIGHBOURS[a]]
    out += [fmt("repos", (k, a, b)) for k in range(3) for a in locs for b in locs if a != b]
    out += [fmt("place", (t, i)) for t in range(nt) for i in locs]
    out += [fmt("take", (x, y)) for x in range(nt) for y in range(nt)]
    out += [fmt("sheriff", (g, k, a)) for g in range(4) for k in range(3) for a in locs if a != 1]
    out += [fmt(v, ()) for v in ("graduate", "distinguish", "mall_draw", "mall_four", "news_draw", "news_three")]
    out += [a.text for _, a in r.EXCHANGES]
    out += [fmt("return", (t,)) for t in range(nt)]
    out += [fmt("church_player", (t, g)) for t in range(nt) for g in range(4)]
    out += [fmt("church_focus", (t, i)) for t in range(nt) for i in locs]
    out += [fmt("church_card", ()), fmt("downgrade", ())]
    out += [fmt("crop_place", (i,)) for i in locs]
    out += [fmt("crop_move", (a, b)) for a in locs for b in locs if a != b]
    out += [fmt("skill_sheriff", (g, k, a)) for g in range(4) for k in range(3) for a in locs if a != 1]
    out += [fmt("skill_uni", (k, a)) for k in range(3) for a in locs if a != 2]
    out += [fmt("skill_draw", ())]
    out += [fmt("skill_return", (x, y)) for x in range(nt) for y in range(nt)]
    out += [fmt("skill_church", (t, a, b)) for t in range(nt) for a in locs for b in locs if a != b]
    return out
