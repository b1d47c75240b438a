"""SILOS component data: `components.toml` loaded once and validated, with a clear error on bad data."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

HUMAN_TYPES: Final = ("politician", "government", "influencer", "professional")
COMMON_CARDS: Final = ("all-powers", "one-power", "marked-specimen", "ufo-advance")
FACTION_CARDS: Final = ("sighting", "confluence", "powers")
N_LOC: Final = 7


class ComponentDataError(ValueError):
    """The component file is malformed; the message says which value is wrong and what is expected."""


@dataclass(frozen=True)
class Components:
    """Validated static data of the board and its supplies."""

    names: tuple[str, ...]
    accepts: tuple[tuple[int, ...], ...]  # per human type: the locations whose focus group takes it
    abduction: tuple[bool, ...]
    neighbours: tuple[tuple[int, ...], ...]
    streets_reconstructed: bool
    focus_start: tuple[int, ...]
    ufo_start: int
    per_type: int
    cows: int
    caps: int
    emblems: int
    figures: int
    crop_tokens: int
    common: tuple[int, ...]  # count per common card kind, in COMMON_CARDS order
    colors: tuple[str, ...]


def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise ComponentDataError(f"silos components.toml: {msg}")


def _int(d: dict[str, Any], key: str, where: str) -> int:
    v = d.get(key)
    _need(isinstance(v, int) and not isinstance(v, bool) and v > 0, f"{where}.{key} must be a positive integer")
    return int(v)  # type: ignore[arg-type]


def validate(data: dict[str, Any]) -> Components:
    """Check every value of the parsed TOML and build `Components`, or raise ComponentDataError."""
    hum = data.get("humans", {})
    _need(tuple(hum.get("types", ())) == HUMAN_TYPES, f"humans.types must be {list(HUMAN_TYPES)}")
    sup = data.get("supplies", {})
    locs = data.get("locations", [])
    _need(isinstance(locs, list) and len(locs) == N_LOC, "there must be 7 [[locations]] (ids 0-6)")
    names: list[str] = []
    accepts: list[list[int]] = [[] for _ in HUMAN_TYPES]
    abduction: list[bool] = []
    for i, loc in enumerate(locs):
        _need(loc.get("id") == i, f"location #{i} must have id = {i}")
        _need(isinstance(loc.get("name"), str), f"location {i} needs a name")
        names.append(loc["name"])
        focus = loc.get("focus", [])
        _need(bool(focus) and all(t in HUMAN_TYPES for t in focus), f"location {i}: focus must list human types")
        _need("politician" in focus, f"location {i}: politicians may be placed in any focus group")
        for t in focus:
            accepts[HUMAN_TYPES.index(t)].append(i)
        _need(isinstance(loc.get("abduction"), bool), f"location {i}: abduction must be true or false")
        abduction.append(loc["abduction"])
    _need(not abduction[0] and all(abduction[1:]), "only locations 1-6 have abduction spaces")
    st = data.get("streets", {})
    pairs = st.get("pairs", [])
    nb: list[set[int]] = [set() for _ in range(N_LOC)]
    for p in pairs:
        _need(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, int) and 0 <= x < N_LOC for x in p)
            and p[0] != p[1],
            f"street {p!r} must join two different locations 0-6",
        )
        nb[p[0]].add(p[1])
        nb[p[1]].add(p[0])
    _need(all(nb), "every location must be joined to at least one street")
    seen, todo = {0}, [0]
    while todo:
        for n in nb[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    _need(len(seen) == N_LOC, "the streets must connect all seven locations")
    setup = data.get("setup", {})
    fs = setup.get("focus_start", [])
    _need(len(fs) == N_LOC and all(t in HUMAN_TYPES for t in fs), "setup.focus_start must name 7 human types")
    fsi = tuple(HUMAN_TYPES.index(t) for t in fs)
    _need(all(i in accepts[t] for i, t in enumerate(fsi)), "setup.focus_start: a type its focus group refuses")
    _need(setup.get("ufo_path") == [1, 2, 3, 4, 5, 6], "setup.ufo_path must be [1, 2, 3, 4, 5, 6]")
    ufo = setup.get("ufo_start")
    _need(isinstance(ufo, int) and 1 <= ufo <= 6, "setup.ufo_start must be a location 1-6")
    cards = data.get("cards", {})
    common = dict((str(n), c) for n, c in cards.get("common", []))
    _need(set(common) == set(COMMON_CARDS), f"cards.common must give counts for {list(COMMON_CARDS)}")
    _need(all(isinstance(c, int) and c > 0 for c in common.values()), "cards.common counts must be positive")
    _need(tuple(cards.get("faction", ())) == FACTION_CARDS, f"cards.faction must be {list(FACTION_CARDS)}")
    colors = tuple(data.get("factions", {}).get("colors", ()))
    _need(len(colors) == 4 and len(set(colors)) == 4, "factions.colors must name 4 distinct colours")
    comps = Components(
        names=tuple(names),
        accepts=tuple(tuple(a) for a in accepts),
        abduction=tuple(abduction),
        neighbours=tuple(tuple(sorted(n)) for n in nb),
        streets_reconstructed=bool(st.get("reconstructed", True)),
        focus_start=fsi,
        ufo_start=int(ufo),
        per_type=_int(hum, "per_type", "humans"),
        cows=_int(sup, "cows", "supplies"),
        caps=_int(sup, "caps", "supplies"),
        emblems=_int(sup, "emblems", "supplies"),
        figures=_int(sup, "figures_per_faction", "supplies"),
        crop_tokens=_int(sup, "crop_tokens_per_faction", "supplies"),
        common=tuple(int(common[n]) for n in COMMON_CARDS),
        colors=colors,
    )
    _need(comps.cows >= 6, "supplies.cows must cover the six cow abduction spaces")
    _need(comps.per_type * 4 >= 6 + N_LOC, "too few humans for the setup")
    return comps


def load() -> Components:
    """Read and validate the packaged `components.toml`."""
    text = resources.files(__package__).joinpath("components.toml").read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ComponentDataError(f"silos components.toml is not valid TOML: {e}") from None
    return validate(data)


COMPONENTS: Final = load()
