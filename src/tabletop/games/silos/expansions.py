"""SILOS expansion modules: Permanent Skill Tiles and the Crop Circles tile.

Skill tiles: a turn's phase 2 (tiles 1-5, `skill_tile_options`), tile 0 (keep or reject the revealed common card,
`town_hall_skill`), tile 6 (a third movement, in `state.py`'s `_push_turn`); a tile is claimed by exerting its
location's power with the leader there (`events.step_power_event`, ruling S-12). Crop circles: the tile replaces
the power of one location (option `crop_circles`); its tokens add influence (`SilosState._inf`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.core import Action
from tabletop.games.silos.events import place_human
from tabletop.games.silos.frames import K_CROP_CIRCLES, K_SKILL_TILES, K_TOWN_HALL_SKILL, Frame, FrameFunctions
from tabletop.games.silos.notation import (
    ACCEPTS,
    ACTIONS,
    KEEP,
    N_LOCATIONS,
    N_TYPES,
    REJECT,
    SKILL_DRAW,
    SKILL_ORDER,
    SKIP,
)

if TYPE_CHECKING:
    from tabletop.games.silos.state import SilosState


# ---- skill tiles (phase 2) -----------------------------------------------------------------------------------
def skill_tile_options(s: SilosState, p: int, tile: int) -> list[Action]:
    out: list[Action] = []
    if tile == 1:
        for g in range(s.nf):
            for a in range(N_LOCATIONS):
                if a != 1:
                    out.extend(ACTIONS("skill_sheriff", g, k, a) for k in s._kinds_at(g, a))
    elif tile == 2:
        for a in range(N_LOCATIONS):
            if a != 2:
                out.extend(ACTIONS("skill_uni", k, a) for k in s._kinds_at(p, a))
    elif tile == 3:
        if sum(s.bag):
            out.append(SKILL_DRAW)
    elif tile == 4:
        if s.cow_pile > 0:
            h = s.hum[p * N_TYPES:(p + 1) * N_TYPES]
            for x in range(N_TYPES):
                for y in range(x, N_TYPES):
                    if (h[x] >= 2) if x == y else (h[x] and h[y]):
                        out.append(ACTIONS("skill_return", x, y))
    elif tile == 5:
        for a in range(N_LOCATIONS):
            for t in range(N_TYPES):
                if s.focus[a * N_TYPES + t]:
                    out.extend(ACTIONS("skill_church", t, a, b) for b in ACCEPTS[t] if b != a)
    return out


def step_skill_tiles(s: SilosState, fr: Frame) -> int:
    p, idx = fr[1], fr[2]
    while idx < len(SKILL_ORDER):
        tile = SKILL_ORDER[idx]
        if s.skill[tile] == p and skill_tile_options(s, p, tile):
            s.stack[-1] = (K_SKILL_TILES, p, idx, 0)
            return p
        idx += 1
    s.stack.pop()
    return -1


def legal_skill_tiles(s: SilosState, fr: Frame) -> list[Action]:
    return [*skill_tile_options(s, fr[1], SKILL_ORDER[fr[2]]), SKIP]


def apply_skill_tiles(s: SilosState, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack[-1] = (K_SKILL_TILES, p, fr[2] + 1, 0)
    v, g = a.verb, a.args
    if v == "skill_sheriff":
        s._move_fig(int(g[0]), int(g[1]), int(g[2]), 1)
    elif v == "skill_uni":
        s._move_fig(p, int(g[0]), int(g[1]), 2)
    elif v == "skill_draw":
        s._fill_hand(p, 1)
    elif v == "skill_return":
        for t in (int(g[0]), int(g[1])):
            s.hum[p * N_TYPES + t] -= 1
            s.bag[t] += 1
        s.cows[p] += 1
        s.cow_pile -= 1
        s._check_sets(p)
    elif v == "skill_church":
        t, x, y = int(g[0]), int(g[1]), int(g[2])
        s.focus[x * N_TYPES + t] -= 1
        place_human(s, p, t, y)


def step_seat_decides(s: SilosState, fr: Frame) -> int:
    return fr[1]


def legal_town_hall_skill(s: SilosState, fr: Frame) -> list[Action]:
    return [KEEP, REJECT]


def apply_town_hall_skill(s: SilosState, fr: Frame, a: Action) -> None:
    p, t = fr[1], fr[2]
    s.stack.pop()
    if a.verb == "reject":
        s.discard[t] += 1
        t = s._draw_common(p)
    s._activate_common(p, t)


# Crop circles power tile: place a token, reposition one, or replace an opponent's.
def legal_crop_circles(s: SilosState, fr: Frame) -> list[Action]:
    p = fr[1]
    empty = [i for i in range(N_LOCATIONS) if s.crop[i] < 0]
    targets = empty or [i for i in range(N_LOCATIONS) if s.crop[i] != p]
    out: list[Action] = []
    if s.crop_left[p]:
        out.extend(ACTIONS("crop_place", i) for i in targets)
    else:
        for x in range(N_LOCATIONS):
            if s.crop[x] == p:
                out.extend(ACTIONS("crop_move", x, y) for y in targets)
    out.append(SKIP)
    return out


def apply_crop_circles(s: SilosState, fr: Frame, a: Action) -> None:
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


FRAMES: dict[int, FrameFunctions] = {
    K_SKILL_TILES: (step_skill_tiles, legal_skill_tiles, apply_skill_tiles),
    K_TOWN_HALL_SKILL: (step_seat_decides, legal_town_hall_skill, apply_town_hall_skill),
    K_CROP_CIRCLES: (step_seat_decides, legal_crop_circles, apply_crop_circles),
}
