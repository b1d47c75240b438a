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


class _ShortRepr:
    """Bounded `repr`: error messages never echo megabytes of input, deep nesting or huge numbers."""

    def __init__(self) -> None:
        import reprlib

        r = reprlib.Repr()
        r.maxlevel = 3
        r.maxstring = r.maxother = r.maxlong = 60
        r.maxlist = r.maxtuple = r.maxdict = r.maxset = 8
        self._r = r

    def __call__(self, value: object, limit: int = 80) -> str:
        try:
            text = self._r.repr(value)
        except Exception:  # e.g. an int too long to print, or a repr that raises
            text = f"<{type(value).__name__}>"
        return text if len(text) <= limit else text[: limit - 3] + "..."


shorten = _ShortRepr()
"""`shorten(value)`: a `repr` of at most 80 characters, safe for any input (for error messages)."""
