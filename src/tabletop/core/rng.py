"""A small seeded random number generator whose whole state is one integer, so that cloning it is free.

SplitMix64 (Steele, Lea & Flood 2014): statistically sound for game chance, trivially copyable, and
identical on every platform and Python version, which record replay relies on.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


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
        return self.next64() % n  # bias < n / 2**64: negligible for game-sized n

    def choice(self, items: Sequence[T]) -> T:
        """A uniform element of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates), each swap drawn by `next64` (written out here: a deck's shuffle is most of
        a game's set-up, and the method call was most of each draw's cost)."""
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
