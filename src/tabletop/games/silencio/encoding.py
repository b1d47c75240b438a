"""Silencio's encoding part (`tabletop.core.parts`, "encoding"; docs/rl.md): its observation encoder
(`ENCODER`, built on the framework `tabletop.spaces`), its fixed action space (`action_texts`) and the state fields
its fast and compiled encoders read (`ENCODED_FIELDS`; the compiled one, `_fastenc.c` beside this file, is given
their names by `bind`); and the optional hook `team_reward`, the cooperative team's reward at the end of a game (the
environments' `final_rewards`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tabletop.core.state import State, View
from tabletop.spaces.observations import Encoder, Layout
from tabletop.spaces.observations import rel as _rel

ENCODED_FIELDS: tuple[tuple[str, str], ...] = (
    ("hands", "per seat, the card codes in its hand (colour << 4 | value)"),
    ("known", "per card code, a bit per seat that knows where the card is"),
    ("fronts", "per seat, the face-up cards in front of it"),
    ("oracle", "the face-up oracle cards"),
    ("box", "the cards returned to the box"),
    ("rows", "per colour, the values played into its row"),
    ("halves", "per colour, whether each card of the row shows its dark half"),
    ("shrines", "per shrine (red, blue, yellow, green, large), whether it is light"),
    ("deck", "the cards left in the deck (only their number is read)"),
    ("skip_dark", "the next dark effect is skipped"),
    ("skip_light", "the next light effect is skipped"),
    ("green_only", "only green cards may be played"),
    ("random_play", "the seat that must play a random card (yellow dark), -1 for none"),
    ("tavern", "the tavern variant is on"),
    ("tavern_open", "the tavern is open"),
    ("tavern_count", "dark effects so far (the tavern opens at tavern_opens_after)"),
    ("said", "(seat, phrase) of each seat's last tavern phrase"),
    ("phase", "the phase code (notation.PHASE_NAMES)"),
    ("pending", "the pending effect decision's code (notation.PENDING_TEXT), in the effect phase"),
    ("to_move", "the seat to move, None once over"),
    ("turn", "the seat whose turn it is"),
    ("first", "the first player"),
)
"""The state's fields the fast (`encode_state`) and compiled encoders read, with their meaning:
the one place their names are written (the compiled encoder gets them from here; tests/rl/test_encode.py checks
that each exists on fresh and played states and that the encoders read no other)."""

try:  # the compiled encoder (built at install from _fastenc.c; optional)
    from tabletop.games.silencio import _fastenc
except ImportError:  # pragma: no cover - without a C compiler: the pure-Python encoder, same observations
    _fastenc = None  # type: ignore[assignment]
else:
    _fastenc.bind(tuple(name for name, _ in ENCODED_FIELDS))


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
        self._compiled(None if _fastenc is None else _fastenc.encode, [
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


ENCODER = SilencioEncoder
"""The game's observation encoder (`tabletop.spaces.encoder(game, players)` builds `ENCODER(players)`)."""


def action_texts(players: int) -> list[str]:
    """Every action text this game can form with its components, under every option, in mapping order (the
    order is part of the mapping: append new kinds at the end)."""
    from tabletop.games.silencio import notation as r
    from tabletop.games.silencio.components import COMPONENTS

    fmt = r._format
    maxv = COMPONENTS.max_value[players]
    cards = [col * 16 + v for col in range(4) for v in range(2, maxv + 1)]
    out = ["pass", "end", "skip", "use red light", "renew oracle"]
    for verb in ("play", "give", "take", "place", "return"):
        out += [fmt(verb, (c,)) for c in cards]
    out += [fmt("giveto", (c, q)) for c in cards for q in range(players)]
    out += [fmt("oracle", (c, q)) for c in cards for q in range(players)]
    out += [fmt("swap", (o, c)) for o in cards for c in cards if o != c]
    out += [fmt("choose", (q,)) for q in range(players)]
    out += [fmt("shrine", (col,)) for col in range(4)]
    out += [fmt("shrine", (r.LARGE, col)) for col in range(4)]
    out += [fmt("tavern", ("count", k)) for k in range(len(cards) + 1)]
    out += [fmt("tavern", (phrase, r.COLOURS[col])) for phrase in ("high", "avoid") for col in range(4)]
    return out


def team_reward(state: State) -> float:
    """The team's reward at the end of a game (every seat gets it, in both reward modes): `1 - cards_left /
    cards_dealt`, plus 1 for the perfect game (no card left), so from below 0 (the team holds more cards than were
    dealt) to 2."""
    from tabletop.games.silencio.components import COMPONENTS

    left = -state.scores()[0]
    dealt = int(COMPONENTS.hand_size[state.players]) * state.players
    return 1.0 - left / dealt + (1.0 if state.winners() else 0.0)
