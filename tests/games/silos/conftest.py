"""Helpers for SILOS rule tests: positions built with `SilosState.from_position` and played by action text."""

from __future__ import annotations

import pytest

import tabletop.games.silos  # noqa: F401  (registers the game)
from tabletop.games.silos.state import SilosState

BLUE, YELLOW, PURPLE, GREEN = 0, 1, 2, 3
P, G, I, R = 0, 1, 2, 3  # politician, government, influencer, professional


def play(s: SilosState, *texts: str) -> SilosState:
    """Apply action texts in order (each must be legal)."""
    for t in texts:
        s.apply(t)
    return s


def legal(s: SilosState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


@pytest.fixture
def pos():
    return SilosState.from_position
