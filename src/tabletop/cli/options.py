"""Game options written on the command line: `--option key=value`, parsed by each option's own parser."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tabletop
from tabletop.core import game_info


def parse_options(game: str, pairs: Sequence[str]) -> dict[str, Any]:
    """`--option key=value` pairs parsed with each option's own parser (`tavern`, `3`, `3,5`)."""
    info = game_info(game)
    out: dict[str, Any] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq:
            raise tabletop.InvalidOptions(f"--option takes key=value, got {pair!r}")
        try:
            opt = info.option(key.strip())
        except KeyError:
            known = ", ".join(o.name for o in info.options) or "none"
            raise tabletop.InvalidOptions(f"unknown option {key!r} for {game}; its options: {known}") from None
        out[opt.name] = opt.parse(value)
    return out
