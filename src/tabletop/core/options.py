"""Game options: each declared once with its default and allowed values, validated at setup."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tabletop.core.errors import InvalidOptions, shorten

OptionValue = Any


@dataclass(frozen=True)
class Option:
    """One setup option of a game.

    `choices` lists the allowed values. With `multi=True` the value is a list of distinct choices (a subset,
    e.g. which locations use their alternate tile). `check` is an optional cross-check against the player
    count; it returns an error message or None.
    """

    name: str
    default: OptionValue
    choices: tuple[OptionValue, ...]
    doc: str = ""
    multi: bool = False
    check: Callable[[OptionValue, int], str | None] | None = field(default=None, compare=False)

    def allowed(self) -> str:
        """Human-readable allowed values."""
        vals = ", ".join(str(c) for c in self.choices)
        return f"a list of distinct values from {{{vals}}}" if self.multi else f"one of {{{vals}}}"

    def validate(self, value: OptionValue, players: int) -> OptionValue:
        """The value normalised (the declared choice itself; subsets sorted), or InvalidOptions saying what is allowed.

        A value matches a choice only if it has the choice's exact type: `3.0` is not `3`, `True` is not `1`.
        """
        if self.multi:
            if isinstance(value, str):
                value = self.parse(value)
            if not isinstance(value, list | tuple):
                raise InvalidOptions(
                    f"option {self.name!r}: {shorten(value)} is not allowed; expected {self.allowed()}"
                )
            picked = [self._choice(v) for v in value]
            index = [next(i for i, c in enumerate(self.choices) if c is p) for p in picked]
            if len(set(index)) != len(index):
                raise InvalidOptions(
                    f"option {self.name!r}: {shorten(value)} repeats a value, which is not allowed; "
                    f"expected {self.allowed()}"
                )
            value = [self.choices[i] for i in sorted(index)]
        else:
            value = self._choice(value)
        if self.check is not None:
            msg = self.check(list(value) if self.multi else value, players)
            if msg:
                raise InvalidOptions(f"option {self.name!r}: {msg}")
        return value

    def _choice(self, value: OptionValue) -> OptionValue:
        """The declared choice equal to `value` and of its exact type, else InvalidOptions."""
        for c in self.choices:
            if type(c) is type(value) and c == value:
                return c
        raise InvalidOptions(f"option {self.name!r}: {shorten(value)} is not allowed; expected {self.allowed()}")

    def parse(self, text: str) -> OptionValue:
        """The value written as command-line text (`tavern`, `3`, `true`, `3,5`)."""
        if self.multi:
            parts = [p for p in text.replace(" ", "").split(",") if p]
            return [self._parse_one(p) for p in parts]
        return self._parse_one(text)

    def _parse_one(self, text: str) -> OptionValue:
        for c in self.choices:
            if str(c).lower() == text.strip().lower():
                return c
        raise InvalidOptions(f"option {self.name!r}: {shorten(text)} is not allowed; expected {self.allowed()}")


def resolve_options(
    declared: tuple[Option, ...], given: Mapping[str, OptionValue] | None, players: int
) -> dict[str, OptionValue]:
    """All options with defaults filled in, each validated; unknown names are refused.

    The result shares no mutable value with `given` or the declarations (list values are fresh lists).
    """
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise InvalidOptions(f"options must be a dict of option name to value, not {type(given).__name__}")
    by_name = {o.name: o for o in declared}
    known = ", ".join(sorted(by_name)) or "none"
    bad = [k for k in given if not isinstance(k, str)]
    if bad:
        raise InvalidOptions(f"option names are strings, not {shorten(bad[0])}; this game's options: {known}")
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise InvalidOptions(f"unknown option(s) {shorten(', '.join(unknown), 200)}; this game's options: {known}")
    out: dict[str, OptionValue] = {}
    for o in declared:
        value = given.get(o.name, o.default)
        out[o.name] = o.validate(value, players)
    return out
