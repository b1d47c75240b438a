"""Loading and validating the SiliconVania component data (`components.toml`) into flat, typed tables."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from tabletop.core import TabletopError

DATA = Path(__file__).with_name("components.toml")

BONUS_KINDS: Final = ("vampire", "innovation", "survival")
EFFECT_KINDS: Final = ("vampire", "innovation", "survival", "cat", "hound", "exchange", "antiquity")
TRACK_KINDS: Final = ("", "contract", "recover", "train", "relocate", "castle", "swap_objective", "upgrade_castle")
ANTIQUITY_KINDS: Final = ("Goblet", "Scepter", "Collar", "Bangle", "Tiara")
OBJECTIVES: Final = ("Groundskeeper", "Doctor", "Techie", "Resident", "Engineer", "Sales Rep", "Noble")
RULEBOOK_TYPES: Final = ("Park", "Neighborhood", "Metro", "Mall", "Mausoleum", "Blood Bank")
BID_ABILITIES: Final = ("", "vampire", "recover")
COUNTS: Final = {"tile": 88, "specialist": 70, "castle": 7, "train": 6, "antiquity": 7}


class ComponentError(TabletopError):
    """The component data file is malformed; the message names the entry and the field."""


@dataclass(frozen=True)
class Tile:
    """A building tile (or a castle, which the scoring treats like a building of its type)."""

    name: str
    type: int
    blood: int
    coffins: int
    animal: int  # -1: none
    innovation: int
    survival: int
    bonus: tuple[int, ...]  # indexes into BONUS_KINDS
    mark: int


@dataclass(frozen=True)
class Specialist:
    """A specialist card: rank (its id), name (its scoring pattern), deck mark and bid effect."""

    rank: int
    name: str
    objective: int  # index into OBJECTIVES
    mark: int
    effect: tuple[str, ...]


@dataclass(frozen=True)
class BidCard:
    """A silent bid card: its number (the bid), its ability (one of BID_ABILITIES) and its cost in vampires."""

    number: int
    ability: str
    cost: int


@dataclass(frozen=True)
class Components:
    """All static component data of the game."""

    types: tuple[str, ...]
    animals: tuple[str, ...]
    tiles: tuple[Tile, ...]
    castles: tuple[Tile, ...]
    trains: tuple[tuple[int, int], ...]  # (blood, coffins)
    antiquities: tuple[int, ...]  # index into ANTIQUITY_KINDS per antiquity tile
    specialists: dict[int, Specialist]
    track: tuple[int, ...]  # index into TRACK_KINDS per space
    bid_cards: tuple[BidCard, ...]  # silent bid cards 1..7, in order
    vampires: int
    cats: int
    hounds: int
    contracts: int
    start_vampires: int
    hand_size: int
    rounds: int
    exchange_pool: int


def _need(entry: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in entry:
        raise ComponentError(f"{where}: missing field {key!r}")
    v = entry[key]
    if kind is int and (not isinstance(v, int) or isinstance(v, bool)):
        raise ComponentError(f"{where}: field {key!r} must be an integer, not {v!r}")
    if kind is not int and not isinstance(v, kind):
        raise ComponentError(f"{where}: field {key!r} must be a {kind.__name__}, not {v!r}")
    return v


def _range(v: int, lo: int, hi: int, key: str, where: str) -> int:
    if not lo <= v <= hi:
        raise ComponentError(f"{where}: field {key!r} is {v}, allowed {lo}..{hi}")
    return v


def _tile(e: dict[str, Any], where: str, types: tuple[str, ...], animals: tuple[str, ...], marked: bool) -> Tile:
    t = _need(e, "type", str, where)
    if t not in types:
        raise ComponentError(f"{where}: type {t!r} is not one of {list(types)}")
    an = _need(e, "animal", str, where)
    if an and an not in animals:
        raise ComponentError(f"{where}: animal {an!r} is not one of {list(animals)} (or \"\" for none)")
    bonus = _need(e, "bonus", list, where)
    for b in bonus:
        if b not in BONUS_KINDS:
            raise ComponentError(f"{where}: bonus {b!r} is not one of {list(BONUS_KINDS)}")
    mark = _need(e, "mark", int, where) if marked else 0
    if mark not in (0, 3, 4, 5):
        raise ComponentError(f"{where}: mark {mark} must be 0 (unmarked), 3, 4 or 5")
    return Tile(
        name=str(e.get("name", t)),
        type=types.index(t),
        blood=_range(_need(e, "blood", int, where), 0, 3, "blood", where),
        coffins=_range(_need(e, "coffins", int, where), 0, 4, "coffins", where),
        animal=animals.index(an) if an else -1,
        innovation=_range(_need(e, "innovation", int, where), 0, 1, "innovation", where),
        survival=_range(_need(e, "survival", int, where), 0, 1, "survival", where),
        bonus=tuple(BONUS_KINDS.index(b) for b in bonus),
        mark=mark,
    )


def parse(data: dict[str, Any]) -> Components:
    """Validate parsed TOML and build the tables; raises ComponentError naming what is wrong."""
    types = tuple(_need(data, "types", list, "top level"))
    if len(types) != 7 or len(set(types)) != 7 or any(t not in types for t in RULEBOOK_TYPES):
        raise ComponentError(f"types must be 7 distinct names including {list(RULEBOOK_TYPES)}, got {list(types)}")
    animals = tuple(_need(data, "animals", list, "top level"))
    if len(animals) != 6 or len(set(animals)) != 6:
        raise ComponentError(f"animals must list the 6 distinct tile animals, got {list(animals)}")
    for key, n in COUNTS.items():
        got = data.get(key, [])
        if not isinstance(got, list) or len(got) != n:
            raise ComponentError(f"expected {n} [[{key}]] entries, found {len(got) if isinstance(got, list) else got}")
    tiles = tuple(_tile(e, f"tile {i + 1}", types, animals, True) for i, e in enumerate(data["tile"]))
    castles = tuple(
        _tile(dict(e, mark=0), f"castle {i + 1}", types, animals, False) for i, e in enumerate(data["castle"])
    )
    if sorted(c.type for c in castles) != list(range(7)):
        raise ComponentError("there must be exactly one castle of each of the 7 types")
    trains = tuple(
        (_range(_need(e, "blood", int, f"train {i + 1}"), 0, 3, "blood", f"train {i + 1}"),
         _range(_need(e, "coffins", int, f"train {i + 1}"), 0, 4, "coffins", f"train {i + 1}"))
        for i, e in enumerate(data["train"])
    )
    antiq: list[int] = []
    for i, e in enumerate(data["antiquity"]):
        k = _need(e, "kind", str, f"antiquity {i + 1}")
        if k not in ANTIQUITY_KINDS:
            raise ComponentError(f"antiquity {i + 1}: kind {k!r} is not one of {list(ANTIQUITY_KINDS)}")
        antiq.append(ANTIQUITY_KINDS.index(k))
    if set(antiq) != set(range(5)):
        raise ComponentError("every antiquity kind (Goblet, Scepter, Collar, Bangle, Tiara) must appear")
    specs: dict[int, Specialist] = {}
    for i, e in enumerate(data["specialist"]):
        where = f"specialist {i + 1}"
        r = _range(_need(e, "rank", int, where), 1, 70, "rank", where)
        if r in specs:
            raise ComponentError(f"{where}: rank {r} is used twice; ranks are unique")
        nm = _need(e, "name", str, where)
        if nm not in OBJECTIVES:
            raise ComponentError(f"{where}: name {nm!r} is not one of {list(OBJECTIVES)}")
        mark = _need(e, "mark", int, where)
        if mark not in (0, 3, 4, 5):
            raise ComponentError(f"{where}: mark {mark} must be 0 (unmarked), 3, 4 or 5")
        eff = _need(e, "effect", list, where)
        for x in eff:
            if x not in EFFECT_KINDS:
                raise ComponentError(f"{where}: effect {x!r} is not one of {list(EFFECT_KINDS)}")
        specs[r] = Specialist(r, nm, OBJECTIVES.index(nm), mark, tuple(eff))
    for n_players, want in ((2, 28), (3, 42), (4, 56), (5, 70)):
        got = sum(1 for s in specs.values() if s.mark <= n_players)
        if got != want:
            raise ComponentError(
                f"{n_players} players must use {want} specialists (6 dealt + 8 rounds each), marks give {got}"
            )
    for n_players, need in ((2, 36), (3, 68), (4, 84)):
        got = sum(1 for t in tiles if t.mark <= n_players)
        if got < need:
            raise ComponentError(f"{n_players} players need {need} building tiles, marks give {got}")
    track_raw = _need(_need(data, "track", dict, "top level"), "spaces", list, "[track]")
    if len(track_raw) < 3 or track_raw[0] != "contract" or track_raw[-1] != "contract":
        raise ComponentError("[track] spaces: at least 3 spaces, both ends 'contract'")
    for s in track_raw:
        if s not in TRACK_KINDS:
            raise ComponentError(f"[track] space {s!r} is not one of {list(TRACK_KINDS)}")
    bids = data.get("bid_card", [])
    numbers = [b.get("number") if isinstance(b, dict) else None for b in bids] if isinstance(bids, list) else None
    if numbers != list(range(1, 8)):
        raise ComponentError("[[bid_card]] entries must be numbered 1..7 in order")
    bid_cards: list[BidCard] = []
    for b in bids:
        where = f"bid card {b['number']}"
        ability = _need(b, "ability", str, where)
        if ability not in BID_ABILITIES:
            raise ComponentError(f"{where}: ability {ability!r} is not one of {list(BID_ABILITIES)}")
        bid_cards.append(BidCard(b["number"], ability, _range(_need(b, "cost", int, where), 0, 3, "cost", where)))
    sup = _need(data, "supply", dict, "top level")
    return Components(
        types=types, animals=animals, tiles=tiles, castles=tuple(sorted(castles, key=lambda c: c.type)),
        trains=trains, antiquities=tuple(antiq), specialists=specs,
        track=tuple(TRACK_KINDS.index(s) for s in track_raw),
        bid_cards=tuple(bid_cards),
        **{k: _need(sup, k, int, "[supply]") for k in (
            "vampires", "cats", "hounds", "contracts", "start_vampires", "hand_size", "rounds", "exchange_pool")},
    )


def load(path: Path = DATA) -> Components:
    """Read and validate a component file."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ComponentError(f"{path.name}: not valid TOML: {e}") from e
    try:
        return parse(data)
    except ComponentError as e:
        raise ComponentError(f"{path.name}: {e}") from e


def client_data(c: Components) -> dict[str, Any]:
    """The static component data the browser table draws with (web/src/games/siliconvania.data.ts, written by
    scripts/web-data): public facts printed on the components, never anything about a game in progress."""

    def tile(t: Tile) -> list[Any]:
        return [t.name, t.type, t.blood, t.coffins, t.animal, t.innovation, t.survival, list(t.bonus)]

    return {
        "version": 1,
        "types": list(c.types),
        "animals": list(c.animals),
        "tiles": [tile(t) for t in c.tiles],
        "castles": [tile(t) for t in c.castles],
        "trains": [list(t) for t in c.trains],
        "antiquities": list(ANTIQUITY_KINDS),
        "objectives": list(OBJECTIVES),
        "specialists": {str(r): [s.name, list(s.effect)] for r, s in sorted(c.specialists.items())},
        "track": [TRACK_KINDS[k] for k in c.track],
        "bid_cards": [[b.ability, b.cost] for b in c.bid_cards],
        "bonus_kinds": list(BONUS_KINDS),
        "rounds": c.rounds,
    }
