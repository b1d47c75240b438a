"""Rules help and action explanations, as data in each game's folder (`games/<game>/help.toml`; a plugin's game:
`help.toml` in its package, `GameInfo.home`).

The browser client and the terminal show the same words. The file's format:

    title = "SILOS"                      # the help's title
    [[rules]]                            # the rules in our own words, in reading order (at least one)
    title = "Goal"
    text = "..."
    [actions]                            # canonical action text prefix -> what the action does
    "move " = "..."
    [terms]                              # a component name shown on the table -> what it is or does
    "Town Hall" = "..."

An action's explanation is the one of the longest key of `[actions]` that is a prefix of its canonical text
(`explain`). Nothing else is allowed in the file; `game_help` validates it and names the faulty field.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any, TypedDict

from tabletop.core.errors import TabletopError, shorten
from tabletop.core.registry import game_info


class Rule(TypedDict):
    title: str
    text: str


class GameHelp(TypedDict):
    title: str
    rules: list[Rule]
    actions: dict[str, str]
    terms: dict[str, str]


class HelpDataError(ValueError):
    """A help file that is malformed; the message names the game and the field."""


class NoHelp(TabletopError):
    """A known game that has no help file."""


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise HelpDataError(f"{where} must be a non-empty string, got {shorten(value)}")
    return value.strip()


def _table(value: object, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not value:
        raise HelpDataError(f"{where} must be a non-empty table of strings")
    out = {}
    for k, v in value.items():
        _text(k, f"{where} key")
        out[k] = _text(v, f"{where}.{k!r}")  # keys keep their spaces: "place " is a prefix of "place r5" only
    return out


def parse_help(data: dict[str, Any], where: str) -> GameHelp:
    """Validate a help file's parsed TOML; `where` names it in error messages."""
    extra = set(data) - {"title", "rules", "actions", "terms"}
    if extra:
        raise HelpDataError(f"{where}: unknown top-level keys {sorted(extra)}; allowed: title, rules, actions, terms")
    rules_in = data.get("rules")
    if not isinstance(rules_in, list) or not rules_in:
        raise HelpDataError(f"{where}: [[rules]] must hold at least one table")
    rules: list[Rule] = []
    for i, r in enumerate(rules_in):
        if not isinstance(r, dict) or set(r) != {"title", "text"}:
            raise HelpDataError(f"{where}: rules[{i}] must have exactly the keys title and text")
        rules.append({"title": _text(r["title"], f"{where}: rules[{i}].title"),
                      "text": _text(r["text"], f"{where}: rules[{i}].text")})
    return {
        "title": _text(data.get("title"), f"{where}: title"),
        "rules": rules,
        "actions": _table(data.get("actions"), f"{where}: [actions]"),
        "terms": _table(data.get("terms"), f"{where}: [terms]"),
    }


@cache
def game_help(name: str) -> GameHelp:
    """The help of game `name` (UnknownGame for an unknown game, NoHelp when it has no help file)."""
    info = game_info(name)
    path = resources.files(info.home).joinpath("help.toml")  # the game's folder, built-in or a plugin's
    if not path.is_file():
        raise NoHelp(f"the game {info.name} has no help file")
    where = f"{info.home.replace('.', '/')}/help.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise HelpDataError(f"{where}: {e}") from None
    return parse_help(data, where)


def explain(help: GameHelp, action: str) -> str | None:
    """The explanation of the longest `[actions]` key that is a prefix of `action`, or None."""
    best: str | None = None
    for key in help["actions"]:
        if action.startswith(key) and (best is None or len(key) > len(best)):
            best = key
    return help["actions"][best] if best is not None else None
