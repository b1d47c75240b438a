"""The guided first games (issue 22): each game's `tutorial.toml` (in its folder, like help.toml), a fixed deal
whose every move is scripted, and the routes that play it.

GET  /api/tutorials                       the games that have one: game, title
POST /api/tutorials/{game}                a new private game on the tutorial's deal: the learner's seat and token
POST /api/tutorials/{game}/{id}/advance   (the learner's token) plays the other seats' scripted moves now due and
                                          says what the learner is to do next

The learner is told only the step it is at: the script's other moves (which show the other seats' hands) and the
seed stay on the server, like any live game's. The learner may make any legal move on the table; the browser
explains a move that is not the script's instead of sending it, and a game that left the script (a move sent
another way) is told so and played on by nobody for the other seats.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from tabletop.core import UnknownGame, game_info, games, new_game
from tabletop.server.api.deps import ServiceDep, TokenDep
from tabletop.server.api.routes.games import GameId
from tabletop.server.creation import SeatRequest
from tabletop.server.errors import Invalid, NotFound
from tabletop.server.schemas import PlayerName, Strict
from tabletop.server.service import Unauthorized

router = APIRouter(prefix="/tutorials", tags=["tutorials"])
GameName = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")]
TUTORIAL_ACTION_IDS = "tutorial:"
"""The client action ids of the moves the tutorial makes for the other seats (after the server's own prefix)."""


class TutorialError(ValueError):
    """A malformed tutorial file; the message names the game and the field."""


@dataclass(frozen=True)
class Step:
    """One action of the script, in record order: who makes it, its canonical text, and for the learner what to do
    and why (`text`), what to say to another move (`wrong`) and the rules help section that tells more (`rule`)."""

    seat: int
    action: str
    text: str = ""
    wrong: str = ""
    rule: str = ""


@dataclass(frozen=True)
class Tutorial:
    game: str
    title: str
    players: int
    seed: int
    seat: int
    options: dict[str, Any]
    names: tuple[str, ...]
    intro: str
    outro: str
    steps: tuple[Step, ...]

    def public(self, at: int) -> dict[str, Any]:
        """What the learner is told at step `at` (the number of actions made): the step itself if it is theirs."""
        out: dict[str, Any] = {"game": self.game, "title": self.title, "intro": self.intro, "at": at,
                               "steps": sum(s.seat == self.seat for s in self.steps),
                               "done": sum(s.seat == self.seat for s in self.steps[:at]), "next": None}
        if at < len(self.steps) and self.steps[at].seat == self.seat:
            s = self.steps[at]
            out["next"] = {"action": s.action, "text": s.text, "wrong": s.wrong, "rule": s.rule}
        if at >= len(self.steps):
            out["outro"] = self.outro
        return out


def _str(d: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    v = d.get(key, default)
    if not isinstance(v, str) or (default is None and not v.strip()):
        raise TutorialError(f"{where}: {key} must be a non-empty string")
    return v.strip()


def _int(d: dict[str, Any], key: str, where: str, default: int | None = None) -> int:
    v = d.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise TutorialError(f"{where}: {key} must be a whole number >= 0")
    return v


STEP_KEYS = {"seat", "action", "text", "wrong", "rule"}
TOP_KEYS = {"title", "players", "seed", "seat", "options", "names", "intro", "outro", "step"}


def parse(game: str, data: dict[str, Any]) -> Tutorial:
    """A tutorial from its file's data; TutorialError names the faulty field. Legality is not checked here (the
    engine does that when the script is replayed: tests/games/test_tutorials.py)."""
    where = f"{game}/tutorial.toml"
    extra = set(data) - TOP_KEYS
    if extra:
        raise TutorialError(f"{where}: unknown field(s) {sorted(extra)}; allowed: {sorted(TOP_KEYS)}")
    players = _int(data, "players", where)
    seat = _int(data, "seat", where, 0)
    if seat >= players:
        raise TutorialError(f"{where}: seat {seat} is not one of the {players} seats")
    options = data.get("options", {})
    names = data.get("names", [])
    if not isinstance(options, dict):
        raise TutorialError(f"{where}: options must be a table")
    if not isinstance(names, list) or len(names) != players or not all(isinstance(n, str) and n for n in names):
        raise TutorialError(f"{where}: names must be {players} non-empty strings, one per seat")
    raw = data.get("step")
    if not isinstance(raw, list) or not raw:
        raise TutorialError(f"{where}: at least one [[step]]")
    steps = []
    for i, st in enumerate(raw):
        w = f"{where}: step {i + 1}"
        if not isinstance(st, dict) or set(st) - STEP_KEYS:
            raise TutorialError(f"{w}: a step has only the fields {sorted(STEP_KEYS)}")
        s_seat = _int(st, "seat", w, seat)
        if s_seat >= players:
            raise TutorialError(f"{w}: seat {s_seat} is not one of the {players} seats")
        step = Step(s_seat, _str(st, "action", w), _str(st, "text", w, ""), _str(st, "wrong", w, ""),
                    _str(st, "rule", w, ""))
        if s_seat == seat and not step.text:
            raise TutorialError(f"{w}: a learner's step says what to do and why (text)")
        steps.append(step)
    return Tutorial(game, _str(data, "title", where), players, _int(data, "seed", where), seat, dict(options),
                    tuple(names), _str(data, "intro", where), _str(data, "outro", where), tuple(steps))


@cache
def tutorial(game: str) -> Tutorial | None:
    """The game's tutorial (None: it has none); UnknownGame for a game not registered."""
    info = game_info(game)
    path = resources.files(info.home).joinpath("tutorial.toml")
    if not path.is_file():
        return None
    return parse(info.name, tomllib.loads(path.read_text(encoding="utf-8")))


def _find(game: str) -> Tutorial:
    try:
        t = tutorial(game)
    except UnknownGame as e:
        raise NotFound(str(e)) from None
    if t is None:
        raise NotFound(f"{game} has no tutorial")
    return t


class TutorialIn(Strict):
    name: PlayerName | None = None


@router.get("")
def list_tutorials() -> list[dict[str, str]]:
    """The games with a guided first game."""
    out = []
    for g in games():
        t = tutorial(g)
        if t is not None:
            out.append({"game": g, "title": t.title})
    return out


@router.post("/{game}", status_code=201)
def start(game: GameName, body: TutorialIn, service: ServiceDep, request: Request) -> dict[str, Any]:
    """A private game on the tutorial's deal, the learner's seat the creator's, every other seat taken by the
    tutorial; the other seats' first moves are made at once."""
    t = _find(game)
    seats = [SeatRequest("creator" if i == t.seat else "invite", None, None if i == t.seat else t.names[i])
             for i in range(t.players)]
    address = request.client.host if request.client is not None else None
    made = service.create(game, t.players, t.options, "private", seats, body.name or t.names[t.seat], address,
                          seed=t.seed)
    for code in made.invites.values():  # the tutorial holds the other seats: their tokens are never handed out
        service.claim(made.game_id, code, None)
    return {"id": made.game_id, "seat": made.seat, "token": made.seat_token,
            "tutorial": _advance(t, service, made.game_id)}


@router.post("/{game}/{game_id}/advance")
def advance(game: GameName, game_id: GameId, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """Make the other seats' scripted moves now due; the learner's step now (None at the end)."""
    t = _find(game)
    if token is None or service.seat_of(game_id, token) != t.seat:
        raise Unauthorized("the tutorial is advanced with the learner's seat token")
    return _advance(t, service, game_id)


def _at(t: Tutorial, service: ServiceDep, game_id: str) -> int:
    """How far the game is along the script; Invalid if it is not a game of this tutorial or left its script."""
    state, _, _ = service.current(game_id)
    record = state.record()
    done = [str(a) for a in record["actions"]]
    fresh = new_game(t.game, t.players, t.seed, t.options).record()
    if record["game"] != t.game or record["seed"] != fresh["seed"] or record["options"] != fresh["options"]:
        raise Invalid("this game is not a tutorial game")
    if done != [s.action for s in t.steps[:len(done)]]:
        raise Invalid("this game left the tutorial's script: start the tutorial again from the lobby")
    return len(done)


def _advance(t: Tutorial, service: ServiceDep, game_id: str) -> dict[str, Any]:
    told: list[str] = []
    at = _at(t, service, game_id)
    while at < len(t.steps) and t.steps[at].seat != t.seat:
        step = t.steps[at]
        _, _, _, since, _ = service.current_for(game_id, step.seat)
        if since is None or service.act_for(game_id, step.seat, step.action, since,
                                            f"{TUTORIAL_ACTION_IDS}{at}") is None:
            break  # not this seat's decision (a simultaneous step the learner has not made yet)
        if step.text:
            told.append(step.text)
        at = _at(t, service, game_id)
    # another seat's decision queued ahead of the learner's in a simultaneous step (a secret bid) waits in the
    # engine for the learner's: the learner's step is the next one not yet queued
    state, _, _ = service.current(game_id)
    queued = set(state.submitted())
    while at < len(t.steps) and t.steps[at].seat != t.seat and t.steps[at].seat in queued:
        queued.discard(t.steps[at].seat)
        at += 1
    return {**t.public(at), "told": told}
