"""The games, one self-contained folder each: `tabletop.games.silencio`, `tabletop.games.silos`, ...

This package is also what `tabletop.games()` calls once a game folder has been imported (Python binds a
subpackage as an attribute of its parent, which would otherwise hide the `games()` function of the contract),
so the module is made callable and returns the registered game names.
"""

from __future__ import annotations

import sys
import types


class _GamesModule(types.ModuleType):
    def __call__(self) -> list[str]:
        from tabletop.core.registry import games

        return games()


sys.modules[__name__].__class__ = _GamesModule
