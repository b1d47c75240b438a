"""SiliconVania decisions: for each decision task, the options of its seat (`options_X`) and the effect of the
chosen one (`decide_X`): bids and their recovery, the selection pools, placing tiles, castles and trains, relocating,
swapping objectives, upgrading castles, exchanges, antiquities, specialists and city objectives.

The flow (`rules.py`) asks a seat only when it has a real choice: a decision with no option is skipped, one with a
single option is applied at once (but for bids, which stay a decision so that a seat's choice is never revealed).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, cast

from tabletop.core import Action
from tabletop.games.siliconvania.notation import (
    ANTIQUITY,
    BID,
    BID_AS_0,
    BID_CARDS,
    BID_COST,
    COLLAR,
    COMPONENTS,
    DONE_RELOCATE,
    EXCHANGE,
    FIRST_TRAIN,
    INNOVATION,
    OBJECTIVE,
    PLACE,
    POOL,
    RECOVER_OPTS,
    RELOCATE_MOVE,
    RELOCATE_SWAP,
    SCEPTER,
    SKIP_EXCHANGE,
    SKIP_RELOCATE,
    SKIP_SWAP,
    SURVIVAL,
    SWAP,
    TAKE,
    TAKE_CASTLE,
    TAKE_TRAIN,
    UPGRADE,
    UPGRADED,
    W_ACTION,
    W_BID,
    W_POOL,
    W_RECOVER,
    W_SWAP_DISCARD,
    W_SWAP_HAND,
    W_TEXT,
)
from tabletop.games.siliconvania.tasks import (
    BONUS_TASKS,
    K_ANTIQUITY,
    K_BID,
    K_CASTLE,
    K_EXCHANGE,
    K_OBJECTIVE,
    K_PLACE,
    K_POOL,
    K_RECOVER,
    K_RELOCATE,
    K_STEP,
    K_SWAP_OBJECTIVE,
    K_TAKE,
    K_TRAIN,
    K_UPGRADE,
)

if TYPE_CHECKING:
    from tabletop.games.siliconvania.rules import SiliconVaniaState


def options_bid(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    cards = BID_CARDS[s.bid_hand[p]]
    hand = s.hand[p]
    out: list[Action] = []
    for c in cards:
        row = BID[c]
        for r in hand:
            out.append(row[r])
    vamps = s.vamp[p]
    # ruling V-9: a card with a cost may be played as 0 to keep the vampires (a choice only if it can be paid)
    for c in cards:
        if 0 < BID_COST[c] <= vamps:
            row = BID_AS_0[c]
            for r in hand:
                out.append(row[r])
    return out


def options_recover(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    return RECOVER_OPTS[s.bid_disc[p]]


def options_pool(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    return [POOL[i + 1] for i, pool in enumerate(s.pools) if pool]


def options_place(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    g = s.grid[p]
    pending = s.pending[p]
    if len(pending) == 1:  # the usual case: one pass, no list of the empty cells
        row = PLACE[pending[0]]
        return [row[i] for i in range(16) if g[i] < 0]
    empty = [i for i in range(16) if g[i] < 0]
    return [PLACE[t][i] for t in pending for i in empty]


def options_castle(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    per = s.perim[p]
    free = [slot for slot in range(8) if per[slot] < 0]
    return [TAKE_CASTLE[c][slot] for c in s.castle_sup for slot in free]


def options_train(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    per = s.perim[p]
    free = [slot for slot in range(8) if per[slot] < 0]
    return [TAKE_TRAIN[t][slot] for t in s.train_sup for slot in free]


def options_upgrade(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    per = s.perim[p]
    return [UPGRADE[slot] for slot in range(8) if 0 <= per[slot] < UPGRADED]


def options_relocate(s: SiliconVaniaState, p: int, moved: int) -> list[Action]:
    g, per = s.grid[p], s.perim[p]
    full: list[int] = []
    empty: list[int] = []
    for i in range(16):
        if g[i] >= 0:
            full.append(i)
        else:
            empty.append(i)
    out = [DONE_RELOCATE if moved else SKIP_RELOCATE]
    if not moved:  # loops over rows of the tables, not comprehensions over slices: compiled, fewer lists and lookups
        n = len(full)
        for k in range(n - 1):
            row = RELOCATE_SWAP[full[k]]
            for m in range(k + 1, n):
                out.append(row[full[m]])
    for i in full:
        row = RELOCATE_MOVE[i]
        for j in empty:
            out.append(row[j])
    pempty = [16 + slot for slot in range(8) if per[slot] < 0]
    if pempty:
        for slot in range(8):
            if per[slot] >= 0:
                row = RELOCATE_MOVE[16 + slot]
                for j in pempty:
                    out.append(row[j])
    return out if len(out) > 1 else []


def options_swap_objective(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    if not s.objs[p]:
        return []
    return [SKIP_SWAP] + [SWAP[o][r] for o in s.objs[p] for r in s.hand[p] + s.disc[p]]


def options_exchange(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    g, an = s.grid[p], s.anti[p]
    cells = [i for i in range(16) if g[i] >= 0 and an[i] < 0]  # ruling V-12
    if not cells or not s.xpool:
        return []
    return [SKIP_EXCHANGE] + [EXCHANGE[i][t] for i in cells for t in s.xpool]


def options_antiquity(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    kinds = sorted({COMPONENTS.antiquities[i] for i in s.anti_sup})
    g, an = s.grid[p], s.anti[p]
    out = []
    for k in kinds:
        for i in range(16):
            if g[i] < 0 or an[i] >= 0:
                continue
            if k == COLLAR and COMPONENTS.tiles[g[i]].coffins < 2:
                continue  # ruling V-11: the Collar must cover two coffins
            out.append(ANTIQUITY[k][i])
    return out


def options_take(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    return [TAKE[r] for r in s.row]


def options_objective(s: SiliconVaniaState, p: int, a: int) -> list[Action]:
    return [OBJECTIVE[r] for r in s.hand[p]]


def decide_bid(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    args = act.args
    c, r = int(args[0]), int(args[1])
    s.bid_card[p] = c
    s.bid_spec[p] = r
    s.bid_free[p] = int(len(args) == 3)
    s._note(p, W_TEXT, "placed a bid face down", p, W_BID, act)


def decide_recover(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    c = int(act.args[0])
    bit = 1 << (c - 1)
    s.bid_disc[p] &= ~bit
    s.bid_hand[p] |= bit
    s.bid_events[p] += (-1,)
    # ruling V-22: which card is recovered stays hidden ("Keep your hand of... Silent Bid cards hidden")
    s._note(p, W_TEXT, "took a silent bid card back to the hand", p, W_RECOVER, c)


def decide_pool(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    pool = s.pools[int(act.args[0]) - 1]
    s.pending[p] += pool
    s._note(p, W_POOL, (act.args[0], tuple(pool)))
    pool.clear()


def decide_place(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    args = act.args
    t, i = cast(int, args[0]), cast(int, args[1])  # compiled: a type check, then native ints
    s.pending[p].remove(t)
    s.grid[p][i] = t


def decide_castle(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    c, slot = int(act.args[0]), int(act.args[1])
    s.castle_sup.remove(c)
    s.perim[p][slot] = c
    s._note(p, W_ACTION, act)
    bonus = COMPONENTS.castles[c].bonus
    if bonus:
        s._push(BONUS_TASKS[p][bonus])


def decide_train(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    t, slot = int(act.args[0]), int(act.args[1])
    s.train_sup.remove(t)
    s.perim[p][slot] = FIRST_TRAIN + t
    s._note(p, W_ACTION, act)


def decide_upgrade(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    s.perim[p][int(act.args[0])] += UPGRADED
    s._note(p, W_ACTION, act)


def decide_relocate(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    args = act.args
    if args[0] == "swap" or args[0] == "move":
        relocate(s, p, str(args[0]), int(args[1]), int(args[2]))
        s._note(p, W_ACTION, act)
        if args[0] == "move" and a == 0:
            s.stack.append((K_RELOCATE, p, 1, 0))


def decide_swap_objective(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    if act.args[0] != "skip":
        o, r = int(act.args[0]), int(act.args[1])
        objs = s.objs[p]
        objs[objs.index(o)] = r
        # every card in a discard pile was seen going there (a revealed bid, or an objective swapped there), so
        # where the replacement came from, and so where o goes, is public (ruling V-20)
        if r in s.hand[p]:
            src, known = s.hand[p], s.known
        else:
            src, known = s.disc[p], s.shown
        src[src.index(r)] = o
        src.sort()
        s.known[p] &= ~(1 << r)
        s.shown[p] &= ~(1 << r)
        known[p] |= 1 << o
        s._note(p, W_SWAP_HAND if known is s.known else W_SWAP_DISCARD, act)


def decide_exchange(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    if act.args[0] != "skip":
        i, t = int(act.args[0]), int(act.args[1])
        s.xpool[s.xpool.index(t)] = s.grid[p][i]
        s.grid[p][i] = -1
        s.pending[p].append(t)
        s._note(p, W_ACTION, act)
        s._push([*BONUS_TASKS[p][COMPONENTS.tiles[t].bonus], (K_PLACE, p, 0, 0)])


def decide_antiquity(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    k, i = int(act.args[0]), int(act.args[1])
    inst = next(x for x in s.anti_sup if COMPONENTS.antiquities[x] == k)
    s.anti_sup.remove(inst)
    s.anti[p][i] = inst
    s._note(p, W_ACTION, act)
    if k == SCEPTER:
        s._push([(K_STEP, p, SURVIVAL, 1), (K_STEP, p, INNOVATION, 1)])


def decide_take(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    r = cast(int, act.args[0])
    s.row.remove(r)
    insort(s.hand[p], r)
    s.known[p] |= 1 << r
    s._note(p, W_ACTION, act)


def decide_objective(s: SiliconVaniaState, p: int, a: int, act: Action) -> None:
    r = cast(int, act.args[0])
    s.hand[p].remove(r)
    s.objs[p].append(r)
    s.known[p] &= ~(1 << r)
    s._note(p, W_ACTION, act)


def relocate(s: SiliconVaniaState, p: int, how: str, i: int, j: int) -> None:
    if i >= 16:
        per = s.perim[p]
        per[j - 16], per[i - 16] = per[i - 16], -1
        return
    g, an = s.grid[p], s.anti[p]
    if how == "swap":
        g[i], g[j] = g[j], g[i]
        an[i], an[j] = an[j], an[i]
    else:
        g[j], an[j], g[i], an[i] = g[i], an[i], -1, -1


OptionsFn = Callable[["SiliconVaniaState", int, int], list[Action]]
DecideFn = Callable[["SiliconVaniaState", int, int, Action], None]
# Each decision task: its seat's options and the effect of the chosen one.
DECISION_FUNCTIONS: Final[dict[int, tuple[OptionsFn, DecideFn]]] = {
    K_BID: (options_bid, decide_bid),
    K_RECOVER: (options_recover, decide_recover),
    K_POOL: (options_pool, decide_pool),
    K_PLACE: (options_place, decide_place),
    K_CASTLE: (options_castle, decide_castle),
    K_TRAIN: (options_train, decide_train),
    K_UPGRADE: (options_upgrade, decide_upgrade),
    K_RELOCATE: (options_relocate, decide_relocate),
    K_SWAP_OBJECTIVE: (options_swap_objective, decide_swap_objective),
    K_EXCHANGE: (options_exchange, decide_exchange),
    K_ANTIQUITY: (options_antiquity, decide_antiquity),
    K_TAKE: (options_take, decide_take),
    K_OBJECTIVE: (options_objective, decide_objective),
}
