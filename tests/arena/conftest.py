"""Fixtures: the toy games from tests/agents, registered only while a test that asks for them runs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.toygame import register_toys, unregister_toys


@pytest.fixture
def toy_games() -> Iterator[None]:
    register_toys()
    yield
    unregister_toys()
