"""The contract every game implements: `State`, and the static facts of a game, `GameInfo`.

A game subclasses `State` and implements the underscore hooks; everything shared (validating actions and
seats, caching legal actions, history, records) is written once here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self, cast

from mypy_extensions import mypyc_attr

from tabletop.core.action import Action, normalize_text
from tabletop.core.errors import IllegalAction, shorten
from tabletop.core.logwords import entry as log_words
from tabletop.core.logwords import token
from tabletop.core.options import Option, OptionValue, resolve_options
from tabletop.core.rng import COMPILED, Rng

Seat = int
View = dict[str, Any]
LogEntry = dict[str, Any]
"""One line of a seat's history: `{"seat": int | None, "text": str}` (seat None: the table, not a player)."""

CONCEDE = "concede"
"""The verb of a concession (`State.concede`): its text is `concede p<seat>` (`concede p1`: seat 1, Player 2). The
core's own action, never among a game's legal actions (no game may use the verb: conformance-tested)."""
_CONCEDE_PREFIX = CONCEDE + " p"


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
    no_chat: str = ""
    """Why this game's table has no chat ("" for a game whose players may talk): Silencio's rules forbid talking.
    The server refuses a chat message with this reason; the browser shows no chat panel."""
    step_limit: int = 10_000
    """More decisions than any game of it takes: the environments end (truncate) an episode after this many."""
    package: str = ""
    """The package of the game's folder, where its optional parts live (`tabletop.core.parts`); "" for the package
    of `state_class`'s module."""

    @property
    def home(self) -> str:
        """The game folder's package: `package`, or the package of the module defining `state_class`."""
        if self.package:
            return self.package
        module: str = getattr(self.state_class, "__module__")  # noqa: B009 (mypyc reads no attribute of a class object)
        return module.rpartition(".")[0] or module

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
            "chat": not self.no_chat,
            "no_chat": self.no_chat,
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


@mypyc_attr(allow_interpreted_subclasses=True)  # the test games and entry-point games subclass it
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
    _queue: dict[Seat, Action] | None = None
    """Actions submitted ahead by deciding seats that are not yet `to_move` (see `submit`); None when empty."""
    _trail: list[Seat] | None = None
    """With undo tracking on (`track_undo`): per action of the history, the seat that took it, or -1 if it (or the
    flow it set off) drew chance or revealed something hidden. None: tracking off (the fast path)."""
    _conceded: tuple[tuple[Seat, tuple[int, ...]], ...] = ()
    """The concessions so far, in order: each the seat and, for each reader (the seats, then a spectator), the length
    of the game's own log when it conceded (where the core's log entry for it goes). Empty: the fast path."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game that overrides `winners` itself (the older form of the contract: `_game_winners` is the hook) has
        it wrapped so that every caller sees the concessions (`_winners_conceded`)."""
        super().__init_subclass__(**kwargs)
        own = vars(cls).get("winners")
        if own is None or getattr(own, "_sees_concessions", False):
            return

        def winners(self: State) -> list[Seat]:
            if not self._conceded:
                return cast(list[Seat], own(self))
            return self._winners_conceded(lambda: cast(list[Seat], own(self)))

        winners.__doc__ = own.__doc__
        winners.__name__ = winners.__qualname__ = "winners"
        winners._sees_concessions = True  # type: ignore[attr-defined]
        setattr(cls, "winners", winners)  # noqa: B010 (a method replaced on the class)

    # ---- construction -------------------------------------------------------------------------------
    def _init_base(self, players: int, seed: int, options: Mapping[str, OptionValue]) -> None:
        self.players = players
        self.options = dict(options)
        self.seed = seed
        self.rng = Rng(seed)
        self.to_move = None
        self._history = []
        self._legal = None
        self._queue = None
        self._trail = None

    def _copy_base(self, other: State) -> None:
        """Copy the shared fields of `other` into this (new, uninitialised) instance."""
        self.players = other.players
        self.options = other.options  # never mutated after setup
        self.seed = other.seed
        self.rng = other.rng.copy()
        self.to_move = other.to_move
        self._history = other._history.copy()
        self._legal = other._legal  # lists are never mutated in place; apply() replaces them
        queue, trail = other._queue, other._trail  # always set here: an instance attribute is the fastest read
        self._queue = None if queue is None else queue.copy()
        self._trail = None if trail is None else trail.copy()
        self._conceded = other._conceded  # a tuple of tuples: shared

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

    def _simultaneous_seats(self) -> list[Seat]:
        """Seats other than `to_move` that owe a decision in this same step and may take it ahead (default: none).

        Declare a seat here only where its legal options cannot depend on the choices of the seats deciding before
        it in this step (the conformance harness checks it), so that an action submitted ahead is still legal, and
        means the same, when the engine reaches the seat.
        """
        return []

    def _legal_actions_ahead(self, seat: Seat) -> list[Action]:
        """The actions `seat` (one of `_simultaneous_seats()`) will have when its turn in this step comes."""
        raise NotImplementedError(f"{type(self).__name__} declares simultaneous seats but not their actions")

    def _reveals(self, action: Action, after: Self) -> bool:
        """Whether carrying out `action` from this state (giving `after`, the automatic flow included) showed a seat
        something hidden: a card from a hidden hand, a card handed over, a draw from a hidden deck, a secret
        revealed. Chance (the rng advancing) is detected by the core. Conservative: True when unsure. Used only
        with undo tracking on (`track_undo`), never on the hot path. Default: nothing is ever hidden."""
        return False

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

    def winners(self) -> list[Seat]:
        """Winning seats once the game is over (all seats on a shared win); empty before the end. The game's own
        count (`_game_winners`), with the concessions applied (`_winners_conceded`)."""
        if self._conceded:
            return self._winners_conceded(self._game_winners)
        return self._game_winners()

    def _game_winners(self) -> list[Seat]:
        """The game's winners by its own rules, concessions aside: the hook a game implements (or it overrides
        `winners` itself, which `__init_subclass__` wraps; compiled games cannot be wrapped, and implement this)."""
        raise NotImplementedError(f"{type(self).__name__} implements neither _game_winners nor winners")

    def _standing(self, seat: Seat) -> tuple[float, ...]:
        """How well `seat` stands, compared between seats: the score, then the game's tie-breaks (default: the score
        alone). Used where the game's own `winners` cannot say it: who wins when the seat(s) the game named conceded,
        and the places below the winners (`places`)."""
        return (float(self.scores()[seat]),)

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

    def apply(self, action: object) -> None:
        """Carry out an action (or its canonical text). Raises IllegalAction, leaving the state unchanged.

        Only an `Action` that is one of `legal_actions()` (the same object: actions are interned) or a `str` is
        accepted; any other object is refused, whatever its `__eq__` says.
        """
        legal = self._legal  # _legal_now() inlined: this is the hot path
        if legal is None:
            legal = self._legal = self._legal_actions() if self.to_move is not None else []
        if type(action) is Action:
            if not _holds(legal, action):  # identity: an exact Action never compares equal to another object
                if action.verb == CONCEDE:
                    self._concede(self._concession_of(action.text))
                    return
                raise IllegalAction(self._illegal_message(action.text, legal))
            act = action
        else:
            try:
                act = self._match(action, legal)
            except IllegalAction:
                if not (isinstance(action, str) and normalize_text(action).startswith(_CONCEDE_PREFIX)):
                    raise
                self._concede(self._concession_of(action))
                return
        self._legal = None
        self._history.append(act)
        if self._trail is None and self._queue is None:
            self._apply(act)
            return
        self._apply_tracked(act)
        if self._queue is not None:
            self._drain()

    def _apply_tracked(self, act: Action) -> None:
        """`_apply` with the undo trail kept (history already appended)."""
        trail = self._trail
        if trail is None:
            self._apply(act)
            return
        seat = self.to_move
        before = self.clone()
        self._apply(act)
        hidden = self.rng.state != before.rng.state or before._reveals(act, self)
        trail.append(-1 if hidden or seat is None else seat)

    def _drain(self) -> None:
        """Apply the queued actions of the seats the engine has reached, in the canonical order."""
        queue = self._queue
        while queue and self.to_move in queue:
            seat = self.to_move
            act = queue.pop(seat)
            legal = self._legal_now()
            if not _holds(legal, act):  # cannot happen for a game whose hook keeps its promise (conformance-tested)
                continue
            self._legal = None
            self._history.append(act)
            self._apply_tracked(act)
        if not queue:
            self._queue = None

    # ---- simultaneous decisions ----------------------------------------------------------------------------
    def deciding(self) -> list[Seat]:
        """Every seat that owes a decision now: `to_move` first, then the seats that may decide ahead in this same
        step and have not yet (`[to_move]` in an ordinary step; empty once the game is over)."""
        to = self.to_move
        if to is None:
            return []
        queue = self._queue
        out = [to]
        for s in self._simultaneous_seats():
            if s != to and (queue is None or s not in queue) and s not in out:
                out.append(s)
        return out

    def submitted(self) -> list[Seat]:
        """The seats that have decided ahead and wait for the engine to reach them (public: not what they chose)."""
        return sorted(self._queue) if self._queue else []

    def legal_actions_for(self, seat: object) -> list[Action]:
        """`seat`'s legal actions now: those of `to_move`, the actions a deciding seat may submit ahead, or none."""
        self._check_seat(seat, allow_none=False)
        assert isinstance(seat, int)  # what _check_seat let through
        if seat == self.to_move:
            return self.legal_actions()
        if seat not in self.deciding():
            return []
        return list(self._legal_actions_ahead(seat))

    def parse_action_for(self, seat: object, text: object) -> Action:
        """`seat`'s legal action (now or ahead) with canonical text `text`; a refusal lists only that seat's own."""
        self._check_seat(seat, allow_none=False)
        assert isinstance(seat, int)  # what _check_seat let through
        if seat == self.to_move:
            return self.parse_action(text)
        legal = self.legal_actions_for(seat)
        if not legal:
            raise IllegalAction(self._no_decision_message(seat))
        if not isinstance(text, str):
            raise IllegalAction(f"an action must be its text (a str), not {type(text).__name__}")
        want = normalize_text(str.__str__(text))
        for a in legal:
            if a.text == text or normalize_text(a.text) == want:
                return a
        shown = ", ".join(a.text for a in legal[:40]) + (", ..." if len(legal) > 40 else "")
        raise IllegalAction(f"{shorten(text)} is not legal now for seat {seat}; legal: {shown}")

    def _no_decision_message(self, seat: Seat) -> str:
        if self.to_move is None:
            return f"seat {seat} has no decision: the game is over"
        if self._queue and seat in self._queue:
            return f"seat {seat} has already decided in this step (take it back with undo to change it)"
        return f"seat {seat} has no decision now: it is seat {self.to_move}'s turn"

    def submit(self, seat: object, action: object) -> None:
        """`seat`'s decision. If it is `to_move`, applied at once (as `apply`); if it owes a decision in this same
        step but is not yet to move, validated and queued, then applied automatically when the engine reaches it.
        The history (and so the record) keeps the canonical order. IllegalAction leaves the state unchanged."""
        self._check_seat(seat, allow_none=False)
        assert isinstance(seat, int)  # what _check_seat let through
        text = action.text if type(action) is Action else action
        if isinstance(text, str) and normalize_text(text).startswith(_CONCEDE_PREFIX):
            conceding = self._concession_of(text)
            if conceding.args[0] != seat:
                raise IllegalAction(f"seat {seat} may concede only for itself ({self.concession(seat).text})")
            self._concede(conceding)
            return
        if seat == self.to_move:
            self.apply(action)
            return
        legal = self.legal_actions_for(seat)
        if not legal:
            raise IllegalAction(self._no_decision_message(seat))
        if type(action) is Action:
            if action not in legal:
                shown = ", ".join(a.text for a in legal[:40]) + (", ..." if len(legal) > 40 else "")
                raise IllegalAction(f"{shorten(action.text)} is not legal now for seat {seat}; legal: {shown}")
            act = action
        else:
            act = self.parse_action_for(seat, action)
        if self._queue is None:
            self._queue = {}
        self._queue[seat] = act

    # ---- conceding (docs/rulings.md, "Conceding") -------------------------------------------------------------
    @property
    def conceded(self) -> list[Seat]:
        """The seats that conceded, in the order they did (public)."""
        return [c[0] for c in self._conceded]

    def concede_refusal(self, seat: object) -> str:
        """Why `seat` may not concede now, in a player's words ("" when it may)."""
        self._check_seat(seat, allow_none=False)
        assert isinstance(seat, int)  # what _check_seat let through
        if self.info.cooperative:
            return (f"{self.info.title} is cooperative: the table wins or loses together, so no one concedes "
                    "(a player may leave the table instead)")
        if self.to_move is None:
            return "the game is over: there is nothing left to concede"
        if any(c[0] == seat for c in self._conceded):
            return f"Player {seat + 1} has already conceded"
        return ""

    def concession(self, seat: object) -> Action:
        """`seat`'s concession (its text `concede p<seat>`), or IllegalAction saying why it may not concede now."""
        why = self.concede_refusal(seat)
        if why:
            raise IllegalAction(why)
        assert isinstance(seat, int)  # what concede_refusal let through
        return Action(CONCEDE, (seat,), f"{_CONCEDE_PREFIX}{seat}")

    def concede(self, seat: object) -> Action:
        """`seat` concedes (any seat, at any moment of a competitive game, its turn or not): the action, kept in the
        history and so in the record (`apply` takes its text back on replay). When every seat but one has conceded
        (in a 2-player game: at once) the game is over and that seat wins; otherwise the game goes on, the seat is
        still played (by whoever or whatever plays it) and is placed last (`places`, `winners`). IllegalAction
        (state unchanged) in a cooperative game, once the game is over or for a seat that has conceded."""
        act = self.concession(seat)
        self._concede(act)
        return act

    def _concession_of(self, text: str) -> Action:
        """The concession whose text is `text` (`concede p1`), legal now, or IllegalAction."""
        rest = normalize_text(text)[len(_CONCEDE_PREFIX):]
        if not rest.isdigit() or not 0 <= int(rest) < self.players:
            raise IllegalAction(f"{shorten(text)}: a concession names a seat 0..{self.players - 1} "
                                f"({_CONCEDE_PREFIX}0 .. {_CONCEDE_PREFIX}{self.players - 1})")
        return self.concession(int(rest))

    def _concede(self, act: Action) -> None:
        seat = cast(int, act.args[0])
        marks = tuple(len(self._log(r, 0)) for r in [*range(self.players), None])
        self._history.append(act)
        self._conceded = (*self._conceded, (seat, marks))
        if self._trail is not None:
            self._trail.append(-1)  # a concession stands: it is never taken back, nor anything before it
        self._legal = None
        if self.players - len(self._conceded) <= 1:  # one seat left: the game is over, it wins
            self.to_move = None
            self._queue = None

    def _winners_conceded(self, own: Callable[[], list[Seat]]) -> list[Seat]:
        """The winners once someone conceded: the seat left if every other conceded; else the game's own winners
        that did not concede, or if all of those conceded, the best standing seats among the others."""
        if self.to_move is not None:
            return []
        gone = {c[0] for c in self._conceded}
        left = [p for p in range(self.players) if p not in gone]
        if len(left) == 1:
            return left
        won = [p for p in own() if p not in gone]
        if won:
            return won
        best = max(self._standing(p) for p in left)
        return [p for p in left if self._standing(p) == best]

    def places(self) -> list[int]:
        """Each seat's place once the game is over (1 = first): the winners first, then by standing (score, then
        the game's tie-breaks), the seats that conceded last (the first to concede last of all); equal seats share
        the better place."""
        order = {c[0]: i for i, c in enumerate(self._conceded)}
        won = set(self.winners())
        keys: list[tuple[Any, ...]] = [
            (0, order[p]) if p in order else (1, p in won, self._standing(p)) for p in range(self.players)
        ]
        return [1 + sum(1 for k in keys if k > mine) for mine in keys]

    # ---- undo ------------------------------------------------------------------------------------------------
    def track_undo(self) -> None:
        """Keep the undo trail from now on (the server does; the hot path of agents and benches does not)."""
        if self._trail is None:
            self._trail = self._rebuilt_trail()

    def _rebuilt_trail(self) -> list[Seat]:
        if not self._history:
            return []
        if self.seed is None:  # a belief has no past to take back
            return [-1] * len(self._history)
        s = self._new_same_game()
        s._trail = []
        for a in self._history:
            s.apply(a)
        return s._trail

    def _new_same_game(self) -> Self:
        """The start of this game again: what `new_game` builds from the record's game, players, seed and options."""
        assert self.seed is not None
        info = self.info
        return cast(Self, info.state_class.setup(self.players, self.seed,
                                                 resolve_options(info.options, self.options, self.players)))

    def undoable(self, seat: object) -> int:
        """How many of `seat`'s trailing actions it may take back now: its decision submitted ahead (1), or its
        last actions while no other seat has acted since and nothing hidden was revealed (nor chance drawn)."""
        self._check_seat(seat, allow_none=False)
        assert isinstance(seat, int)  # what _check_seat let through
        if self._queue and seat in self._queue:
            return 1
        trail = self._trail if self._trail is not None else self._rebuilt_trail()
        n = 0
        for s in reversed(trail):
            if s != seat:
                break
            n += 1
        return n

    def undo_refusal(self, seat: object) -> str:
        """Why `seat` may take nothing back now, in a player's words (empty when it may: `undoable(seat)` > 0)."""
        if self.undoable(seat):
            return ""
        if self.seed is None:
            return "this position has no past to take back"
        trail = self._trail if self._trail is not None else self._rebuilt_trail()
        if not trail:
            return "nothing has been played yet"
        last = trail[-1]
        if last == -1:
            return "the last action showed something hidden or drew by chance, so it stands"
        return f"Player {last + 1} has acted since your last action"

    def undo(self, seat: object, count: object = 1) -> Self:
        """A new state with `seat`'s last `count` actions taken back (rebuilt from the record without them; the
        other seats' decisions submitted ahead are kept). IllegalAction if more than `undoable(seat)`."""
        can = self.undoable(seat)
        assert isinstance(seat, int)  # what undoable let through
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= can:
            raise IllegalAction(f"Player {seat + 1} may take back {can} action(s) now, not {shorten(count)}"
                                + ("" if can else f": {self.undo_refusal(seat)}"))
        queue = dict(self._queue or {})
        if seat in queue:
            s = self.clone()
            del queue[seat]
            s._queue = queue or None
            return s
        s = self._new_same_game()
        s._trail = []
        for a in self._history[:len(self._history) - count]:
            s.apply(a)
        for q, a in queue.items():
            if q in s.deciding():
                s.submit(q, a)
        return s

    def parse_action(self, text: object) -> Action:
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

    def _check_seat(self, seat: object, allow_none: bool = True) -> None:
        if seat is None and allow_none:
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            extra = " or None for a spectator" if allow_none else ""
            raise ValueError(f"seat must be an integer 0..{self.players - 1}{extra}, not {shorten(seat)}")

    def view(self, seat: object = None) -> View:
        """JSON-ready dict of everything `seat` may see; None is a spectator who sees only public facts."""
        self._check_seat(seat)
        assert seat is None or isinstance(seat, int)  # what _check_seat let through
        view = self._view(seat)
        if self._conceded:
            self._view_conceded(seat, view)
        queue = self._queue
        if queue:
            view["decided"] = sorted(queue)  # public, as a facedown card on the table is; what it is is not
            if seat is not None and seat in queue:
                view["your_decision"] = queue[seat].text
        return view

    def log(self, seat: object = None, start: object = 0) -> list[LogEntry]:
        """The public history `seat` witnessed (None: a spectator) from entry `start` on: a cursor.

        `view(seat)["log_pos"]` is the length of this log, so a client that has entries up to `k` asks for
        `log(seat, k)` and gets exactly the new ones. The view itself carries only a short recent tail.
        """
        self._check_seat(seat)
        assert seat is None or isinstance(seat, int)  # what _check_seat let through
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            raise ValueError(f"log start must be a non-negative integer, not {shorten(start)}")
        if self._conceded:
            return self._log_conceded(seat)[start:]
        return self._log(seat, start)

    def _log_conceded(self, seat: Seat | None) -> list[LogEntry]:
        """The whole log of `seat` with the core's entry for each concession where it happened."""
        reader = self.players if seat is None else seat
        entries = self._log(seat, 0)
        out: list[LogEntry] = []
        done = 0
        for i, (who, marks) in enumerate(self._conceded):
            at = marks[reader]
            out.extend(entries[done:at])
            done = at
            over = i == len(self._conceded) - 1 and self.to_move is None and self.players - len(self._conceded) <= 1
            out.append(log_words(who, f"{token(who)} conceded" + ("; the game is over" if over else
                                                                    ", placed last; the seat plays on to the end")))
        out.extend(entries[done:])
        return out

    def _view_conceded(self, seat: Seat | None, view: View) -> None:
        """The view with the concessions: who conceded (public), the log position and its recent tail with the
        core's entries in."""
        view["conceded"] = self.conceded
        pos = view.get("log_pos")
        if isinstance(pos, int) and not isinstance(pos, bool):
            full = self._log_conceded(seat)
            view["log_pos"] = len(full)
            tail = view.get("log")
            if isinstance(tail, list):
                view["log"] = full[max(0, len(full) - len(tail)):]

    def sample(self, seat: object, seed: object) -> Self:
        """A full state consistent with `view(seat)`: hidden cards, bag and deck order, future chance redrawn."""
        self._check_seat(seat, allow_none=False)
        assert isinstance(seat, int)  # what _check_seat let through
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"a sample seed must be an integer, not {shorten(seed)}")
        rng = Rng(seed ^ 0x5EED5A3B1E)
        s = self._sample(seat, rng)
        s.rng = Rng(seed)
        s.seed = None  # a sampled state is a belief, not a game with a record
        s._legal = None
        s._trail = None
        s._queue = None
        if self._queue:  # that the others decided is known, not what: their choices are redrawn
            queue: dict[Seat, Action] = {}
            for q, a in self._queue.items():
                if q == seat:
                    queue[q] = a
                else:
                    options = s._legal_actions_ahead(q)
                    queue[q] = options[rng.below(len(options))]
            s._queue = queue
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


def _holds(legal: list[Action], action: Action) -> bool:
    """Whether `action` is one of `legal`, by identity (actions are interned; `Action` has no `__eq__`, so this is
    what `action in legal` means). Compiled, a scan of pointers: `in` calls the rich comparison on every action
    before the match (20 options in SiliconVania, the match at 9 on average; docs/performance.md). The pure build
    keeps `in`, whose loop is C."""
    if not COMPILED:
        return action in legal
    for x in legal:  # noqa: SIM110 (compiled, any() over a generator allocates one)
        if x is action:
            return True
    return False
