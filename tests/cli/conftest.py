"""Fixtures: the `secretbid` toy game (registered only while a test asks for it) and a scripted stdin."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator

import pytest

from . import secretbid


@pytest.fixture
def secret_bid_game() -> Iterator[str]:
    secretbid.register()
    yield "secretbid"
    secretbid.unregister()


@pytest.fixture
def stdin(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """`stdin("q\\n")`: what the person types; the end of the text is the end of input (Ctrl-D)."""

    def feed(text: str) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))

    return feed
