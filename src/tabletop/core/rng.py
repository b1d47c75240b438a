"""A small seeded random number generator whose whole state is one integer, so that cloning it is free.

SplitMix64 (Steele, Lea & Flood 2014): statistically sound for game chance, trivially copyable, and
identical on every platform and Python version, which record replay relies on.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

from mypy_extensions import i64

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1

# SplitMix64 in native 64-bit integers, for the compiled build (src/tabletop/native.py), where an `i64` is a machine
# integer whose arithmetic wraps (C with -fwrapv, as CPython's extensions are built). The same 64 bits as the
# unsigned arithmetic above, held signed: a logical right shift is an arithmetic one masked, and the unsigned
# value's remainder adds back the top bit's. In pure Python an `i64` is a plain int that does not wrap, so these
# functions are used only where `COMPILED` found that it does; the two builds' games are compared draw for draw
# (tests/core/test_native.py) and the two paths here (tests/core/test_core.py).
_GOLDEN: Final = 0x9E3779B97F4A7C15 - (1 << 64)
_MUL1: Final = 0xBF58476D1CE4E5B9 - (1 << 64)
_MUL2: Final = 0x94D049BB133111EB - (1 << 64)
_LOW63: Final = (1 << 63) - 1


def _wraps() -> bool:
    x: i64 = 1 << 62
    return x * 4 == 0


COMPILED: Final = _wraps()
"""Whether the engine runs compiled by mypyc, with machine integers: then the `_native_*` paths here are used, and
the games' frame machines call their frequent kinds directly. A build is used whole (src/tabletop/native.py), so
this says it for every engine module."""


def _signed(state: int) -> i64:
    return state - (1 << 64) if state >= 1 << 63 else state


def _unsigned(s: i64) -> int:
    big: int = s  # an int of any size: the sum below does not fit 64 signed bits
    return big + (1 << 64) if big < 0 else big


def _mix(s: i64) -> i64:
    z: i64 = (s ^ ((s >> 30) & 0x3FFFFFFFF)) * _MUL1
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MUL2
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


def _mod(z: i64, n: i64) -> i64:
    """The unsigned value of `z` modulo `n` (0 < n < 2**62)."""
    if z >= 0:
        return z % n
    return ((z & _LOW63) % n + ((1 << 62) % n) * 2 % n) % n


def _native_below(rng: Rng, n: i64) -> i64:
    s: i64 = _signed(rng.state) + _GOLDEN
    rng.state = _unsigned(s)
    return _mod(_mix(s), n)


def _native_shuffle_list(rng: Rng, items: list[T]) -> None:
    """`_native_shuffle` of a list, whose items compiled code reaches directly."""
    s: i64 = _signed(rng.state)
    i: i64 = len(items) - 1
    while i > 0:
        s += _GOLDEN
        j = _mod(_mix(s), i + 1)
        items[i], items[j] = items[j], items[i]
        i -= 1
    rng.state = _unsigned(s)


def _native_shuffle(rng: Rng, items: MutableSequence[T]) -> None:
    if type(items) is list:
        _native_shuffle_list(rng, items)
        return
    shuffled = list(items)  # any other sequence: the same swaps on a list, written back
    _native_shuffle_list(rng, shuffled)
    for k, item in enumerate(shuffled):
        items[k] = item


class Rng:
    """Seeded SplitMix64 generator; `copy()` is O(1)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        self.state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n); n must be positive."""
        if n <= 0:
            raise ValueError("Rng.below needs a positive bound")
        if COMPILED and n < 1 << 62:
            return _native_below(self, n)
        return self.next64() % n  # bias < n / 2**64: negligible for game-sized n

    def choice(self, items: Sequence[T]) -> T:
        """A uniform element of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates), each swap drawn by `next64` (written out here: a deck's shuffle is most of
        a game's set-up, and the method call was most of each draw's cost)."""
        if COMPILED:
            _native_shuffle(self, items)
            return
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            s = (s + 0x9E3779B97F4A7C15) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = s

    def copy(self) -> Rng:
        """An independent generator in the same state."""
        return Rng(self.state)  # the state is already within 64 bits
