"""Actions: small immutable values with a canonical text form, interned per game so the hot path allocates nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Arg = int | str


class Action:
    """One decision: a verb, its arguments and its canonical text (`str(action)`).

    Actions are interned: constructing the same (verb, args, text) twice returns the same object, also after
    pickling. So equality is identity (there is no `__eq__`), and `State.apply` looks an action up in the legal list
    by identity (compiled: a scan of pointers, `tabletop.core.state._holds`). Immutable.
    """

    __slots__ = ("__weakref__", "args", "text", "verb")

    verb: str
    args: tuple[Arg, ...]
    text: str

    def __new__(cls, verb: str, args: tuple[Arg, ...], text: str) -> Action:
        key = (verb, args, text)
        a = _INTERNED.get(key)
        if a is None:
            a = object.__new__(cls)
            object.__setattr__(a, "verb", verb)
            object.__setattr__(a, "args", args)
            object.__setattr__(a, "text", text)
            _INTERNED[key] = a
        return a

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("actions are immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (self.verb, self.args, self.text))

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: Any) -> Action:
        return self


_INTERNED: dict[tuple[str, tuple[Arg, ...], str], Action] = {}


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
