"""Request bodies, validated by pydantic with size limits: anything else is refused before the service sees it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Name = Field(default=None, min_length=1, max_length=40)


class Strict(BaseModel):
    """Unknown fields are refused, not ignored."""

    model_config = ConfigDict(extra="forbid")


class SeatIn(Strict):
    """How one seat is filled: `creator`, `invite` (a one-time link), `open` (anyone from the lobby) or `ai`."""

    kind: Literal["creator", "invite", "open", "ai"]
    ai: str | None = Field(default=None, min_length=1, max_length=60)
    """A strength label: easy, medium, hard, or a trained policy's label from /api/meta/games (never a path)."""
    name: str | None = Name


class CreateGameIn(Strict):
    """A new game."""

    game: str = Field(min_length=1, max_length=40)
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    visibility: Literal["public", "private"] = "private"
    seats: list[SeatIn] | None = Field(default=None, min_length=1, max_length=16)
    creator_name: str = Field(default="host", min_length=1, max_length=40)
    move_seconds: int | None = Field(default=None, ge=1, le=30 * 86400)
    """A move clock: seconds each decision may take (e.g. 120 live, 259200 for 3 days); on time-out the
    heuristic agent moves for the seat."""


class ClaimIn(Strict):
    """Claim a seat: with an invite code, or an open seat (optionally a given one)."""

    invite: str | None = Field(default=None, min_length=1, max_length=100)
    seat: int | None = Field(default=None, ge=0, le=16)
    name: str | None = Name


class ReseatIn(Strict):
    """The creator re-seats a player who lost their token."""

    seat: int = Field(ge=0, le=16)


class ActionIn(Strict):
    """An action, quoted against the event count the client saw."""

    action: str = Field(min_length=1, max_length=200)
    seq: int = Field(ge=0, le=10_000_000)
    client_action_id: str | None = Field(default=None, min_length=1, max_length=64)


class UndoIn(Strict):
    """POST /api/games/{id}/undo: take back the seat's last `count` actions, quoting `seq` as for an action."""

    count: int = Field(default=1, ge=1, le=1000)
    seq: int = Field(ge=0, le=10_000_000)
    client_action_id: str | None = Field(default=None, min_length=1, max_length=64)


class ChatIn(Strict):
    """A line of table chat."""

    text: str = Field(min_length=1, max_length=2000)


class SocketActIn(Strict):
    """An action sent over the game's socket: as `ActionIn`, with a client action id that the answer carries."""

    type: Literal["act"]
    action: str = Field(min_length=1, max_length=200)
    seq: int = Field(ge=0, le=10_000_000)
    client_action_id: str = Field(min_length=1, max_length=64)


class SocketUndoIn(Strict):
    """An undo sent over the game's socket: as `UndoIn`, with a client action id that the answer carries."""

    type: Literal["undo"]
    count: int = Field(default=1, ge=1, le=1000)
    seq: int = Field(ge=0, le=10_000_000)
    client_action_id: str = Field(min_length=1, max_length=64)
