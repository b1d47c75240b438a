"""SiliconVania: the kinds of tasks on the flow stack, and which of them are decisions.

The flow is a stack of small tasks `(kind, seat, a, b)`: automatic tasks run at once (`SiliconVaniaState._a_*`), a
decision task stops the flow at its seat (its options and effect: `decisions.py`).
"""

from __future__ import annotations

from tabletop.games.siliconvania.components import TRACK_KINDS
from tabletop.games.siliconvania.notation import COMPONENTS, INNOVATION, SURVIVAL

# The round: deal, bid, reveal, then per seat in turn order its tiles, its track steps, its specialists.
K_ROUND, K_BID, K_REVEAL, K_TILE_TURN, K_RECOVER, K_POOL, K_GAIN, K_PLACE_ALL, K_PLACE, K_STEP = range(10)
K_CASTLE, K_TRAIN, K_CONTRACT, K_RELOCATE, K_SWAP_OBJECTIVE, K_UPGRADE = range(10, 16)
K_SPECIALIST_PHASE, K_SPECIALIST_TURN, K_EXCHANGE, K_ANTIQUITY, K_TAKE, K_OBJECTIVE, K_END_ROUND = range(16, 23)
K_VAMPIRE, K_CAT, K_HOUND, K_DISCARD, K_REST_TWO_PLAYERS = range(23, 28)
DECISIONS = frozenset({K_BID, K_RECOVER, K_POOL, K_PLACE, K_CASTLE, K_TRAIN, K_RELOCATE, K_SWAP_OBJECTIVE, K_UPGRADE,
                       K_EXCHANGE, K_ANTIQUITY, K_TAKE, K_OBJECTIVE})
Task = tuple[int, int, int, int]

DECISION_NAMES = {
    K_BID: "bid", K_RECOVER: "recover a bid card", K_POOL: "choose a selection pool",
    K_PLACE: "place a tile", K_CASTLE: "take and place a castle", K_TRAIN: "take and place a train",
    K_RELOCATE: "relocate tiles", K_SWAP_OBJECTIVE: "swap a city objective", K_UPGRADE: "upgrade a castle",
    K_EXCHANGE: "exchange a tile", K_ANTIQUITY: "take and place an antiquity",
    K_TAKE: "take a specialist", K_OBJECTIVE: "add a city objective",
}

# The tasks each track space, each tile or castle bonus and each specialist's effect sets off.
_TRACK_KIND = {"contract": K_CONTRACT, "recover": K_RECOVER, "train": K_TRAIN, "relocate": K_RELOCATE,
               "castle": K_CASTLE, "swap_objective": K_SWAP_OBJECTIVE, "upgrade_castle": K_UPGRADE}
TRACK_TASK = tuple(_TRACK_KIND.get(TRACK_KINDS[k], -1) for k in COMPONENTS.track)


def _bonus_tasks(p: int, bonus: tuple[int, ...]) -> list[Task]:
    return [(K_VAMPIRE, p, 0, 0) if b == 0 else (K_STEP, p, INNOVATION if b == 1 else SURVIVAL, 1) for b in bonus]


_EFFECT_KIND = {"vampire": (K_VAMPIRE, 0), "innovation": (K_STEP, INNOVATION), "survival": (K_STEP, SURVIVAL),
                "cat": (K_CAT, 0), "hound": (K_HOUND, 0), "exchange": (K_EXCHANGE, 0), "antiquity": (K_ANTIQUITY, 0)}
BONUS_TASKS = [{t.bonus: _bonus_tasks(p, t.bonus) for t in (*COMPONENTS.tiles, *COMPONENTS.castles)} for p in range(5)]
EFFECT_TASKS = [
    [[(_EFFECT_KIND[e][0], p, _EFFECT_KIND[e][1], 1 if _EFFECT_KIND[e][0] == K_STEP else 0)
      for e in COMPONENTS.specialists[r].effect] if r in COMPONENTS.specialists else [] for r in range(71)]
    for p in range(5)
]
