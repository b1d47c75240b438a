"""SILOS rules: the state, its decisions, the events (abduction, mind control, power) and the location powers.

The state is flat: per-faction figure counts per location, counts of humans per focus group, per player and in the
bag, card counts. Compound turns run on a stack of small frames (tuples `(kind, seat, x, y)`): the top frame is
either resolved automatically or asks one seat one decision. Nothing in SILOS is hidden except the order of the
bag and of the common deck, which are drawn from counts at the moment of drawing, so every view shows the whole
table (including the composition of the common deck, the publisher's card-counting point).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Self

from tabletop.core import Action, ActionTable, Rng, State, View
from tabletop.core.options import OptionValue
from tabletop.games.silos.components import COMMON_CARDS, COMPONENTS, FACTION_CARDS, HUMAN_TYPES

C = COMPONENTS
NL = 7  # locations
NT = 4  # human types
KINDS = ("figure", "leader", "distinguished")
FIG, LEAD, DIST = 0, 1, 2
ALL_POWERS, ONE_POWER, SPECIMEN, UFO_ADVANCE = 0, 1, 2, 3
SIGHTING, CONFLUENCE, POWERS = 0, 1, 2
COLORS = C.colors
NB = C.neighbours
ACCEPTS = C.accepts
SKILL_ORDER = (1, 2, 3, 4, 5)  # phase 2 order: movement tiles 1, 2 (6 is passive), then human tiles 3, 4, 5
REPOSITION_LIMIT = 7  # ruling S-9: a reposition moves each of the 7 figures at most once, so at most 7 moves


def _fmt(verb: str, args: tuple[int | str, ...]) -> str:
    a = args
    t = HUMAN_TYPES
    if verb == "position":
        return f"place {KINDS[int(a[0])]} {a[1]}"
    if verb in ("move", "repos"):
        return f"{'move' if verb == 'move' else 'reposition'} {KINDS[int(a[0])]} {a[1]}-{a[2]}"
    if verb in ("stop", "skip", "done"):
        return verb
    if verb == "card":
        return f"card {a[0]}"
    if verb == "held":
        return f"card held {COMMON_CARDS[int(a[0])]}"
    if verb in ("keep", "reject"):
        return f"skill 0 {verb}"
    if verb == "exert":
        return f"exert {a[0]}"
    if verb == "place":
        return f"place {t[int(a[0])]} {a[1]}"
    if verb == "take":
        return f"take {t[int(a[0])]} {t[int(a[1])]}"
    if verb == "sheriff":
        return f"power 1 move {COLORS[int(a[0])]} {KINDS[int(a[1])]} {a[2]}-1"
    if verb == "exchange":
        return "power 4 exchange " + " ".join(("cow" if int(x) == 4 else t[int(x)]) for x in a)
    if verb == "return":
        return f"power 4 return {t[int(a[0])]}"
    if verb == "church_player":
        return f"power 5 take {t[int(a[0])]} from {COLORS[int(a[1])]}"
    if verb == "church_focus":
        return f"power 5 take {t[int(a[0])]} from focus {a[1]}"
    if verb == "crop_place":
        return f"crop place {a[0]}"
    if verb == "crop_move":
        return f"crop move {a[0]}-{a[1]}"
    if verb == "skill_sheriff":
        return f"skill 1 move {COLORS[int(a[0])]} {KINDS[int(a[1])]} {a[2]}-1"
    if verb == "skill_uni":
        return f"skill 2 move {KINDS[int(a[0])]} {a[1]}-2"
    if verb == "skill_return":
        return f"skill 4 return {t[int(a[0])]} {t[int(a[1])]}"
    if verb == "skill_church":
        return f"skill 5 move {t[int(a[0])]} {a[1]}-{a[2]}"
    fixed = {
        "graduate": "power 2 graduate",
        "distinguish": "power 2 distinguish",
        "mall_draw": "power 3 draw",
        "mall_four": "power 3 draw four",
        "news_draw": "power 4 draw",
        "news_three": "power 4 draw three",
        "church_card": "power 5 draw card",
        "downgrade": "power 6 downgrade",
        "skill_draw": "skill 3 draw",
        "card_none": "card none",
    }
    return fixed[verb]


A = ActionTable(_fmt)
STOP, SKIP, DONE = A("stop"), A("skip"), A("done")
CARD_COMMON = A("card", "common")
CARD_FACTION = (
    (A("card", "sighting ufo"), A("card", "sighting reposition")),
    (A("card", "confluence"),),
    (A("card", "powers"),),
)
CARD_NONE = A("card_none")
HELD = tuple(A("held", t) for t in range(4))
KEEP, REJECT = A("keep"), A("reject")
EXERT = tuple(A("exert", i) for i in range(NL))
POSITION = tuple(tuple(A("position", k, i) for i in range(NL)) for k in range(2))
MOVE = tuple(tuple(tuple(A("move", k, a, b) for b in range(NL)) for a in range(NL)) for k in range(3))
REPOS = tuple(tuple(tuple(A("repos", k, a, b) for b in range(NL)) for a in range(NL)) for k in range(3))
PLACE = tuple(tuple(A("place", t, i) for i in range(NL)) for t in range(NT))
GRADUATE, DISTINGUISH = A("graduate"), A("distinguish")
MALL_DRAW, MALL_FOUR = A("mall_draw"), A("mall_four")
NEWS_DRAW, NEWS_THREE = A("news_draw"), A("news_three")
CHURCH_CARD, DOWNGRADE = A("church_card"), A("downgrade")
SKILL_DRAW = A("skill_draw")
SHERIFF = tuple(tuple(tuple(A("sheriff", g, k, a) for a in range(NL)) for k in range(3)) for g in range(4))
TAKE = tuple(tuple(A("take", x, y) for y in range(NT)) for x in range(NT))
RETURN = tuple(A("return", t) for t in range(NT))
CHURCH_PLAYER = tuple(tuple(A("church_player", t, g) for g in range(4)) for t in range(NT))
CHURCH_FOCUS = tuple(tuple(A("church_focus", t, i) for i in range(NL)) for t in range(NT))
# per figure kind and location: every street movement / every reposition from there (hot path: one extend each)
MOVES_FROM = tuple(tuple(tuple(MOVE[k][a][b] for b in NB[a]) for a in range(NL)) for k in range(3))
REPOS_FROM = tuple(tuple(tuple(REPOS[k][a][b] for b in range(NL) if b != a) for a in range(NL)) for k in range(3))


def _exchange_table() -> tuple[tuple[tuple[int, ...], Action], ...]:
    out = []
    for x in range(5):
        for y in range(x, 5):
            for z in range(y, 5):
                need = [0] * 5
                for v in (x, y, z):
                    need[v] += 1
                out.append((tuple(need), A("exchange", x, y, z)))
    return tuple(out)


EXCHANGES = _exchange_table()

# frame kinds
(K_POS, K_MOVE, K_SKILLS, K_CARD, K_REJECT, K_END, K_DISCARD, K_ALLPOW, K_YOURPOW, K_ONEPOW, K_EXERT, K_SHERIFF,
 K_SHERIFF_ALT, K_UNI, K_UNI_ALT, K_MALL, K_MALL_ALT, K_NEWS, K_NEWS_ALT, K_RETURN, K_CHURCH, K_CHURCH_ALT,
 K_REPOS, K_BUS_ALT, K_CROP, K_PLACE, K_MC, K_SPEC) = range(28)
FRAME_NAMES = (
    "initial positioning", "movement", "skill tiles", "activate a card", "town hall skill", "end of turn",
    "card in play", "all powers", "your powers", "one power", "power event", "sheriff's office power",
    "sheriff's office power (alternate)", "university power", "university power (alternate)",
    "shopping mall power", "shopping mall power (alternate)", "news station power", "news station power (alternate)",
    "return humans", "church power", "church power (alternate)", "reposition figures", "bus station power (alternate)",
    "crop circles power", "place humans", "mind control", "marked specimen",
)

Frame = tuple[int, int, int, int]

# The public log, the whole history (everyone at the table witnesses every event: nothing in SILOS is hidden, so all
# seats and spectators share one log). A linked list of cells `[entry, previous_cell, text]` plus a length counter, so
# a clone shares it for free and clones diverge by pointing at different heads. `entry` is a small tuple whose first
# item is one of these codes; `text` caches the entry's `(seat, words)` once first shown (the words depend only on
# the entry and on constants of the game, so a cache shared by clones and samples is always right).
L_TURN, L_ACT, L_REVEAL, L_ABDUCT, L_MC, L_EMBLEM, L_DRAW, L_RERANK, L_RESHUFFLE, L_SKILL, L_END, L_EXERT = range(12)
L_NOCARD = 12
LOG_SHOWN = 40  # entries the view's tail carries: more than a round of 4 players (the rest via `log(seat, start)`)


class SilosState(State):
    """A game of SILOS. Factions are seats 0..players-1; with two players faction 2 is the non-player faction."""

    __slots__ = (
        "abd_cow", "abd_human", "active", "alt", "bag", "caps", "cow_pile", "cows", "crop", "crop_left",
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

    # ---- setup --------------------------------------------------------------------------------------------
    @classmethod
    def setup(cls, players: int, seed: int, options: Mapping[str, OptionValue]) -> Self:
        s = cls.__new__(cls)
        s._init_base(players, seed, options)
        s._init_tables(players, options)
        rng = s.rng
        for i in range(NL):
            t = C.focus_start[i]
            s.focus[i * NT + t] += 1
            s.bag[t] -= 1
        for i in range(1, NL):
            s.abd_cow[i] = 1
            s.cow_pile -= 1
            s.abd_human[i] = s._draw_human()
        s.start = rng.below(players)
        s.active = s.start  # "The starting player receives the active player token" before initial positioning
        s.rank = [(s.start + k) % players for k in range(players)]
        if s.npf >= 0:  # two-player variant: one non-player figure at each location, locked at rank 1
            for i in range(NL):
                s.plain[s.npf * NL + i] = 1
            s.rank.insert(0, s.npf)
        s.stack = [(K_POS, s.start, 0, 0)]
        s._run()
        return s

    def _init_tables(self, players: int, options: Mapping[str, OptionValue]) -> None:
        self.nf = 3 if players == 2 else players
        self.npf = 2 if players == 2 else -1
        nf = self.nf
        self.plain = [0] * (nf * NL)
        self.dist = [0] * (nf * NL)
        self.leader = [-1] * nf
        self.focus = [0] * (NL * NT)
        self.abd_human = [-1] * NL
        self.abd_cow = [0] * NL
        self.ufo = C.ufo_start
        self.bag = [C.per_type] * NT
        self.cow_pile = C.cows
        self.caps = C.caps
        self.emblem_supply = C.emblems
        self.hum = [0] * (players * NT)
        self.cows = [0] * players
        self.emblems = [0] * players
        self.deck = list(C.common)
        self.discard = [0] * 4
        self.held = [0] * (players * 4)
        self.fcards = [0] * (players * 3)  # 1 = used (face down)
        self.crop = [-1] * NL
        cc = int(options.get("crop_circles", 0))
        self.crop_tile = cc if cc else -1
        self.crop_left = [C.crop_tokens if cc else 0] * players
        self.skills_on = bool(options.get("skill_tiles", False))
        self.skill = [-1] * NL
        alt = 0
        for i in options.get("alternate_tiles", []):
            alt |= 1 << int(i)
        self.alt = alt
        self.target = int(options.get("emblem_target", 5))
        self.hand = [0] * NT
        self.active = 0
        self.start = 0
        self.mc_count = 0
        self.revealed = -1
        self.lg = None
        self.lgn = 0

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
            for i in range(NL):
                s.plain[f * NL + i] = 0
                s.dist[f * NL + i] = 0
            for i, text in figures.get(f, {}).items():
                for ch in text:
                    if ch == "L":
                        s.leader[f] = i
                    elif ch == "D":
                        s.dist[f * NL + i] += 1
                        s.caps -= 1
                    else:
                        s.plain[f * NL + i] += 1
        for p, counts in (humans or {}).items():
            for t in range(NT):
                s.hum[p * NT + t] += counts[t]
                s.bag[t] -= counts[t]
        for p, n in (cows or {}).items():
            s.cows[p] += n
            s.cow_pile -= n
        for i, text in (focus or {}).items():
            for t in range(NT):
                s.bag[t] += s.focus[i * NT + t]
                s.focus[i * NT + t] = 0
            for ch in text:
                t = "PGIR".index(ch)
                s.focus[i * NT + t] += 1
                s.bag[t] -= 1
        if deck is not None:
            s.deck = list(deck)
            s.discard = [C.common[t] - deck[t] for t in range(4)]
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
        j = f * NL + loc
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
            j = f * NL + loc
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
        for t in range(NT):
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
            self.hum[p * NT + t] += 1
        else:
            self.bag[t] += 1

    def _check_sets(self, p: int) -> None:
        """Compulsory emblems: while p's humans plus cows (wild) make a complete set, exchange it (ruling S-7)."""
        if not 0 <= p < self.players:
            return
        h = self.hum
        b = p * NT
        while self.emblem_supply > 0:
            missing = (h[b] == 0) + (h[b + 1] == 0) + (h[b + 2] == 0) + (h[b + 3] == 0)
            if missing > self.cows[p]:
                return
            for t in range(NT):
                if h[b + t]:
                    h[b + t] -= 1
                    self.bag[t] += 1
            self.cows[p] -= missing
            self.cow_pile += missing
            self.emblems[p] += 1
            self.emblem_supply -= 1
            self._note((L_EMBLEM, p, missing))

    def _move_fig(self, f: int, kind: int, a: int, b: int) -> None:
        if kind == LEAD:
            self.leader[f] = b
        elif kind == FIG:
            self.plain[f * NL + a] -= 1
            self.plain[f * NL + b] += 1
        else:
            self.dist[f * NL + a] -= 1
            self.dist[f * NL + b] += 1

    def _has_figures(self, loc: int) -> bool:
        """True if any faction has an alien figure at loc (crop circle tokens are not figures)."""
        for f in range(self.nf):
            j = f * NL + loc
            if self.plain[j] or self.dist[j] or self.leader[f] == loc:
                return True
        return False

    def _kinds_at(self, f: int, loc: int) -> list[int]:
        out = []
        if self.plain[f * NL + loc]:
            out.append(FIG)
        if self.leader[f] == loc:
            out.append(LEAD)
        if self.dist[f * NL + loc]:
            out.append(DIST)
        return out

    def _rerank(self) -> None:
        """Town Hall power: order by influence there; equal influence (also none) keeps relative order (S-8)."""
        inf = [self._inf(f, 0) for f in range(self.nf)]
        old = self.rank
        if self.npf >= 0:
            rest = sorted(self.rank[1:], key=lambda f: -inf[f])
            self.rank = [self.npf, *rest]
        else:
            self.rank = sorted(self.rank, key=lambda f: -inf[f])
        if self.rank != old:
            self._note((L_RERANK, tuple(self.rank)))

    def _advance_ufo(self) -> None:
        self.ufo = self.ufo % 6 + 1
        self._abduct(self.ufo)

    def _abduct(self, loc: int) -> None:
        """UFO abduction event at loc: most influence takes the cow, second-most the human."""
        r = self.ranking(loc)
        first = r[0] if r else -1
        second = r[1] if len(r) > 1 else -1
        n = self.players
        cow_to = -1
        if 0 <= first < n and self.abd_cow[loc]:
            self.abd_cow[loc] = 0
            self.cows[first] += 1
            cow_to = first
        h = self.abd_human[loc]
        if h >= 0:
            self.abd_human[loc] = -1
            self._give_human(second, h)
        self._note((L_ABDUCT, loc, cow_to, h, second if 0 <= second < n else -1))
        # "they must IMMEDIATELY exchange the set": the winners' sets go back to the bag and the pile first; only
        # then "the cow abduction space is now replenished ... Then, a new human is randomly drawn from the bag"
        self._check_sets(first)
        self._check_sets(second)
        if not self.abd_cow[loc] and self.cow_pile > 0:
            self.abd_cow[loc] = 1
            self.cow_pile -= 1
        self.abd_human[loc] = self._draw_human()

    def _push_turn(self) -> None:
        p = self.active
        self._note((L_TURN, p))
        st = self.stack
        st.append((K_END, p, 0, 0))
        st.append((K_CARD, p, 0, 0))
        if self.skills_on:
            st.append((K_SKILLS, p, 0, 0))
        st.append((K_MOVE, p, 3 if self.skill[6] == p else 2, 0))

    def _activate_common(self, p: int, t: int) -> None:
        st = self.stack
        if t < 0:
            return
        st.append((K_DISCARD, p, t, 0))
        if t == ALL_POWERS:
            st.append((K_ALLPOW, p, 0, 0))
        elif t == ONE_POWER:
            st.append((K_ONEPOW, p, 0, 0))
        elif t == SPECIMEN:
            st.append((K_SPEC, p, 0, 0))
        else:
            self._advance_ufo()

    def _fill_hand(self, p: int, k: int) -> None:
        for _ in range(k):
            t = self._draw_human()
            if t >= 0:
                self.hand[t] += 1
        self.stack.append((K_PLACE, p, 0, 0))

    def _draw_to_player(self, p: int, k: int) -> None:
        got = []
        for _ in range(k):
            t = self._draw_human()
            if t >= 0:
                self.hum[p * NT + t] += 1
                got.append(t)
        self._note((L_DRAW, p, tuple(got)))

    # ---- the frame machine ----------------------------------------------------------------------------------
    def _run(self) -> None:
        st = self.stack
        steps = _STEP
        while st:
            fr = st[-1]
            seat = steps[fr[0]](self, fr)
            if seat >= 0:
                self.to_move = seat
                return
        self.to_move = None

    def _legal_actions(self) -> list[Action]:
        fr = self.stack[-1]
        return _LEGAL[fr[0]](self, fr)

    def _apply(self, action: Action) -> None:
        self._note((L_ACT, self.to_move, action))
        fr = self.stack[-1]
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
        return s

    def _sample(self, seat: int, rng: Rng) -> Self:
        # Nothing is hidden: bag and deck order are drawn from counts when drawn; only future chance differs,
        # and `State.sample` reseeds the copy.
        return self.clone()

    def _in_play(self) -> list[int]:
        out = [0] * 4
        for fr in self.stack:
            if fr[0] == K_DISCARD or fr[0] == K_REJECT:
                out[fr[2]] += 1
        return out

    def _view(self, seat: int | None) -> View:
        n = self.players
        locs = []
        for i in range(NL):
            figs = {}
            for f in range(self.nf):
                j = f * NL + i
                if self.plain[j] or self.dist[j] or self.leader[f] == i:
                    figs[COLORS[f]] = {
                        "figures": self.plain[j], "leader": self.leader[f] == i, "distinguished": self.dist[j]
                    }
            locs.append({
                "id": i,
                "name": C.names[i],
                "alternate": bool(self.alt >> i & 1),
                "crop_circles_tile": self.crop_tile == i,
                "figures": figs,
                "influence": {COLORS[f]: self.influence(f, i) for f in range(self.nf) if self._inf(f, i)},
                "focus": {HUMAN_TYPES[t]: self.focus[i * NT + t] for t in range(NT) if self.focus[i * NT + t]},
                "cow": bool(self.abd_cow[i]) if i else None,
                "human": (HUMAN_TYPES[self.abd_human[i]] if self.abd_human[i] >= 0 else None) if i else None,
                "leads": COLORS[self._top(i)] if self._top(i) >= 0 else None,
                "streets": list(NB[i]),
                "crop_circle": COLORS[self.crop[i]] if self.crop[i] >= 0 else None,
                "skill_tile": (COLORS[self.skill[i]] if self.skill[i] >= 0 else "board") if self.skills_on else None,
            })
        in_play = self._in_play()
        players = []
        for p in range(n):
            players.append({
                "color": COLORS[p],
                "humans": {HUMAN_TYPES[t]: self.hum[p * NT + t] for t in range(NT)},
                "cows": self.cows[p],
                "emblems": self.emblems[p],
                "faction_cards": {FACTION_CARDS[c]: not self.fcards[p * 3 + c] for c in range(3)},
                "held_common": {COMMON_CARDS[t]: self.held[p * 4 + t] for t in range(4) if self.held[p * 4 + t]},
                "crop_tokens_left": self.crop_left[p],
                "figures_to_place": self._unplaced(p),
            })
        top = self.stack[-1] if self.stack else None
        return {
            "game": "silos",
            "seat": seat,
            "players": n,
            "non_player_faction": COLORS[self.npf] if self.npf >= 0 else None,
            "to_move": self.to_move,
            "active": self.active,
            "phase": FRAME_NAMES[top[0]] if top else "game over",
            "decision": self._decision() if top else "game over",
            "log": self._entries(LOG_SHOWN),
            "log_pos": self.lgn,
            "ranks": [COLORS[f] for f in self.rank],
            "ufo": self.ufo,
            "locations": locs,
            "streets": [[a, b] for a in range(NL) for b in NB[a] if a < b],
            "bag": {HUMAN_TYPES[t]: self.bag[t] for t in range(NT)},
            "hand": {HUMAN_TYPES[t]: self.hand[t] for t in range(NT) if self.hand[t]},
            "supply": {"cows": self.cow_pile, "caps": self.caps, "emblems": self.emblem_supply},
            "common_deck": {COMMON_CARDS[t]: self.deck[t] for t in range(4)},
            "common_discards": {COMMON_CARDS[t]: self.discard[t] for t in range(4)},
            "card_in_play": {COMMON_CARDS[t]: in_play[t] for t in range(4) if in_play[t]},
            "last_revealed": COMMON_CARDS[self.revealed] if self.revealed >= 0 else None,
            "seats": players,
            "emblem_target": self.target,
            "winners": self.winners(),
        }

    def _note(self, entry: tuple[Any, ...]) -> None:
        """Add an event to the public log."""
        self.lg = [entry, self.lg, None]
        self.lgn += 1

    def _entries(self, k: int) -> list[dict[str, Any]]:
        """The last k log entries, oldest first, each a new `{"seat", "text"}` dict."""
        out: list[dict[str, Any]] = []
        cell = self.lg
        while cell is not None and k > 0:
            st = cell[2]
            if st is None:
                st = cell[2] = self._log_seat_text(cell[0])
            out.append({"seat": st[0], "text": st[1]})
            cell = cell[1]
            k -= 1
        out.reverse()
        return out

    def _log(self, seat: int | None, start: int) -> list[dict[str, Any]]:
        # one public log for every seat and spectators: nothing in SILOS is hidden
        return self._entries(self.lgn - start) if start < self.lgn else []

    def recent_log(self, k: int = LOG_SHOWN) -> list[str]:
        """The last k public events, oldest first, as readable lines."""
        return [e["text"] for e in self._entries(k)]

    def _log_seat_text(self, e: tuple[Any, ...]) -> tuple[int | None, str]:
        """Who acted in a log entry (None: the table, e.g. an abduction) and its words."""
        code = e[0]
        seat = e[1] if code in (L_ACT, L_REVEAL, L_EMBLEM, L_DRAW, L_SKILL, L_EXERT, L_NOCARD) else None
        if seat is not None and not 0 <= seat < self.players:
            seat = None  # the non-player faction is not a seat
        return seat, self._log_text(e)

    def _log_text(self, e: tuple[Any, ...]) -> str:
        def who(f: int, none: str = "the bag") -> str:
            if f < 0:
                return none
            return COLORS[f] + (" (non-player)" if f == self.npf else "")

        def loc(i: int) -> str:
            return f"{i} {C.names[i]}{'*' if self.alt >> i & 1 else ''}"

        def hs(ts: tuple[int, ...]) -> str:
            return " + ".join(HUMAN_TYPES[t] for t in ts) or "nothing"

        code = e[0]
        if code == L_TURN:
            return f"-- {COLORS[e[1]]}'s turn --"
        if code == L_ACT:
            return f"{COLORS[e[1]]}: {e[2].text}"
        if code == L_REVEAL:
            return f"{who(e[1], 'someone')} reveals {COMMON_CARDS[e[2]]}"
        if code == L_ABDUCT:
            human = "no human" if e[3] < 0 else f"{HUMAN_TYPES[e[3]]} -> {who(e[4])}"
            return f"UFO abduction at {loc(e[1])}: cow -> {who(e[2], 'nobody')}; {human}"
        if code == L_MC:
            if e[2] < 0:
                return f"mind control at {loc(e[1])}: nobody there, all humans to the bag"
            first = who(e[2]) + (" discards" if e[2] == self.npf else " takes")
            return f"mind control at {loc(e[1])}: {first} {hs(e[3])}; {hs(e[5])} -> {who(e[4])}"
        if code == L_EMBLEM:
            cows = f" using {e[2]} cow{'s' if e[2] > 1 else ''}" if e[2] else ""
            return f"{COLORS[e[1]]} exchanges a complete set{cows} for an emblem"
        if code == L_DRAW:
            return f"{COLORS[e[1]]} draws {hs(e[2])}"
        if code == L_RERANK:
            return "Town Hall ranks now " + " > ".join(COLORS[f] for f in e[1])
        if code == L_RESHUFFLE:
            return "common deck exhausted: discards reshuffled"
        if code == L_SKILL:
            return f"{COLORS[e[1]]} claims skill tile {e[2]}"
        if code == L_NOCARD:
            return f"{COLORS[e[1]]} has no card left to activate"
        if code == L_EXERT:
            what = "crop circles power" if self.crop_tile == e[2] else "power"
            return f"{who(e[1])} exerts the {what} of {loc(e[2])}"
        return "game over"

    def _decision(self) -> str:
        """What the seat to move is deciding, in words."""
        fr = self.stack[-1]
        k = fr[0]
        if k == K_POS:
            return f"initial positioning: place a figure ({self._unplaced(self.to_move or 0)} left)"
        if k == K_MOVE:
            return f"move a figure along a street ({fr[2]} movement{'s' if fr[2] > 1 else ''} left) or stop"
        if k == K_SKILLS:
            return f"skill tile {SKILL_ORDER[fr[2]]}: use it or skip"
        if k == K_CARD:
            return "activate one card: the top common card or an unused faction card"
        if k == K_REJECT:
            return f"skill tile 0: keep the revealed {COMMON_CARDS[fr[2]]} or reject it and reveal another"
        if k == K_ONEPOW:
            return "One Power: exert one location where you have the most influence"
        if k == K_PLACE:
            return "place the drawn humans, one at a time, in matching focus groups"
        if k == K_MC:
            return f"mind control at {fr[2]} {C.names[fr[2]]}: take two of the three humans"
        if k == K_RETURN:
            return f"News Station*: return {fr[2]} more of your humans to the bag"
        if k == K_REPOS:
            return "reposition your figures one at a time (to any location), then done"
        if k == K_SHERIFF and fr[2] >= 0:
            return "Sheriff's Office: move more figures of that colour from that location, or stop"
        return FRAME_NAMES[k] + ": choose"

    def _unplaced(self, p: int) -> int:
        on = sum(self.plain[p * NL:(p + 1) * NL]) + sum(self.dist[p * NL:(p + 1) * NL]) + (self.leader[p] >= 0)
        return max(0, C.figures - on) if self.stack and self.stack[0][0] == K_POS else 0

    def scores(self) -> list[float]:
        return [float(e) for e in self.emblems]

    def winners(self) -> list[int]:
        if self.to_move is not None:
            return []
        n = self.players
        key = [(self.emblems[p], sum(self.hum[p * NT:(p + 1) * NT]) + self.cows[p]) for p in range(n)]
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


S = SilosState
StepFn = Callable[[S, Frame], int]
LegalFn = Callable[[S, Frame], list[Action]]
ApplyFn = Callable[[S, Frame, Action], None]


# ---- initial positioning ---------------------------------------------------------------------------------------
def _step_pos(s: S, fr: Frame) -> int:
    n = s.players
    if fr[2] == C.figures * n:
        s.stack.pop()
        s._rerank()  # initial re-ranking; ties keep the setup order (stable sort)
        s.active = s.start
        s._push_turn()
        return -1
    return (s.start + fr[2]) % n


def _legal_pos(s: S, fr: Frame) -> list[Action]:
    p = (s.start + fr[2]) % s.players
    placed = fr[2] // s.players  # figures p has placed so far
    out: list[Action] = []
    if s.leader[p] < 0:
        out.extend(POSITION[LEAD])
    if s.leader[p] >= 0 or placed < C.figures - 1:
        out.extend(POSITION[FIG])
    return out


def _apply_pos(s: S, fr: Frame, a: Action) -> None:
    p = (s.start + fr[2]) % s.players
    kind, loc = int(a.args[0]), int(a.args[1])
    if kind == LEAD:
        s.leader[p] = loc
    else:
        s.plain[p * NL + loc] += 1
    s.stack[-1] = (K_POS, fr[1], fr[2] + 1, 0)


# ---- movement ----------------------------------------------------------------------------------------------
def _step_move(s: S, fr: Frame) -> int:
    if fr[2] == 0:
        s.stack.pop()
        return -1
    return fr[1]


def _legal_move(s: S, fr: Frame) -> list[Action]:
    p = fr[1]
    out = [STOP]
    plain, dist = s.plain, s.dist
    base = p * NL
    lead = s.leader[p]
    mf, ml, md = MOVES_FROM
    for a in range(NL):
        if plain[base + a]:
            out.extend(mf[a])
        if lead == a:
            out.extend(ml[a])
        if dist[base + a]:
            out.extend(md[a])
    return out


def _apply_move(s: S, fr: Frame, a: Action) -> None:
    if a.verb == "stop":
        s.stack.pop()
        return
    s._move_fig(fr[1], int(a.args[0]), int(a.args[1]), int(a.args[2]))
    s.stack[-1] = (K_MOVE, fr[1], fr[2] - 1, 0)


# ---- skill tiles (phase 2) -----------------------------------------------------------------------------------
def _skill_options(s: S, p: int, tile: int) -> list[Action]:
    out: list[Action] = []
    if tile == 1:
        for g in range(s.nf):
            for a in range(NL):
                if a != 1:
                    out.extend(A("skill_sheriff", g, k, a) for k in s._kinds_at(g, a))
    elif tile == 2:
        for a in range(NL):
            if a != 2:
                out.extend(A("skill_uni", k, a) for k in s._kinds_at(p, a))
    elif tile == 3:
        if sum(s.bag):
            out.append(SKILL_DRAW)
    elif tile == 4:
        if s.cow_pile > 0:
            h = s.hum[p * NT:(p + 1) * NT]
            for x in range(NT):
                for y in range(x, NT):
                    if (h[x] >= 2) if x == y else (h[x] and h[y]):
                        out.append(A("skill_return", x, y))
    elif tile == 5:
        for a in range(NL):
            for t in range(NT):
                if s.focus[a * NT + t]:
                    out.extend(A("skill_church", t, a, b) for b in ACCEPTS[t] if b != a)
    return out


def _step_skills(s: S, fr: Frame) -> int:
    p, idx = fr[1], fr[2]
    while idx < len(SKILL_ORDER):
        tile = SKILL_ORDER[idx]
        if s.skill[tile] == p and _skill_options(s, p, tile):
            s.stack[-1] = (K_SKILLS, p, idx, 0)
            return p
        idx += 1
    s.stack.pop()
    return -1


def _legal_skills(s: S, fr: Frame) -> list[Action]:
    return [*_skill_options(s, fr[1], SKILL_ORDER[fr[2]]), SKIP]


def _apply_skills(s: S, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack[-1] = (K_SKILLS, p, fr[2] + 1, 0)
    v, g = a.verb, a.args
    if v == "skill_sheriff":
        s._move_fig(int(g[0]), int(g[1]), int(g[2]), 1)
    elif v == "skill_uni":
        s._move_fig(p, int(g[0]), int(g[1]), 2)
    elif v == "skill_draw":
        s._fill_hand(p, 1)
    elif v == "skill_return":
        for t in (int(g[0]), int(g[1])):
            s.hum[p * NT + t] -= 1
            s.bag[t] += 1
        s.cows[p] += 1
        s.cow_pile -= 1
        s._check_sets(p)
    elif v == "skill_church":
        t, x, y = int(g[0]), int(g[1]), int(g[2])
        s.focus[x * NT + t] -= 1
        _place_human(s, p, t, y)


# ---- card activation ---------------------------------------------------------------------------------------
def _step_card(s: S, fr: Frame) -> int:
    options = _legal_card(s, fr)
    if len(options) > 1:
        return fr[1]
    if options[0] == CARD_NONE:  # S-15
        s._note((L_NOCARD, fr[1]))
    _apply_card(s, fr, options[0])  # S-16: the only card there is (often the common deck) is not asked for
    return -1


def _legal_card(s: S, fr: Frame) -> list[Action]:
    p = fr[1]
    out: list[Action] = []
    if s._common_available():
        out.append(CARD_COMMON)
    for c in range(3):
        if not s.fcards[p * 3 + c]:
            out.extend(CARD_FACTION[c])
    for t in range(4):
        if s.held[p * 4 + t]:
            out.append(HELD[t])
    return out or [CARD_NONE]


def _apply_card(s: S, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack.pop()
    if a == CARD_COMMON:
        t = s._draw_common(p)
        if s.skills_on and s.skill[0] == p and t >= 0:
            s.stack.append((K_REJECT, p, t, 0))
        else:
            s._activate_common(p, t)
    elif a.verb == "held":
        t = int(a.args[0])
        s.held[p * 4 + t] -= 1
        s._activate_common(p, t)
    elif a.verb == "card":
        text = str(a.args[0])
        c = FACTION_CARDS.index(text.split()[0])
        s.fcards[p * 3 + c] = 1
        if text == "sighting ufo":
            s._advance_ufo()
        elif text == "sighting reposition":
            s.stack.append((K_REPOS, p, 0, 0))
        elif c == CONFLUENCE:
            s._fill_hand(p, 4)
        else:
            s.stack.append((K_YOURPOW, p, 0, 0))


def _step_decide(s: S, fr: Frame) -> int:
    return fr[1]


def _legal_reject(s: S, fr: Frame) -> list[Action]:
    return [KEEP, REJECT]


def _apply_reject(s: S, fr: Frame, a: Action) -> None:
    p, t = fr[1], fr[2]
    s.stack.pop()
    if a.verb == "reject":
        s.discard[t] += 1
        t = s._draw_common(p)
    s._activate_common(p, t)


def _step_discard(s: S, fr: Frame) -> int:
    s.stack.pop()
    s.discard[fr[2]] += 1
    return -1


def _step_end(s: S, fr: Frame) -> int:
    s.stack.pop()
    if max(s.emblems) >= s.target:  # ruling S-3: the game ends only at the end of a turn
        s.stack.clear()
        s._note((L_END,))
        return -1
    s.active = (s.active + 1) % s.players
    s._push_turn()
    return -1


# ---- power events ------------------------------------------------------------------------------------------
def _step_allpow(s: S, fr: Frame) -> int:
    loc = fr[2]
    if loc == NL:
        s.stack.pop()
        return -1
    s.stack[-1] = (fr[0], fr[1], loc + 1, 0)
    top = s._top(loc)  # S-25: who leads is read as each location is reached (Your Powers too)
    if not 0 <= top < s.players:
        return -1
    if fr[0] == K_ALLPOW:
        if s._has_figures(loc):  # S-11: "if a location has no alien figures in it, the Power Event is not exerted"
            s.stack.append((K_EXERT, top, loc, 0))
    elif top == fr[1]:
        s.stack.append((K_EXERT, top, loc, 0))
    return -1


def _onepow_options(s: S, p: int, used: int) -> list[int]:
    return [i for i in range(NL) if not used >> i & 1 and s._top(i) == p]


def _step_onepow(s: S, fr: Frame) -> int:
    k, used = fr[2], fr[3]
    n = s.players
    while k < n:
        p = (fr[1] + k) % n
        opts = _onepow_options(s, p, used)
        if len(opts) > 1:
            s.stack[-1] = (K_ONEPOW, fr[1], k, used)
            return p
        if opts:
            s.stack[-1] = (K_ONEPOW, fr[1], k + 1, used | 1 << opts[0])
            s.stack.append((K_EXERT, p, opts[0], 0))
            return -1
        k += 1
    s.stack.pop()
    return -1


def _legal_onepow(s: S, fr: Frame) -> list[Action]:
    p = (fr[1] + fr[2]) % s.players
    return [EXERT[i] for i in _onepow_options(s, p, fr[3])]


def _apply_onepow(s: S, fr: Frame, a: Action) -> None:
    p = (fr[1] + fr[2]) % s.players
    loc = int(a.args[0])
    s.stack[-1] = (K_ONEPOW, fr[1], fr[2] + 1, fr[3] | 1 << loc)
    s.stack.append((K_EXERT, p, loc, 0))


def _step_exert(s: S, fr: Frame) -> int:
    f, loc = fr[1], fr[2]
    st = s.stack
    st.pop()
    s._note((L_EXERT, f, loc))
    if s.skills_on and s.leader[f] == loc and s.skill[loc] != f:
        s.skill[loc] = f  # ruling S-12: exerting (even choosing not to use a MAY power) claims the tile
        s._note((L_SKILL, f, loc))
    if s.crop_tile == loc:
        st.append((K_CROP, f, 0, 0))
        return -1
    alt = s.alt >> loc & 1
    if loc == 0:
        s._rerank()
        if alt:
            for k in s._kinds_at(f, 0):
                while k in s._kinds_at(f, 0):
                    s._move_fig(f, k, 0, 3)
        return -1
    kind = (K_SHERIFF, K_UNI, K_MALL, K_NEWS, K_CHURCH, K_REPOS)[loc - 1] if not alt else (
        K_SHERIFF_ALT, K_UNI_ALT, K_MALL_ALT, K_NEWS_ALT, K_CHURCH_ALT, K_BUS_ALT)[loc - 1]
    st.append((kind, f, -1 if kind in (K_SHERIFF, K_MALL) else 0, 0))
    return -1


# 1 Sheriff's Office: one colour from one location, figures one at a time.
def _sheriff_moves(s: S, verb: str, only: int) -> list[Action]:
    out: list[Action] = []
    for g in range(s.nf):
        for a in range(NL):
            if a != 1 and (only < 0 or only == g * NL + a):
                row = SHERIFF[g]
                out.extend([row[k][a] for k in s._kinds_at(g, a)])
    return out


def _step_sheriff(s: S, fr: Frame) -> int:
    if not _sheriff_moves(s, "sheriff", fr[2]):  # S-24: nothing to move (any more) is no decision
        s.stack.pop()
        return -1
    return fr[1]


def _legal_sheriff(s: S, fr: Frame) -> list[Action]:
    return [*_sheriff_moves(s, "sheriff", fr[2]), SKIP if fr[2] < 0 else STOP]


def _apply_sheriff(s: S, fr: Frame, a: Action) -> None:
    if a.verb in ("skip", "stop"):
        s.stack.pop()
        return
    g, k, loc = int(a.args[0]), int(a.args[1]), int(a.args[2])
    s._move_fig(g, k, loc, 1)
    s.stack[-1] = (K_SHERIFF, fr[1], g * NL + loc, fr[3] + 1)


# 1* Sheriff's Office: up to three figures of any players from any locations.
def _step_sheriff_alt(s: S, fr: Frame) -> int:
    if fr[3] == 3 or not _sheriff_moves(s, "sheriff", -1):
        s.stack.pop()
        return -1
    return fr[1]


def _legal_sheriff_alt(s: S, fr: Frame) -> list[Action]:
    return [*_sheriff_moves(s, "sheriff", -1), SKIP if fr[3] == 0 else STOP]


def _apply_sheriff_alt(s: S, fr: Frame, a: Action) -> None:
    if a.verb in ("skip", "stop"):
        s.stack.pop()
        return
    s._move_fig(int(a.args[0]), int(a.args[1]), int(a.args[2]), 1)
    s.stack[-1] = (K_SHERIFF_ALT, fr[1], 0, fr[3] + 1)


# 2 University: move all your figures from the University to the Town Hall and distinguish one there.
def _step_uni(s: S, fr: Frame) -> int:
    f = fr[1]
    if s._kinds_at(f, 2) or (s.caps and s.plain[f * NL]):
        return f
    s.stack.pop()  # S-24: no figure to move and none to distinguish: `graduate` would change nothing
    return -1


def _legal_uni(s: S, fr: Frame) -> list[Action]:
    return [GRADUATE, SKIP]


def _apply_uni(s: S, fr: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == "skip":
        return
    f = fr[1]
    for k in s._kinds_at(f, 2):
        while k in s._kinds_at(f, 2):
            s._move_fig(f, k, 2, 0)
    if s.caps and s.plain[f * NL]:  # ruling S-6: with no plain figure or no cap, the move still happens
        s.plain[f * NL] -= 1
        s.dist[f * NL] += 1
        s.caps -= 1


# 2* University: distinguish one of your figures in the News Station.
def _step_uni_alt(s: S, fr: Frame) -> int:
    if s.caps and s.plain[fr[1] * NL + 4]:
        return fr[1]
    s.stack.pop()
    return -1


def _legal_uni_alt(s: S, fr: Frame) -> list[Action]:
    return [DISTINGUISH, SKIP]


def _apply_uni_alt(s: S, fr: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == "distinguish":
        j = fr[1] * NL + 4
        s.plain[j] -= 1
        s.dist[j] += 1
        s.caps -= 1


# 3 Shopping Mall: draw and place humans one at a time; stop at will, must stop after a mind control event.
def _step_mall(s: S, fr: Frame) -> int:
    if (fr[2] >= 0 and s.mc_count != fr[2]) or not sum(s.bag):
        s.stack.pop()
        return -1
    return fr[1]


def _legal_mall(s: S, fr: Frame) -> list[Action]:
    return [MALL_DRAW, SKIP if fr[2] < 0 else STOP]


def _apply_mall(s: S, fr: Frame, a: Action) -> None:
    if a.verb != "mall_draw":
        s.stack.pop()
        return
    s.stack[-1] = (K_MALL, fr[1], s.mc_count, 0)
    s._fill_hand(fr[1], 1)


# 3* Shopping Mall: draw four humans, place them as for Human Confluence.
def _step_mall_alt(s: S, fr: Frame) -> int:
    if not sum(s.bag):
        s.stack.pop()
        return -1
    return fr[1]


def _legal_mall_alt(s: S, fr: Frame) -> list[Action]:
    return [MALL_FOUR, SKIP]


def _apply_mall_alt(s: S, fr: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == "mall_four":
        s._fill_hand(fr[1], 4)


# 4 News Station: exchange any three humans/cows for an emblem, or draw one human.
def _exchanges(s: S, p: int) -> list[Action]:
    if not s.emblem_supply:
        return []
    h = s.hum
    b = p * NT
    have = (h[b], h[b + 1], h[b + 2], h[b + 3], s.cows[p])
    if sum(have) < 3:
        return []
    return [a for need, a in EXCHANGES if need[0] <= have[0] and need[1] <= have[1] and need[2] <= have[2]
            and need[3] <= have[3] and need[4] <= have[4]]


def _step_news(s: S, fr: Frame) -> int:
    if sum(s.bag) or _exchanges(s, fr[1]):
        return fr[1]
    s.stack.pop()
    return -1


def _legal_news(s: S, fr: Frame) -> list[Action]:
    out = _exchanges(s, fr[1])
    if sum(s.bag):
        out.append(NEWS_DRAW)
    out.append(SKIP)
    return out


def _apply_news(s: S, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack.pop()
    if a.verb == "news_draw":
        s._draw_to_player(p, 1)
        s._check_sets(p)
    elif a.verb == "exchange":
        for x in a.args:
            t = int(x)
            if t == 4:
                s.cows[p] -= 1
                s.cow_pile += 1
            else:
                s.hum[p * NT + t] -= 1
                s.bag[t] += 1
        s.emblems[p] += 1
        s.emblem_supply -= 1
        s._check_sets(p)


# 4* News Station: draw three humans then return any three of yours, or draw one.
def _step_news_alt(s: S, fr: Frame) -> int:
    if sum(s.bag):
        return fr[1]
    s.stack.pop()
    return -1


def _legal_news_alt(s: S, fr: Frame) -> list[Action]:
    return [NEWS_THREE, NEWS_DRAW, SKIP]


def _apply_news_alt(s: S, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack.pop()
    if a.verb == "news_draw":
        s._draw_to_player(p, 1)
        s._check_sets(p)
    elif a.verb == "news_three":
        before = sum(s.bag)
        s._draw_to_player(p, 3)  # ruling S-13: the set check waits until the three are returned
        s.stack.append((K_RETURN, p, before - sum(s.bag), 0))  # ruling S-21: return as many as were drawn


def _step_return(s: S, fr: Frame) -> int:
    p, k = fr[1], fr[2]
    held = [t for t in range(NT) if s.hum[p * NT + t]]
    if k and len(held) == 1:  # S-16: all of one type, so which to return is no choice
        t = held[0]
        s.hum[p * NT + t] -= k
        s.bag[t] += k
        k = 0
    if k == 0:
        s.stack.pop()
        s._check_sets(p)
        return -1
    return p


def _legal_return(s: S, fr: Frame) -> list[Action]:
    p = fr[1]
    return [RETURN[t] for t in range(NT) if s.hum[p * NT + t]]


def _apply_return(s: S, fr: Frame, a: Action) -> None:
    t = int(a.args[0])
    s.hum[fr[1] * NT + t] -= 1
    s.bag[t] += 1
    s.stack[-1] = (K_RETURN, fr[1], fr[2] - 1, 0)


# 5 Church: take one human from another player or from any focus group.
def _step_church(s: S, fr: Frame) -> int:
    if len(_legal_church(s, fr)) > 1:
        return fr[1]
    s.stack.pop()  # S-24: no human to take anywhere
    return -1


def _legal_church(s: S, fr: Frame) -> list[Action]:
    p = fr[1]
    out: list[Action] = []
    for g in range(s.players):
        if g != p:
            out.extend([CHURCH_PLAYER[t][g] for t in range(NT) if s.hum[g * NT + t]])
    for i in range(NL):
        out.extend([CHURCH_FOCUS[t][i] for t in range(NT) if s.focus[i * NT + t]])
    out.append(SKIP)
    return out


def _apply_church(s: S, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack.pop()
    if a.verb == "skip":
        return
    t, src = int(a.args[0]), int(a.args[1])
    if a.verb == "church_player":
        s.hum[src * NT + t] -= 1
    else:
        s.focus[src * NT + t] -= 1
    s.hum[p * NT + t] += 1
    s._check_sets(p)


# 5* Church: draw a common card and keep it as a faction card.
def _step_church_alt(s: S, fr: Frame) -> int:
    if s._common_available():
        return fr[1]
    s.stack.pop()
    return -1


def _legal_church_alt(s: S, fr: Frame) -> list[Action]:
    return [CHURCH_CARD, SKIP]


def _apply_church_alt(s: S, fr: Frame, a: Action) -> None:
    s.stack.pop()
    if a.verb == "church_card":
        t = s._draw_common(fr[1])
        s.held[fr[1] * 4 + t] += 1


# 6 Bus Station (and UFO Sighting): reposition any of your figures, one at a time, then done.
def _step_repos(s: S, fr: Frame) -> int:
    if fr[2] >= REPOSITION_LIMIT:
        s.stack.pop()
        return -1
    return fr[1]


def _legal_repos(s: S, fr: Frame) -> list[Action]:
    p = fr[1]
    out = [DONE]
    plain, dist = s.plain, s.dist
    lead = s.leader[p]
    base = p * NL
    rf, rl, rd = REPOS_FROM
    for a in range(NL):
        if plain[base + a]:
            out.extend(rf[a])
        if lead == a:
            out.extend(rl[a])
        if dist[base + a]:
            out.extend(rd[a])
    return out


def _apply_repos(s: S, fr: Frame, a: Action) -> None:
    if a.verb == "done":
        s.stack.pop()
        return
    s._move_fig(fr[1], int(a.args[0]), int(a.args[1]), int(a.args[2]))
    s.stack[-1] = (K_REPOS, fr[1], fr[2] + 1, 0)


# 6* Bus Station: downgrade a distinguished figure there, then draw three humans.
def _step_bus_alt(s: S, fr: Frame) -> int:
    if s.dist[fr[1] * NL + 6]:
        return fr[1]
    s.stack.pop()
    return -1


def _legal_bus_alt(s: S, fr: Frame) -> list[Action]:
    return [DOWNGRADE, SKIP]


def _apply_bus_alt(s: S, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack.pop()
    if a.verb == "downgrade":
        j = p * NL + 6
        s.dist[j] -= 1
        s.plain[j] += 1
        s.caps += 1
        s._draw_to_player(p, 3)
        s._check_sets(p)


# Crop circles power tile: place a token, reposition one, or replace an opponent's.
def _legal_crop(s: S, fr: Frame) -> list[Action]:
    p = fr[1]
    empty = [i for i in range(NL) if s.crop[i] < 0]
    targets = empty or [i for i in range(NL) if s.crop[i] != p]
    out: list[Action] = []
    if s.crop_left[p]:
        out.extend(A("crop_place", i) for i in targets)
    else:
        for x in range(NL):
            if s.crop[x] == p:
                out.extend(A("crop_move", x, y) for y in targets)
    out.append(SKIP)
    return out


def _apply_crop(s: S, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack.pop()
    if a.verb == "skip":
        return
    if a.verb == "crop_place":
        s.crop_left[p] -= 1
        to = int(a.args[0])
    else:
        s.crop[int(a.args[0])] = -1
        to = int(a.args[1])
    if s.crop[to] >= 0:
        s.crop_left[s.crop[to]] += 1
    s.crop[to] = p


# ---- humans: placement, mind control, marked specimen -------------------------------------------------------------
def _place_human(s: S, p: int, t: int, loc: int) -> None:
    j = loc * NT
    s.focus[j + t] += 1
    f = s.focus
    if f[j] + f[j + 1] + f[j + 2] + f[j + 3] == 3:
        s.stack.append((K_MC, p, loc, 0))


def _step_place(s: S, fr: Frame) -> int:
    h = s.hand
    if h[0] + h[1] + h[2] + h[3] == 0:
        s.stack.pop()
        return -1
    return fr[1]


def _legal_place(s: S, fr: Frame) -> list[Action]:
    out: list[Action] = []
    h = s.hand
    for t in range(NT):
        if h[t]:
            row = PLACE[t]
            out.extend([row[i] for i in ACCEPTS[t]])
    return out


def _apply_place(s: S, fr: Frame, a: Action) -> None:
    t, loc = int(a.args[0]), int(a.args[1])
    s.hand[t] -= 1
    _place_human(s, fr[1], t, loc)


def _mc_pairs(s: S, loc: int) -> list[tuple[int, int]]:
    c = s.focus[loc * NT:(loc + 1) * NT]
    out = []
    for x in range(NT):
        for y in range(x, NT):
            if (c[x] >= 2) if x == y else (c[x] and c[y]):
                out.append((x, y))
    return out


def _npf_pair(s: S, loc: int) -> tuple[int, int]:
    """The non-player faction's two humans: one of each type when there are two types (ruling S-10)."""
    c = s.focus[loc * NT:(loc + 1) * NT]
    types = [t for t in range(NT) if c[t]]
    if len(types) == 1:
        return (types[0], types[0])
    return (types[0], types[1])


def _step_mc(s: S, fr: Frame) -> int:
    loc = fr[2]
    r = s.ranking(loc)
    if not r:
        j = loc * NT
        for t in range(NT):
            s.bag[t] += s.focus[j + t]
            s.focus[j + t] = 0
        s._note((L_MC, loc, -1, (), -1, ()))
        s.mc_count += 1
        s.stack.pop()
        return -1
    first = r[0]
    if first == s.npf:
        _resolve_mc(s, loc, _npf_pair(s, loc))
        return -1
    pairs = _mc_pairs(s, loc)
    if len(pairs) == 1:
        _resolve_mc(s, loc, pairs[0])
        return -1
    return first


def _legal_mc(s: S, fr: Frame) -> list[Action]:
    return [TAKE[x][y] for x, y in _mc_pairs(s, fr[2])]


def _apply_mc(s: S, fr: Frame, a: Action) -> None:
    _resolve_mc(s, fr[2], (int(a.args[0]), int(a.args[1])))


def _resolve_mc(s: S, loc: int, pair: tuple[int, int]) -> None:
    r = s.ranking(loc)
    first = r[0]
    second = r[1] if len(r) > 1 else -1
    j = loc * NT
    for t in pair:
        s.focus[j + t] -= 1
        s._give_human(first, t)
    rest = []
    for t in range(NT):
        while s.focus[j + t]:
            s.focus[j + t] -= 1
            s._give_human(second, t)
            rest.append(t)
    s._note((L_MC, loc, first, pair, second, tuple(rest)))
    s.mc_count += 1
    s.stack.pop()
    s._check_sets(first)
    s._check_sets(second)


def _step_spec(s: S, fr: Frame) -> int:
    n = s.players
    k = fr[2]
    if k == n:
        s.stack.pop()
        return -1
    p = (fr[1] + k) % n
    s.stack[-1] = (K_SPEC, fr[1], k + 1, 0)
    s._fill_hand(p, 1)
    return -1


def _no_legal(s: S, fr: Frame) -> list[Action]:
    raise AssertionError(f"frame {FRAME_NAMES[fr[0]]} never waits for a decision")


def _no_apply(s: S, fr: Frame, a: Action) -> None:
    raise AssertionError(f"frame {FRAME_NAMES[fr[0]]} never waits for a decision")


_TABLE: dict[int, tuple[StepFn, LegalFn, ApplyFn]] = {
    K_POS: (_step_pos, _legal_pos, _apply_pos),
    K_MOVE: (_step_move, _legal_move, _apply_move),
    K_SKILLS: (_step_skills, _legal_skills, _apply_skills),
    K_CARD: (_step_card, _legal_card, _apply_card),
    K_REJECT: (_step_decide, _legal_reject, _apply_reject),
    K_END: (_step_end, _no_legal, _no_apply),
    K_DISCARD: (_step_discard, _no_legal, _no_apply),
    K_ALLPOW: (_step_allpow, _no_legal, _no_apply),
    K_YOURPOW: (_step_allpow, _no_legal, _no_apply),
    K_ONEPOW: (_step_onepow, _legal_onepow, _apply_onepow),
    K_EXERT: (_step_exert, _no_legal, _no_apply),
    K_SHERIFF: (_step_sheriff, _legal_sheriff, _apply_sheriff),
    K_SHERIFF_ALT: (_step_sheriff_alt, _legal_sheriff_alt, _apply_sheriff_alt),
    K_UNI: (_step_uni, _legal_uni, _apply_uni),
    K_UNI_ALT: (_step_uni_alt, _legal_uni_alt, _apply_uni_alt),
    K_MALL: (_step_mall, _legal_mall, _apply_mall),
    K_MALL_ALT: (_step_mall_alt, _legal_mall_alt, _apply_mall_alt),
    K_NEWS: (_step_news, _legal_news, _apply_news),
    K_NEWS_ALT: (_step_news_alt, _legal_news_alt, _apply_news_alt),
    K_RETURN: (_step_return, _legal_return, _apply_return),
    K_CHURCH: (_step_church, _legal_church, _apply_church),
    K_CHURCH_ALT: (_step_church_alt, _legal_church_alt, _apply_church_alt),
    K_REPOS: (_step_repos, _legal_repos, _apply_repos),
    K_BUS_ALT: (_step_bus_alt, _legal_bus_alt, _apply_bus_alt),
    K_CROP: (_step_decide, _legal_crop, _apply_crop),
    K_PLACE: (_step_place, _legal_place, _apply_place),
    K_MC: (_step_mc, _legal_mc, _apply_mc),
    K_SPEC: (_step_spec, _no_legal, _no_apply),
}
_STEP: tuple[StepFn, ...] = tuple(_TABLE[k][0] for k in range(len(_TABLE)))
_LEGAL: tuple[LegalFn, ...] = tuple(_TABLE[k][1] for k in range(len(_TABLE)))
_APPLY: tuple[ApplyFn, ...] = tuple(_TABLE[k][2] for k in range(len(_TABLE)))
