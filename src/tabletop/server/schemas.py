"""Request bodies, validated by pydantic with size limits: anything else is refused before the service sees it."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

UNSHOWN = {"Cc": "control", "Cf": "format", "Cs": "surrogate", "Co": "private-use", "Cn": "unassigned",
           "Zl": "line separator", "Zp": "paragraph separator"}
"""Unicode categories refused in text people show each other (names, chat): NUL, newline and tab (Cc), zero-width
and direction overrides such as U+202E (Cf), and characters that show nothing reliably."""


def plain_text(text: str, what: str) -> str:
    """`text` without its surrounding spaces, if it is a line people may show each other: not blank, and none of
    the `UNSHOWN` characters; else ValueError saying what `what` may hold. Shared by names and table chat."""
    text = text.strip()
    if not text:
        raise ValueError(f"{what} may not be blank")
    for ch in text:
        kind = UNSHOWN.get(unicodedata.category(ch))
        if kind is not None:
            raise ValueError(f"{what} may hold letters, digits, punctuation, symbols and spaces, but no control "
                             f"(NUL, newline, tab), format (zero-width, right-to-left override), separator or "
                             f"unassigned characters: U+{ord(ch):04X} is a {kind} character")
    return text


def _name(text: str) -> str:
    return plain_text(text, "a name")


def _action_id(text: str) -> str:
    for ch in text:
        if unicodedata.category(ch) in UNSHOWN:
            raise ValueError(f"a client action id may not hold control, format, separator or unassigned characters: "
                             f"U+{ord(ch):04X} is a {UNSHOWN[unicodedata.category(ch)]} character")
    return text


ClientActionId = Annotated[str, Field(min_length=1, max_length=64), AfterValidator(_action_id)]
"""A client's id for an action (stored with its event, so no NUL, which PostgreSQL refuses with an error)."""

PlayerName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_name)]
"""A player's display name: 1-40 characters, checked like a chat line (`plain_text`), stored without surrounding
spaces."""


class Strict(BaseModel):
    """Unknown fields are refused, not ignored."""

    model_config = ConfigDict(extra="forbid")


class SeatIn(Strict):
    """How one seat is filled: `creator`, `invite` (a one-time link), `open` (anyone from the lobby) or `ai`."""

    kind: Literal["creator", "invite", "open", "ai"]
    ai: str | None = Field(default=None, min_length=1, max_length=60)
    """A strength label: easy, medium, hard, or a trained policy's label from /api/meta/games (never a path)."""
    name: PlayerName | None = None


class CreateGameIn(Strict):
    """A new game."""

    game: str = Field(min_length=1, max_length=40)
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    visibility: Literal["public", "private"] = "private"
    seats: list[SeatIn] | None = Field(default=None, min_length=1, max_length=16)
    creator_name: PlayerName = "host"
    rated: bool = False
    """A rated game (issue 23): its creator and players signed in; ratings move at its end (server.ratings)."""
    move_seconds: int | None = Field(default=None, ge=1, le=30 * 86400)
    """A move clock: seconds each decision may take (e.g. 120 live, 259200 for 3 days); on time-out the
    heuristic agent moves for the seat."""
    leaver_level: str | None = Field(default=None, min_length=1, max_length=60)
    """The AI level that plays a seat its player leaves (or concedes, with more than two players): an AI strength
    (easy, medium, hard) or a trained policy's label; default the server's `leaver_level` (medium)."""


class ClaimIn(Strict):
    """Claim a seat: with an invite code, or an open seat (optionally a given one)."""

    invite: str | None = Field(default=None, min_length=1, max_length=100)
    seat: int | None = Field(default=None, ge=0, le=16)
    name: PlayerName | None = None


class ReseatIn(Strict):
    """The creator re-seats a player who lost their token."""

    seat: int = Field(ge=0, le=16)


class ActionIn(Strict):
    """An action, quoted against the event count the client saw."""

    action: str = Field(min_length=1, max_length=200)
    seq: int = Field(ge=0, le=10_000_000)
    client_action_id: ClientActionId | None = None


class UndoIn(Strict):
    """POST /api/games/{id}/undo: take back the seat's last `count` actions, quoting `seq` as for an action."""

    count: int = Field(default=1, ge=1, le=1000)
    seq: int = Field(ge=0, le=10_000_000)
    client_action_id: ClientActionId | None = None


class ChatIn(Strict):
    """A line of table chat."""

    text: str = Field(min_length=1, max_length=2000)


class SocketActIn(Strict):
    """An action sent over the game's socket: as `ActionIn`, with a client action id that the answer carries."""

    type: Literal["act"]
    action: str = Field(min_length=1, max_length=200)
    seq: int = Field(ge=0, le=10_000_000)
    client_action_id: ClientActionId


class SocketUndoIn(Strict):
    """An undo sent over the game's socket: as `UndoIn`, with a client action id that the answer carries."""

    type: Literal["undo"]
    count: int = Field(default=1, ge=1, le=1000)
    seq: int = Field(ge=0, le=10_000_000)
    client_action_id: ClientActionId
