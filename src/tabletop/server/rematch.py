"""A rematch: a finished game's players sit down to the same game again, with one click each.

`POST /api/games/{id}/rematch` with a person's seat token of a finished game:

- the first such call creates the new game: the same game, player count, options, visibility, move clock and AI
  seats (same strength, same names), each person's seat kept by number and name. The caller is seated at once (its
  new seat token is in the answer, with the new game's creator token); every other person's seat waits for that
  person, reserved: an invite whose code is thrown away, so it is claimed only through this endpoint;
- the new game is announced at the old table by a table message of kind `rematch` whose text is the new game's id
  (public: the id alone seats no one), so every browser at the old table hears of it over its socket;
- a later call (another player's click on that announcement) seats the caller at its own seat of the new game;
- a signed-in player's seat (an old seat bound to an account) is bound to the same account in the new game at once,
  so every browser signed in to it sees the new game in my games and plays it through its session; its click on
  the announcement answers the seat with no token (`"token": null, "account": true`).

Nothing secret crosses seats: each token is given only to the holder of the old seat it replaces, over its own
request. Two players clicking at the same moment in different server processes could each create a game (the
check and the announcement are serialised per process only); the table shows the latest announcement.
"""

from __future__ import annotations

from typing import Any

from tabletop.server.creation import SeatRequest, leaver_level_of, store_leaver_level
from tabletop.server.errors import Conflict, Forbidden, Unauthorized
from tabletop.server.table import Table

KIND = "rematch"
"""The table message kind that announces a rematch (its text: the new game's id)."""


def announced(table: Table, game_id: str) -> str | None:
    """The id of the latest rematch announced at `game_id`'s table, or None."""
    found: str | None = None
    start = 0
    while True:
        page = table.storage.messages(game_id, start)
        if not page:
            return found
        for m in page:
            if m.kind == KIND:
                found = m.text
        start = page[-1].index + 1


def rematch(table: Table, game_id: str, token: str | None, address: str | None) -> dict[str, Any]:
    """Create the rematch of a finished game, or seat the caller in the one already made (module docstring)."""
    service = table.service
    if token is None:
        raise Unauthorized("a rematch is for the game's players (Authorization: Bearer <seat token>)")
    seat = service.seat_of(game_id, token)
    assert seat is not None
    info = service.info(game_id)
    if info["status"] != "over":
        raise Conflict("a rematch is offered once the game is over")
    old = service._get(game_id)
    with old.lock:
        new_id = announced(table, game_id)
        if new_id is None:
            return _create(table, game_id, info, seat, address)
    return _seat(table, new_id, seat)


def _create(table: Table, game_id: str, info: dict[str, Any], seat: int, address: str | None) -> dict[str, Any]:
    service = table.service
    old = service._get(game_id)
    accounts = {s.seat: s.account_id for s in old.seats if s.account_id is not None}
    seats: list[SeatRequest] = []
    for s in info["seats"]:
        if s["kind"] == "ai":
            seats.append(SeatRequest("ai", s["ai"], s["name"]))
        elif s["seat"] == seat:
            seats.append(SeatRequest("creator", None, s["name"]))
        else:
            seats.append(SeatRequest("invite", None, s["name"]))
    made = service.create(info["game"], info["players"], info["options"], info["visibility"], seats,
                          info["seats"][seat]["name"], address, account_id=accounts.get(seat))
    # a signed-in player's new seat is bound to the account at once: every device signed in sees it (my games,
    # the old table's rematch link) and plays it through its session; a guest's waits for its click, as before
    new = service._get(made.game_id)
    with new.lock:
        for s in list(new.seats):
            if s.seat != seat and s.seat in accounts and s.invite_hash is not None:
                service._seat_person(new, s, None, mode=s.mode, expect={"invite_hash": s.invite_hash},
                                     account_id=accounts[s.seat])
    level = leaver_level_of(table.storage, game_id, "")
    if level:
        store_leaver_level(table.storage, made.game_id, level)
    clock = table.storage.clock(game_id)
    if clock is not None:
        table.storage.set_clock(made.game_id, clock.move_seconds)
    table._add(game_id, KIND, seat, info["seats"][seat]["name"], made.game_id)
    return {"id": made.game_id, "seat": made.seat, "token": made.seat_token, "creator_token": made.creator_token,
            "created": True, "info": service.info(made.game_id)}


def _seat(table: Table, new_id: str, seat: int) -> dict[str, Any]:
    """Seat the holder of old seat `seat` at the same seat of the rematch (once: a seat taken is not given again)."""
    service = table.service
    live = service._get(new_id)
    with live.lock:
        s = next((x for x in live.seats if x.seat == seat), None)
        if s is None or s.kind != "human":
            raise Conflict(f"seat {seat + 1} of the rematch is not a person's seat")
        if s.invite_hash is None and s.account_id is not None:
            # bound to the player's account when the rematch was made: the session plays it (no token to give)
            return {"id": new_id, "seat": seat, "token": None, "account": True, "created": False,
                    "info": service.info(new_id)}
        if s.invite_hash is None:
            raise Forbidden(f"seat {seat + 1} of the rematch is already taken (by you in another browser?)")
        got_seat, token = service._seat_person(live, s, None, mode=s.mode, expect={"invite_hash": s.invite_hash})
    return {"id": new_id, "seat": got_seat, "token": token, "created": False, "info": service.info(new_id)}


__all__ = ["KIND", "announced", "rematch"]
