"""The fixed action spaces, as they were imported before issue 21: a re-export of `tabletop.spaces.actions` (the
framework; each game's action texts are in its folder, `tabletop/games/<game>/encoding.py`). New code imports
`tabletop.spaces`."""

from tabletop.spaces.actions import ActionSpace, action_space, generate, mapping_file, read_mapping

__all__ = ["ActionSpace", "action_space", "generate", "mapping_file", "read_mapping"]
