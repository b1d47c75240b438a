"""Actions: small immutable values with a canonical text form, interned per game so the hot path allocates nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Arg = int | str


class Action:
    """One decision: a verb, its arguments and its canonical text (`str(action)`).

    Instances are interned by their game's `ActionTable`, so equal actions are usually the same object and
    comparing them is an identity check. Actions are immutable and hashable.
    """

    __slots__ = ("_hash", "args", "text", "verb")

    verb: str
    args: tuple[Arg, ...]
    text: str
    _hash: int

    def __init__(self, verb: str, args: tuple[Arg, ...], text: str) -> None:
        object.__setattr__(self, "verb", verb)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "_hash", hash((verb, args)))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("actions are immutable")

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Action):
            return NotImplemented
        return self.verb == other.verb and self.args == other.args

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (self.verb, self.args, self.text))


class ActionTable:
    """Interns a game's actions: `table(verb, *args)` returns the one shared `Action` for that decision."""

    __slots__ = ("_cache", "_format")

    def __init__(self, format: Callable[[str, tuple[Arg, ...]], str]) -> None:
        self._format = format
        self._cache: dict[tuple[str, tuple[Arg, ...]], Action] = {}

    def __call__(self, verb: str, *args: Arg) -> Action:
        key = (verb, args)
        a = self._cache.get(key)
        if a is None:
            a = Action(verb, args, self._format(verb, args))
            self._cache[key] = a
        return a


def normalize_text(text: str) -> str:
    """The comparison form of an action text: lower case, single spaces."""
    return " ".join(text.lower().split())
