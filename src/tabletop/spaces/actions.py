"""Fixed action spaces, the framework: every action a game can ever offer, numbered, per game and player count.

A learner needs a `Discrete(N)` space whose index `i` always means the same action. Each game's space is the list
of canonical action texts (the texts of records and the server) that its notation can form with its components,
under every option: the game's `encoding` part (`tabletop/games/<game>/encoding.py`, `action_texts(players)`)
enumerates them from the notation (the game's own formatter, so the texts are exactly the engine's), not from
playouts; `generate(game, players)` is that list without repeats. This module knows no game.

The mapping is **append-only**: the checked-in file `tabletop/games/<game>/actions/<game>-<n>p.txt` (one text per
line, line `i` = index `i`) is the mapping in force. `ActionSpace.load` reads the file and appends, after its last
line, any text the generator makes that the file does not hold yet, so a newer engine with new actions keeps every
old index. A test checks that the file is a prefix of the generator's list: a generator change must add at the end,
never reorder or drop (a dropped action keeps its index and simply never becomes legal).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources

import numpy as np

from tabletop.core.action import Action
from tabletop.core.errors import IllegalAction, InvalidOptions
from tabletop.core.parts import part
from tabletop.core.registry import game_info
from tabletop.spaces.observations import check_players

try:  # the compiled mask (built at install from _fastmask.c; optional)
    from tabletop.spaces._fastmask import mask as _c_mask
except ImportError:  # pragma: no cover - without a C compiler: the same masks from Python
    _c_mask = None  # type: ignore[assignment]


def generate(game: str, players: int) -> list[str]:
    """Every canonical action text of `game` with `players` seats, in mapping order (no duplicates)."""
    info = game_info(game)
    check_players(info.name, players)
    module = part(info, "encoding")
    if module is None:
        raise InvalidOptions(f"{info.title} has no action space yet (its folder has no 'encoding' part)")
    return list(dict.fromkeys(module.action_texts(players)))


def mapping_file(game: str, players: int) -> str:
    """The name of the checked-in mapping file, inside the game folder's `actions/`."""
    return f"{game}-{players}p.txt"


def read_mapping(game: str, players: int) -> list[str]:
    """The checked-in mapping (empty if the file does not exist yet)."""
    info = game_info(game)
    f = resources.files(info.home).joinpath("actions", mapping_file(info.name, players))
    if not f.is_file():
        return []
    return [line for line in f.read_text(encoding="utf-8").splitlines() if line]


class ActionSpace:
    """The fixed numbering of a game's actions for one player count: index <-> canonical text, and masks."""

    __slots__ = ("_by_action", "_index", "game", "players", "texts")

    def __init__(self, game: str, players: int, texts: Sequence[str]) -> None:
        self.game = game
        self.players = players
        self.texts: tuple[str, ...] = tuple(texts)
        self._index = {t: i for i, t in enumerate(self.texts)}
        if len(self._index) != len(self.texts):
            raise ValueError(f"{game}-{players}p: the action mapping repeats a text")
        self._by_action: dict[Action, int] = {}  # actions are interned: identity-keyed cache of the text lookup

    @classmethod
    def load(cls, game: str, players: int) -> ActionSpace:
        """The mapping in force: the checked-in file, then any newer generated texts appended."""
        return _load(game, players)

    @property
    def n(self) -> int:
        """The number of actions (the size of `Discrete(n)`)."""
        return len(self.texts)

    def index(self, action: Action | str) -> int:
        """The index of an action (or its canonical text); IllegalAction if it has none."""
        if type(action) is Action:
            i = self._by_action.get(action)
            if i is not None:
                return i
            text = action.text
        else:
            text = str(action)
        j = self._index.get(text)
        if j is None:
            raise IllegalAction(f"{text[:60]!r} has no index in the {self.game} {self.players}-player action space")
        if type(action) is Action:
            self._by_action[action] = j
        return j

    def indices(self, actions: Iterable[Action]) -> list[int]:
        """Indices of several actions, in order."""
        by = self._by_action
        if not isinstance(actions, list | tuple):
            actions = list(actions)
        try:
            return [by[a] for a in actions]  # the hot path: every action seen before (identity-hashed, interned)
        except KeyError:
            idx = self.index
            return [by[a] if a in by else idx(a) for a in actions]

    def mask_of(self, indices: Iterable[int]) -> np.ndarray:
        """A fresh int8 vector of length n with 1 at the given indices: item writes into a bytearray (in C when the
        compiled helpers are built), faster than numpy's fancy indexing for the 5-20 legal actions of a typical
        decision."""
        if _c_mask is not None and type(indices) is list:
            return np.frombuffer(_c_mask(self.n, indices), np.int8)
        buf = bytearray(self.n)
        for i in indices:
            buf[i] = 1
        return np.frombuffer(buf, np.int8)

    def mask(self, actions: Iterable[Action], out: np.ndarray | None = None) -> np.ndarray:
        """An int8 vector of length n: 1 at the index of each given (legal) action, 0 elsewhere."""
        if out is None:
            return self.mask_of(self.indices(actions))
        out[:] = 0
        out[self.indices(actions)] = 1
        return out

    def text(self, index: int) -> str:
        """The canonical text at `index`."""
        if not isinstance(index, int | np.integer) or isinstance(index, bool) or not 0 <= index < self.n:
            raise IllegalAction(f"action index must be an integer 0..{self.n - 1}, not {str(index)[:40]}")
        return self.texts[int(index)]

@cache
def _load(game: str, players: int) -> ActionSpace:
    info = game_info(game)
    check_players(info.name, players)
    fixed = read_mapping(info.name, players)
    have = set(fixed)
    texts = fixed + [t for t in generate(info.name, players) if t not in have]
    return ActionSpace(info.name, players, texts)


def action_space(game: str, players: int) -> ActionSpace:
    """The fixed action space of `game` for `players` seats (shared, cached)."""
    return _load(game, players)
