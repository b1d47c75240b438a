"""Fixed action spaces: every action a game can ever offer, numbered, per game and player count.

A learner needs a `Discrete(N)` space whose index `i` always means the same action. Each game's space is the list
of canonical action texts (the texts of records and the server) that its notation can form with its components,
under every option: `generate(game, players)` enumerates them from the notation (the game's own formatter, so the
texts are exactly the engine's), not from playouts.

The mapping is **append-only**: the checked-in file `tabletop/rl/actions/<game>-<n>p.txt` (one text per line, line
`i` = index `i`) is the mapping in force. `ActionSpace.load` reads the file and appends, after its last line, any
text the generator makes that the file does not hold yet, so a newer engine with new actions keeps every old index.
A test checks that the file is a prefix of the generator's list: a generator change must add at the end, never
reorder or drop (a dropped action keeps its index and simply never becomes legal).

The layer: this module and `tabletop.rl.encode` need only the core, the games and numpy; agents
(`tabletop.agents.policy`) use them, and the environments (`tabletop.rl.aec`, `tabletop.rl.gym`) sit above agents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from importlib import resources

import numpy as np

from tabletop.core import Action, game_info
from tabletop.core.errors import IllegalAction, InvalidOptions

try:  # the compiled helpers (built at install from _fastenc.c; optional)
    from tabletop.rl._fastenc import mask as _c_mask
except ImportError:  # pragma: no cover - without a C compiler: the same masks from Python
    _c_mask = None  # type: ignore[assignment]

# ---- generators, one per game: the order of each is part of the mapping (append new kinds at the end) ----------


def _silencio(players: int) -> list[str]:
    from tabletop.games.silencio import notation as r
    from tabletop.games.silencio.components import COMPONENTS

    fmt = r._format
    maxv = COMPONENTS.max_value[players]
    cards = [col * 16 + v for col in range(4) for v in range(2, maxv + 1)]
    out = ["pass", "end", "skip", "use red light", "renew oracle"]
    for verb in ("play", "give", "take", "place", "return"):
        out += [fmt(verb, (c,)) for c in cards]
    out += [fmt("giveto", (c, q)) for c in cards for q in range(players)]
    out += [fmt("oracle", (c, q)) for c in cards for q in range(players)]
    out += [fmt("swap", (o, c)) for o in cards for c in cards if o != c]
    out += [fmt("choose", (q,)) for q in range(players)]
    out += [fmt("shrine", (col,)) for col in range(4)]
    out += [fmt("shrine", (r.LARGE, col)) for col in range(4)]
    out += [fmt("tavern", ("count", k)) for k in range(len(cards) + 1)]
    out += [fmt("tavern", (phrase, r.COLOURS[col])) for phrase in ("high", "avoid") for col in range(4)]
    return out


def _silos(players: int) -> list[str]:
    from tabletop.games.silos import notation as r

    fmt, nl, nt = r._action_text, r.N_LOCATIONS, r.N_TYPES
    locs = range(nl)
    out = ["stop", "skip", "done", "card common", "card sighting ufo", "card sighting reposition",
           "card confluence", "card powers"]
    out += [fmt("held", (t,)) for t in range(4)]
    out += [fmt("keep", ()), fmt("reject", ())]
    out += [fmt("exert", (i,)) for i in locs]
    out += [fmt("position", (k, i)) for k in range(2) for i in locs]
    out += [fmt("move", (k, a, b)) for k in range(3) for a in locs for b in r.NEIGHBOURS[a]]
    out += [fmt("repos", (k, a, b)) for k in range(3) for a in locs for b in locs if a != b]
    out += [fmt("place", (t, i)) for t in range(nt) for i in locs]
    out += [fmt("take", (x, y)) for x in range(nt) for y in range(nt)]
    out += [fmt("sheriff", (g, k, a)) for g in range(4) for k in range(3) for a in locs if a != 1]
    out += [fmt(v, ()) for v in ("graduate", "distinguish", "mall_draw", "mall_four", "news_draw", "news_three")]
    out += [a.text for _, a in r.EXCHANGES]
    out += [fmt("return", (t,)) for t in range(nt)]
    out += [fmt("church_player", (t, g)) for t in range(nt) for g in range(4)]
    out += [fmt("church_focus", (t, i)) for t in range(nt) for i in locs]
    out += [fmt("church_card", ()), fmt("downgrade", ())]
    out += [fmt("crop_place", (i,)) for i in locs]
    out += [fmt("crop_move", (a, b)) for a in locs for b in locs if a != b]
    out += [fmt("skill_sheriff", (g, k, a)) for g in range(4) for k in range(3) for a in locs if a != 1]
    out += [fmt("skill_uni", (k, a)) for k in range(3) for a in locs if a != 2]
    out += [fmt("skill_draw", ())]
    out += [fmt("skill_return", (x, y)) for x in range(nt) for y in range(nt)]
    out += [fmt("skill_church", (t, a, b)) for t in range(nt) for a in locs for b in locs if a != b]
    return out


def _siliconvania(players: int) -> list[str]:
    from tabletop.games.siliconvania import notation as r

    fmt, c = r._fmt, r.COMPONENTS
    ranks = sorted(c.specialists)
    cells, positions = range(16), range(24)
    bids = range(len(c.bid_cards) + 1)  # 0: no bid card left (ruling V-13)
    pools = 4 if players == 2 else players + 1
    out = [fmt("bid", (b, s)) for b in bids for s in ranks]
    out += [fmt("bid", (b, s, 0)) for b in bids if r.BID_COST[b] > 0 for s in ranks]
    out += [fmt("recover", (b,)) for b in bids if b > 0]
    out += [fmt("pool", (k,)) for k in range(1, pools + 1)]
    out += [fmt("place", (t, i)) for t in range(r.N_TILES) for i in cells]
    out += [fmt("castle", (k, sl)) for k in range(len(c.types)) for sl in range(8)]
    out += [fmt("train", (t, sl)) for t in range(len(c.trains)) for sl in range(8)]
    out += [fmt("upgrade", (sl,)) for sl in range(8)]
    out += ["relocate skip", "relocate done"]
    out += [fmt("relocate", ("swap", i, j)) for i in cells for j in cells if i != j]
    out += [fmt("relocate", ("move", i, j)) for i in positions for j in positions if i != j]
    out += ["swap skip"]
    out += [fmt("swap", (o, s)) for o in ranks for s in ranks if o != s]
    out += ["exchange skip"]
    out += [fmt("exchange", (i, t)) for i in cells for t in range(r.N_TILES)]
    out += [fmt("antiquity", (k, i)) for k in range(5) for i in cells]
    out += [fmt("take", (s,)) for s in ranks]
    out += [fmt("objective", (s,)) for s in ranks]
    return out


GENERATORS: dict[str, Callable[[int], list[str]]] = {
    "silencio": _silencio,
    "silos": _silos,
    "siliconvania": _siliconvania,
}


def generate(game: str, players: int) -> list[str]:
    """Every canonical action text of `game` with `players` seats, in mapping order (no duplicates)."""
    info = game_info(game)
    _check_players(game, players)
    gen = GENERATORS.get(info.name)
    if gen is None:
        raise InvalidOptions(f"{info.title} has no action space yet; games with one: {', '.join(sorted(GENERATORS))}")
    out = gen(players)
    seen: set[str] = set()
    unique = []
    for t in out:
        if t not in seen:
            seen.add(t)
            unique.append(t)
    return unique


def _check_players(game: str, players: int) -> None:
    info = game_info(game)
    if not isinstance(players, int) or isinstance(players, bool) or not info.min_players <= players <= info.max_players:
        raise InvalidOptions(f"{info.title} takes {info.min_players}-{info.max_players} players, not {players!r}")


def mapping_file(game: str, players: int) -> str:
    """The name of the checked-in mapping file, inside the package folder `tabletop/rl/actions/`."""
    return f"{game}-{players}p.txt"


def read_mapping(game: str, players: int) -> list[str]:
    """The checked-in mapping (empty if the file does not exist yet)."""
    f = resources.files("tabletop.rl").joinpath("actions", mapping_file(game, players))
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
    _check_players(info.name, players)
    fixed = read_mapping(info.name, players)
    have = set(fixed)
    texts = fixed + [t for t in generate(info.name, players) if t not in have]
    return ActionSpace(info.name, players, texts)


def action_space(game: str, players: int) -> ActionSpace:
    """The fixed action space of `game` for `players` seats (shared, cached)."""
    return _load(game, players)
