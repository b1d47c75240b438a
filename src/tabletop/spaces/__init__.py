"""Observation encoders and fixed action spaces, the framework every game's `encoding` part builds on (docs/rl.md).

A layer between the core and the games: it imports only `tabletop.core` (and numpy) and knows no game. A game's
folder holds its encoder (an `Encoder` subclass), its action texts and its compiled encoder,
`tabletop/games/<game>/encoding.py` and `_fastenc.c`; `encoder(game, players)` and `action_space(game, players)`
find them through `tabletop.core.parts.part(game, "encoding")`. The policy agent and the environments use this
package.
"""

from tabletop.spaces.actions import ActionSpace, action_space, generate, mapping_file, read_mapping
from tabletop.spaces.observations import (
    OBS_HIGH,
    OBS_LOW,
    Encoder,
    Field,
    Layout,
    check_players,
    describe,
    encoder,
    rel,
)

__all__ = [
    "OBS_HIGH", "OBS_LOW", "ActionSpace", "Encoder", "Field", "Layout", "action_space", "check_players", "describe",
    "encoder", "generate", "mapping_file", "read_mapping", "rel",
]
