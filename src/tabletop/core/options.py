"""Game options: each declared once with its default and allowed values, validated at setup."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tabletop.core.errors import InvalidOptions

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
        """The value normalised (subsets sorted), or InvalidOptions saying what is allowed."""
        if self.multi:
            if isinstance(value, str):
                value = self.parse(value)
            if not isinstance(value, list | tuple) or len(set(value)) != len(value):
                raise InvalidOptions(f"option {self.name!r}: {value!r} is not allowed; expected {self.allowed()}")
            for v in value:
                if v not in self.choices:
                    raise InvalidOptions(f"option {self.name!r}: {v!r} is not allowed; expected {self.allowed()}")
            value = sorted(value, key=self.choices.index)
        elif value not in self.choices or isinstance(value, bool) != any(
            isinstance(c, bool) and c == value for c in self.choices
        ):
            raise InvalidOptions(f"option {self.name!r}: {value!r} is not allowed; expected {self.allowed()}")
        if self.check is not None:
            msg = self.check(value, players)
            if msg:
                raise InvalidOptions(f"option {self.name!r}: {msg}")
        return value

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
        raise InvalidOptions(f"option {self.name!r}: {text!r} is not allowed; expected {self.allowed()}")


def resolve_options(
    declared: tuple[Option, ...], given: Mapping[str, OptionValue] | None, players: int
) -> dict[str, OptionValue]:
    """All options with defaults filled in, each validated; unknown names are refused."""
    given = dict(given or {})
    by_name = {o.name: o for o in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise InvalidOptions(f"unknown option(s) {', '.join(map(repr, unknown))}; this game's options: {known}")
    out: dict[str, OptionValue] = {}
    for o in declared:
        value = given.get(o.name, o.default)
        if o.multi and isinstance(value, list | tuple):
            value = list(value)
        out[o.name] = o.validate(value, players)
    return out
