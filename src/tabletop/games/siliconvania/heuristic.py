"""A casual SiliconVania player: it builds toward its objectives and bids only when a pool is worth it.

How it judges a city: the final score the city would get now (tile diversity, housed vampires, animals, the
blood cluster, contracts, the objectives it holds, Tiaras) plus what the city promises: +0.8 VP per building
type present (diversity is all-or-nothing), +0.5 per vampire without a coffin yet, and the two best objectives
in its hand valued at 70% of what they would score now (it will need objectives from round 4).

Bidding. It values every selection pool (two pools together with 2 players) by placing its tiles at their best
cells on a copy of the table, then compares its favourite with what would be left if it picked last. A big gap
plays its highest card it can pay for (7 costs 2 vampires, 6 one); a small gap plays a middle card; no gap plays
1 or 2 (a free vampire), or 3 when a high card is in the discard to recover. With it goes the specialist it needs
least as an objective whose bid effect helps most now (vampires when it has spare coffins, track steps, a cat or
hound it can house, an antiquity or an exchange).

Everything else — pool choice, tile placement, castles, trains, upgrades, relocations, exchanges, antiquities,
swapping an objective — is a one-step lookahead: each option is tried on a sample of the table (its own
knowledge only) and the city judged as above. It takes the row specialist and adds the objective that scores
best in its city (a fourth copy of a kind scores nothing). Only the seat handle is used.

**A learned judgement.** Given `weights`, the agent judges a city by a linear function of `features(state, seat)`
(named by `FEATURES`: the breakdown's parts, the city's promise terms, tracks, meeples, hand and bid cards, each
also scaled by the game's progress) instead of the hand-written sum above: the same lookahead and bidding with a
judgement fitted to predict the seat's final score from self-play games (`examples/train_lookahead.py`; the shipped
`vania-Np` policies, format `tabletop-lookahead-v1` of `tabletop.agents.policy`). `learned_agent` builds one;
`temperature` > 0 picks each lookahead option with probability proportional to exp(value / temperature) (the
policy's sampled form), `explore` plays a random tried option with that probability (training data only).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import exp
from typing import Any, cast

from tabletop.core import Action, Rng, SeatHandle
from tabletop.games.siliconvania.components import load
from tabletop.games.siliconvania.notation import BID_COST
from tabletop.games.siliconvania.rules import SiliconVaniaState
from tabletop.games.siliconvania.scoring import animal_vp
from tabletop.games.siliconvania.tasks import K_BID, K_PLACE

C = load()
EFFECT_VALUE = {"vampire": 1.0, "innovation": 1.5, "survival": 1.5, "cat": 2.0, "hound": 2.0, "exchange": 1.0,
                "antiquity": 3.0}
LOOKAHEAD = frozenset({"pool", "place", "castle", "train", "upgrade", "relocate", "swap", "exchange", "antiquity"})
MAX_TRIED = 160  # options tried by the lookahead (a sample of them beyond this)


def evaluate(state: Any, me: int) -> float:
    """The city's final score now plus what it promises (see the module docstring)."""
    b = state.breakdown(me)
    value = float(b["total"])
    types, hand = _promise(state, me, b)
    if types < 7:
        value += 0.8 * types
    value += 0.5 * max(0, state.vamp[me] - b["housed"])
    value += 0.7 * sum(hand[:2])
    return float(value)


def _promise(state: Any, me: int, b: dict[str, Any]) -> tuple[int, list[int]]:
    """What the city promises beyond its score now (`b`, its breakdown): the building types it has, and the values
    of the hand's objectives it could still score (a fourth copy of a kind scores nothing), best first."""
    types = {C.tiles[t].type for t in state.grid[me] if t >= 0} | {v % 7 for v in state.perim[me] if 0 <= v < 20}
    copies = b["objective_copies"]
    vals = b["objective_values"]
    hand = sorted((vals[C.specialists[r].objective] for r in state.hand[me]
                   if copies[C.specialists[r].objective] < 3), reverse=True)
    return len(types), hand


BASE_FEATURES: tuple[str, ...] = (
    "total", "animals", "housed", "objectives", "diversity", "blood", "contracts", "tiaras", "types",
    "all_types", "unhoused", "vampires", "cats", "hounds", "innovation", "survival", "met", "hand_best",
    "hand_second", "empty_cells", "perimeter", "coffins", "free_coffins", "bid_cards", "objective_cards",
    "hand_cards", "animal_next", "types_out_of_reach", "blood_tiles", "bid_sum", "bid_high", "contracts_two")
FEATURES: tuple[str, ...] = ("bias", "progress", *BASE_FEATURES, *(f"{f}*progress" for f in BASE_FEATURES))
"""The names of `features`' values, in order: a learned judgement's file records them and must match."""


def features(state: Any, me: int) -> list[float]:
    """What a learned judgement reads of seat `me`'s city (names: `FEATURES`): a bias, the progress (round / 8),
    the base values, then each base value times the progress."""
    b = state.breakdown(me)
    grid, perim = state.grid[me], state.perim[me]
    nt, hand = _promise(state, me, b)
    coffins = sum(c[3] for c in state.cells(me) if c is not None)
    vamp = state.vamp[me]
    empty = sum(1 for t in grid if t < 0)
    bids = [c for c in range(1, 8) if state.bid_hand[me] >> (c - 1) & 1]
    animals = int(b["animals_count"])
    base = [float(b["total"]), float(b["animals"]), float(b["housed"]), float(b["objectives"]),
            float(b["diversity"]), float(b["blood"]), float(b["contracts"]), float(b["tiaras"]), float(nt),
            1.0 if nt >= 7 else 0.0, float(max(0, vamp - b["housed"])), float(vamp), float(state.cats[me]),
            float(state.hounds[me]), float(state.inn[me]), float(state.surv[me]), float(state.met[me]),
            float(hand[0]) if hand else 0.0, float(hand[1]) if len(hand) > 1 else 0.0,
            float(empty), float(sum(1 for v in perim if v >= 0)), float(coffins),
            float(max(0, coffins - vamp)), float(len(bids)), float(len(state.objs[me])),
            float(len(state.hand[me])), float(animal_vp(animals + 1) - animal_vp(animals)),
            float(max(0, 7 - nt - empty)), float(sum(1 for t in grid if t >= 0 and C.tiles[t].blood > 0)),
            float(sum(bids)), float(sum(1 for c in bids if c >= 5)), 1.0 if state.contracts[me] == 2 else 0.0]
    progress = min(state.round, 8) / 8.0
    return [1.0, progress, *base, *[x * progress for x in base]]


class HeuristicAgent:
    """Objective-minded bidding and a one-step lookahead on its own city (see the module docstring); with
    `weights`, the city judged by a learned linear function of `features`."""

    name = "heuristic"

    def __init__(self, seed: int = 0, weights: Sequence[float] | None = None, temperature: float = 0.0,
                 explore: float = 0.0) -> None:
        self.rng = Rng(seed)
        if weights is not None and len(weights) != len(FEATURES):
            raise ValueError(f"a learned judgement has {len(FEATURES)} weights, got {len(weights)}")
        self.weights: list[float] | None = None if weights is None else [float(w) for w in weights]
        self.temperature = float(temperature)
        self.explore = float(explore)

    def value(self, state: Any, me: int) -> float:
        """The city's worth to seat `me`: `evaluate`, or the learned judgement when the agent has weights."""
        w = self.weights
        if w is None:
            return evaluate(state, me)
        # rounded: the last bits of a float sum must not break the ties the hand-written sum makes exactly
        return round(sum(a * b for a, b in zip(w, features(state, me), strict=True)), 9)

    def act(self, seat: SeatHandle) -> Action:
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal[0]
        verb = legal[0].verb
        if verb == "bid":
            return self._bid(seat, legal)
        if verb in ("take", "objective"):
            return self._best_card(seat, legal)
        if verb in LOOKAHEAD:
            return self._lookahead(seat, legal)
        return legal[self.rng.below(len(legal))]

    def _sample(self, seat: SeatHandle) -> SiliconVaniaState:
        return cast(SiliconVaniaState, seat.sample(self.rng.next64()))

    # ---- one-step lookahead ------------------------------------------------------------------------------
    def _lookahead(self, seat: SeatHandle, legal: list[Action]) -> Action:
        base = self._sample(seat)
        me = seat.seat
        tried = legal
        if len(legal) > MAX_TRIED:
            tried = [legal[self.rng.below(len(legal))] for _ in range(MAX_TRIED)]
            if legal[0].args and legal[0].args[0] in ("skip", "done"):
                tried.append(legal[0])
        best, best_val = tried[0], -1e9
        values: list[float] = []
        for a in tried:
            s = base.clone()
            s.apply(a)
            if a.verb == "pool":
                self._settle(s, me)
            val = self.value(s, me) + self.rng.below(100) / 10_000
            values.append(val)
            if val > best_val:
                best, best_val = a, val
        if self.explore > 0.0 and self.rng.below(1_000_000) < self.explore * 1_000_000:
            return tried[self.rng.below(len(tried))]
        if self.temperature > 0.0:
            weights = [exp((v - best_val) / self.temperature) for v in values]
            r = (self.rng.next64() >> 11) / float(1 << 53) * sum(weights)
            for a, w in zip(tried, weights, strict=True):
                r -= w
                if r <= 0.0:
                    return a
        return best

    def _settle(self, s: Any, me: int) -> None:
        """After taking tiles on a copy: place them greedily (and any further pool of a 2-player winner)."""
        for _ in range(6):
            if s.to_move != me:
                return
            legal = s.legal_actions()
            if legal[0].verb not in ("place", "pool"):
                return
            if legal[0].verb == "pool":
                s.apply(max(legal, key=lambda a: self._pool_guess(s, me, a)))
                continue
            best, best_val = legal[0], -1e9
            for a in legal:
                t = s.clone()
                t.apply(a)
                v = self.value(t, me)
                if v > best_val:
                    best, best_val = a, v
            s.apply(best)

    @staticmethod
    def _pool_guess(s: Any, me: int, a: Action) -> float:
        pool = s.pools[int(a.args[0]) - 1]
        return float(sum(C.tiles[t].blood + len(C.tiles[t].bonus) + (C.tiles[t].animal >= 0) for t in pool))

    # ---- bidding ----------------------------------------------------------------------------------------------
    def _pool_values(self, seat: SeatHandle, view: dict[str, Any]) -> list[float]:
        base = self._sample(seat)
        me = seat.seat
        here = self.value(base, me)
        pools = [p for p in view["pools"] if p]
        out = []
        for pool in pools:
            s = base.clone()
            s.pending[me] = list(pool)
            s.pools = [[] for _ in s.pools]
            # a copy where this seat just took the pool: its placements, then a stop (no final scoring)
            s.stack = [(K_BID, (me + 1) % s.players, 0, 0)] + [(K_PLACE, me, 0, 0)] * len(pool)
            s._legal = None
            s._run()
            self._settle(s, me)
            out.append(self.value(s, me) - here)
        return sorted(out, reverse=True)

    def _bid(self, seat: SeatHandle, legal: list[Action]) -> Action:
        view = seat.view()
        me = view["seats"][seat.seat]
        n = view["players"]
        values = self._pool_values(seat, view)
        if n == 2:  # the winner takes two pools, the other the remaining two
            gap = (values[0] + values[1]) - (values[-1] + values[-2]) if len(values) >= 4 else 0.0
        else:
            gap = values[0] - values[min(len(values) - 1, n - 1)] if values else 0.0
        cards = sorted({int(a.args[0]) for a in legal})
        vamps = me["vampires"]
        payable = [c for c in cards if vamps >= BID_COST[c]]
        if not payable:
            payable = cards
        discarded_high = any(c >= 5 for c in me["bid_discards"])
        if gap >= 5:
            card = payable[-1]
        elif gap >= 2:
            mids = [c for c in payable if 3 <= c <= 5] or payable
            card = mids[len(mids) // 2]
        else:
            low = [c for c in payable if c in (1, 2)]
            if 3 in payable and discarded_high:
                card = 3
            elif low:
                card = low[0]
            else:
                card = payable[0]
        rank = self._bid_specialist(seat, me, gap)
        return next(a for a in legal if a.args == (card, rank))

    def _bid_specialist(self, seat: SeatHandle, me: dict[str, Any], gap: float) -> int:
        """The hand card worth least as an objective and most as a bid effect now."""
        s = self._sample(seat)
        b = s.breakdown(seat.seat)
        vals, copies = b["objective_values"], b["objective_copies"]
        free_coffins = max(0, sum(c[3] for c in s.cells(seat.seat) if c is not None) - me["vampires"])
        best, best_val = me["hand"][0], -1e9
        names = [C.specialists[r].objective for r in me["hand"]]
        for r in me["hand"]:
            sp = C.specialists[r]
            effect = 0.0
            for e in sp.effect:
                v = EFFECT_VALUE[e]
                if e == "vampire" and free_coffins <= 0:
                    v = 0.4
                if e in ("cat", "hound") and free_coffins <= 0:
                    v = 0.5
                effect += v
            keep = vals[sp.objective] if copies[sp.objective] < 3 else 0.0
            if names.count(sp.objective) > 1:
                keep *= 0.5  # a spare copy of the same objective
            val = effect - 0.6 * keep + (r / 70) * min(gap, 3) * 0.3  # a high rank picks first from the row
            if val > best_val:
                best, best_val = r, val
        return int(best)

    # ---- specialists ---------------------------------------------------------------------------------------
    def _best_card(self, seat: SeatHandle, legal: list[Action]) -> Action:
        s = self._sample(seat)
        b = s.breakdown(seat.seat)
        vals, copies = b["objective_values"], b["objective_copies"]
        hand = s.hand[seat.seat]
        best, best_val = legal[0], -1e9
        for a in legal:
            sp = C.specialists[int(a.args[0])]
            val = float(vals[sp.objective]) if copies[sp.objective] < 3 else -5.0
            if a.verb == "take":
                val += 0.3 * sum(EFFECT_VALUE[e] for e in sp.effect)
                val -= 1.0 * sum(1 for r in hand if C.specialists[r].objective == sp.objective)
            val += self.rng.below(100) / 10_000
            if val > best_val:
                best, best_val = a, val
        return best



def learned_agent(weights: Sequence[float], seed: int = 0, temperature: float = 0.0) -> HeuristicAgent:
    """The agent of a learned judgement (a `tabletop-lookahead-v1` policy file): the heuristic's lookahead and
    bidding with the city judged by `weights` over `FEATURES`; `temperature` > 0 samples its lookahead choices."""
    return HeuristicAgent(seed, weights, temperature)
