"""The contract every game implements: `State`, and the static facts of a game, `GameInfo`.

A game subclasses `State` and implements the underscore hooks; everything shared (validating actions and
seats, caching legal actions, history, records) is written once here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from tabletop.core.action import Action, normalize_text
from tabletop.core.errors import IllegalAction, shorten
from tabletop.core.options import Option, OptionValue
from tabletop.core.rng import Rng

Seat = int
View = dict[str, Any]
LogEntry = dict[str, Any]
"""One line of a seat's history: `{"seat": int | None, "text": str}` (seat None: the table, not a player)."""


@dataclass(frozen=True)
class GameInfo:
    """Static facts of a game: what the registry, the CLI and records need before any state exists."""

    name: str
    title: str
    min_players: int
    max_players: int
    cooperative: bool
    version: str
    options: tuple[Option, ...]
    state_class: type[State]
    summary: str = ""
    score_label: str = "score"
    """What `scores()` measures, for tables (e.g. Silencio: "−cards left")."""

    @property
    def default_players(self) -> int:
        """The player count used when none is given."""
        return max(self.min_players, min(3, self.max_players))

    def option(self, name: str) -> Option:
        """The declared option called `name`."""
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def describe(self) -> dict[str, Any]:
        """JSON-ready static facts (for `tabletop games`, the server and records)."""
        return {
            "name": self.name,
            "title": self.title,
            "players": [self.min_players, self.max_players],
            "cooperative": self.cooperative,
            "version": self.version,
            "score": self.score_label,
            "options": [
                {
                    "name": o.name,
                    "default": list(o.default) if o.multi else o.default,
                    "choices": list(o.choices),
                    "multi": o.multi,
                    "doc": o.doc,
                }
                for o in self.options
            ],
        }


class State(ABC):
    """A game in progress. Create with `tabletop.new_game`; advance with `apply`.

    Subclasses set `to_move` (None once the game is over) and implement the hooks below. They must keep
    `clone()` cheap: flat lists and ints, copied by hand.
    """

    info: ClassVar[GameInfo]

    players: int
    options: dict[str, OptionValue]
    seed: int | None
    rng: Rng
    to_move: Seat | None
    _history: list[Action]
    _legal: list[Action] | None

    # ---- construction -------------------------------------------------------------------------------
    def _init_base(self, players: int, seed: int, options: Mapping[str, OptionValue]) -> None:
        self.players = players
        self.options = dict(options)
        self.seed = seed
        self.rng = Rng(seed)
        self.to_move = None
        self._history = []
        self._legal = None

    def _copy_base(self, other: State) -> None:
        """Copy the shared fields of `other` into this (new, uninitialised) instance."""
        self.players = other.players
        self.options = other.options  # never mutated after setup
        self.seed = other.seed
        self.rng = other.rng.copy()
        self.to_move = other.to_move
        self._history = other._history.copy()
        self._legal = other._legal  # lists are never mutated in place; apply() replaces them

    @classmethod
    @abstractmethod
    def setup(cls, players: int, seed: int, options: Mapping[str, OptionValue]) -> Self:
        """A new game: components dealt and chance drawn from `seed`. Options are already validated."""

    # ---- hooks a game implements ------------------------------------------------------------------------
    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """The legal actions of `to_move`; empty when the game is over. Called at most once per state."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out a legal action and advance `to_move`."""

    @abstractmethod
    def _view(self, seat: Seat | None) -> View:
        """JSON-ready dict of all that `seat` may see (None: a spectator)."""

    @abstractmethod
    def _log(self, seat: Seat | None, start: int) -> list[LogEntry]:
        """The history `seat` witnessed (None: a spectator), entries from index `start` on, oldest first.

        Entries are JSON-ready `{"seat": int | None, "text": str}`, worded as that seat saw the event: a seat's log
        only grows (an entry, once there, never changes), and `view(seat)["log_pos"]` is its length.
        """

    @abstractmethod
    def _sample(self, seat: Seat, rng: Rng) -> Self:
        """A copy with everything `seat` cannot see redrawn consistently with its view, using `rng`."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def scores(self) -> list[float]:
        """Current score of each seat (final once the game is over)."""

    @abstractmethod
    def winners(self) -> list[Seat]:
        """Winning seats once the game is over (all seats on a shared win); empty before the end."""

    @abstractmethod
    def component_counts(self) -> dict[str, int]:
        """Count of each kind of component wherever it lies; conserved by every action (tests check this)."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The whole true state as a JSON-ready dict: for tests and debugging, never for a client."""

    # ---- the public contract ------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once no decision is left."""
        return self.to_move is None

    @property
    def game(self) -> str:
        """The registered name of this game."""
        return self.info.name

    def legal_actions(self) -> list[Action]:
        """The actions `to_move` may take now (a new list; empty when the game is over)."""
        return self._legal_now().copy()

    def _legal_now(self) -> list[Action]:
        """The cached legal actions of this state (computed on first use; never mutated in place)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions() if self.to_move is not None else []
        return legal

    def apply(self, action: Action | str) -> None:
        """Carry out an action (or its canonical text). Raises IllegalAction, leaving the state unchanged.

        Only an `Action` that is one of `legal_actions()` (the same object: actions are interned) or a `str` is
        accepted; any other object is refused, whatever its `__eq__` says.
        """
        legal = self._legal  # _legal_now() inlined: this is the hot path
        if legal is None:
            legal = self._legal = self._legal_actions() if self.to_move is not None else []
        if type(action) is Action:
            if action not in legal:  # identity: an exact Action never compares equal to another object
                raise IllegalAction(self._illegal_message(action.text, legal))
            act = action
        else:
            act = self._match(action, legal)
        self._legal = None
        self._history.append(act)
        self._apply(act)

    def parse_action(self, text: str) -> Action:
        """The legal action whose canonical text is `text` (case and spacing ignored), or IllegalAction."""
        return self._match(text, self._legal_now())

    def _match(self, text: object, legal: list[Action]) -> Action:
        if not isinstance(text, str):
            raise IllegalAction(
                f"an action must be an Action from legal_actions() or its text (a str), not {type(text).__name__}"
            )
        if type(text) is not str:
            text = str.__str__(text)  # a str subclass's own __eq__ or lower() must not decide what matches
        for a in legal:
            if a.text == text:
                return a
        want = normalize_text(text)
        for a in legal:
            if normalize_text(a.text) == want:
                return a
        raise IllegalAction(self._illegal_message(text, legal))

    def _illegal_message(self, text: str, legal: list[Action]) -> str:
        if self.to_move is None:
            return f"{shorten(text)} refused: the game is over, no action is legal"
        shown = ", ".join(a.text for a in legal[:40]) + (", ..." if len(legal) > 40 else "")
        return f"{shorten(text)} is not legal now for seat {self.to_move}; legal: {shown}"

    def _check_seat(self, seat: Seat | None, allow_none: bool = True) -> None:
        if seat is None and allow_none:
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            extra = " or None for a spectator" if allow_none else ""
            raise ValueError(f"seat must be an integer 0..{self.players - 1}{extra}, not {shorten(seat)}")

    def view(self, seat: Seat | None = None) -> View:
        """JSON-ready dict of everything `seat` may see; None is a spectator who sees only public facts."""
        self._check_seat(seat)
        return self._view(seat)

    def log(self, seat: Seat | None = None, start: int = 0) -> list[LogEntry]:
        """The public history `seat` witnessed (None: a spectator) from entry `start` on: a cursor.

        `view(seat)["log_pos"]` is the length of this log, so a client that has entries up to `k` asks for
        `log(seat, k)` and gets exactly the new ones. The view itself carries only a short recent tail.
        """
        self._check_seat(seat)
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            raise ValueError(f"log start must be a non-negative integer, not {shorten(start)}")
        return self._log(seat, start)

    def sample(self, seat: Seat, seed: int) -> Self:
        """A full state consistent with `view(seat)`: hidden cards, bag and deck order, future chance redrawn."""
        self._check_seat(seat, allow_none=False)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"a sample seed must be an integer, not {shorten(seed)}")
        s = self._sample(seat, Rng(seed ^ 0x5EED5A3B1E))
        s.rng = Rng(seed)
        s.seed = None  # a sampled state is a belief, not a game with a record
        s._legal = None
        return s

    @property
    def history(self) -> list[str]:
        """Canonical texts of the actions taken so far."""
        return [a.text for a in self._history]

    def record(self) -> dict[str, Any]:
        """A JSON-ready record that `tabletop.replay` turns back into this exact state (a new dict, sharing nothing).

        It contains the seed and every action, secret ones included: a record of an unfinished game reveals every
        hand and every future draw, so it is for the game's owner only (see docs/architecture.md).
        """
        if self.seed is None:
            raise ValueError("a sampled state is a belief, not a game: it has no record")
        return {
            "game": self.info.name,
            "version": self.info.version,
            "players": self.players,
            "options": {k: (list(v) if isinstance(v, list) else v) for k, v in self.options.items()},
            "seed": self.seed,
            "actions": self.history,
        }

    def __repr__(self) -> str:
        status = "over" if self.is_over else f"seat {self.to_move} to move"
        return f"<{self.info.title} {self.players}p, {len(self._history)} actions, {status}>"
