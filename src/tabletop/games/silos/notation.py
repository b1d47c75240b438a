"""SILOS notation: the vocabulary of the rules (locations, figure kinds, cards) and the canonical action texts.

Every action is interned once here (`ACTIONS(verb, *args)`), so the rules build legal action lists by indexing these
tables; the texts are listed in the package docstring (`silos/__init__.py`).
"""

from __future__ import annotations

from typing import Final

from tabletop.core import Action, ActionTable
from tabletop.games.silos.components import COMMON_CARDS, COMPONENTS, HUMAN_TYPES

# 0 Town Hall, 1 Sheriff's Office, 2 University, 3 Shopping Mall, 4 News Station, 5 Church, 6 Bus Station
# (`COMPONENTS.names`)
N_LOCATIONS: Final = 7
N_TYPES: Final = 4  # human types: politician, government, influencer, professional (HUMAN_TYPES)
KINDS: Final = ("figure", "leader", "distinguished")
FIGURE: Final = 0
LEADER: Final = 1
DISTINGUISHED: Final = 2
ALL_POWERS: Final = 0  # common cards, in COMMON_CARDS order
ONE_POWER: Final = 1
SPECIMEN: Final = 2
UFO_ADVANCE: Final = 3
SIGHTING: Final = 0  # faction cards, in FACTION_CARDS order
CONFLUENCE: Final = 1
POWERS: Final = 2
COLORS: Final = COMPONENTS.colors
NEIGHBOURS: Final = COMPONENTS.neighbours
ACCEPTS: Final = COMPONENTS.accepts
SKILL_ORDER: Final = (1, 2, 3, 4, 5)  # phase 2 order: movement tiles 1, 2 (6 is passive), then human tiles 3, 4, 5
REPOSITION_LIMIT: Final = 7  # ruling S-9: a reposition moves each of the 7 figures at most once, so at most 7 moves


def _action_text(verb: str, args: tuple[int | str, ...]) -> str:
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


ACTIONS: Final = ActionTable(_action_text)
STOP: Final = ACTIONS("stop")
SKIP: Final = ACTIONS("skip")
DONE: Final = ACTIONS("done")
CARD_COMMON: Final = ACTIONS("card", "common")
CARD_FACTION: Final = (
    (ACTIONS("card", "sighting ufo"), ACTIONS("card", "sighting reposition")),
    (ACTIONS("card", "confluence"),),
    (ACTIONS("card", "powers"),),
)
CARD_NONE: Final = ACTIONS("card_none")
HELD: Final = tuple(ACTIONS("held", t) for t in range(4))
KEEP: Final = ACTIONS("keep")
REJECT: Final = ACTIONS("reject")
EXERT: Final = tuple(ACTIONS("exert", i) for i in range(N_LOCATIONS))
POSITION: Final = tuple(tuple(ACTIONS("position", k, i) for i in range(N_LOCATIONS)) for k in range(2))
EACH_LOCATION: Final = range(N_LOCATIONS)
MOVE: Final = tuple(
    tuple(tuple(ACTIONS("move", k, a, b) for b in EACH_LOCATION) for a in EACH_LOCATION) for k in range(3)
)
REPOSITION: Final = tuple(
    tuple(tuple(ACTIONS("repos", k, a, b) for b in EACH_LOCATION) for a in EACH_LOCATION) for k in range(3)
)
PLACE: Final = tuple(tuple(ACTIONS("place", t, i) for i in range(N_LOCATIONS)) for t in range(N_TYPES))
GRADUATE: Final = ACTIONS("graduate")
DISTINGUISH: Final = ACTIONS("distinguish")
MALL_DRAW: Final = ACTIONS("mall_draw")
MALL_FOUR: Final = ACTIONS("mall_four")
NEWS_DRAW: Final = ACTIONS("news_draw")
NEWS_THREE: Final = ACTIONS("news_three")
CHURCH_CARD: Final = ACTIONS("church_card")
DOWNGRADE: Final = ACTIONS("downgrade")
SKILL_DRAW: Final = ACTIONS("skill_draw")
SHERIFF: Final = tuple(
    tuple(tuple(ACTIONS("sheriff", g, k, a) for a in EACH_LOCATION) for k in range(3)) for g in range(4)
)
TAKE: Final = tuple(tuple(ACTIONS("take", x, y) for y in range(N_TYPES)) for x in range(N_TYPES))
RETURN: Final = tuple(ACTIONS("return", t) for t in range(N_TYPES))
CHURCH_PLAYER: Final = tuple(tuple(ACTIONS("church_player", t, g) for g in range(4)) for t in range(N_TYPES))
CHURCH_FOCUS: Final = tuple(tuple(ACTIONS("church_focus", t, i) for i in range(N_LOCATIONS)) for t in range(N_TYPES))
# per figure kind and location: every street movement / every reposition from there (hot path: one extend each)
MOVES_FROM: Final = tuple(tuple(tuple(MOVE[k][a][b] for b in NEIGHBOURS[a]) for a in EACH_LOCATION) for k in range(3))
REPOSITIONS_FROM: Final = tuple(
    tuple(tuple(REPOSITION[k][a][b] for b in EACH_LOCATION if b != a) for a in EACH_LOCATION) for k in range(3)
)


def _exchange_table() -> tuple[tuple[tuple[int, ...], Action], ...]:
    out = []
    for x in range(5):
        for y in range(x, 5):
            for z in range(y, 5):
                need = [0] * 5
                for v in (x, y, z):
                    need[v] += 1
                out.append((tuple(need), ACTIONS("exchange", x, y, z)))
    return tuple(out)


EXCHANGES: Final = _exchange_table()
