"""SILOS: the turn. Initial positioning, movement along the streets, activating one card, the end of the turn.

The skill tiles (phase 2 of a turn) are a module: `expansions.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.core import Action
from tabletop.games.silos.components import COMPONENTS, FACTION_CARDS
from tabletop.games.silos.events import advance_ufo
from tabletop.games.silos.frames import (
    K_CARD,
    K_CARD_IN_PLAY,
    K_END_OF_TURN,
    K_MOVEMENT,
    K_POSITIONING,
    K_REPOSITION,
    K_TOWN_HALL_SKILL,
    K_YOUR_POWERS,
    L_END,
    L_NO_CARD,
    Frame,
    FrameFunctions,
    no_decision_apply,
    no_decision_legal,
)
from tabletop.games.silos.notation import (
    CARD_COMMON,
    CARD_FACTION,
    CARD_NONE,
    CONFLUENCE,
    FIGURE,
    HELD,
    LEADER,
    MOVES_FROM,
    N_LOCATIONS,
    POSITION,
    STOP,
)
from tabletop.games.silos.powers import town_hall_rerank

if TYPE_CHECKING:
    from tabletop.games.silos.state import SilosState


# ---- initial positioning ---------------------------------------------------------------------------------------
def step_positioning(s: SilosState, fr: Frame) -> int:
    n = s.players
    if fr[2] == COMPONENTS.figures * n:
        s.stack.pop()
        town_hall_rerank(s)  # initial re-ranking; ties keep the setup order (stable sort)
        s.active = s.start
        s._push_turn()
        return -1
    return (s.start + fr[2]) % n


def legal_positioning(s: SilosState, fr: Frame) -> list[Action]:
    p = (s.start + fr[2]) % s.players
    placed = fr[2] // s.players  # figures p has placed so far
    out: list[Action] = []
    if s.leader[p] < 0:
        out.extend(POSITION[LEADER])
    if s.leader[p] >= 0 or placed < COMPONENTS.figures - 1:
        out.extend(POSITION[FIGURE])
    return out


def apply_positioning(s: SilosState, fr: Frame, a: Action) -> None:
    p = (s.start + fr[2]) % s.players
    kind, loc = int(a.args[0]), int(a.args[1])
    if kind == LEADER:
        s.leader[p] = loc
    else:
        s.plain[p * N_LOCATIONS + loc] += 1
    s.stack[-1] = (K_POSITIONING, fr[1], fr[2] + 1, 0)


# ---- movement ----------------------------------------------------------------------------------------------
def step_movement(s: SilosState, fr: Frame) -> int:
    if fr[2] == 0:
        s.stack.pop()
        return -1
    return fr[1]


def legal_movement(s: SilosState, fr: Frame) -> list[Action]:
    p = fr[1]
    out = [STOP]
    plain, dist = s.plain, s.dist
    base = p * N_LOCATIONS
    lead = s.leader[p]
    mf, ml, md = MOVES_FROM
    for a in range(N_LOCATIONS):
        if plain[base + a]:
            out.extend(mf[a])
        if lead == a:
            out.extend(ml[a])
        if dist[base + a]:
            out.extend(md[a])
    return out


def apply_movement(s: SilosState, fr: Frame, a: Action) -> None:
    if a.verb == "stop":
        s.stack.pop()
        return
    s._move_fig(fr[1], int(a.args[0]), int(a.args[1]), int(a.args[2]))
    s.stack[-1] = (K_MOVEMENT, fr[1], fr[2] - 1, 0)


# ---- card activation ---------------------------------------------------------------------------------------
def step_card(s: SilosState, fr: Frame) -> int:
    options = legal_card(s, fr)
    if len(options) > 1:
        return fr[1]
    if options[0] == CARD_NONE:  # S-15
        s._note((L_NO_CARD, fr[1]))
    apply_card(s, fr, options[0])  # S-16: the only card there is (often the common deck) is not asked for
    return -1


def legal_card(s: SilosState, fr: Frame) -> list[Action]:
    p = fr[1]
    out: list[Action] = []
    if s._common_available():
        out.append(CARD_COMMON)
    for c in range(3):
        if not s.fcards[p * 3 + c]:
            out.extend(CARD_FACTION[c])
    for t in range(4):
        if s.held[p * 4 + t]:
            out.append(HELD[t])
    return out or [CARD_NONE]


def apply_card(s: SilosState, fr: Frame, a: Action) -> None:
    p = fr[1]
    s.stack.pop()
    if a == CARD_COMMON:
        t = s._draw_common(p)
        if s.skills_on and s.skill[0] == p and t >= 0:
            s.stack.append((K_TOWN_HALL_SKILL, p, t, 0))
        else:
            s._activate_common(p, t)
    elif a.verb == "held":
        t = int(a.args[0])
        s.held[p * 4 + t] -= 1
        s._activate_common(p, t)
    elif a.verb == "card":
        text = str(a.args[0])
        c = FACTION_CARDS.index(text.split()[0])
        s.fcards[p * 3 + c] = 1
        if text == "sighting ufo":
            advance_ufo(s)
        elif text == "sighting reposition":
            s.stack.append((K_REPOSITION, p, 0, 0))
        elif c == CONFLUENCE:
            s._fill_hand(p, 4)
        else:
            s.stack.append((K_YOUR_POWERS, p, 0, 0))


def step_card_in_play(s: SilosState, fr: Frame) -> int:
    s.stack.pop()
    s.discard[fr[2]] += 1
    return -1


def step_end_of_turn(s: SilosState, fr: Frame) -> int:
    s.stack.pop()
    if max(s.emblems) >= s.target:  # ruling S-3: the game ends only at the end of a turn
        s.stack.clear()
        s._note((L_END,))
        return -1
    s.active = (s.active + 1) % s.players
    s._push_turn()
    return -1


FRAMES: dict[int, FrameFunctions] = {
    K_POSITIONING: (step_positioning, legal_positioning, apply_positioning),
    K_MOVEMENT: (step_movement, legal_movement, apply_movement),
    K_CARD: (step_card, legal_card, apply_card),
    K_END_OF_TURN: (step_end_of_turn, no_decision_legal, no_decision_apply),
    K_CARD_IN_PLAY: (step_card_in_play, no_decision_legal, no_decision_apply),
}
