"""Records: a finished or live game as JSON (`state.record()`), saved, loaded and replayed exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tabletop.core.errors import IllegalAction, InvalidOptions, InvalidRecord, TabletopError, UnknownGame, shorten
from tabletop.core.registry import game_info, new_game
from tabletop.core.state import State

_FIELDS = {"game": str, "version": str, "players": int, "options": dict, "seed": int, "actions": list}


def validate_record(record: Any) -> dict[str, Any]:
    """The record if it has every field with the right type and a known game, else InvalidRecord."""
    if not isinstance(record, dict):
        raise InvalidRecord(
            f"a record must be a JSON object with fields {', '.join(_FIELDS)}; got {type(record).__name__}"
        )
    for key, typ in _FIELDS.items():
        if key not in record:
            raise InvalidRecord(f"record has no {key!r} field; a record needs {', '.join(_FIELDS)}")
        if not isinstance(record[key], typ) or (typ is int and isinstance(record[key], bool)):
            raise InvalidRecord(f"record field {key!r} must be {typ.__name__}, not {type(record[key]).__name__}")
    if not all(isinstance(a, str) for a in record["actions"]):
        raise InvalidRecord("record field 'actions' must be a list of action texts")
    try:
        info = game_info(record["game"])
    except UnknownGame as e:
        raise InvalidRecord(str(e)) from None
    if record["version"] != info.version:
        raise InvalidRecord(
            f"record is of {info.title} rules version {shorten(record['version'])}; this engine plays version "
            f"{info.version!r} and cannot replay it exactly (replay it with a tabletop release that plays "
            f"version {shorten(record['version'])}; see docs/versions.md)"
        )
    return record


def replay(record: dict[str, Any], upto: int | None = None) -> State:
    """The state the record describes (after its first `upto` actions if given), or InvalidRecord."""
    validate_record(record)
    if upto is not None and (not isinstance(upto, int) or isinstance(upto, bool) or upto < 0):
        raise TabletopError(f"replay upto must be a non-negative integer (a number of actions), not {shorten(upto)}")
    try:
        state = new_game(record["game"], record["players"], record["seed"], record["options"])
    except InvalidOptions as e:
        raise InvalidRecord(f"record setup refused: {e}") from None
    actions = record["actions"] if upto is None else record["actions"][:upto]
    for i, text in enumerate(actions):
        try:
            state.apply(text)
        except IllegalAction as e:
            raise InvalidRecord(f"record action {i} ({text!r}) does not replay: {e}") from None
    return state


def save_record(record: dict[str, Any], path: str | Path) -> Path:
    """Write a record as pretty JSON; returns the path."""
    p = Path(path)
    p.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return p


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and validate a record file, or InvalidRecord saying what is wrong (also for a `path` that is not a path:
    None, a number, bytes)."""
    try:
        file = Path(path)
    except TypeError:  # None, a number, bytes: not a path at all
        raise InvalidRecord(f"load_record takes a file path (str or os.PathLike), not {type(path).__name__}; "
                            "a record already in memory goes to validate_record, JSON text to parse_record") from None
    name = shorten(str(path))
    try:
        text = file.read_bytes().decode("utf-8")
    except OSError as e:
        raise InvalidRecord(f"cannot read record {name}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise InvalidRecord(f"record {name} is not UTF-8 text (byte {e.start}): a record is a JSON file") from None
    return validate_record(parse_record(text, name))


def parse_record(text: str, name: str = "text") -> Any:
    """JSON text parsed, or InvalidRecord (also for nesting too deep or numbers too long to be a record's)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidRecord(f"record {name} is not valid JSON: {e}") from None
    except RecursionError:
        raise InvalidRecord(f"record {name} is nested too deeply to be a record") from None
    except ValueError as e:  # e.g. an integer of thousands of digits
        raise InvalidRecord(f"record {name} is not a record: {shorten(str(e), 120)}") from None
