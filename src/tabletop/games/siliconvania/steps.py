"""SiliconVania's automatic steps: each task of the flow that asks nobody (`a_*`, dispatched by `rules.py`): the
round (pools, the specialist row, every seat's bid), the reveal of the bids, a seat's tile turn and the bonuses of
its tiles, track steps and their bonuses, supplies gained, the specialist phase, and the end of a round.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from tabletop.games.siliconvania.notation import (
    BID_ABILITY,
    BID_COST,
    COMPONENTS,
    INNOVATION,
    PAID,
    TRACK_END,
    W_LEFTOVER,
    W_REVEAL,
    W_ROUND,
    W_TEXT,
)
from tabletop.games.siliconvania.tasks import (
    BONUS_TASKS,
    EFFECT_TASKS,
    K_BID,
    K_CONTRACT,
    K_DISCARD,
    K_END_ROUND,
    K_GAIN,
    K_OBJECTIVE,
    K_PLACE,
    K_PLACE_ALL,
    K_POOL,
    K_RECOVER,
    K_REST_TWO_PLAYERS,
    K_REVEAL,
    K_ROUND,
    K_SPECIALIST_PHASE,
    K_SPECIALIST_TURN,
    K_TAKE,
    K_TILE_TURN,
    K_VAMPIRE,
    TRACK_TASK,
    Task,
)

if TYPE_CHECKING:
    from tabletop.games.siliconvania.rules import SiliconVaniaState


def a_round(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    """Refresh: fill the selection pools and the specialist row, then every seat bids."""
    n = s.players
    s.round += 1
    s._note(-1, W_ROUND, s.round)
    per, count = (1, 4) if n == 2 else (2, n + 1)
    pools = []
    for _ in range(count):
        pool = []
        for _ in range(per):
            t = draw_tile(s)
            if t >= 0:
                pool.append(t)
        pools.append(pool)
    s.pools = pools
    deck = s.spec_deck
    s.row = [deck.pop() for _ in range(min(n, len(deck)))]
    s.bid_card = [-1] * n
    s.bid_spec = [-1] * n
    s.revealed = 0
    s._push([(K_BID, q, 0, 0) for q in range(n)] + [(K_REVEAL, 0, 0, 0)])

def draw_tile(s: SiliconVaniaState) -> int:
    if not s.tile_deck and s.tile_disc:  # ruling V-1: reshuffle the discarded tiles
        s.tile_deck = s.tile_disc
        s.tile_disc = []
        s.rng.shuffle(s.tile_deck)
    return s.tile_deck.pop() if s.tile_deck else -1

def a_reveal(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    """All bids are revealed at once; bid cards with a cost are paid for or count as 0 (ruling V-9)."""
    n = s.players
    s.revealed = 1
    for q in range(n):
        c = s.bid_card[q]
        v = c
        note = "" if c > 0 else " (no card left)"
        if c > 0:
            s.bid_hand[q] &= ~(1 << (c - 1))
            s.bid_disc[q] |= 1 << (c - 1)
            cost = BID_COST[c]
            if cost:
                if s.bid_free[q]:
                    v, note = 0, " (as 0: kept the vampires)"
                elif s.vamp[q] >= cost:
                    s.vamp[q] -= cost
                    s.vamp_sup += cost
                    note = PAID[cost]
                else:
                    v, note = 0, " (unpaid: counts 0)"
        s.bid_value[q] = v
        s.bid_events[q] += (c,)
        r = s.bid_spec[q]
        s.hand[q].remove(r)
        s.known[q] &= ~(1 << r)
        s.shown[q] |= 1 << r  # from the discard step on; no swap can take it while in flight
        s.in_flight[q] = 1
        s._note(q, W_REVEAL, (c, note, r))
    s.order = sorted(range(n), key=lambda q: (-s.bid_value[q], -s.bid_spec[q]))
    s._push([(K_TILE_TURN, q, i, 0) for i, q in enumerate(s.order)] + [(K_SPECIALIST_PHASE, 0, 0, 0)])

def a_tile_turn(s: SiliconVaniaState, p: int, idx: int, b: int) -> None:
    """Building tile resolution of one seat: bid card ability, pool choice, tile bonuses, placement."""
    ability = BID_ABILITY[s.bid_card[p]]
    tasks: list[Task] = []
    if ability == "vampire":
        tasks.append((K_VAMPIRE, p, 0, 0))
    elif ability == "recover":
        tasks.append((K_RECOVER, p, 0, 0))
    if s.players == 2:
        tasks += [(K_POOL, p, 0, 0), (K_POOL, p, 0, 0)] if idx == 0 else [(K_REST_TWO_PLAYERS, p, 0, 0)]
    else:
        tasks.append((K_POOL, p, 0, 0))
    tasks += [(K_GAIN, p, 0, 0), (K_PLACE_ALL, p, 0, 0)]
    s._push(tasks)

def a_gain(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    tasks: list[Task] = []
    for t in s.pending[p]:
        tasks += BONUS_TASKS[p][COMPONENTS.tiles[t].bonus]
    s._push(tasks)

def a_place_all(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    s.stack.extend([(K_PLACE, p, 0, 0)] * len(s.pending[p]))

def a_step(s: SiliconVaniaState, p: int, track: int, n: int) -> None:
    """Move a marker n steps; every space landed on or passed gives its bonus; meeting gives a contract."""
    tasks: list[Task] = []
    for _ in range(n):
        if track == INNOVATION:
            if s.inn[p] >= TRACK_END:
                break
            s.inn[p] += 1
            space = s.inn[p]
        else:
            if s.surv[p] <= 0:
                break
            s.surv[p] -= 1
            space = s.surv[p]
        kind = TRACK_TASK[space]
        if kind >= 0:
            tasks.append((kind, p, 0, 0))
        if not s.met[p] and s.inn[p] >= s.surv[p]:
            s.met[p] = 1  # ruling V-14
            tasks.append((K_CONTRACT, p, 0, 0))
    if tasks:
        s._push(tasks)

def a_contract(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    if s.contract_sup > 0:
        s.contract_sup -= 1
        s.contracts[p] += 1
        s._note(p, W_TEXT, "gained a council contract")

def a_vampire(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    s.vamp[p] += 1
    s.vamp_sup -= 1  # below zero: substitutes (ruling V-7)

def a_cat(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    if s.cat_sup > 0:
        s.cat_sup -= 1
        s.cats[p] += 1
        s._note(p, W_TEXT, "gained a cat")

def a_hound(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    if s.hound_sup > 0:
        s.hound_sup -= 1
        s.hounds[p] += 1
        s._note(p, W_TEXT, "gained a hound")

def a_specialist_phase(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    order = sorted(range(s.players), key=lambda q: -s.bid_spec[q])
    s._push([(K_SPECIALIST_TURN, q, 0, 0) for q in order] + [(K_END_ROUND, 0, 0, 0)])

def a_specialist_turn(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    """Specialist resolution of one seat: bid effect, take from the row, discard, objective (rounds 4-8)."""
    tasks = [*EFFECT_TASKS[p][s.bid_spec[p]], (K_TAKE, p, 0, 0), (K_DISCARD, p, 0, 0)]
    if s.round >= 4:
        tasks.append((K_OBJECTIVE, p, 0, 0))
    s._push(tasks)

def a_discard(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    insort(s.disc[p], s.bid_spec[p])
    s.in_flight[p] = 0

def a_rest_two_players(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    """Two players: the second seat acquires the tiles of the pools the first left."""
    for pool in s.pools:
        if pool:
            s.pending[p] += pool
            s._note(p, W_LEFTOVER, tuple(pool))
            pool.clear()

def a_end_round(s: SiliconVaniaState, p: int, a: int, b: int) -> None:
    for pool in s.pools:
        s.tile_disc += pool
    s.pools = []
    if s.round < COMPONENTS.rounds:
        s.stack.append((K_ROUND, 0, 0, 0))
