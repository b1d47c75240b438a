"""SiliconVania rules: the state, its decisions and its flow (see the package docstring for the notation)."""

from __future__ import annotations

import copy
from bisect import insort
from collections.abc import Callable, Mapping
from typing import Any, Self

from tabletop.core import Action, ActionTable, LogEntry, Rng, State, View
from tabletop.core.options import OptionValue
from tabletop.games.siliconvania.components import ANTIQUITY_KINDS, TRACK_KINDS, load
from tabletop.games.siliconvania.scoring import BLANK, BUILDING, CASTLE, TRAIN, Cell, score_city

C = load()
TYPE_TOKENS = tuple(t.lower().replace(" ", "") for t in C.types)
CELLS = tuple(f"{'abcd'[i // 4]}{i % 4 + 1}" for i in range(16))
SLOTS = ("top1", "top2", "top3", "top4", "lefta", "leftb", "leftc", "leftd")
N_TILES = len(C.tiles)
GOBLET, SCEPTER, COLLAR, BANGLE, TIARA = range(5)
INNOV, SURV = 0, 1
TRACK_END = len(C.track) - 1
# perimeter values: -1 empty, 0..6 castle of that type, 7..13 upgraded castle, 20.. train
UPG, TRAIN0 = 7, 20

# task kinds (the flow is a stack of tasks; decisions stop it until the seat acts)
(K_ROUND, K_BID, K_REVEAL, K_TILETURN, K_RECOVER, K_POOL, K_GAIN, K_PLACEALL, K_PLACE, K_STEP, K_CASTLE,
 K_TRAIN, K_CONTRACT, K_RELOC, K_SWAPOBJ, K_UPGRADE, K_SPECPHASE, K_SPECTURN, K_EXCHANGE, K_ANTIQ, K_TAKE,
 K_OBJECTIVE, K_ENDROUND, K_VAMP, K_CAT, K_HOUND, K_DISCARD, K_REST2P) = range(28)
DECISIONS = frozenset({K_BID, K_RECOVER, K_POOL, K_PLACE, K_CASTLE, K_TRAIN, K_RELOC, K_SWAPOBJ, K_UPGRADE,
                       K_EXCHANGE, K_ANTIQ, K_TAKE, K_OBJECTIVE})
Task = tuple[int, int, int, int]
# The log: an immutable cons list of public entries (seat or -1, text), newest first, shared by clones; per seat a
# cons list of (index, text) that replaces the public wording of entry `index` for that seat alone (its secrets).
Log = tuple[int, str, "Log"] | None
PrivateLog = tuple[int, str, "PrivateLog"] | None
# Silent bid cards, read from the component data (index 0: no card left, ruling V-13)
BID_COST = (0, *(b.cost for b in C.bid_cards))  # vampires to discard at the reveal, or the bid counts 0 (V-9)
BID_ABILITY = ("", *(b.ability for b in C.bid_cards))  # "", "vampire" or "recover"


def _fmt(verb: str, args: tuple[int | str, ...]) -> str:
    a = args
    if verb == "bid":
        return f"bid {a[0]}{'=0' if len(a) == 3 else ''} s{a[1]}"
    if verb in ("recover", "pool"):
        return f"{verb} {a[0]}"
    if verb == "place":
        return f"place t{a[0]} {CELLS[int(a[1])]}"
    if verb == "castle":
        return f"castle {TYPE_TOKENS[int(a[0])]} {SLOTS[int(a[1])]}"
    if verb == "train":
        return f"train {int(a[0]) + 1} {SLOTS[int(a[1])]}"
    if verb == "upgrade":
        return f"upgrade {SLOTS[int(a[0])]}"
    if verb in ("take", "objective"):
        return f"{verb} s{a[0]}"
    if verb == "swap" and len(a) == 2:
        return f"swap s{a[0]} s{a[1]}"
    if verb == "exchange" and len(a) == 2:
        return f"exchange {CELLS[int(a[0])]} t{a[1]}"
    if verb == "antiquity":
        return f"antiquity {ANTIQUITY_KINDS[int(a[0])].lower()} {CELLS[int(a[1])]}"
    if verb == "relocate" and len(a) == 3:  # ("swap"|"move", from, to): 0..15 cells, 16..23 slots
        return f"relocate {a[0]} {_pos(int(a[1]))} {_pos(int(a[2]))}"
    return " ".join([verb, *map(str, args)])  # skip / done


def _pos(p: int) -> str:
    return CELLS[p] if p < 16 else SLOTS[p - 16]


A = ActionTable(_fmt)
SKIP_RELOC = A("relocate", "skip")
DONE_RELOC = A("relocate", "done")
SKIP_SWAP = A("swap", "skip")
SKIP_EXCHANGE = A("exchange", "skip")
BID = [[A("bid", c, r) for r in range(71)] for c in range(8)]
BID_AS_0 = [[A("bid", c, r, 0) for r in range(71)] for c in range(8)]  # keep the vampires, the bid counts 0 (V-9)
PLACE = [[A("place", t, i) for i in range(16)] for t in range(N_TILES)]
RECOVER = [A("recover", c) for c in range(8)]
POOL = [A("pool", k) for k in range(8)]
CASTLE_A = [[A("castle", c, sl) for sl in range(8)] for c in range(7)]
TRAIN_A = [[A("train", t, sl) for sl in range(8)] for t in range(len(C.trains))]
UPGRADE = [A("upgrade", sl) for sl in range(8)]
RELOC_SWAP = [[A("relocate", "swap", i, j) for j in range(16)] for i in range(16)]
RELOC_MOVE = [[A("relocate", "move", i, j) for j in range(24)] for i in range(24)]
SWAP = [[A("swap", o, r) for r in range(71)] for o in range(71)]
EXCHANGE = [[A("exchange", i, t) for t in range(N_TILES)] for i in range(16)]
ANTIQ = [[A("antiquity", k, i) for i in range(16)] for k in range(5)]
TAKE = [A("take", r) for r in range(71)]
OBJECTIVE = [A("objective", r) for r in range(71)]


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
        s.vamp = [C.start_vampires] * n
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
        s.vamp_sup = C.vampires - n * C.start_vampires
        s.cat_sup, s.hound_sup, s.contract_sup = C.cats, C.hounds, C.contracts
        s.castle_sup = list(range(7))
        s.train_sup = list(range(len(C.trains)))
        s.anti_sup = list(range(len(C.antiquities)))
        s.tile_deck = [i for i, t in enumerate(C.tiles) if t.mark <= n]
        s.rng.shuffle(s.tile_deck)
        s.tile_disc = []
        s.spec_deck = [r for r, sp in sorted(C.specialists.items()) if sp.mark <= n]
        s.rng.shuffle(s.spec_deck)
        s.hand = [sorted(s.spec_deck.pop() for _ in range(C.hand_size)) for _ in range(n)]  # hands are kept sorted
        s.disc = [[] for _ in range(n)]
        s.objs = [[] for _ in range(n)]
        s.xpool = [s.tile_deck.pop() for _ in range(C.exchange_pool)]
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
        while stack:
            task = stack[-1]
            kind = task[0]
            opt = _OPTIONS[kind]
            if opt is not None:
                opts = opt(self, task[1], task[2])
                if not opts:
                    stack.pop()
                    continue
                if len(opts) == 1 and kind != K_BID:
                    stack.pop()
                    _DECIDE[kind](self, task[1], task[2], opts[0])
                    continue
                self.to_move = task[1]
                self._opts = opts
                return
            stack.pop()
            _AUTO[kind](self, task[1], task[2], task[3])
        self.to_move = None
        self._opts = []
        self._final = [self.breakdown(p) for p in range(self.players)]

    def _push(self, tasks: list[Task]) -> None:
        """Push tasks so that they run in the given order."""
        self.stack.extend(reversed(tasks))

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
            if self._o_bid(task[1], task[2]):
                out.append(task[1])
        return out

    def _legal_actions_ahead(self, seat: int) -> list[Action]:
        return self._o_bid(seat, 0)

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
        _DECIDE[kind](self, p, a, action)
        self._run()

    def _note(self, seat: int, text: str, private: int = -1, private_text: str = "") -> None:
        """Append a log entry (seat -1: the table) worded `text` for everyone, or `private_text` for seat `private`."""
        if private >= 0:
            self.plog[private] = (self.log_len, private_text, self.plog[private])
        self.entries = (seat, text, self.entries)  # immutable cons lists: clones share them
        self.log_len += 1

    def _log(self, seat: int | None, start: int) -> list[LogEntry]:
        n = self.log_len - start
        if n <= 0:
            return []
        texts: list[str] = []
        seats: list[int] = []
        node = self.entries
        while node is not None and len(texts) < n:
            q, text, node = node
            seats.append(q)
            texts.append(text)
        texts.reverse()
        seats.reverse()
        if seat is not None:
            pnode = self.plog[seat]
            while pnode is not None and pnode[0] >= start:
                texts[pnode[0] - start] = pnode[1]
                pnode = pnode[2]
        return [{"seat": q if q >= 0 else None, "text": x} for q, x in zip(seats, texts, strict=True)]

    # ---- automatic steps ---------------------------------------------------------------------------------
    def _a_round(self, p: int, a: int, b: int) -> None:
        """Refresh: fill the selection pools and the specialist row, then every seat bids."""
        n = self.players
        self.round += 1
        self._note(-1, f"round {self.round} begins")
        per, count = (1, 4) if n == 2 else (2, n + 1)
        pools = []
        for _ in range(count):
            pool = []
            for _ in range(per):
                t = self._draw_tile()
                if t >= 0:
                    pool.append(t)
            pools.append(pool)
        self.pools = pools
        deck = self.spec_deck
        self.row = [deck.pop() for _ in range(min(n, len(deck)))]
        self.bid_card = [-1] * n
        self.bid_spec = [-1] * n
        self.revealed = 0
        self._push([(K_BID, q, 0, 0) for q in range(n)] + [(K_REVEAL, 0, 0, 0)])

    def _draw_tile(self) -> int:
        if not self.tile_deck and self.tile_disc:  # ruling V-1: reshuffle the discarded tiles
            self.tile_deck = self.tile_disc
            self.tile_disc = []
            self.rng.shuffle(self.tile_deck)
        return self.tile_deck.pop() if self.tile_deck else -1

    def _a_reveal(self, p: int, a: int, b: int) -> None:
        """All bids are revealed at once; bid cards with a cost are paid for or count as 0 (ruling V-9)."""
        n = self.players
        self.revealed = 1
        for q in range(n):
            c = self.bid_card[q]
            v = c
            note = "" if c > 0 else " (no card left)"
            if c > 0:
                self.bid_hand[q] &= ~(1 << (c - 1))
                self.bid_disc[q] |= 1 << (c - 1)
                cost = BID_COST[c]
                if cost:
                    if self.bid_free[q]:
                        v, note = 0, " (as 0: kept the vampires)"
                    elif self.vamp[q] >= cost:
                        self.vamp[q] -= cost
                        self.vamp_sup += cost
                        note = f" (paid {cost} vampire{'s' if cost > 1 else ''})"
                    else:
                        v, note = 0, " (unpaid: counts 0)"
            self.bid_value[q] = v
            self.bid_events[q] += (c,)
            r = self.bid_spec[q]
            self.hand[q].remove(r)
            self.known[q] &= ~(1 << r)
            self.shown[q] |= 1 << r  # from the discard step on; no swap can take it while in flight
            self.in_flight[q] = 1
            self._note(q, f"revealed bid {c}{note} with s{r} {C.specialists[r].name}")
        self.order = sorted(range(n), key=lambda q: (-self.bid_value[q], -self.bid_spec[q]))
        self._push([(K_TILETURN, q, i, 0) for i, q in enumerate(self.order)] + [(K_SPECPHASE, 0, 0, 0)])

    def _a_tileturn(self, p: int, idx: int, b: int) -> None:
        """Building tile resolution of one seat: bid card ability, pool choice, tile bonuses, placement."""
        ability = BID_ABILITY[self.bid_card[p]]
        tasks: list[Task] = []
        if ability == "vampire":
            tasks.append((K_VAMP, p, 0, 0))
        elif ability == "recover":
            tasks.append((K_RECOVER, p, 0, 0))
        if self.players == 2:
            tasks += [(K_POOL, p, 0, 0), (K_POOL, p, 0, 0)] if idx == 0 else [(K_REST2P, p, 0, 0)]
        else:
            tasks.append((K_POOL, p, 0, 0))
        tasks += [(K_GAIN, p, 0, 0), (K_PLACEALL, p, 0, 0)]
        self._push(tasks)

    def _a_gain(self, p: int, a: int, b: int) -> None:
        tasks: list[Task] = []
        for t in self.pending[p]:
            tasks += BONUS_TASKS[p][C.tiles[t].bonus]
        self._push(tasks)

    def _a_placeall(self, p: int, a: int, b: int) -> None:
        self.stack.extend([(K_PLACE, p, 0, 0)] * len(self.pending[p]))

    def _a_step(self, p: int, track: int, n: int) -> None:
        """Move a marker n steps; every space landed on or passed gives its bonus; meeting gives a contract."""
        tasks: list[Task] = []
        for _ in range(n):
            if track == INNOV:
                if self.inn[p] >= TRACK_END:
                    break
                self.inn[p] += 1
                space = self.inn[p]
            else:
                if self.surv[p] <= 0:
                    break
                self.surv[p] -= 1
                space = self.surv[p]
            kind = TRACK_TASK[space]
            if kind >= 0:
                tasks.append((kind, p, 0, 0))
            if not self.met[p] and self.inn[p] >= self.surv[p]:
                self.met[p] = 1  # ruling V-14
                tasks.append((K_CONTRACT, p, 0, 0))
        if tasks:
            self._push(tasks)

    def _a_contract(self, p: int, a: int, b: int) -> None:
        if self.contract_sup > 0:
            self.contract_sup -= 1
            self.contracts[p] += 1
            self._note(p, "gained a council contract")

    def _a_vamp(self, p: int, a: int, b: int) -> None:
        self.vamp[p] += 1
        self.vamp_sup -= 1  # below zero: substitutes (ruling V-7)

    def _a_cat(self, p: int, a: int, b: int) -> None:
        if self.cat_sup > 0:
            self.cat_sup -= 1
            self.cats[p] += 1
            self._note(p, "gained a cat")

    def _a_hound(self, p: int, a: int, b: int) -> None:
        if self.hound_sup > 0:
            self.hound_sup -= 1
            self.hounds[p] += 1
            self._note(p, "gained a hound")

    def _a_specphase(self, p: int, a: int, b: int) -> None:
        order = sorted(range(self.players), key=lambda q: -self.bid_spec[q])
        self._push([(K_SPECTURN, q, 0, 0) for q in order] + [(K_ENDROUND, 0, 0, 0)])

    def _a_specturn(self, p: int, a: int, b: int) -> None:
        """Specialist resolution of one seat: bid effect, take from the row, discard, objective (rounds 4-8)."""
        tasks = [*EFFECT_TASKS[p][self.bid_spec[p]], (K_TAKE, p, 0, 0), (K_DISCARD, p, 0, 0)]
        if self.round >= 4:
            tasks.append((K_OBJECTIVE, p, 0, 0))
        self._push(tasks)

    def _a_discard(self, p: int, a: int, b: int) -> None:
        insort(self.disc[p], self.bid_spec[p])
        self.in_flight[p] = 0

    def _a_rest2p(self, p: int, a: int, b: int) -> None:
        """Two players: the second seat acquires the tiles of the pools the first left."""
        for pool in self.pools:
            if pool:
                self.pending[p] += pool
                self._note(p, _tiles_text(pool))
                pool.clear()

    def _a_endround(self, p: int, a: int, b: int) -> None:
        for pool in self.pools:
            self.tile_disc += pool
        self.pools = []
        if self.round < C.rounds:
            self.stack.append((K_ROUND, 0, 0, 0))

    # ---- decisions: options ------------------------------------------------------------------------------
    def _o_bid(self, p: int, a: int) -> list[Action]:
        cards = BID_CARDS[self.bid_hand[p]]
        hand = self.hand[p]
        out = [BID[c][r] for c in cards for r in hand]
        vamps = self.vamp[p]
        # ruling V-9: a card with a cost may be played as 0 to keep the vampires (a choice only if it can be paid)
        out += [BID_AS_0[c][r] for c in cards if 0 < BID_COST[c] <= vamps for r in hand]
        return out

    def _o_recover(self, p: int, a: int) -> list[Action]:
        return RECOVER_OPTS[self.bid_disc[p]]

    def _o_pool(self, p: int, a: int) -> list[Action]:
        return [POOL[i + 1] for i, pool in enumerate(self.pools) if pool]

    def _o_place(self, p: int, a: int) -> list[Action]:
        g = self.grid[p]
        empty = [i for i in range(16) if g[i] < 0]
        pending = self.pending[p]
        if len(pending) == 1:
            row = PLACE[pending[0]]
            return [row[i] for i in empty]
        return [PLACE[t][i] for t in pending for i in empty]

    def _o_castle(self, p: int, a: int) -> list[Action]:
        per = self.perim[p]
        free = [s for s in range(8) if per[s] < 0]
        return [CASTLE_A[c][s] for c in self.castle_sup for s in free]

    def _o_train(self, p: int, a: int) -> list[Action]:
        per = self.perim[p]
        free = [s for s in range(8) if per[s] < 0]
        return [TRAIN_A[t][s] for t in self.train_sup for s in free]

    def _o_upgrade(self, p: int, a: int) -> list[Action]:
        per = self.perim[p]
        return [UPGRADE[s] for s in range(8) if 0 <= per[s] < UPG]

    def _o_reloc(self, p: int, moved: int) -> list[Action]:
        g, per = self.grid[p], self.perim[p]
        full = [i for i in range(16) if g[i] >= 0]
        empty = [i for i in range(16) if g[i] < 0]
        pfull = [16 + s for s in range(8) if per[s] >= 0]
        pempty = [16 + s for s in range(8) if per[s] < 0]
        out = [DONE_RELOC if moved else SKIP_RELOC]
        if not moved:
            out += [RELOC_SWAP[i][j] for k, i in enumerate(full) for j in full[k + 1:]]
        out += [RELOC_MOVE[i][j] for i in full for j in empty]
        out += [RELOC_MOVE[i][j] for i in pfull for j in pempty]
        return out if len(out) > 1 else []

    def _o_swapobj(self, p: int, a: int) -> list[Action]:
        if not self.objs[p]:
            return []
        return [SKIP_SWAP] + [SWAP[o][r] for o in self.objs[p] for r in self.hand[p] + self.disc[p]]

    def _o_exchange(self, p: int, a: int) -> list[Action]:
        g, an = self.grid[p], self.anti[p]
        cells = [i for i in range(16) if g[i] >= 0 and an[i] < 0]  # ruling V-12
        if not cells or not self.xpool:
            return []
        return [SKIP_EXCHANGE] + [EXCHANGE[i][t] for i in cells for t in self.xpool]

    def _o_antiq(self, p: int, a: int) -> list[Action]:
        kinds = sorted({C.antiquities[i] for i in self.anti_sup})
        g, an = self.grid[p], self.anti[p]
        out = []
        for k in kinds:
            for i in range(16):
                if g[i] < 0 or an[i] >= 0:
                    continue
                if k == COLLAR and C.tiles[g[i]].coffins < 2:
                    continue  # ruling V-11: the Collar must cover two coffins
                out.append(ANTIQ[k][i])
        return out

    def _o_take(self, p: int, a: int) -> list[Action]:
        return [TAKE[r] for r in self.row]

    def _o_objective(self, p: int, a: int) -> list[Action]:
        return [OBJECTIVE[r] for r in self.hand[p]]

    # ---- decisions: effects -----------------------------------------------------------------------------
    def _d_bid(self, p: int, a: int, act: Action) -> None:
        args = act.args
        c, r = int(args[0]), int(args[1])
        self.bid_card[p] = c
        self.bid_spec[p] = r
        self.bid_free[p] = int(len(args) == 3)
        self._note(p, "placed a facedown bid", p,
                   f"bid {c}{' as 0 (keeping the vampires)' if len(args) == 3 else ''} with s{r} "
                   f"{C.specialists[r].name} (facedown)")

    def _d_recover(self, p: int, a: int, act: Action) -> None:
        c = int(act.args[0])
        bit = 1 << (c - 1)
        self.bid_disc[p] &= ~bit
        self.bid_hand[p] |= bit
        self.bid_events[p] += (-1,)
        # ruling V-22: which card is recovered stays hidden ("Keep your hand of... Silent Bid cards hidden")
        self._note(p, "recovered a silent bid card", p, f"recovered silent bid card {c}")

    def _d_pool(self, p: int, a: int, act: Action) -> None:
        pool = self.pools[int(act.args[0]) - 1]
        self.pending[p] += pool
        self._note(p, _tiles_text(pool))
        pool.clear()

    def _d_place(self, p: int, a: int, act: Action) -> None:
        t, i = act.args
        self.pending[p].remove(t)  # type: ignore[arg-type]
        self.grid[p][i] = t  # type: ignore[index,assignment]

    def _d_castle(self, p: int, a: int, act: Action) -> None:
        c, s = int(act.args[0]), int(act.args[1])
        self.castle_sup.remove(c)
        self.perim[p][s] = c
        self._note(p, _action_text(act))
        bonus = C.castles[c].bonus
        if bonus:
            self._push(BONUS_TASKS[p][bonus])

    def _d_train(self, p: int, a: int, act: Action) -> None:
        t, s = int(act.args[0]), int(act.args[1])
        self.train_sup.remove(t)
        self.perim[p][s] = TRAIN0 + t
        self._note(p, _action_text(act))

    def _d_upgrade(self, p: int, a: int, act: Action) -> None:
        self.perim[p][int(act.args[0])] += UPG
        self._note(p, _action_text(act))

    def _d_reloc(self, p: int, a: int, act: Action) -> None:
        args = act.args
        if args[0] == "swap" or args[0] == "move":
            self._relocate(p, str(args[0]), int(args[1]), int(args[2]))
            self._note(p, _action_text(act))
            if args[0] == "move" and a == 0:
                self.stack.append((K_RELOC, p, 1, 0))

    def _d_swapobj(self, p: int, a: int, act: Action) -> None:
        if act.args[0] != "skip":
            o, r = int(act.args[0]), int(act.args[1])
            objs = self.objs[p]
            objs[objs.index(o)] = r
            # every card in a discard pile was seen going there (a revealed bid, or an objective swapped there), so
            # where the replacement came from, and so where o goes, is public (ruling V-20)
            if r in self.hand[p]:
                src, known = self.hand[p], self.known
            else:
                src, known = self.disc[p], self.shown
            src[src.index(r)] = o
            src.sort()
            self.known[p] &= ~(1 << r)
            self.shown[p] &= ~(1 << r)
            known[p] |= 1 << o
            self._note(p, _action_text(act) + (" to the hand" if known is self.known else " to the discard pile"))

    def _d_exchange(self, p: int, a: int, act: Action) -> None:
        if act.args[0] != "skip":
            i, t = int(act.args[0]), int(act.args[1])
            self.xpool[self.xpool.index(t)] = self.grid[p][i]
            self.grid[p][i] = -1
            self.pending[p].append(t)
            self._note(p, _action_text(act))
            self._push([*BONUS_TASKS[p][C.tiles[t].bonus], (K_PLACE, p, 0, 0)])

    def _d_antiq(self, p: int, a: int, act: Action) -> None:
        k, i = int(act.args[0]), int(act.args[1])
        inst = next(x for x in self.anti_sup if C.antiquities[x] == k)
        self.anti_sup.remove(inst)
        self.anti[p][i] = inst
        self._note(p, _action_text(act))
        if k == SCEPTER:
            self._push([(K_STEP, p, SURV, 1), (K_STEP, p, INNOV, 1)])

    def _d_take(self, p: int, a: int, act: Action) -> None:
        r = act.args[0]
        self.row.remove(r)  # type: ignore[arg-type]
        insort(self.hand[p], int(r))
        self.known[p] |= 1 << int(r)
        self._note(p, _action_text(act))

    def _d_objective(self, p: int, a: int, act: Action) -> None:
        r = act.args[0]
        self.hand[p].remove(r)  # type: ignore[arg-type]
        self.objs[p].append(r)  # type: ignore[arg-type]
        self.known[p] &= ~(1 << int(r))
        self._note(p, _action_text(act))

    def _relocate(self, p: int, how: str, i: int, j: int) -> None:
        if i >= 16:
            per = self.perim[p]
            per[j - 16], per[i - 16] = per[i - 16], -1
            return
        g, an = self.grid[p], self.anti[p]
        if how == "swap":
            g[i], g[j] = g[j], g[i]
            an[i], an[j] = an[j], an[i]
        else:
            g[j], an[j], g[i], an[i] = g[i], an[i], -1, -1

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
            tile = C.tiles[t]
            k = C.antiquities[an[i]] if an[i] >= 0 else -1
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
            elif v >= TRAIN0:
                blood, coffins = C.trains[v - TRAIN0]
                out.append((TRAIN, -1, blood, coffins, -1, 0, 0))
            else:
                c = C.castles[v % UPG]
                out.append((CASTLE, c.type, c.blood, c.coffins, c.animal, c.innovation, c.survival))
        return out

    def breakdown(self, p: int) -> dict[str, Any]:
        """Seat p's final-scoring breakdown as if the game ended now (housing optimised, ruling V-10); a new dict."""
        if self._final is not None:
            return copy.deepcopy(self._final[p])
        an = [C.antiquities[x] for x in self.anti[p] if x >= 0]
        return score_city(
            self.cells(p), vampires=self.vamp[p], cats=self.cats[p], hounds=self.hounds[p],
            contracts=self.contracts[p], objectives=[C.specialists[r].objective for r in self.objs[p]],
            scorpion=any(UPG <= v < TRAIN0 for v in self.perim[p]), collar=COLLAR in an,
            tiaras=an.count(TIARA),
        )

    def _breakdowns(self) -> list[dict[str, Any]]:
        """Every seat's breakdown, read-only: the cached final result once the game is over."""
        if self._final is not None:
            return self._final
        return [self.breakdown(p) for p in range(self.players)]

    def scores(self) -> list[float]:
        return [float(b["total"]) for b in self._breakdowns()]

    def winners(self) -> list[int]:
        if self.to_move is not None:
            return []
        keys = [(b["total"], b["housed"]) for b in self._breakdowns()]
        top = max(keys)
        return [p for p in range(self.players) if keys[p] == top]

    # ---- information ------------------------------------------------------------------------------------
    def _public_seat(self, p: int) -> dict[str, Any]:
        """What everyone knows of seat p (ruling V-22 for the silent bid cards, V-20 for the specialists)."""
        known, shown = self.known[p], self.shown[p]
        return {
            "grid": self.grid[p].copy(),
            "antiquities": [C.antiquities[x] if x >= 0 else -1 for x in self.anti[p]],
            "perimeter": self.perim[p].copy(),
            "vampires": self.vamp[p], "cats": self.cats[p], "hounds": self.hounds[p],
            "contracts": self.contracts[p], "innovation": self.inn[p], "survival": self.surv[p],
            "bid_cards_count": BID_COUNT[self.bid_hand[p]],
            "bid_history": list(self.bid_events[p]),
            "objectives": self.objs[p].copy(),
            "hand_size": len(self.hand[p]), "discard_size": len(self.disc[p]),
            "known_hand": sorted(r for r in self.hand[p] if known >> r & 1),
            "revealed_discards": sorted(r for r in self.disc[p] if shown >> r & 1),
            "pending_tiles": self.pending[p].copy(),
            "has_bid": self.bid_spec[p] >= 0,
            "bid": [self.bid_card[p], self.bid_spec[p]] if self.revealed else None,
            "bid_value": self.bid_value[p] if self.revealed else None,
        }

    def _view(self, seat: int | None) -> View:
        seats = [self._public_seat(p) for p in range(self.players)]
        if seat is not None:
            me = seats[seat]
            me["hand"] = sorted(self.hand[seat])
            me["discard"] = sorted(self.disc[seat])
            me["bid_cards"] = BID_CARDS[self.bid_hand[seat]].copy() if self.bid_hand[seat] else []
            me["bid_discards"] = BID_CARDS[self.bid_disc[seat]].copy() if self.bid_disc[seat] else []
            if self.bid_spec[seat] >= 0:
                me["bid"] = [self.bid_card[seat], self.bid_spec[seat]]
                if not self.revealed:
                    me["bid_as_0"] = bool(self.bid_free[seat])
        top = self.stack[-1] if self.stack and self.to_move is not None else None
        v: View = {
            "game": "siliconvania", "players": self.players, "seat": seat, "round": self.round,
            "to_move": self.to_move, "decision": _DECISION_NAMES.get(top[0], "") if top else "",
            "pools": [p.copy() for p in self.pools], "exchange_pool": self.xpool.copy(),
            "row": self.row.copy(), "tile_deck": len(self.tile_deck), "tile_discards": sorted(self.tile_disc),
            "specialist_deck": len(self.spec_deck), "order": self.order.copy() if self.revealed else [],
            "supply": {"vampires": max(0, self.vamp_sup), "cats": self.cat_sup, "hounds": self.hound_sup,
                       "contracts": self.contract_sup, "castles": self.castle_sup.copy(),
                       "trains": self.train_sup.copy(), "antiquities": sorted(C.antiquities[x] for x in self.anti_sup)},
            "seats": seats,
            "log": self._log(seat, max(0, self.log_len - LOG_TAIL)),
            "log_pos": self.log_len,
        }
        if self._final is not None:
            v["final"] = copy.deepcopy(self._final)
            v["winners"] = self.winners()
        return v

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
            s.bid_hand[q], s.bid_disc[q] = _sample_bid_cards(s.bid_events[q], rng)
            if s.bid_spec[q] >= 0 and not s.revealed:  # a committed bid, still secret
                opts = s._o_bid(q, 0)
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
            "castles": len(self.castle_sup) + sum(1 for v in perim if v < TRAIN0),
            "trains": len(self.train_sup) + sum(1 for v in perim if v >= TRAIN0),
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


LOG_TAIL = 16  # the recent end of the seat's log carried by a view (the whole of it: `log(seat)`)


def _tiles_text(pool: list[int]) -> str:
    return "took " + " + ".join(_tile_name(t) for t in pool)


def _sample_bid_cards(events: tuple[int, ...], rng: Rng) -> tuple[int, int]:
    """A seat's silent bid cards (hand, discard bitmasks) consistent with its public bid events (cards revealed,
    0 for none, -1 for a recovery of an unseen card): each recovery picks at random among the cards that leave every
    later reveal possible."""
    hand, disc = 0b1111111, 0
    for i, e in enumerate(events):
        if e > 0:
            hand &= ~(1 << (e - 1))
            disc |= 1 << (e - 1)
        elif e < 0:
            cands = [c for c in range(7) if disc >> c & 1
                     and _bids_feasible(events, i + 1, hand | 1 << c, disc & ~(1 << c))]
            c = cands[rng.below(len(cands))]
            hand |= 1 << c
            disc &= ~(1 << c)
    return hand, disc


def _bids_feasible(events: tuple[int, ...], i: int, hand: int, disc: int) -> bool:
    """Whether events[i:] can happen from this hand and discard (recoveries earliest-needed-first, which is optimal)."""
    for j in range(i, len(events)):
        e = events[j]
        if e > 0:
            bit = 1 << (e - 1)
            if not hand & bit:
                return False
            hand &= ~bit
            disc |= bit
        elif e < 0:
            best, when = -1, len(events) + 1
            for c in range(7):
                if disc >> c & 1:
                    nxt = next((k for k in range(j + 1, len(events)) if events[k] == c + 1), len(events))
                    if best < 0 or nxt < when:
                        best, when = c, nxt
            if best < 0:
                return False
            hand |= 1 << best
            disc &= ~(1 << best)
    return True


def _tile_name(t: int) -> str:
    return f"t{t} {C.tiles[t].name}"


def _action_text(a: Action) -> str:
    """A public action as a sentence for the log."""
    v, x = a.verb, a.args
    if v == "castle":
        return f"took the {C.types[int(x[0])]} castle, placed at {SLOTS[int(x[1])]}"
    if v == "train":
        return f"took train {int(x[0]) + 1}, placed at {SLOTS[int(x[1])]}"
    if v == "upgrade":
        return f"upgraded the castle at {SLOTS[int(x[0])]} (Scorpion)"
    if v == "relocate":
        return f"relocated: {x[0]} {_pos(int(x[1]))} {'and' if x[0] == 'swap' else 'to'} {_pos(int(x[2]))}"
    if v == "swap":
        return f"swapped objective s{x[0]} for s{x[1]} {C.specialists[int(x[1])].name}; s{x[0]} goes"
    if v == "exchange":
        return f"exchanged the tile at {CELLS[int(x[0])]} for {_tile_name(int(x[1]))} from the exchange pool"
    if v == "antiquity":
        return f"put a {ANTIQUITY_KINDS[int(x[0])]} on {CELLS[int(x[1])]}"
    if v == "take":
        return f"took s{x[0]} {C.specialists[int(x[0])].name} from the row"
    if v == "objective":
        return f"added s{x[0]} {C.specialists[int(x[0])].name} to the city objectives"
    return str(a)


_DECISION_NAMES = {K_BID: "bid", K_RECOVER: "recover a bid card", K_POOL: "choose a selection pool",
                   K_PLACE: "place a tile", K_CASTLE: "take and place a castle", K_TRAIN: "take and place a train",
                   K_RELOC: "relocate tiles", K_SWAPOBJ: "swap a city objective", K_UPGRADE: "upgrade a castle",
                   K_EXCHANGE: "exchange a tile", K_ANTIQ: "take and place an antiquity",
                   K_TAKE: "take a specialist", K_OBJECTIVE: "add a city objective"}


# ---- dispatch and precomputed tables (the hot path only indexes these) -------------------------------------
_S = SiliconVaniaState
_OPTIONS: list[Callable[[_S, int, int], list[Action]] | None] = [None] * 28
_DECIDE: list[Callable[[_S, int, int, Action], None]] = [lambda s, p, a, act: None] * 28
_AUTO: list[Callable[[_S, int, int, int], None]] = [lambda s, p, a, b: None] * 28
for _k, _name in ((K_BID, "bid"), (K_RECOVER, "recover"), (K_POOL, "pool"), (K_PLACE, "place"),
                  (K_CASTLE, "castle"), (K_TRAIN, "train"), (K_UPGRADE, "upgrade"), (K_RELOC, "reloc"),
                  (K_SWAPOBJ, "swapobj"), (K_EXCHANGE, "exchange"), (K_ANTIQ, "antiq"), (K_TAKE, "take"),
                  (K_OBJECTIVE, "objective")):
    _OPTIONS[_k] = getattr(_S, f"_o_{_name}")
    _DECIDE[_k] = getattr(_S, f"_d_{_name}")
for _k, _name in ((K_ROUND, "round"), (K_REVEAL, "reveal"), (K_TILETURN, "tileturn"), (K_GAIN, "gain"),
                  (K_PLACEALL, "placeall"), (K_STEP, "step"), (K_CONTRACT, "contract"), (K_VAMP, "vamp"),
                  (K_CAT, "cat"), (K_HOUND, "hound"), (K_SPECPHASE, "specphase"), (K_SPECTURN, "specturn"),
                  (K_DISCARD, "discard"), (K_REST2P, "rest2p"), (K_ENDROUND, "endround")):
    _AUTO[_k] = getattr(_S, f"_a_{_name}")
assert {k for k in range(28) if _OPTIONS[k] is not None} == DECISIONS

_TRACK_KIND = {"contract": K_CONTRACT, "recover": K_RECOVER, "train": K_TRAIN, "relocate": K_RELOC,
               "castle": K_CASTLE, "swap_objective": K_SWAPOBJ, "upgrade_castle": K_UPGRADE}
TRACK_TASK = tuple(_TRACK_KIND.get(TRACK_KINDS[k], -1) for k in C.track)
BID_CARDS = [[c + 1 for c in range(7) if m >> c & 1] or [0] for m in range(128)]
BID_COUNT = [bin(m).count("1") for m in range(128)]
RECOVER_OPTS = [[RECOVER[c + 1] for c in range(7) if m >> c & 1] for m in range(128)]


def _bonus_tasks(p: int, bonus: tuple[int, ...]) -> list[Task]:
    return [(K_VAMP, p, 0, 0) if b == 0 else (K_STEP, p, INNOV if b == 1 else SURV, 1) for b in bonus]


_EFFECT_KIND = {"vampire": (K_VAMP, 0), "innovation": (K_STEP, INNOV), "survival": (K_STEP, SURV),
                "cat": (K_CAT, 0), "hound": (K_HOUND, 0), "exchange": (K_EXCHANGE, 0), "antiquity": (K_ANTIQ, 0)}
BONUS_TASKS = [{t.bonus: _bonus_tasks(p, t.bonus) for t in (*C.tiles, *C.castles)} for p in range(5)]
EFFECT_TASKS = [
    [[(_EFFECT_KIND[e][0], p, _EFFECT_KIND[e][1], 1 if _EFFECT_KIND[e][0] == K_STEP else 0)
      for e in C.specialists[r].effect] if r in C.specialists else [] for r in range(71)]
    for p in range(5)
]
