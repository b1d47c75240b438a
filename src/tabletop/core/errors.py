"""Errors the engine raises: each is a ValueError whose message says what was wrong and what is allowed."""

from __future__ import annotations


class TabletopError(ValueError):
    """Base class: a request the engine refuses. The game state is never changed by a refused request."""


class UnknownGame(TabletopError):
    """A game name that is not registered."""


class InvalidOptions(TabletopError):
    """An unknown option, a value that is not allowed, or a player count outside the game's range."""


class IllegalAction(TabletopError):
    """An action that is malformed or not legal in the current state."""


class InvalidRecord(TabletopError):
    """A record that is malformed, of another rules version, or that does not replay."""
