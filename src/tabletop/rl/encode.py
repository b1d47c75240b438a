"""Observation encoders: a seat's view (`state.view(seat)`) as a fixed-length float32 vector.

Every encoder is a function of the view alone, so two states that give a seat the same view give it the same
observation and nothing hidden can reach a learner (a property test checks it with `state.sample`). Seats are
*relative*: slot 0 is always the observing seat, slot 1 the next seat clockwise, and so on, so one policy can
play any seat. Counts are scaled to about [0, 1] by a fixed divisor named in the layout.

`Encoder.layout` lists the named slices (`name`, `start`, `stop`, `doc`); docs/rl.md prints them and a test
checks that it documents every field.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter, ne
from typing import Any

import numpy as np

from tabletop.core import game_info
from tabletop.core.errors import InvalidOptions
from tabletop.core.options import OptionValue
from tabletop.core.state import View

try:  # the compiled encoders (built at install from _fastenc.c; optional)
    from tabletop.rl import _fastenc
except ImportError:  # pragma: no cover - without a C compiler: the pure-Python encoders, same observations
    _fastenc = None  # type: ignore[assignment]

COMPILED = _fastenc is not None
"""Whether the compiled encoders are in use (`Encoder.encode_fast`)."""

OBS_LOW, OBS_HIGH = -1.0, 4.0
"""Bounds of every observation entry (the environments' Box); most entries lie in [0, 1]."""


@dataclass(frozen=True)
class Field:
    """One named slice of an observation vector."""

    name: str
    start: int
    stop: int
    doc: str


class Layout:
    """Named slices of an observation vector, added in order."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.size = 0

    def add(self, name: str, n: int, doc: str) -> int:
        """Reserve `n` entries called `name`; returns their start offset."""
        start = self.size
        self.fields.append(Field(name, start, start + n, doc))
        self.size += n
        return start

    def slice(self, name: str) -> slice:
        """The slice of the field called `name`."""
        for f in self.fields:
            if f.name == name:
                return slice(f.start, f.stop)
        raise KeyError(name)

    def table(self) -> str:
        """A Markdown table of the layout (for docs/rl.md)."""
        rows = ["| slice | field | meaning |", "| --- | --- | --- |"]
        rows += [f"| {f.start}:{f.stop} | `{f.name}` | {f.doc} |" for f in self.fields]
        return "\n".join(rows)


class Encoder:
    """Turns a view of one seat into a vector of `layout.size` float32 values."""

    game: str
    players: int
    layout: Layout
    _cfn: Any = None  # the compiled encoder (`_compiled`), None without it
    _cfg: array[int]

    @property
    def size(self) -> int:
        """The length of every observation."""
        return self.layout.size

    def encode(self, view: View) -> np.ndarray:
        """The observation of `view` (a view for a seat, not a spectator's)."""
        out = np.zeros(self.layout.size, dtype=np.float32)
        self.fill(view, out)
        return out

    def fill(self, view: View, out: np.ndarray) -> None:
        """Write the observation of `view` into `out` (already zeroed)."""
        raise NotImplementedError

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        """The observation of `state.view(seat)`, computed from the state's fields without building the view.

        The fast path of the environments. It reads only what `view(seat)` shows, and it equals
        `encode(state.view(seat))` exactly (a hypothesis test compares them on random states of every game,
        player count and option set, and checks the fast path on sampled states too). The base version builds
        the view.
        """
        return self.encode(state.view(seat))

    def encode_delta(self, state: Any, seat: int) -> np.ndarray:
        """`encode_state(state, seat)`, computed incrementally: the encoder keeps each seat's last observation with
        copies of the state fields it was computed from, and rewrites only the blocks whose fields changed.

        The environments' path. Equal to `encode_state` on any sequence of states (of any games of this encoder's
        game and player count; a property test jumps between unrelated positions). Not thread-safe: one encoder
        per thread. The base version is `encode_state`.
        """
        return self.encode_state(state, seat)

    def encode_fast(self, state: Any, seat: int) -> np.ndarray:
        """`encode_state(state, seat)` from the compiled encoder (`tabletop.rl._fastenc`, a C translation of
        `encode_state`) when it is built, else `encode_delta`. The environments' path; equal to `encode_state` bit
        for bit (tests/rl/test_encode.py). The returned vector is the caller's own."""
        fn = self._cfn
        if fn is None:
            return self.encode_delta(state, seat)
        return np.frombuffer(fn(state, seat, self._cfg), np.float32)

    def _compiled(self, name: str, cfg: list[int]) -> None:
        """Use the compiled encoder `name` with the offsets and tables `cfg` (see _fastenc.c), if it is built."""
        self._cfg = array("q", cfg)
        self._cfn = None if _fastenc is None else getattr(_fastenc, name)

    def _zeros(self) -> array[float]:
        """A fresh float32 buffer of zeros (a Python array: item writes cost a fraction of numpy's)."""
        zero: array[float] | None = getattr(self, "_zero", None)
        if zero is None:
            zero = self._zero = array("f", bytes(4 * self.layout.size))
        return zero[:]


def _rel(seat: int, me: int, n: int) -> int:
    return (seat - me) % n


# ---- Silencio ------------------------------------------------------------------------------------------------


class SilencioEncoder(Encoder):
    """Silencio: cards as one-hot sets (colour-major, values 2..max), the rows, shrines, effects and the phase."""

    def __init__(self, players: int) -> None:
        from tabletop.games.silencio import notation as r
        from tabletop.games.silencio.components import COMPONENTS

        self.game, self.players = "silencio", players
        n = players
        self.maxv = maxv = COMPONENTS.max_value[n]
        self.per = maxv - 1
        self.nc = nc = 4 * self.per
        self.colours = tuple(r.COLOURS)
        self.phases = tuple(r.PHASE_NAMES)
        self.pending = tuple(r.PENDING_TEXT)
        cards = "one entry per card, colour-major (red, blue, yellow, green), values 2.." + str(maxv)
        lay = self.layout = Layout()
        self.o_hand = lay.add("hand", nc, f"my hand ({cards})")
        self.o_known = lay.add("known", (n - 1) * nc, "cards I know in the hand of seat +1, +2, ... (relative)")
        self.o_front = lay.add("fronts", n * nc, "face-up cards in front of seat +0, +1, ... (relative)")
        self.o_oracle = lay.add("oracle", nc, "the face-up oracle cards")
        self.o_box = lay.add("box", nc, "cards returned to the box")
        self.o_rows = lay.add("rows", nc, "cards played into the rows")
        self.o_last = lay.add("row_last", 4, f"last value of each row / {maxv} (0: empty)")
        self.o_dark = lay.add("row_last_dark", 4, "1 if the last card of the row shows its dark half")
        self.o_shrines = lay.add("shrines_light", 5, "light shrines: red, blue, yellow, green, large")
        self.o_sizes = lay.add("hand_sizes", n, "hand size of seat +0, +1, ... / 12")
        self.o_deck = lay.add("deck", 1, f"cards left in the deck / {nc}")
        self.o_eff = lay.add("effects", 3, "skip next dark, skip next light, green only")
        self.o_rand = lay.add("random_play", n, "one-hot relative seat that must play a random card (yellow dark)")
        self.o_tav = lay.add("tavern", 3, "tavern variant on, tavern open, dark effects / opens-at")
        self.o_said = lay.add("said", n * 9, "per relative seat, its last tavern phrase: count/48, high colour "
                              "one-hot (4), avoid colour one-hot (4)")
        self.o_phase = lay.add("phase", len(self.phases), "one-hot phase: " + ", ".join(self.phases))
        self.o_pend = lay.add("pending", len(self.pending), "one-hot pending effect decision (phase effect)")
        self.o_move = lay.add("to_move", n, "one-hot relative seat to move (all 0 when over)")
        self.o_turn = lay.add("turn", n, "one-hot relative seat whose turn it is")
        self.o_first = lay.add("first_player", n, "one-hot relative first player")
        self.o_left = lay.add("cards_left", 1, f"cards left to the team / {nc}")
        self.letter = {ch: i for i, ch in enumerate("rbyg")}
        # the fast path (encode_state) reads the state's own codes
        self._effect, self._over, self._passing = r.EFFECT, r.OVER, r.PASSING
        self._opens_at = COMPONENTS.tavern_opens_after
        assert self.phases == tuple(r.PHASE_NAMES) and tuple(r.COLOURS) == ("red", "blue", "yellow", "green")
        self._pending_slot = [next((j for j, t in enumerate(self.pending) if f"p0: {text}".endswith(t)), -1)
                              for text in r.PENDING_TEXT]
        self._said: dict[str, tuple[int, float] | tuple[int, int, int]] = {}
        self._compiled("silencio", [
            lay.size, n, nc, self.per, maxv, self.o_hand, self.o_known, self.o_front, self.o_oracle, self.o_box,
            self.o_rows, self.o_last, self.o_dark, self.o_shrines, self.o_sizes, self.o_deck, self.o_eff,
            self.o_rand, self.o_tav, self.o_said, self.o_phase, self.o_pend, self.o_move, self.o_turn, self.o_first,
            self.o_left, self._effect, self._over, self._passing, self._opens_at, len(self._pending_slot),
            *self._pending_slot,
        ])

    def encode_fast(self, state: Any, seat: int) -> np.ndarray:
        fn = self._cfn
        if fn is None:
            return self.encode_state(state, seat)
        out = fn(state, seat, self._cfg, self._said)
        if out is None:  # a tavern phrase not seen yet: cache its slots, then again
            for _, text in state.said:
                if text not in self._said:
                    self._said[text] = self._said_slots(text)
            out = fn(state, seat, self._cfg, self._said)
        return np.frombuffer(out, np.float32)

    def _card(self, text: str) -> int:
        return self.letter[text[0]] * self.per + int(text[1:]) - 2

    def fill(self, view: View, out: np.ndarray) -> None:
        n, me, nc, card = self.players, view["seat"], self.nc, self._card
        for c in view["hand"] or ():
            out[self.o_hand + card(c)] = 1
        for q, cs in view["known"].items():
            base = self.o_known + (_rel(int(q), me, n) - 1) * nc
            for c in cs:
                out[base + card(c)] = 1
        for q, cs in enumerate(view["fronts"]):
            base = self.o_front + _rel(q, me, n) * nc
            for c in cs:
                out[base + card(c)] = 1
        for c in view["oracle"]:
            out[self.o_oracle + card(c)] = 1
        for c in view["box"]:
            out[self.o_box + card(c)] = 1
        rows, halves = view["rows"], view["halves"]
        for i, col in enumerate(self.colours):
            row = rows[col]
            letter = "rbyg"[i]
            for v in row:
                if v >= 2:
                    out[self.o_rows + card(f"{letter}{v}")] = 1
            if row:
                out[self.o_last + i] = row[-1] / self.maxv
                out[self.o_dark + i] = halves[col][-1] == "dark"
        for i, lit in enumerate(view["shrines"].values()):
            out[self.o_shrines + i] = lit == "light"
        for q, size in enumerate(view["hand_sizes"]):
            out[self.o_sizes + _rel(q, me, n)] = size / 12
        out[self.o_deck] = view["deck"] / nc
        eff = view["effects"]
        out[self.o_eff] = eff["skip_next_dark"]
        out[self.o_eff + 1] = eff["skip_next_light"]
        out[self.o_eff + 2] = eff["green_only"]
        if eff["random_play"] is not None:
            out[self.o_rand + _rel(eff["random_play"], me, n)] = 1
        tav = view["tavern"]
        if tav is not None:
            out[self.o_tav] = 1
            out[self.o_tav + 1] = tav["open"]
            out[self.o_tav + 2] = tav["dark_effects"] / max(1, tav["opens_at"])
        for p, text in view["said"]:
            base = self.o_said + _rel(p, me, n) * 9
            words = text.rstrip(".").split()
            if text.startswith("I have only"):
                out[base + 1:base + 5] = 0
                out[base + 1 + self.colours.index(words[-1])] = 1
            elif text.startswith("Please"):
                out[base + 5:base + 9] = 0
                out[base + 5 + self.colours.index(words[4])] = 1
            else:
                out[base] = int(words[2]) / 48
        out[self.o_phase + self.phases.index(view["phase"])] = 1
        if view["phase"] == "effect":
            decision = view["decision"]
            for k, t in enumerate(self.pending):
                if decision.endswith(t):
                    out[self.o_pend + k] = 1
                    break
        if view["to_move"] is not None:
            out[self.o_move + _rel(view["to_move"], me, n)] = 1
        if view["turn"] is not None:
            out[self.o_turn + _rel(view["turn"], me, n)] = 1
        out[self.o_first + _rel(view["first_player"], me, n)] = 1
        out[self.o_left] = view["cards_left"] / nc

    def _said_slots(self, text: str) -> tuple[int, float] | tuple[int, int, int]:
        """A tavern phrase as (offset, value) for a count, or (reset start, reset stop, one-hot offset)."""
        words = text.rstrip(".").split()
        if text.startswith("I have only"):
            return (1, 5, 1 + self.colours.index(words[-1]))
        if text.startswith("Please"):
            return (5, 9, 5 + self.colours.index(words[4]))
        return (0, int(words[2]) / 48)

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        n, me, nc, per = self.players, seat, self.nc, self.per
        o = self._zeros()
        hands, known, bit = state.hands, state.known, 1 << seat
        base = self.o_hand - 2
        for c in hands[seat]:
            o[base + (c >> 4) * per + (c & 15)] = 1
        for q in range(n):
            if q != seat:
                base = self.o_known + ((q - me) % n - 1) * nc - 2
                for c in hands[q]:
                    if known[c] & bit:
                        o[base + (c >> 4) * per + (c & 15)] = 1
        for q, cs in enumerate(state.fronts):
            base = self.o_front + (q - me) % n * nc - 2
            for c in cs:
                o[base + (c >> 4) * per + (c & 15)] = 1
        base = self.o_oracle - 2
        for c in state.oracle:
            o[base + (c >> 4) * per + (c & 15)] = 1
        base = self.o_box - 2
        for c in state.box:
            o[base + (c >> 4) * per + (c & 15)] = 1
        halves = state.halves
        for i, row in enumerate(state.rows):
            base = self.o_rows + i * per - 2
            for v in row:
                if v >= 2:
                    o[base + v] = 1
            if row:
                o[self.o_last + i] = row[-1] / self.maxv
                o[self.o_dark + i] = 1 if halves[i][-1] else 0
        for i, lit in enumerate(state.shrines):
            if lit:
                o[self.o_shrines + i] = 1
        size = 0
        for q, h in enumerate(hands):
            o[self.o_sizes + (q - me) % n] = len(h) / 12
            size += len(h)
        o[self.o_deck] = len(state.deck) / nc
        o[self.o_eff] = state.skip_dark
        o[self.o_eff + 1] = state.skip_light
        o[self.o_eff + 2] = state.green_only
        if state.random_play >= 0:
            o[self.o_rand + (state.random_play - me) % n] = 1
        if state.tavern:
            o[self.o_tav] = 1
            o[self.o_tav + 1] = state.tavern_open
            o[self.o_tav + 2] = state.tavern_count / max(1, self._opens_at)
        cache = self._said
        for p, text in state.said:
            base = self.o_said + (p - me) % n * 9
            slots = cache.get(text)
            if slots is None:
                slots = cache[text] = self._said_slots(text)
            if len(slots) == 2:
                o[base + slots[0]] = slots[1]
            else:
                for k in range(base + slots[0], base + slots[1]):
                    o[k] = 0
                o[base + slots[2]] = 1
        phase = state.phase
        o[self.o_phase + phase] = 1
        if phase == self._effect:
            k = self._pending_slot[state.pending]
            if k >= 0:
                o[self.o_pend + k] = 1
        if state.to_move is not None:
            o[self.o_move + (state.to_move - me) % n] = 1
        if phase != self._over and phase != self._passing:
            o[self.o_turn + (state.turn - me) % n] = 1
        o[self.o_first + (state.first - me) % n] = 1
        o[self.o_left] = (size + sum(map(len, state.fronts))) / nc
        return np.frombuffer(o, np.float32)


# ---- SILOS -----------------------------------------------------------------------------------------------------


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
        self._compiled("silos", [
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


# ---- SiliconVania ----------------------------------------------------------------------------------------------


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
        self._compiled("siliconvania", head + cfg_tables)

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


ENCODERS: dict[str, Callable[[int], Encoder]] = {
    "silencio": SilencioEncoder,
    "silos": SilosEncoder,
    "siliconvania": SiliconVaniaEncoder,
}


def encoder(game: str, players: int, options: Mapping[str, OptionValue] | None = None) -> Encoder:
    """The observation encoder of `game` for `players` seats (the layout does not depend on the options)."""
    info = game_info(game)
    if not isinstance(players, int) or isinstance(players, bool) or not info.min_players <= players <= info.max_players:
        raise InvalidOptions(f"{info.title} takes {info.min_players}-{info.max_players} players, not {players!r}")
    make = ENCODERS.get(info.name)
    if make is None:
        raise InvalidOptions(f"{info.title} has no observation encoder yet")
    return make(players)


def describe(game: str, players: int) -> list[dict[str, Any]]:
    """The layout as JSON-ready rows."""
    enc = encoder(game, players)
    return [{"name": f.name, "start": f.start, "stop": f.stop, "doc": f.doc} for f in enc.layout.fields]
