"""Observation encoders, the framework: a seat's view (`state.view(seat)`) as a fixed-length float32 vector.

Each game's encoder is a subclass of `Encoder` in its folder, `tabletop/games/<game>/encoding.py` (the game's
`encoding` part, `tabletop.core.parts`), found here by `encoder(game, players)`; this module knows no game.

Every encoder is a function of the view alone, so two states that give a seat the same view give it the same
observation and nothing hidden can reach a learner (a property test checks it with `state.sample`). Seats are
*relative*: slot 0 is always the observing seat, slot 1 the next seat clockwise, and so on, so one policy can
play any seat. Counts are scaled to about [0, 1] by a fixed divisor named in the layout.

`Encoder.layout` lists the named slices (`name`, `start`, `stop`, `doc`); docs/rl.md prints them and a test
checks that it documents every field.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from tabletop.core.errors import InvalidOptions
from tabletop.core.options import OptionValue
from tabletop.core.parts import part
from tabletop.core.registry import game_info
from tabletop.core.state import View

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
        """`encode_state(state, seat)` from the compiled encoder (the game's `_fastenc` extension, a C translation
        of `encode_state`) when it is built, else `encode_delta`. The environments' path; equal to `encode_state`
        bit for bit (tests/rl/test_encode.py). The returned vector is the caller's own."""
        fn = self._cfn
        if fn is None:
            return self.encode_delta(state, seat)
        return np.frombuffer(fn(state, seat, self._cfg), np.float32)

    @property
    def compiled(self) -> bool:
        """Whether `encode_fast` runs the compiled encoder (the game's C extension is built)."""
        return self._cfn is not None

    def _compiled(self, fn: Any, cfg: list[int]) -> None:
        """Use the compiled encoder `fn` (None when the game's extension is not built) with the offsets and tables
        `cfg` (see the game's _fastenc.c)."""
        self._cfg = array("q", cfg)
        self._cfn = fn

    def _zeros(self) -> array[float]:
        """A fresh float32 buffer of zeros (a Python array: item writes cost a fraction of numpy's)."""
        zero: array[float] | None = getattr(self, "_zero", None)
        if zero is None:
            zero = self._zero = array("f", bytes(4 * self.layout.size))
        return zero[:]


def rel(seat: int, me: int, n: int) -> int:
    """The seat `seat` relative to the observing seat `me` (0: me, 1: the next seat clockwise, ...)."""
    return (seat - me) % n


def check_players(game: str, players: int) -> None:
    """InvalidOptions unless `players` is a player count of `game`."""
    info = game_info(game)
    if not isinstance(players, int) or isinstance(players, bool) or not info.min_players <= players <= info.max_players:
        raise InvalidOptions(f"{info.title} takes {info.min_players}-{info.max_players} players, not {players!r}")


def encoder(game: str, players: int, options: Mapping[str, OptionValue] | None = None) -> Encoder:
    """The observation encoder of `game` for `players` seats (the layout does not depend on the options): the
    `ENCODER` class of the game's `encoding` part."""
    info = game_info(game)
    check_players(info.name, players)
    module = part(info, "encoding")
    if module is None:
        raise InvalidOptions(f"{info.title} has no observation encoder yet (its folder has no 'encoding' part)")
    enc: Encoder = module.ENCODER(players)
    return enc


def describe(game: str, players: int) -> list[dict[str, Any]]:
    """The layout as JSON-ready rows."""
    enc = encoder(game, players)
    return [{"name": f.name, "start": f.start, "stop": f.stop, "doc": f.doc} for f in enc.layout.fields]
