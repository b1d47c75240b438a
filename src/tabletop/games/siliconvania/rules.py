"""SiliconVania rules: the state, its setup and its flow, the final scoring's hooks, samples, and the dispatch tables.

The automatic steps of the round (bids, the reveal, tiles in turn order, track steps, specialists) are in
`steps.py`, the options and effects of each decision in `decisions.py`, the kinds of tasks in `tasks.py`, what each
seat sees in `view.py`, the city scoring in `scoring.py`, the action texts in `notation.py`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, Final, Self

from tabletop.core import Action, LogEntry, Rng, State, View
from tabletop.core.logwords import entry as log_entry
from tabletop.core.options import OptionValue
from tabletop.core.rng import COMPILED
from tabletop.games.siliconvania import decisions, steps
from tabletop.games.siliconvania.decisions import options_bid
from tabletop.games.siliconvania.notation import (
    BANGLE,
    COLLAR,
    COMPONENTS,
    FIRST_TRAIN,
    GOBLET,
    SCEPTER,
    TIARA,
    TRACK_END,
    UPGRADED,
    words,
)
from tabletop.games.siliconvania.scoring import BLANK, BUILDING, CASTLE, TRAIN, Cell, score_city
from tabletop.games.siliconvania.tasks import (
    DECISIONS,
    K_ANTIQUITY,
    K_BID,
    K_CASTLE,
    K_CAT,
    K_CONTRACT,
    K_DISCARD,
    K_END_ROUND,
    K_EXCHANGE,
    K_GAIN,
    K_HOUND,
    K_OBJECTIVE,
    K_PLACE,
    K_PLACE_ALL,
    K_POOL,
    K_RECOVER,
    K_RELOCATE,
    K_REST_TWO_PLAYERS,
    K_REVEAL,
    K_ROUND,
    K_SPECIALIST_PHASE,
    K_SPECIALIST_TURN,
    K_STEP,
    K_SWAP_OBJECTIVE,
    K_TAKE,
    K_TILE_TURN,
    K_TRAIN,
    K_UPGRADE,
    K_VAMPIRE,
    Task,
)
from tabletop.games.siliconvania.view import sample_bid_cards, table_view

# The scoring cell of every tile (without an antiquity), castle (upgraded or not) and train: `cells` reads them
# instead of building the same tuples again at every final scoring.
TILE_CELLS: Final[tuple[Cell, ...]] = tuple((BUILDING, t.type, t.blood, t.coffins, t.animal, t.innovation, t.survival)
                                            for t in COMPONENTS.tiles)
CASTLE_CELLS: Final[tuple[Cell, ...]] = tuple((CASTLE, c.type, c.blood, c.coffins, c.animal, c.innovation, c.survival)
                                              for c in COMPONENTS.castles)
TRAIN_CELLS: Final[tuple[Cell, ...]] = tuple((TRAIN, -1, blood, coffins, -1, 0, 0)
                                             for blood, coffins in COMPONENTS.trains)

# The log: a cons list of public entries [seat or -1, code, data, older, words], newest first, shared by clones; per
# seat a cons list of [index, code, data, older, words] that replaces the public wording of entry `index` for that
# seat alone (its secrets). An entry keeps what words it (`notation.words`: a code and its data, which never change)
# and is worded only when a log or a view asks for it, then keeps its words (`_worded`: the one field ever written
# after the note, always with the same words, so clones may share the cells). The tail is typed Any, not the alias
# itself: mypyc (the compiled build, tabletop.native) cannot compile a recursive alias.
Log = list[Any] | None
PrivateLog = list[Any] | None


class SiliconVaniaState(State):
    """A game of SiliconVania in progress."""

    round: int
    revealed: int
    grid: list[list[int]]  # per seat, 16 cells: tile id or -1
    anti: list[list[int]]  # per seat, 16 cells: antiquity id or -1
    perim: list[list[int]]  # per seat, 8 slots: -1, castle type (+7 upgraded), 20 + train id
    vamp: list[int]
    cats: list[int]
    hounds: list[int]
    contracts: list[int]
    inn: list[int]
    surv: list[int]
    met: list[int]
    bid_hand: list[int]  # bit c-1 set: silent bid card c in hand
    bid_disc: list[int]
    bid_card: list[int]
    bid_spec: list[int]
    bid_value: list[int]
    bid_free: list[int]  # 1: the committed bid card is played as 0, its cost not paid (ruling V-9)
    bid_events: list[tuple[int, ...]]  # per seat, public: bid card revealed (0: none), or -1 for a recovery
    in_flight: list[int]
    order: list[int]
    pending: list[list[int]]
    vamp_sup: int
    cat_sup: int
    hound_sup: int
    contract_sup: int
    castle_sup: list[int]
    train_sup: list[int]
    anti_sup: list[int]
    tile_deck: list[int]
    tile_disc: list[int]
    spec_deck: list[int]
    hand: list[list[int]]  # sorted: the order of a hand is nothing anyone can tell (audit 19)
    disc: list[list[int]]  # sorted
    objs: list[list[int]]
    xpool: list[int]
    pools: list[list[int]]
    row: list[int]
    stack: list[Task]
    shown: list[int]  # per seat, bit r: specialist r lies in the discard pile, as everyone saw (ruling V-20)
    known: list[int]  # per seat, bit r: everyone knows specialist r is in the hand (ruling V-20)
    entries: Log  # the log (see Log)
    log_len: int
    plog: list[PrivateLog]
    _opts: list[Action]
    _final: list[dict[str, Any]] | None

    # ---- construction ---------------------------------------------------------------------------------
    @classmethod
    def setup(cls, players: int, seed: int, options: Mapping[str, OptionValue]) -> Self:
        s = cls.__new__(cls)
        s._init_base(players, seed, options)
        n = players
        s.round = 0
        s.grid = [[-1] * 16 for _ in range(n)]
        s.anti = [[-1] * 16 for _ in range(n)]
        s.perim = [[-1] * 8 for _ in range(n)]
        s.vamp = [COMPONENTS.start_vampires] * n
        s.cats = [0] * n
        s.hounds = [0] * n
        s.contracts = [0] * n
        s.inn = [0] * n
        s.surv = [TRACK_END] * n
        s.met = [0] * n
        s.bid_hand = [0b1111111] * n
        s.bid_disc = [0] * n
        s.bid_card = [-1] * n
        s.bid_spec = [-1] * n
        s.bid_value = [0] * n
        s.bid_free = [0] * n
        s.bid_events = [()] * n
        s.in_flight = [0] * n
        s.revealed = 0
        s.order = []
        s.pending = [[] for _ in range(n)]
        s.vamp_sup = COMPONENTS.vampires - n * COMPONENTS.start_vampires
        s.cat_sup, s.hound_sup, s.contract_sup = COMPONENTS.cats, COMPONENTS.hounds, COMPONENTS.contracts
        s.castle_sup = list(range(7))
        s.train_sup = list(range(len(COMPONENTS.trains)))
        s.anti_sup = list(range(len(COMPONENTS.antiquities)))
        s.tile_deck = [i for i, t in enumerate(COMPONENTS.tiles) if t.mark <= n]
        s.rng.shuffle(s.tile_deck)
        s.tile_disc = []
        specialists = COMPONENTS.specialists  # by rank: its keys sorted, not its items (tuples compared)
        s.spec_deck = [r for r in sorted(specialists) if specialists[r].mark <= n]
        s.rng.shuffle(s.spec_deck)
        hands = [sorted(s.spec_deck.pop() for _ in range(COMPONENTS.hand_size)) for _ in range(n)]
        s.hand = hands  # kept sorted
        s.disc = [[] for _ in range(n)]
        s.objs = [[] for _ in range(n)]
        s.xpool = [s.tile_deck.pop() for _ in range(COMPONENTS.exchange_pool)]
        s.pools = []
        s.row = []
        s.stack = [(K_ROUND, 0, 0, 0)]
        s.shown = [0] * n
        s.known = [0] * n
        s.entries = None
        s.log_len = 0
        s.plog = [None] * n
        s._opts = []
        s._final = None
        s._run()
        return s

    @classmethod
    def for_test(cls, players: int = 2, seed: int = 0, tasks: list[Task] | None = None, **fields: Any) -> Self:
        """Test support: a new game with `fields` overridden and, if given, `tasks` (kind, seat, a, b) as the whole
        pending flow, run until their first real decision (the game ends when they are done)."""
        s = cls.setup(players, seed, {})
        for k, v in fields.items():
            if not hasattr(s, k):
                raise AttributeError(f"no state field {k!r}")
            setattr(s, k, v)
        if tasks is not None:
            s.stack = list(reversed(tasks))
            s._legal = None
            s._run()
        return s

    def clone(self) -> Self:
        s = self.__class__.__new__(self.__class__)
        s._copy_base(self)
        s.round, s.revealed = self.round, self.revealed
        s.grid = [g.copy() for g in self.grid]
        s.anti = [g.copy() for g in self.anti]
        s.perim = [g.copy() for g in self.perim]
        s.vamp, s.cats, s.hounds = self.vamp.copy(), self.cats.copy(), self.hounds.copy()
        s.contracts, s.inn, s.surv, s.met = self.contracts.copy(), self.inn.copy(), self.surv.copy(), self.met.copy()
        s.bid_hand, s.bid_disc = self.bid_hand.copy(), self.bid_disc.copy()
        s.bid_card, s.bid_spec, s.bid_value = self.bid_card.copy(), self.bid_spec.copy(), self.bid_value.copy()
        s.bid_free, s.bid_events = self.bid_free.copy(), self.bid_events.copy()
        s.order = self.order.copy()
        s.in_flight = self.in_flight.copy()
        s.pending = [p.copy() for p in self.pending]
        s.vamp_sup, s.cat_sup = self.vamp_sup, self.cat_sup
        s.hound_sup, s.contract_sup = self.hound_sup, self.contract_sup
        s.castle_sup, s.train_sup, s.anti_sup = self.castle_sup.copy(), self.train_sup.copy(), self.anti_sup.copy()
        s.tile_deck, s.tile_disc = self.tile_deck.copy(), self.tile_disc.copy()
        s.spec_deck = self.spec_deck.copy()
        s.hand = [h.copy() for h in self.hand]
        s.disc = [h.copy() for h in self.disc]
        s.objs = [h.copy() for h in self.objs]
        s.xpool = self.xpool.copy()
        s.pools = [p.copy() for p in self.pools]
        s.row = self.row.copy()
        s.stack = self.stack.copy()
        s.shown = self.shown.copy()
        s.known = self.known.copy()
        s.entries, s.log_len, s.plog = self.entries, self.log_len, self.plog.copy()
        s._opts = self._opts
        s._final = self._final
        return s

    # ---- the flow --------------------------------------------------------------------------------------
    # The flow is a stack of small tasks (kind, seat, a, b). Automatic tasks run at once; a decision task
    # stops the flow at its seat unless it has no option (skipped) or exactly one (applied, except bids,
    # which stay a decision so that a seat's choice is never revealed by the flow).
    def _run(self) -> None:
        """Resolve automatic tasks until a decision with a real choice (or the end) is reached."""
        stack = self.stack
        native = COMPILED  # compiled: the direct calls; pure: the tables (one call, no comparisons)
        while stack:
            task = stack[-1]
            kind = task[0]
            if _DECISION_MASK >> kind & 1:  # a decision (compiled: a native test, not a table's item boxed)
                if native:
                    opts = _task_options(self, kind, task[1], task[2])
                else:
                    opt = _OPTIONS[kind]
                    assert opt is not None
                    opts = opt(self, task[1], task[2])
                if not opts:
                    stack.pop()
                    continue
                if len(opts) == 1 and kind != K_BID:
                    stack.pop()
                    if native:
                        _task_decide(self, kind, task[1], task[2], opts[0])
                    else:
                        _DECIDE[kind](self, task[1], task[2], opts[0])
                    continue
                self.to_move = task[1]
                self._opts = opts
                return
            stack.pop()
            if native:
                _task_auto(self, kind, task[1], task[2], task[3])
            else:
                _AUTO[kind](self, task[1], task[2], task[3])
        self.to_move = None
        self._opts = []
        self._final = [self.breakdown(p) for p in range(self.players)]

    def _push(self, tasks: list[Task]) -> None:
        """Push tasks so that they run in the given order."""
        self.stack.extend(tasks[::-1])  # a reversed copy: compiled, `reversed` was a Python iterator

    def _legal_actions(self) -> list[Action]:
        return self._opts

    def _simultaneous_seats(self) -> list[int]:
        """The bid step: the rulebook has every player choose a bid "simultaneously" and secretly. The engine asks
        the seats one after another; the seats whose bids are still to come may bid ahead, since a seat's bid
        options (its own bid cards, specialists and vampires) do not depend on anyone else's bid."""
        stack = self.stack
        if not stack or stack[-1][0] != K_BID:
            return []
        out = []
        for i in range(len(stack) - 2, -1, -1):
            task = stack[i]
            if task[0] != K_BID:
                break
            if options_bid(self, task[1], task[2]):
                out.append(task[1])
        return out

    def _legal_actions_ahead(self, seat: int) -> list[Action]:
        return options_bid(self, seat, 0)

    def _reveals(self, action: Action, after: Self) -> bool:
        """Ruling V-25: bids are revealed, a new round draws, a specialist leaves a hidden hand for an objective."""
        if action.verb in ("objective", "swap") and action.args[0] != "skip":
            return True
        return (after.revealed != self.revealed or after.round != self.round
                or len(after.spec_deck) != len(self.spec_deck) or len(after.tile_deck) != len(self.tile_deck)
                or len(after.tile_disc) != len(self.tile_disc)
                or sum(map(len, after.objs)) != sum(map(len, self.objs)))

    def _apply(self, action: Action) -> None:
        kind, p, a, _ = self.stack.pop()
        if COMPILED:
            _task_decide(self, kind, p, a, action)
        else:
            _DECIDE[kind](self, p, a, action)
        self._run()

    def _note(self, seat: int, code: int, data: Any, private: int = -1, private_code: int = 0,
              private_data: Any = None) -> None:
        """Append a log entry (seat -1: the table) worded by `code` and `data` (`notation.words`) for everyone, or
        by `private_code` and `private_data` for seat `private`. Nothing is worded here: `_log` words an entry the
        first time it is asked for.

        A seat's entry names it first: the words are the rest of the sentence (`took ...`), written after the
        seat's token (`{p2} took ...`, see `tabletop.core.logwords`)."""
        if private >= 0:
            self.plog[private] = [self.log_len, private_code, private_data, self.plog[private], None]
        self.entries = [seat, code, data, self.entries, None]  # never changed but for its words: clones share them
        self.log_len += 1

    def _log(self, seat: int | None, start: int) -> list[LogEntry]:
        n = self.log_len - start
        if n <= 0:
            return []
        texts: list[str] = []
        seats: list[int] = []
        node = self.entries
        while node is not None and len(texts) < n:
            q = node[0]
            seats.append(q)
            texts.append(_worded(node, q))
            node = node[3]
        texts.reverse()
        seats.reverse()
        if seat is not None:
            pnode = self.plog[seat]
            while pnode is not None and pnode[0] >= start:
                i = pnode[0] - start
                texts[i] = _worded(pnode, seats[i])
                pnode = pnode[3]
        return [log_entry(q if q >= 0 else None, x) for q, x in zip(seats, texts, strict=True)]

    # ---- decisions: options ------------------------------------------------------------------------------
    # ---- decisions: effects -----------------------------------------------------------------------------
    # ---- scoring ---------------------------------------------------------------------------------------
    def cells(self, p: int) -> list[Cell | None]:
        """The 24 scoring positions of seat p's city (grid cells, then the 8 perimeter slots)."""
        out: list[Cell | None] = []
        g, an = self.grid[p], self.anti[p]
        for i in range(16):
            t = g[i]
            if t < 0:
                out.append(None)
                continue
            if an[i] < 0:
                out.append(TILE_CELLS[t])  # the tile's own cell, built once
                continue
            tile = COMPONENTS.tiles[t]
            k = COMPONENTS.antiquities[an[i]]
            if k == TIARA:
                out.append((BLANK, -1, 0, 0, -1, 0, 0))
                continue
            blood, coffins, inn, surv = tile.blood, tile.coffins, tile.innovation, tile.survival
            if k == GOBLET:
                blood += 2
            elif k == SCEPTER:
                inn = surv = 1
            elif k == COLLAR:
                coffins = max(0, coffins - 2)
            elif k == BANGLE:
                coffins += 3
            out.append((BUILDING, tile.type, blood, coffins, tile.animal, inn, surv))
        for v in self.perim[p]:
            if v < 0:
                out.append(None)
            elif v >= FIRST_TRAIN:
                out.append(TRAIN_CELLS[v - FIRST_TRAIN])
            else:
                out.append(CASTLE_CELLS[v % UPGRADED])
        return out

    def breakdown(self, p: int) -> dict[str, Any]:
        """Seat p's final-scoring breakdown as if the game ended now (housing optimised, ruling V-10); a new dict."""
        if self._final is not None:
            return copy.deepcopy(self._final[p])
        an = [COMPONENTS.antiquities[x] for x in self.anti[p] if x >= 0]
        return score_city(
            self.cells(p), vampires=self.vamp[p], cats=self.cats[p], hounds=self.hounds[p],
            contracts=self.contracts[p], objectives=[COMPONENTS.specialists[r].objective for r in self.objs[p]],
            scorpion=_scorpion(self.perim[p]), collar=COLLAR in an,
            tiaras=an.count(TIARA),
        )

    def _breakdowns(self) -> list[dict[str, Any]]:
        """Every seat's breakdown, read-only: the cached final result once the game is over."""
        if self._final is not None:
            return self._final
        return [self.breakdown(p) for p in range(self.players)]

    def scores(self) -> list[float]:
        return [float(b["total"]) for b in self._breakdowns()]

    def _game_winners(self) -> list[int]:
        """The highest total, then the most vampires housed (the core applies the concessions: `State.winners`)."""
        if self.to_move is not None:
            return []
        keys = [(b["total"], b["housed"]) for b in self._breakdowns()]
        top = max(keys)
        return [p for p in range(self.players) if keys[p] == top]

    def _standing(self, seat: int) -> tuple[float, ...]:
        """The total, then the tie-break of `winners` (vampires housed): who wins when the leader conceded."""
        b = self._breakdowns()[seat]
        return (float(b["total"]), float(b["housed"]))

    # ---- information (view.py) --------------------------------------------------------------------------
    def _view(self, seat: int | None) -> View:
        return table_view(self, seat)

    def _sample(self, seat: int, rng: Rng) -> Self:
        """Redraw what `seat` cannot see: the unknown cards of other seats' hands (with the specialist deck), their
        silent bid cards (consistent with every bid they revealed and every recovery), their committed but
        unrevealed bids, and the tile stack order.

        Kept: everything public, and the specialists everyone saw go somewhere (ruling V-20): every card of a discard
        pile, the cards known to be in a hand. The result depends only on what `seat` can tell: hands are kept sorted,
        the pool is sorted before it is shuffled, other seats' secret log wordings are dropped (ruling V-22).
        """
        s = self.clone()
        n = self.players
        unseen = s.spec_deck.copy()
        for q in range(n):
            if q != seat:
                known = s.known[q]
                unseen += [r for r in s.hand[q] if not known >> r & 1]
        unseen.sort()
        rng.shuffle(unseen)
        s.hand[seat].sort()  # kept sorted anyway; a sample must not depend on any order the seat cannot see
        for q in range(n):
            s.disc[q].sort()
            if q == seat:
                continue
            known = s.known[q]
            s.hand[q] = sorted(r if known >> r & 1 else unseen.pop() for r in s.hand[q])
            s.bid_hand[q], s.bid_disc[q] = sample_bid_cards(s.bid_events[q], rng)
            if s.bid_spec[q] >= 0 and not s.revealed:  # a committed bid, still secret
                opts = options_bid(s, q, 0)
                act = opts[rng.below(len(opts))]
                s.bid_card[q], s.bid_spec[q] = int(act.args[0]), int(act.args[1])
                s.bid_free[q] = int(len(act.args) == 3)
            s.plog[q] = None
        s.spec_deck = unseen
        s._history = []  # the true actions name other seats' secret bids: a belief has no history
        s.tile_deck.sort()
        rng.shuffle(s.tile_deck)
        s.tile_disc.sort()  # the view shows them sorted; V-1 reshuffles them with the sample's own rng
        if s.to_move is not None:
            top = s.stack[-1]
            opt = _OPTIONS[top[0]]
            assert opt is not None
            s._opts = opt(s, top[1], top[2])
        return s

    def component_counts(self) -> dict[str, int]:
        n = self.players
        tiles = (len(self.tile_deck) + len(self.tile_disc) + len(self.xpool) + sum(map(len, self.pools))
                 + sum(1 for p in range(n) for t in self.grid[p] if t >= 0) + sum(map(len, self.pending)))
        specs = len(self.spec_deck) + len(self.row) + sum(len(self.hand[p]) + len(self.disc[p]) + len(self.objs[p])
                                                        for p in range(n))
        specs += sum(self.in_flight)  # revealed bids not yet discarded (before the reveal they stay in hand)
        perim = [v for p in range(n) for v in self.perim[p] if v >= 0]
        return {
            "tiles": tiles,
            "specialists": specs,
            "castles": len(self.castle_sup) + sum(1 for v in perim if v < FIRST_TRAIN),
            "trains": len(self.train_sup) + sum(1 for v in perim if v >= FIRST_TRAIN),
            "antiquities": len(self.anti_sup) + sum(1 for p in range(n) for x in self.anti[p] if x >= 0),
            "vampires": self.vamp_sup + sum(self.vamp),
            "cats": self.cat_sup + sum(self.cats),
            "hounds": self.hound_sup + sum(self.hounds),
            "contracts": self.contract_sup + sum(self.contracts),
            "bid_cards": sum(bin(self.bid_hand[p]).count("1") + bin(self.bid_disc[p]).count("1") for p in range(n)),
        }

    def snapshot(self) -> dict[str, Any]:
        return {
            "rng": self.rng.state, "round": self.round, "revealed": self.revealed, "to_move": self.to_move,
            "grid": self.grid, "anti": self.anti, "perim": self.perim, "vamp": self.vamp, "cats": self.cats,
            "hounds": self.hounds, "contracts": self.contracts, "inn": self.inn, "surv": self.surv, "met": self.met,
            "bid_hand": self.bid_hand, "bid_disc": self.bid_disc, "bid_card": self.bid_card,
            "bid_spec": self.bid_spec, "bid_value": self.bid_value,
            "in_flight": self.in_flight, "order": self.order, "pending": self.pending,
            "supply": [self.vamp_sup, self.cat_sup, self.hound_sup, self.contract_sup, self.castle_sup,
                       self.train_sup, self.anti_sup],
            "tile_deck": self.tile_deck, "tile_disc": self.tile_disc, "spec_deck": self.spec_deck,
            "hand": self.hand, "disc": self.disc, "objs": self.objs, "xpool": self.xpool, "pools": self.pools,
            "row": self.row, "stack": [list(t) for t in self.stack], "shown": self.shown,
            "known": self.known, "bid_free": self.bid_free, "bid_events": [list(e) for e in self.bid_events],
            "log": [[e["seat"], e["text"]] for e in self._log(None, 0)],
            "private_log": [[[e["seat"], e["text"]] for e in self._log(q, 0)] if self.plog[q] else []
                            for q in range(self.players)],
        }


def _worded(cell: list[Any], seat: int) -> str:
    """A log cell's words, the entry of `seat` (-1: the table): worded on first use (`notation.words`, after the
    seat's token), then kept in the cell. A single store of the same words whoever words it first, so a cell shared
    by clones (or read by two threads) is never seen half-written."""
    text = cell[4]
    if text is None:
        rest = words(cell[1], cell[2])
        text = cell[4] = f"{{p{seat}}} {rest}" if seat >= 0 else rest
    return text  # type: ignore[no-any-return]


# ---- dispatch and precomputed tables (the hot path only indexes these) -------------------------------------
_S = SiliconVaniaState
AutoFn = Callable[[_S, int, int, int], None]
# Each automatic task: the step of the flow it runs (the `a_*` functions of steps.py).
_AUTOMATIC_FUNCTIONS: Final[dict[int, AutoFn]] = {
    K_ROUND: steps.a_round,
    K_REVEAL: steps.a_reveal,
    K_TILE_TURN: steps.a_tile_turn,
    K_GAIN: steps.a_gain,
    K_PLACE_ALL: steps.a_place_all,
    K_STEP: steps.a_step,
    K_CONTRACT: steps.a_contract,
    K_VAMPIRE: steps.a_vampire,
    K_CAT: steps.a_cat,
    K_HOUND: steps.a_hound,
    K_SPECIALIST_PHASE: steps.a_specialist_phase,
    K_SPECIALIST_TURN: steps.a_specialist_turn,
    K_DISCARD: steps.a_discard,
    K_REST_TWO_PLAYERS: steps.a_rest_two_players,
    K_END_ROUND: steps.a_end_round,
}
_OPTIONS: Final[list[decisions.OptionsFn | None]] = [None] * 28
_DECISION_MASK: Final = sum(1 << k for k in DECISIONS)  # the decision kinds, as a mask
_DECIDE: Final[list[decisions.DecideFn]] = [lambda s, p, a, act: None] * 28
_AUTO: Final[list[AutoFn]] = [lambda s, p, a, b: None] * 28
for _k, (_options, _decide) in decisions.DECISION_FUNCTIONS.items():
    _OPTIONS[_k], _DECIDE[_k] = _options, _decide
for _k, _auto in _AUTOMATIC_FUNCTIONS.items():
    _AUTO[_k] = _auto
assert set(decisions.DECISION_FUNCTIONS) == DECISIONS
assert not set(decisions.DECISION_FUNCTIONS) & set(_AUTOMATIC_FUNCTIONS)


def _scorpion(perimeter: list[int]) -> bool:
    """Whether an upgraded castle (the Scorpion's) stands on the perimeter (a loop: compiled, a generator is an
    object)."""
    for v in perimeter:  # noqa: SIM110 (compiled, any() over a generator allocates one)
        if UPGRADED <= v < FIRST_TRAIN:
            return True
    return False


# The compiled flow calls each kind's functions directly (a native call, where a call through the tables above is a
# Python call), the most frequent first (random 4-player games); a kind not named here goes through the tables. The
# pure build calls through the tables (`COMPILED`: there the comparisons and the extra call cost more).
# `tests/games/siliconvania/test_dispatch.py` checks that every direct call is the table's own function for its kind.
def _task_options(s: SiliconVaniaState, kind: int, p: int, a: int) -> list[Action]:
    if kind == K_PLACE:
        return decisions.options_place(s, p, a)
    if kind == K_BID:
        return decisions.options_bid(s, p, a)
    if kind == K_POOL:
        return decisions.options_pool(s, p, a)
    if kind == K_TAKE:
        return decisions.options_take(s, p, a)
    if kind == K_OBJECTIVE:
        return decisions.options_objective(s, p, a)
    if kind == K_RELOCATE:
        return decisions.options_relocate(s, p, a)
    if kind == K_RECOVER:
        return decisions.options_recover(s, p, a)
    if kind == K_SWAP_OBJECTIVE:
        return decisions.options_swap_objective(s, p, a)
    if kind == K_CASTLE:
        return decisions.options_castle(s, p, a)
    if kind == K_TRAIN:
        return decisions.options_train(s, p, a)
    if kind == K_UPGRADE:
        return decisions.options_upgrade(s, p, a)
    if kind == K_ANTIQUITY:
        return decisions.options_antiquity(s, p, a)
    if kind == K_EXCHANGE:
        return decisions.options_exchange(s, p, a)
    options = _OPTIONS[kind]
    assert options is not None
    return options(s, p, a)


def _task_decide(s: SiliconVaniaState, kind: int, p: int, a: int, act: Action) -> None:
    if kind == K_PLACE:
        decisions.decide_place(s, p, a, act)
    elif kind == K_BID:
        decisions.decide_bid(s, p, a, act)
    elif kind == K_POOL:
        decisions.decide_pool(s, p, a, act)
    elif kind == K_TAKE:
        decisions.decide_take(s, p, a, act)
    elif kind == K_OBJECTIVE:
        decisions.decide_objective(s, p, a, act)
    elif kind == K_RELOCATE:
        decisions.decide_relocate(s, p, a, act)
    elif kind == K_RECOVER:
        decisions.decide_recover(s, p, a, act)
    elif kind == K_SWAP_OBJECTIVE:
        decisions.decide_swap_objective(s, p, a, act)
    elif kind == K_CASTLE:
        decisions.decide_castle(s, p, a, act)
    elif kind == K_TRAIN:
        decisions.decide_train(s, p, a, act)
    elif kind == K_UPGRADE:
        decisions.decide_upgrade(s, p, a, act)
    elif kind == K_ANTIQUITY:
        decisions.decide_antiquity(s, p, a, act)
    elif kind == K_EXCHANGE:
        decisions.decide_exchange(s, p, a, act)
    else:
        _DECIDE[kind](s, p, a, act)


def _task_auto(s: SiliconVaniaState, kind: int, p: int, a: int, b: int) -> None:
    if kind == K_STEP:
        steps.a_step(s, p, a, b)
    elif kind == K_VAMPIRE:
        steps.a_vampire(s, p, a, b)
    elif kind == K_TILE_TURN:
        steps.a_tile_turn(s, p, a, b)
    elif kind == K_GAIN:
        steps.a_gain(s, p, a, b)
    elif kind == K_PLACE_ALL:
        steps.a_place_all(s, p, a, b)
    elif kind == K_SPECIALIST_TURN:
        steps.a_specialist_turn(s, p, a, b)
    elif kind == K_DISCARD:
        steps.a_discard(s, p, a, b)
    elif kind == K_ROUND:
        steps.a_round(s, p, a, b)
    elif kind == K_REVEAL:
        steps.a_reveal(s, p, a, b)
    elif kind == K_SPECIALIST_PHASE:
        steps.a_specialist_phase(s, p, a, b)
    elif kind == K_END_ROUND:
        steps.a_end_round(s, p, a, b)
    elif kind == K_CONTRACT:
        steps.a_contract(s, p, a, b)
    elif kind == K_HOUND:
        steps.a_hound(s, p, a, b)
    elif kind == K_CAT:
        steps.a_cat(s, p, a, b)
    elif kind == K_REST_TWO_PLAYERS:
        steps.a_rest_two_players(s, p, a, b)
    else:
        _AUTO[kind](s, p, a, b)
