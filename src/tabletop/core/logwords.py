"""How a log entry names seats: one token grammar for every game, one function to render it for a reader.

A game writes a seat into a log text as a token: `{p2}` for seat 2 (the seat's index, as in `{"seat": 2}` and the
notation's `p2`) and `{p2's}` for its possessive. `entry(seat, template)` turns such a text into the log entry the
game returns: `{"seat", "text", "template"}`, where `text` is readable without any names ("Player 3 gave r8 to
Player 1": seats from 1) and `template` keeps the tokens (only when there is one). A client that knows the players'
names renders an entry for its reader with `render(entry, names, reader)`: "you"/"your" for the reader's own seat,
the player's name otherwise, capitalised at the start of a sentence ("You placed...", "Alice gave r8 to you").

Texts are written so that any name reads right in place of a token: past tense ("placed", "took"), never a verb
that agrees with its subject ("is", "has"), and the possessive token instead of "'s".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

TOKEN = re.compile(r"\{p(\d+)('s)?\}")
_SENTENCE_END = re.compile(r"[.!?:;]\s+$")


def default_name(seat: int) -> str:
    """The name of a seat when the players' names are not known: `Player 1` for seat 0."""
    return f"Player {seat + 1}"


def token(seat: int, possessive: bool = False) -> str:
    """The token a game writes for `seat`: `{p2}`, or `{p2's}` for 'Player 3's' / 'your'."""
    return f"{{p{seat}'s}}" if possessive else f"{{p{seat}}}"


def fill(template: str, names: Sequence[str] | None = None, reader: int | None = None) -> str:
    """`template` with every seat token replaced: the reader's seat is 'you'/'your', another seat its name in
    `names` (default: `Player N`, seats from 1); a token at the start of a sentence is capitalised."""
    if "{" not in template:
        return template

    def name(m: re.Match[str]) -> str:
        seat, possessive = int(m.group(1)), bool(m.group(2))
        if seat == reader:
            word = "your" if possessive else "you"
        else:
            who = names[seat] if names is not None and seat < len(names) and names[seat] else default_name(seat)
            word = f"{who}'s" if possessive else who
        before = template[:m.start()]
        if not before.strip() or _SENTENCE_END.search(before):
            word = word[:1].upper() + word[1:]
        return word

    return TOKEN.sub(name, template)


def entry(seat: int | None, template: str) -> dict[str, Any]:
    """The log entry for an event of `seat` (None: the table) worded `template`: readable `text` and, when the
    wording names a seat, the `template` a client renders for its reader."""
    text = _default_text(template)
    if text is None:
        return {"seat": seat, "text": template}
    return {"seat": seat, "text": text, "template": template}


@lru_cache(maxsize=8192)
def _default_text(template: str) -> str | None:
    """`fill(template)` with the default names, or None when the template names no seat. Remembered: every view
    carries the log's recent tail, so the same entries were worded again on every view (more than half of a SILOS
    view's cost); a game's templates are few enough for the cache to hold them."""
    if "{" not in template or not TOKEN.search(template):
        return None
    return fill(template)


def render(log_entry: dict[str, Any], names: Sequence[str] | None = None, reader: int | None = None) -> str:
    """The entry's words for `reader` (None: a spectator) given the seats' names. An entry of a seat that names
    nobody (a game that writes no tokens) is read after its seat's name: `Player 1 bid (face down)`."""
    template = log_entry.get("template")
    if isinstance(template, str):
        return fill(template, names, reader)
    text = str(log_entry.get("text", ""))
    seat = log_entry.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0:
        return fill(f"{token(seat)} {text}", names, reader)
    return text


def names_actor(log_entry: dict[str, Any]) -> bool:
    """Whether an entry of a seat's event names that seat (its template holds the seat's token)."""
    seat = log_entry.get("seat")
    if seat is None:
        return True
    template = log_entry.get("template")
    return isinstance(template, str) and any(int(m.group(1)) == seat for m in TOKEN.finditer(template))


def plain_entry(log_entry: dict[str, Any]) -> dict[str, Any]:
    """The entry without its template: `{"seat", "text"}`, the words read without names."""
    return {"seat": log_entry.get("seat"), "text": log_entry.get("text")}


def notation_text(log_entry: dict[str, Any]) -> str:
    """The entry's words with seats written as the notation writes them (`p2`, `p2's`): for programs that read a
    log (agents, samplers), stable whatever the names."""
    template = log_entry.get("template")
    if not isinstance(template, str):
        return str(log_entry.get("text", ""))
    return TOKEN.sub(lambda m: f"p{m.group(1)}{m.group(2) or ''}", template)
