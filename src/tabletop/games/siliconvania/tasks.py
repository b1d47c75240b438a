"""SiliconVania: the kinds of tasks on the flow stack, and which of them are decisions.

The flow is a stack of small tasks `(kind, seat, a, b)`: automatic tasks run at once (`SiliconVaniaState._a_*`), a
decision task stops the flow at its seat (its options and effect: `decisions.py`).
"""

from __future__ import annotations

from typing import Final

from tabletop.games.siliconvania.components import TRACK_KINDS
from tabletop.games.siliconvania.notation import COMPONENTS, INNOVATION, SURVIVAL

# The round: deal, bid, reveal, then per seat in turn order its tiles, its track steps, its specialists.
K_ROUND: Final = 0
K_BID: Final = 1
K_REVEAL: Final = 2
K_TILE_TURN: Final = 3
K_RECOVER: Final = 4
K_POOL: Final = 5
K_GAIN: Final = 6
K_PLACE_ALL: Final = 7
K_PLACE: Final = 8
K_STEP: Final = 9
K_CASTLE: Final = 10
K_TRAIN: Final = 11
K_CONTRACT: Final = 12
K_RELOCATE: Final = 13
K_SWAP_OBJECTIVE: Final = 14
K_UPGRADE: Final = 15
K_SPECIALIST_PHASE: Final = 16
K_SPECIALIST_TURN: Final = 17
K_EXCHANGE: Final = 18
K_ANTIQUITY: Final = 19
K_TAKE: Final = 20
K_OBJECTIVE: Final = 21
K_END_ROUND: Final = 22
K_VAMPIRE: Final = 23
K_CAT: Final = 24
K_HOUND: Final = 25
K_DISCARD: Final = 26
K_REST_TWO_PLAYERS: Final = 27
DECISIONS: Final = frozenset({K_BID, K_RECOVER, K_POOL, K_PLACE, K_CASTLE, K_TRAIN, K_RELOCATE, K_SWAP_OBJECTIVE,
                              K_UPGRADE, K_EXCHANGE, K_ANTIQUITY, K_TAKE, K_OBJECTIVE})
Task = tuple[int, int, int, int]

DECISION_NAMES: Final = {
    K_BID: "bid", K_RECOVER: "recover a bid card", K_POOL: "choose a selection pool",
    K_PLACE: "place a tile", K_CASTLE: "take and place a castle", K_TRAIN: "take and place a train",
    K_RELOCATE: "relocate tiles", K_SWAP_OBJECTIVE: "swap a city objective", K_UPGRADE: "upgrade a castle",
    K_EXCHANGE: "exchange a tile", K_ANTIQUITY: "take and place an antiquity",
    K_TAKE: "take a specialist", K_OBJECTIVE: "add a city objective",
}

# The tasks each track space, each tile or castle bonus and each specialist's effect sets off.
_TRACK_KIND: Final = {"contract": K_CONTRACT, "recover": K_RECOVER, "train": K_TRAIN, "relocate": K_RELOCATE,
               "castle": K_CASTLE, "swap_objective": K_SWAP_OBJECTIVE, "upgrade_castle": K_UPGRADE}
TRACK_TASK: Final = tuple(_TRACK_KIND.get(TRACK_KINDS[k], -1) for k in COMPONENTS.track)


def _bonus_tasks(p: int, bonus: tuple[int, ...]) -> list[Task]:
    return [(K_VAMPIRE, p, 0, 0) if b == 0 else (K_STEP, p, INNOVATION if b == 1 else SURVIVAL, 1) for b in bonus]


_EFFECT_KIND: Final = {"vampire": (K_VAMPIRE, 0), "innovation": (K_STEP, INNOVATION), "survival": (K_STEP, SURVIVAL),
                "cat": (K_CAT, 0), "hound": (K_HOUND, 0), "exchange": (K_EXCHANGE, 0), "antiquity": (K_ANTIQUITY, 0)}
BONUS_TASKS: Final = [
    {t.bonus: _bonus_tasks(p, t.bonus) for t in (*COMPONENTS.tiles, *COMPONENTS.castles)} for p in range(5)
]
EFFECT_TASKS: Final = [
    [[(_EFFECT_KIND[e][0], p, _EFFECT_KIND[e][1], 1 if _EFFECT_KIND[e][0] == K_STEP else 0)
      for e in COMPONENTS.specialists[r].effect] if r in COMPONENTS.specialists else [] for r in range(71)]
    for p in range(5)
]
