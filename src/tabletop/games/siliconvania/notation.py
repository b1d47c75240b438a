"""SiliconVania notation: the vocabulary (cells, perimeter slots, tracks, silent bid cards) and the canonical action
texts, every action interned once (`ACTIONS(verb, *args)`); also the sentences the log uses for public actions.
The texts are listed in the package docstring (`siliconvania/__init__.py`).
"""

from __future__ import annotations

from typing import Any, Final

from tabletop.core import Action, ActionTable
from tabletop.games.siliconvania.components import ANTIQUITY_KINDS, load

COMPONENTS: Final = load()
TYPE_TOKENS: Final = tuple(t.lower().replace(" ", "") for t in COMPONENTS.types)
CELLS: Final = tuple(f"{'abcd'[i // 4]}{i % 4 + 1}" for i in range(16))
SLOTS: Final = ("top1", "top2", "top3", "top4", "lefta", "leftb", "leftc", "leftd")
N_TILES: Final = len(COMPONENTS.tiles)
GOBLET: Final = 0
SCEPTER: Final = 1
COLLAR: Final = 2
BANGLE: Final = 3
TIARA: Final = 4
INNOVATION: Final = 0
SURVIVAL: Final = 1
TRACK_END: Final = len(COMPONENTS.track) - 1
# perimeter values: -1 empty, 0..6 castle of that type, 7..13 upgraded castle, 20.. train
UPGRADED: Final = 7
FIRST_TRAIN: Final = 20

# Silent bid cards, read from the component data (index 0: no card left, ruling V-13)
# vampires to discard at the reveal, or the bid counts 0 (V-9)
BID_COST: Final = (0, *(b.cost for b in COMPONENTS.bid_cards))
BID_ABILITY: Final = ("", *(b.ability for b in COMPONENTS.bid_cards))  # "", "vampire" or "recover"


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


ACTIONS: Final = ActionTable(_fmt)
SKIP_RELOCATE: Final = ACTIONS("relocate", "skip")
DONE_RELOCATE: Final = ACTIONS("relocate", "done")
SKIP_SWAP: Final = ACTIONS("swap", "skip")
SKIP_EXCHANGE: Final = ACTIONS("exchange", "skip")
BID: Final = [[ACTIONS("bid", c, r) for r in range(71)] for c in range(8)]
# keep the vampires, the bid counts 0 (V-9)
BID_AS_0: Final = [[ACTIONS("bid", c, r, 0) for r in range(71)] for c in range(8)]
PLACE: Final = [[ACTIONS("place", t, i) for i in range(16)] for t in range(N_TILES)]
RECOVER: Final = [ACTIONS("recover", c) for c in range(8)]
POOL: Final = [ACTIONS("pool", k) for k in range(8)]
TAKE_CASTLE: Final = [[ACTIONS("castle", c, sl) for sl in range(8)] for c in range(7)]
TAKE_TRAIN: Final = [[ACTIONS("train", t, sl) for sl in range(8)] for t in range(len(COMPONENTS.trains))]
UPGRADE: Final = [ACTIONS("upgrade", sl) for sl in range(8)]
RELOCATE_SWAP: Final = [[ACTIONS("relocate", "swap", i, j) for j in range(16)] for i in range(16)]
RELOCATE_MOVE: Final = [[ACTIONS("relocate", "move", i, j) for j in range(24)] for i in range(24)]
SWAP: Final = [[ACTIONS("swap", o, r) for r in range(71)] for o in range(71)]
EXCHANGE: Final = [[ACTIONS("exchange", i, t) for t in range(N_TILES)] for i in range(16)]
ANTIQUITY: Final = [[ACTIONS("antiquity", k, i) for i in range(16)] for k in range(5)]
TAKE: Final = [ACTIONS("take", r) for r in range(71)]
OBJECTIVE: Final = [ACTIONS("objective", r) for r in range(71)]
BID_CARDS: Final = [[c + 1 for c in range(7) if m >> c & 1] or [0] for m in range(128)]
BID_COUNT: Final = [bin(m).count("1") for m in range(128)]
RECOVER_OPTS: Final = [[RECOVER[c + 1] for c in range(7) if m >> c & 1] for m in range(128)]


def tile_name(t: int) -> str:
    return f"t{t} {COMPONENTS.tiles[t].name}"


def action_sentence(a: Action) -> str:
    """A public action as a sentence for the log."""
    v, x = a.verb, a.args
    if v == "castle":
        return f"took the {COMPONENTS.types[int(x[0])]} castle, placed at {SLOTS[int(x[1])]}"
    if v == "train":
        return f"took train {int(x[0]) + 1}, placed at {SLOTS[int(x[1])]}"
    if v == "upgrade":
        return f"upgraded the castle at {SLOTS[int(x[0])]} (Scorpion)"
    if v == "relocate":
        return f"relocated: {x[0]} {_pos(int(x[1]))} {'and' if x[0] == 'swap' else 'to'} {_pos(int(x[2]))}"
    if v == "swap":
        return f"swapped objective s{x[0]} for s{x[1]} {COMPONENTS.specialists[int(x[1])].name}; s{x[0]} goes"
    if v == "exchange":
        return f"exchanged the tile at {CELLS[int(x[0])]} for {tile_name(int(x[1]))} from the exchange pool"
    if v == "antiquity":
        return f"put a {ANTIQUITY_KINDS[int(x[0])]} on {CELLS[int(x[1])]}"
    if v == "take":
        return f"took s{x[0]} {COMPONENTS.specialists[int(x[0])].name} from the row"
    if v == "objective":
        return f"added s{x[0]} {COMPONENTS.specialists[int(x[0])].name} to the city objectives"
    return str(a)


def tiles_text(pool: list[int] | tuple[int, ...], where: str = "") -> str:
    """The log's rest of a sentence for tiles a seat took (`where`: which pool), to build into its city."""
    return "took " + " + ".join(tile_name(t) for t in pool) + (f" from {where}" if where else "")


# The log keeps what it needs to word an entry, and words it only when a log or a view is asked (`words`, called
# by `SiliconVaniaState._log`): each note is a code and its data. The data must not change after the note (an
# action, an int, a tuple of ints or strs).
W_TEXT: Final = 0  # a str: the words themselves
W_ACTION: Final = 1  # an Action: `action_sentence`
W_SWAP_HAND: Final = 2  # an Action (swap): its sentence, the objective swapped to the hand
W_SWAP_DISCARD: Final = 3  # the same, to the discard pile
W_POOL: Final = 4  # (pool number, tiles): the tiles taken from that pool
W_LEFTOVER: Final = 5  # tiles: a leftover pool (two players)
W_ROUND: Final = 6  # the round's number
W_REVEAL: Final = 7  # (bid card, its note, specialist): a bid revealed
W_BID: Final = 8  # an Action (bid): the bid as its seat saw it placed
W_RECOVER: Final = 9  # a bid card: which card its seat took back
# the notes of a revealed bid card with a cost (ruling V-9), by that cost
PAID: Final = tuple(f" (paid {cost} vampire{'s' if cost > 1 else ''})" for cost in range(max(BID_COST) + 1))


def words(code: int, data: Any) -> str:
    """The words of a log note (a code above and its data): the rest of the sentence after its seat's token."""
    if code == W_ACTION:
        return action_sentence(data)
    if code == W_TEXT:
        return str(data)
    if code == W_POOL:
        return tiles_text(data[1], f"pool {data[0]}")
    if code == W_REVEAL:
        r = int(data[2])
        return f"revealed bid {data[0]}{data[1]} with s{r} {COMPONENTS.specialists[r].name}"
    if code == W_ROUND:
        return f"Round {data} begins"
    if code == W_BID:
        args = data.args
        r = int(args[1])
        return (f"placed bid {int(args[0])}{' as 0 (keeping the vampires)' if len(args) == 3 else ''} with s{r} "
                f"{COMPONENTS.specialists[r].name}, face down")
    if code == W_SWAP_HAND:
        return action_sentence(data) + " to the hand"
    if code == W_SWAP_DISCARD:
        return action_sentence(data) + " to the discard pile"
    if code == W_LEFTOVER:
        return tiles_text(data, "a leftover pool")
    if code == W_RECOVER:
        return f"took silent bid card {data} back to the hand"
    raise ValueError(f"no such log note: {code}")
