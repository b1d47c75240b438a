"""The optional parts of a game folder, found the same way for every game, built-in or plugin.

A game is one folder (a package): its `__init__` registers its `GameInfo`, and everything another layer needs to
know about the game lives beside it, in modules of well-known names. A layer never imports a game's module by
name: it asks `part(game, "heuristic")` and gets the module, or None when the game has no such part (and the layer
does without it, or says the feature is not available for that game). The parts, and what each must define, are
listed in `PARTS` (docs/architecture.md explains each one); `tests/conformance/test_parts.py` checks that every
registered game's parts define what they must.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from tabletop.core.errors import TabletopError
from tabletop.core.registry import game_info
from tabletop.core.state import GameInfo

PARTS: dict[str, tuple[str, ...]] = {
    "heuristic": ("HeuristicAgent",),
    "render": ("render",),
    "tui": (),
    "features": ("seat_features",),
    "ai": (),  # optional names: value, VALUE_SCALE, SCORE_SCALE, CUTOFF_DEPTH (all four or none), explain, LEVELS
    "team": ("convention_filter", "new_belief", "known_cards", "repair", "fast_rollout", "stuck", "hint_reason"),
    "encoding": ("ENCODER", "ENCODED_FIELDS", "action_texts"),
    "sampler": ("sample_from_view",),  # a state from a seat's view and log alone (tabletop.core.belief)
}
"""Part name -> the names its module must define (documented in docs/architecture.md, "The parts of a game")."""

_CACHE: dict[tuple[str, str], ModuleType | None] = {}


def part(game: str | GameInfo, name: str) -> ModuleType | None:
    """The module `name` of the game's folder (`<GameInfo.home>.<name>`), or None if the game has none.

    An error inside the part's own import is not hidden (only the part's absence gives None)."""
    info = game if isinstance(game, GameInfo) else game_info(game)
    key = (info.home, name)
    if key in _CACHE:
        return _CACHE[key]
    module_name = f"{info.home}.{name}"
    try:
        module: ModuleType | None = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name != module_name:
            raise
        module = None
    _CACHE[key] = module
    return module


def require(game: str | GameInfo, name: str, what: str) -> ModuleType:
    """The part `name`, or `MissingPart` saying that `what` is not available for the game."""
    module = part(game, name)
    if module is None:
        info = game if isinstance(game, GameInfo) else game_info(game)
        raise MissingPart(f"{info.title} has no {what} (its folder has no {name!r} part)")
    return module


class MissingPart(TabletopError):
    """A game folder lacks the part a feature needs."""
