"""Small helpers for the Silencio rule tests: build positions with `SilencioState.position` and read them back."""

from __future__ import annotations

from typing import Any

from tabletop.games.silencio.notation import COLOURS, card_text
from tabletop.games.silencio.rules import SilencioState

NO_SHRINES = [False] * 5  # all shrines dark: turns end right after the play, without an "end" decision


def pos(players: int, hands: list[list[str]], **kw: Any) -> SilencioState:
    """A position at the start of `to_move`'s turn (default p0); see `SilencioState.position`."""
    return SilencioState.position(players, hands, **kw)


def legal(s: SilencioState) -> list[str]:
    """The legal action texts, sorted."""
    return sorted(a.text for a in s.legal_actions())


def hand(s: SilencioState, p: int) -> list[str]:
    return sorted(card_text(c) for c in s.hands[p])


def front(s: SilencioState, p: int) -> list[str]:
    return sorted(card_text(c) for c in s.fronts[p])


def rows(s: SilencioState) -> dict[str, list[int]]:
    return {COLOURS[i]: list(r) for i, r in enumerate(s.rows)}


def oracle(s: SilencioState) -> list[str]:
    return [card_text(c) for c in s.oracle]


def deck(s: SilencioState) -> list[str]:
    return [card_text(c) for c in s.deck]


def run(s: SilencioState, *actions: str) -> SilencioState:
    for a in actions:
        s.apply(a)
    return s


SHRINES_ALL = [
    "shrine red", "shrine blue", "shrine yellow", "shrine green",
    "shrine large red", "shrine large blue", "shrine large yellow", "shrine large green",
]
