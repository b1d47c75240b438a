"""Silencio's component tables, loaded from `components.toml` and validated once."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PATH = Path(__file__).with_name("components.toml")


class ComponentDataError(ValueError):
    """The component file is malformed; the message names the field."""


@dataclass(frozen=True)
class Components:
    """Setup and result tables by player count."""

    colours: tuple[str, ...]
    row_start: int
    max_value: dict[int, int]
    hand_size: dict[int, int]
    almost_max: dict[int, int]
    tiers: dict[str, str]
    tavern_opens_after: int


def _int(table: dict[str, Any], key: str, where: str, lo: int, hi: int) -> int:
    v = table.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ComponentDataError(f"{where}.{key} must be an integer in {lo}..{hi}, got {v!r}")
    return v


def load(path: Path = PATH) -> Components:
    """Read and validate the component file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ComponentDataError(f"{path.name}: not valid TOML: {e}") from None
    colours = data.get("colours")
    if colours != ["red", "blue", "yellow", "green"]:
        raise ComponentDataError(f"{path.name}: colours must be red, blue, yellow, green, got {colours!r}")
    setup, results = data.get("setup", {}), data.get("results", {})
    max_value, hand, almost = {}, {}, {}
    for n in (2, 3, 4):
        s, r = setup.get(str(n)), results.get(str(n))
        if not isinstance(s, dict) or not isinstance(r, dict):
            raise ComponentDataError(f"{path.name}: setup.{n} and results.{n} are required")
        max_value[n] = _int(s, "max_value", f"setup.{n}", 3, 16)
        hand[n] = _int(s, "hand", f"setup.{n}", 1, 12)
        almost[n] = _int(r, "almost_max", f"results.{n}", 0, 50)
        if n * hand[n] + n > 4 * (max_value[n] - 1):
            raise ComponentDataError(f"setup.{n}: not enough cards for {n} hands of {hand[n]} and the oracle")
    tiers = data.get("tiers", {})
    if set(tiers) != {"perfect", "almost", "keep_trying"}:
        raise ComponentDataError(f"{path.name}: tiers must be perfect, almost, keep_trying")
    tavern = _int(data.get("tavern", {}), "dark_effects_to_open", "tavern", 1, 20)
    return Components(tuple(colours), _int(data, "row_start", "top level", 0, 1), max_value, hand, almost,
                      dict(tiers), tavern)


COMPONENTS = load()
