"""The observation encoders, as they were imported before issue 21: a re-export of `tabletop.spaces.observations` (the
framework; each game's encoder is in its folder, `tabletop/games/<game>/encoding.py`). New code imports
`tabletop.spaces`."""

from tabletop.spaces.observations import OBS_HIGH, OBS_LOW, Encoder, Field, Layout, describe, encoder

__all__ = ["OBS_HIGH", "OBS_LOW", "Encoder", "Field", "Layout", "describe", "encoder"]
