"""SILOS: the state (setup, the shared helpers of the rules, the frame machine, copying, scores) and its log.

The state is flat: per-faction figure counts per location, counts of humans per focus group, per player and in the
bag, card counts. Compound turns run on a stack of small frames (`frames.py`); the table at the end of this module
says, for each kind of frame, which function resolves it, lists its options and applies a choice. Where each rule
lives: the turn in `turn.py`, the events (abduction, mind control, power events) in `events.py`, the location
powers in `powers.py`, the expansion modules in `expansions.py`, the view in `view.py`, the action texts in
`notation.py`. Nothing in SILOS is hidden except the order of the bag and of the common deck, which are drawn from
counts at the moment of drawing, so every view shows the whole table (including the composition of the common deck,
the publisher's card-counting point).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Self

from tabletop.core import Action, Rng, State, View
from tabletop.core.logwords import entry as st_entry
from tabletop.core.options import OptionValue
from tabletop.core.rng import COMPILED
from tabletop.games.silos import events, expansions, powers, turn
from tabletop.games.silos.components import COMPONENTS
from tabletop.games.silos.events import advance_ufo
from tabletop.games.silos.frames import (
    K_ALL_POWERS,
    K_CARD,
    K_CARD_IN_PLAY,
    K_END_OF_TURN,
    K_MARKED_SPECIMEN,
    K_MIND_CONTROL,
    K_MOVEMENT,
    K_ONE_POWER,
    K_PLACE_HUMANS,
    K_POSITIONING,
    K_POWER_EVENT,
    K_REPOSITION,
    K_SKILL_TILES,
    K_TOWN_HALL_SKILL,
    K_YOUR_POWERS,
    L_ACTION,
    L_DRAW,
    L_EMBLEM,
    L_RESHUFFLE,
    L_REVEAL,
    L_TURN,
    LOG_SHOWN,
    ApplyFn,
    Frame,
    FrameFunctions,
    LegalFn,
    StepFn,
)
from tabletop.games.silos.notation import (
    ALL_POWERS,
    DISTINGUISHED,
    FIGURE,
    LEADER,
    N_LOCATIONS,
    N_TYPES,
    ONE_POWER,
    SPECIMEN,
)
from tabletop.games.silos.view import ViewCache, log_entry, table_view


class SilosState(State):
    """A game of SILOS. Factions are seats 0..players-1; with two players faction 2 is the non-player faction."""

    __slots__ = (
        "_vc", "abd_cow", "abd_human", "active", "alt", "bag", "caps", "cow_pile", "cows", "crop", "crop_left",
        "crop_tile", "deck", "discard", "dist", "emblem_supply", "emblems", "fcards", "focus", "hand", "held", "hum",
        "leader", "lg", "lgn", "mc_count", "nf", "npf", "plain", "rank", "revealed", "skill", "skills_on", "stack",
        "start", "target", "ufo",
    )

    nf: int
    npf: int
    plain: list[int]
    dist: list[int]
    leader: list[int]
    rank: list[int]
    focus: list[int]
    abd_human: list[int]
    abd_cow: list[int]
    ufo: int
    bag: list[int]
    cow_pile: int
    caps: int
    emblem_supply: int
    hum: list[int]
    cows: list[int]
    emblems: list[int]
    deck: list[int]
    discard: list[int]
    held: list[int]
    fcards: list[int]
    crop: list[int]
    crop_left: list[int]
    crop_tile: int
    skill: list[int]
    skills_on: bool
    alt: int
    target: int
    hand: list[int]
    stack: list[Frame]
    active: int
    start: int
    mc_count: int
    revealed: int
    lg: Any
    lgn: int
    _vc: ViewCache | None  # the view of this state, built on the first `view` and copied for each (`table_view`)

    # ---- setup --------------------------------------------------------------------------------------------
    @classmethod
    def setup(cls, players: int, seed: int, options: Mapping[str, OptionValue]) -> Self:
        s = cls.__new__(cls)
        s._init_base(players, seed, options)
        s._init_tables(players, options)
        rng = s.rng
        for i in range(N_LOCATIONS):
            t = COMPONENTS.focus_start[i]
            s.focus[i * N_TYPES + t] += 1
            s.bag[t] -= 1
        for i in range(1, N_LOCATIONS):
            s.abd_cow[i] = 1
            s.cow_pile -= 1
            s.abd_human[i] = s._draw_human()
        s.start = rng.below(players)
        s.active = s.start  # "The starting player receives the active player token" before initial positioning
        s.rank = [(s.start + k) % players for k in range(players)]
        if s.npf >= 0:  # two-player variant: one non-player figure at each location, locked at rank 1
            for i in range(N_LOCATIONS):
                s.plain[s.npf * N_LOCATIONS + i] = 1
            s.rank.insert(0, s.npf)
        s.stack = [(K_POSITIONING, s.start, 0, 0)]
        s._run()
        return s

    def _init_tables(self, players: int, options: Mapping[str, OptionValue]) -> None:
        self.nf = 3 if players == 2 else players
        self.npf = 2 if players == 2 else -1
        nf = self.nf
        self.plain = [0] * (nf * N_LOCATIONS)
        self.dist = [0] * (nf * N_LOCATIONS)
        self.leader = [-1] * nf
        self.focus = [0] * (N_LOCATIONS * N_TYPES)
        self.abd_human = [-1] * N_LOCATIONS
        self.abd_cow = [0] * N_LOCATIONS
        self.ufo = COMPONENTS.ufo_start
        self.bag = [COMPONENTS.per_type] * N_TYPES
        self.cow_pile = COMPONENTS.cows
        self.caps = COMPONENTS.caps
        self.emblem_supply = COMPONENTS.emblems
        self.hum = [0] * (players * N_TYPES)
        self.cows = [0] * players
        self.emblems = [0] * players
        self.deck = list(COMPONENTS.common)
        self.discard = [0] * 4
        self.held = [0] * (players * 4)
        self.fcards = [0] * (players * 3)  # 1 = used (face down)
        self.crop = [-1] * N_LOCATIONS
        cc = int(options.get("crop_circles", 0))
        self.crop_tile = cc if cc else -1
        self.crop_left = [COMPONENTS.crop_tokens if cc else 0] * players
        self.skills_on = bool(options.get("skill_tiles", False))
        self.skill = [-1] * N_LOCATIONS
        alt = 0
        for i in options.get("alternate_tiles", []):
            alt |= 1 << int(i)
        self.alt = alt
        self.target = int(options.get("emblem_target", 5))
        self.hand = [0] * N_TYPES
        self.active = 0
        self.start = 0
        self.mc_count = 0
        self.revealed = -1
        self.lg = None
        self.lgn = 0
        self._vc = None

    @classmethod
    def from_position(
        cls,
        players: int,
        figures: Mapping[int, Mapping[int, str]],
        *,
        seed: int = 0,
        options: Mapping[str, OptionValue] | None = None,
        rank: list[int] | None = None,
        active: int = 0,
        humans: Mapping[int, list[int]] | None = None,
        cows: Mapping[int, int] | None = None,
        focus: Mapping[int, str] | None = None,
        deck: list[int] | None = None,
        skills: Mapping[int, int] | None = None,
    ) -> Self:
        """Test support: a game at the start of `active`'s turn with the given position.

        `figures[faction][location]` is a string of figure letters: `F` plain, `L` leader, `D` distinguished
        (e.g. `{0: {3: "LF"}}`); factions not listed have no figures on the board (in the two-player variant the
        non-player faction keeps one figure per location unless listed). `rank` lists factions from rank 1.
        `humans[seat]` is 4 counts (politician, government, influencer, professional) taken from the bag.
        `focus[location]` replaces that focus group by the humans named by initials (`"PG"`: a politician and a
        government official; P, G, I, R for politician, government, influencer, professional). `deck` sets the
        common deck composition (counts of all-powers, one-power, marked-specimen, ufo-advance; the rest of the
        12 go to the discards). `skills[tile] = seat` gives permanent skill tiles. Options are validated as in
        `new_game`.
        """
        from tabletop.core.options import resolve_options

        opts = resolve_options(cls.info.options, options, players)
        s = cls.setup(players, seed, opts)
        for f in range(s.nf):
            if f == s.npf and f not in figures:
                continue
            s.leader[f] = -1
            for i in range(N_LOCATIONS):
                s.plain[f * N_LOCATIONS + i] = 0
                s.dist[f * N_LOCATIONS + i] = 0
            for i, text in figures.get(f, {}).items():
                for ch in text:
                    if ch == "L":
                        s.leader[f] = i
                    elif ch == "D":
                        s.dist[f * N_LOCATIONS + i] += 1
                        s.caps -= 1
                    else:
                        s.plain[f * N_LOCATIONS + i] += 1
        for p, counts in (humans or {}).items():
            for t in range(N_TYPES):
                s.hum[p * N_TYPES + t] += counts[t]
                s.bag[t] -= counts[t]
        for p, n in (cows or {}).items():
            s.cows[p] += n
            s.cow_pile -= n
        for i, text in (focus or {}).items():
            for t in range(N_TYPES):
                s.bag[t] += s.focus[i * N_TYPES + t]
                s.focus[i * N_TYPES + t] = 0
            for ch in text:
                t = "PGIR".index(ch)
                s.focus[i * N_TYPES + t] += 1
                s.bag[t] -= 1
        if deck is not None:
            s.deck = list(deck)
            s.discard = [COMPONENTS.common[t] - deck[t] for t in range(4)]
        for tile, owner in (skills or {}).items():
            s.skill[tile] = owner
        if rank is not None:
            s.rank = list(rank)
        s.active = active
        s.stack = []
        s._push_turn()
        s._legal = None
        s._run()
        return s

    # ---- small helpers --------------------------------------------------------------------------------------
    def _inf(self, f: int, loc: int) -> int:
        """Influence of faction f at loc, doubled (figure 2, leader 3, distinguished 4, crop circle 2)."""
        j = f * N_LOCATIONS + loc
        v = 2 * self.plain[j] + 4 * self.dist[j]
        if self.leader[f] == loc:
            v += 3
        if self.crop[loc] == f:
            v += 2
        return v

    def influence(self, f: int, loc: int) -> float:
        """Influence of faction f at a location (leader 1.5, distinguished 2, crop circle token +1)."""
        return self._inf(f, loc) / 2

    def _top(self, loc: int) -> int:
        """The faction with the most influence at loc (ties to the higher Town Hall rank), or -1 if none."""
        best, bv = -1, 0
        plain, dist, leader, crop = self.plain, self.dist, self.leader, self.crop[loc]
        for f in self.rank:
            j = f * N_LOCATIONS + loc
            v = 2 * plain[j] + 4 * dist[j]
            if leader[f] == loc:
                v += 3
            if crop == f:
                v += 2
            if v > bv:
                best, bv = f, v
        return best

    def ranking(self, loc: int) -> list[int]:
        """Factions present at loc (influence > 0) from most to least influence, ties by Town Hall rank."""
        present = [f for f in self.rank if self._inf(f, loc) > 0]
        present.sort(key=lambda f: -self._inf(f, loc))
        return present

    def _draw_human(self) -> int:
        """A random human from the bag (removed), or -1 if the bag is empty (ruling S-2)."""
        bag = self.bag
        n = bag[0] + bag[1] + bag[2] + bag[3]
        if n == 0:
            return -1
        r = self.rng.below(n)
        for t in range(N_TYPES):
            if r < bag[t]:
                bag[t] -= 1
                return t
            r -= bag[t]
        raise AssertionError("unreachable")

    def _draw_common(self, who: int) -> int:
        """The top common card (drawn from the remaining composition), reshuffling discards if the deck is empty."""
        deck = self.deck
        n = deck[0] + deck[1] + deck[2] + deck[3]
        if n == 0:
            self.deck, self.discard = self.discard, [0] * 4
            deck = self.deck
            n = sum(deck)
            if n == 0:
                return -1
            self._note((L_RESHUFFLE,))
        r = self.rng.below(n)
        for t in range(4):
            if r < deck[t]:
                deck[t] -= 1
                self.revealed = t
                self._note((L_REVEAL, who, t))
                return t
            r -= deck[t]
        raise AssertionError("unreachable")

    def _common_available(self) -> bool:
        return sum(self.deck) + sum(self.discard) > 0

    def _give_human(self, p: int, t: int) -> None:
        """Human t goes to player p, or back to the bag for the non-player faction / nobody."""
        if 0 <= p < self.players:
            self.hum[p * N_TYPES + t] += 1
        else:
            self.bag[t] += 1

    def _check_sets(self, p: int) -> None:
        """Compulsory emblems: while p's humans plus cows (wild) make a complete set, exchange it (ruling S-7)."""
        if not 0 <= p < self.players:
            return
        h = self.hum
        b = p * N_TYPES
        while self.emblem_supply > 0:
            missing = (h[b] == 0) + (h[b + 1] == 0) + (h[b + 2] == 0) + (h[b + 3] == 0)
            if missing > self.cows[p]:
                return
            for t in range(N_TYPES):
                if h[b + t]:
                    h[b + t] -= 1
                    self.bag[t] += 1
            self.cows[p] -= missing
            self.cow_pile += missing
            self.emblems[p] += 1
            self.emblem_supply -= 1
            self._note((L_EMBLEM, p, missing))

    def _move_fig(self, f: int, kind: int, a: int, b: int) -> None:
        if kind == LEADER:
            self.leader[f] = b
        elif kind == FIGURE:
            self.plain[f * N_LOCATIONS + a] -= 1
            self.plain[f * N_LOCATIONS + b] += 1
        else:
            self.dist[f * N_LOCATIONS + a] -= 1
            self.dist[f * N_LOCATIONS + b] += 1

    def _has_figures(self, loc: int) -> bool:
        """True if any faction has an alien figure at loc (crop circle tokens are not figures)."""
        for f in range(self.nf):
            j = f * N_LOCATIONS + loc
            if self.plain[j] or self.dist[j] or self.leader[f] == loc:
                return True
        return False

    def _kinds_at(self, f: int, loc: int) -> list[int]:
        out = []
        if self.plain[f * N_LOCATIONS + loc]:
            out.append(FIGURE)
        if self.leader[f] == loc:
            out.append(LEADER)
        if self.dist[f * N_LOCATIONS + loc]:
            out.append(DISTINGUISHED)
        return out

    def _push_turn(self) -> None:
        p = self.active
        self._note((L_TURN, p))
        st = self.stack
        st.append((K_END_OF_TURN, p, 0, 0))
        st.append((K_CARD, p, 0, 0))
        if self.skills_on:
            st.append((K_SKILL_TILES, p, 0, 0))
        st.append((K_MOVEMENT, p, 3 if self.skill[6] == p else 2, 0))

    def _activate_common(self, p: int, t: int) -> None:
        st = self.stack
        if t < 0:
            return
        st.append((K_CARD_IN_PLAY, p, t, 0))
        if t == ALL_POWERS:
            st.append((K_ALL_POWERS, p, 0, 0))
        elif t == ONE_POWER:
            st.append((K_ONE_POWER, p, 0, 0))
        elif t == SPECIMEN:
            st.append((K_MARKED_SPECIMEN, p, 0, 0))
        else:
            advance_ufo(self)

    def _fill_hand(self, p: int, k: int) -> None:
        for _ in range(k):
            t = self._draw_human()
            if t >= 0:
                self.hand[t] += 1
        self.stack.append((K_PLACE_HUMANS, p, 0, 0))

    def _draw_to_player(self, p: int, k: int) -> None:
        got = []
        for _ in range(k):
            t = self._draw_human()
            if t >= 0:
                self.hum[p * N_TYPES + t] += 1
                got.append(t)
        self._note((L_DRAW, p, tuple(got)))

    # ---- the frame machine ----------------------------------------------------------------------------------
    def _run(self) -> None:
        st = self.stack
        native, steps = COMPILED, _STEP  # compiled: the direct calls; pure: the tables (one call, no comparisons)
        while st:
            fr = st[-1]
            seat = _step(self, fr) if native else steps[fr[0]](self, fr)
            if seat >= 0:
                self.to_move = seat
                return
        self.to_move = None

    def _legal_actions(self) -> list[Action]:
        fr = self.stack[-1]
        return _legal(self, fr) if COMPILED else _LEGAL[fr[0]](self, fr)

    def _apply(self, action: Action) -> None:
        self._note((L_ACTION, self.to_move, action))
        fr = self.stack[-1]
        if COMPILED:
            _apply_choice(self, fr, action)
        else:
            _APPLY[fr[0]](self, fr, action)
        self._run()

    # ---- contract: clone, view, sample, scores ---------------------------------------------------------------
    def clone(self) -> Self:
        s = self.__class__.__new__(self.__class__)
        s._copy_base(self)
        s.nf = self.nf
        s.npf = self.npf
        s.plain = self.plain.copy()
        s.dist = self.dist.copy()
        s.leader = self.leader.copy()
        s.rank = self.rank.copy()
        s.focus = self.focus.copy()
        s.abd_human = self.abd_human.copy()
        s.abd_cow = self.abd_cow.copy()
        s.ufo = self.ufo
        s.bag = self.bag.copy()
        s.cow_pile = self.cow_pile
        s.caps = self.caps
        s.emblem_supply = self.emblem_supply
        s.hum = self.hum.copy()
        s.cows = self.cows.copy()
        s.emblems = self.emblems.copy()
        s.deck = self.deck.copy()
        s.discard = self.discard.copy()
        s.held = self.held.copy()
        s.fcards = self.fcards.copy()
        s.crop = self.crop.copy()
        s.crop_left = self.crop_left.copy()
        s.crop_tile = self.crop_tile
        s.skill = self.skill.copy()
        s.skills_on = self.skills_on
        s.alt = self.alt
        s.target = self.target
        s.hand = self.hand.copy()
        s.stack = self.stack.copy()
        s.active = self.active
        s.start = self.start
        s.mc_count = self.mc_count
        s.revealed = self.revealed
        s.lg = self.lg
        s.lgn = self.lgn
        s._vc = None
        return s

    def _sample(self, seat: int, rng: Rng) -> Self:
        # Nothing is hidden: bag and deck order are drawn from counts when drawn; only future chance differs,
        # and `State.sample` reseeds the copy.
        return self.clone()

    def _in_play(self) -> list[int]:
        out = [0] * 4
        for fr in self.stack:
            if fr[0] == K_CARD_IN_PLAY or fr[0] == K_TOWN_HALL_SKILL:
                out[fr[2]] += 1
        return out

    def _view(self, seat: int | None) -> View:
        return table_view(self, seat)

    def _note(self, entry: tuple[Any, ...]) -> None:
        """Add an event to the public log."""
        self.lg = [entry, self.lg, None, None]  # the entry, the older cells, its words (`_entries`), the view's tail
        self.lgn += 1

    def _entries(self, k: int) -> list[dict[str, Any]]:
        """The last k log entries, oldest first, each a new `{"seat", "text"}` dict (a copy of the one its log cell
        keeps: the log is shared by clones and never changes, so an entry is worded once)."""
        if k == LOG_SHOWN and self.lg is not None:
            return list(map(dict.copy, self._tail(self.lg)))
        out: list[dict[str, Any]] = []
        cell = self.lg
        while cell is not None and k > 0:
            out.append(self._worded(cell).copy())
            cell = cell[1]
            k -= 1
        out.reverse()
        return out

    def _view_tail(self) -> tuple[dict[str, Any], ...]:
        """The view's log tail: the last LOG_SHOWN entries, oldest first, as kept (`table_view` copies them)."""
        return () if self.lg is None else self._tail(self.lg)

    def _worded(self, cell: list[Any]) -> dict[str, Any]:
        """A log cell's entry in words (worded on first use, then kept in the cell)."""
        st = cell[2]
        if st is None:
            who, text = log_entry(self, cell[0])
            st = cell[2] = st_entry(who, text)
        return st  # type: ignore[no-any-return]

    def _tail(self, cell: list[Any]) -> tuple[dict[str, Any], ...]:
        """The view's tail ending at `cell`: the last LOG_SHOWN worded entries, oldest first, kept in the cell (from
        the previous cell's tail when it has one: every view carries the tail, and consecutive views share it)."""
        tail = cell[3]
        if tail is None:
            prev = cell[1]
            if prev is not None and prev[3] is not None:
                tail = (*prev[3][1 - LOG_SHOWN:], self._worded(cell))
            else:
                words: list[dict[str, Any]] = []
                c: list[Any] | None = cell
                while c is not None and len(words) < LOG_SHOWN:
                    words.append(self._worded(c))
                    c = c[1]
                words.reverse()
                tail = tuple(words)
            cell[3] = tail
        return tail  # type: ignore[no-any-return]

    def _log(self, seat: int | None, start: int) -> list[dict[str, Any]]:
        # one public log for every seat and spectators: nothing in SILOS is hidden
        return self._entries(self.lgn - start) if start < self.lgn else []

    def recent_log(self, k: int = LOG_SHOWN) -> list[str]:
        """The last k public events, oldest first, as readable lines."""
        return [e["text"] for e in self._entries(k)]

    def _unplaced(self, p: int) -> int:
        mine = slice(p * N_LOCATIONS, (p + 1) * N_LOCATIONS)
        on = sum(self.plain[mine]) + sum(self.dist[mine]) + (self.leader[p] >= 0)
        return max(0, COMPONENTS.figures - on) if self.stack and self.stack[0][0] == K_POSITIONING else 0

    def scores(self) -> list[float]:
        return [float(e) for e in self.emblems]

    def _game_winners(self) -> list[int]:
        """The most emblems, then the most humans and cows (the core applies the concessions: `State.winners`)."""
        if self.to_move is not None:
            return []
        n = self.players
        key = [(self.emblems[p], sum(self.hum[p * N_TYPES:(p + 1) * N_TYPES]) + self.cows[p]) for p in range(n)]
        best = max(key)
        return [p for p in range(n) if key[p] == best]

    def component_counts(self) -> dict[str, int]:
        humans = sum(self.bag) + sum(self.focus) + sum(self.hum) + sum(self.hand)
        humans += sum(1 for h in self.abd_human if h >= 0)
        figures = sum(self.plain) + sum(self.dist) + sum(1 for x in self.leader if x >= 0)
        figures += sum(self._unplaced(p) for p in range(self.players))
        return {
            "humans": humans,
            "cows": self.cow_pile + sum(self.abd_cow) + sum(self.cows),
            "caps": self.caps + sum(self.dist),
            "emblems": self.emblem_supply + sum(self.emblems),
            "common_cards": sum(self.deck) + sum(self.discard) + sum(self.held) + sum(self._in_play()),
            "figures": figures,
            "crop_tokens": sum(self.crop_left) + sum(1 for c in self.crop if c >= 0),
        }

    def snapshot(self) -> dict[str, Any]:
        live = {
            "rng": self.rng.state, "nf": self.nf, "npf": self.npf, "plain": self.plain, "dist": self.dist,
            "leader": self.leader, "rank": self.rank, "focus": self.focus, "abd_human": self.abd_human,
            "abd_cow": self.abd_cow, "ufo": self.ufo, "bag": self.bag, "cow_pile": self.cow_pile, "caps": self.caps,
            "emblem_supply": self.emblem_supply, "hum": self.hum, "cows": self.cows, "emblems": self.emblems,
            "deck": self.deck, "discard": self.discard, "held": self.held, "fcards": self.fcards, "crop": self.crop,
            "crop_left": self.crop_left, "crop_tile": self.crop_tile, "skill": self.skill, "alt": self.alt,
            "target": self.target, "hand": self.hand, "stack": [list(f) for f in self.stack],
            "active": self.active, "start": self.start, "mc_count": self.mc_count, "revealed": self.revealed,
            "to_move": self.to_move,
            "log": self.recent_log(),
            "log_pos": self.lgn,
        }
        return {k: v.copy() if isinstance(v, list) else v for k, v in live.items()}  # nothing aliases the state



# What each kind of frame does: the functions that resolve it, list its options and apply a choice, gathered from
# the modules that hold the rules (the hot path only indexes these tuples).
_TABLE: dict[int, FrameFunctions] = {**turn.FRAMES, **events.FRAMES, **powers.FRAMES, **expansions.FRAMES}
_STEP: Final[tuple[StepFn, ...]] = tuple(_TABLE[k][0] for k in range(len(_TABLE)))
_LEGAL: Final[tuple[LegalFn, ...]] = tuple(_TABLE[k][1] for k in range(len(_TABLE)))
_APPLY: Final[tuple[ApplyFn, ...]] = tuple(_TABLE[k][2] for k in range(len(_TABLE)))


# The compiled hot path calls the functions of the frequent kinds directly (a native call, where a call through the
# tables above is a Python call), the most frequent first (random 4-player games), and the rest through the tables;
# the pure build calls through the tables (`COMPILED`: there the comparisons and the extra call cost more).
# `tests/games/silos/test_dispatch.py` checks that every direct call is the table's own function for that kind.
def _step(s: SilosState, fr: Frame) -> int:
    k = fr[0]
    if k == K_MOVEMENT:
        return turn.step_movement(s, fr)
    if k == K_PLACE_HUMANS:
        return events.step_place_humans(s, fr)
    if k == K_REPOSITION:
        return powers.step_reposition(s, fr)
    if k == K_MARKED_SPECIMEN:
        return events.step_marked_specimen(s, fr)
    if k == K_CARD:
        return turn.step_card(s, fr)
    if k == K_END_OF_TURN:
        return turn.step_end_of_turn(s, fr)
    if k == K_POWER_EVENT:
        return events.step_power_event(s, fr)
    if k in (K_YOUR_POWERS, K_ALL_POWERS):
        return events.step_all_powers(s, fr)
    if k == K_POSITIONING:
        return turn.step_positioning(s, fr)
    if k == K_CARD_IN_PLAY:
        return turn.step_card_in_play(s, fr)
    if k == K_ONE_POWER:
        return events.step_one_power(s, fr)
    if k == K_MIND_CONTROL:
        return events.step_mind_control(s, fr)
    return _STEP[k](s, fr)


def _legal(s: SilosState, fr: Frame) -> list[Action]:
    k = fr[0]
    if k == K_MOVEMENT:
        return turn.legal_movement(s, fr)
    if k == K_PLACE_HUMANS:
        return events.legal_place_humans(s, fr)
    if k == K_REPOSITION:
        return powers.legal_reposition(s, fr)
    if k == K_POSITIONING:
        return turn.legal_positioning(s, fr)
    if k == K_CARD:
        return turn.legal_card(s, fr)
    return _LEGAL[k](s, fr)


def _apply_choice(s: SilosState, fr: Frame, a: Action) -> None:
    k = fr[0]
    if k == K_MOVEMENT:
        turn.apply_movement(s, fr, a)
    elif k == K_PLACE_HUMANS:
        events.apply_place_humans(s, fr, a)
    elif k == K_REPOSITION:
        powers.apply_reposition(s, fr, a)
    elif k == K_POSITIONING:
        turn.apply_positioning(s, fr, a)
    elif k == K_CARD:
        turn.apply_card(s, fr, a)
    else:
        _APPLY[k](s, fr, a)
