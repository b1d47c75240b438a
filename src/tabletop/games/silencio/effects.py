"""Silencio: the colour effects. A card that follows its row creates the colour's dark effect, any other card offers
its light effect (optional); the choices an effect asks for, and what each choice does.

The effects, by colour: red light skips the next card's dark effect, red dark skips the next light effect; blue light
takes the last card of a row other than blue, blue dark gives an oracle card away; yellow light places a hand card face
up in front of its player, yellow dark makes the next player play a random card; green light lets a chosen player
give a card, swap with the oracle or renew it, green dark allows only green next. Rulings C-4, C-10 to C-13.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.core import Action
from tabletop.games.silencio.components import COMPONENTS
from tabletop.games.silencio.notation import (
    ALL_KNOW,
    BLUE,
    CHOOSE,
    EFFECT,
    END,
    GIVETO,
    GREEN,
    ORACLE,
    P_BLUE_DARK,
    P_BLUE_LIGHT,
    P_GREEN_ACT,
    P_GREEN_LIGHT,
    P_GREEN_RETURN,
    P_RED_LIGHT,
    P_YELLOW_LIGHT,
    PLACE,
    RED,
    RENEW,
    RETURN,
    SKIP,
    SWAP,
    TAKE,
    UNLOCK,
    USE_RED,
    YELLOW,
    card,
)

if TYPE_CHECKING:
    from tabletop.games.silencio.rules import SilencioState


def effect_actions(s: SilencioState, p: int) -> list[Action]:
    """The choices of p, who owes the pending effect's decision."""
    k = s.pending
    if k == P_RED_LIGHT:
        return [USE_RED, SKIP]
    if s.enable == UNLOCK:  # ruling C-4: a shrine taken to become able to play is used for that
        return enabling_effect_actions(s, p)
    if k == P_BLUE_LIGHT:
        return [*(TAKE[card(col, s.rows[col][-1])] for col in (RED, YELLOW, GREEN) if s.rows[col]), SKIP]
    if k == P_YELLOW_LIGHT:
        return [*(PLACE[c] for c in sorted(s.hands[p])), SKIP]
    if k == P_GREEN_LIGHT:  # ruling C-3: only a player who has an action can be chosen
        any_oracle = bool(s.oracle or s.deck)
        t = s.turn if s.enable else -1  # ruling C-4: the player in turn's own actions may be fewer
        return [*(CHOOSE[q] for q in range(s.players)
                  if (green_act_actions(s, q) if q == t else any_oracle or s.hands[q])), SKIP]
    if k == P_GREEN_ACT:
        return green_act_actions(s, p)
    if k == P_GREEN_RETURN:
        out = [RETURN[c] for c in sorted(s.hands[p])]
        if s.enable and p == s.turn:  # ruling C-4: the player in turn keeps a card to play (its own choice only)
            out = [a for a in out if keeps_play(s, [c for c in s.hands[p] if c != a.args[0]])]
        return out
    # P_BLUE_DARK
    return [ORACLE[c][q] for c in s.oracle for q in range(s.players) if q != p]


def keeps_play(s: SilencioState, hand: list[int]) -> bool:
    """Could the player in turn play holding `hand` (cards in front of anyone count too)?"""
    return any(s._playable(c) for c in hand) or any(s._playable(c) for f in s.fronts for c in f)


def enabling_effect_actions(s: SilencioState, p: int) -> list[Action]:
    """The effect choices after which p, who took a shrine at the start while unable to play, can play."""
    k = s.pending
    if k == P_BLUE_LIGHT:
        cols = (GREEN,) if s.green_only else (RED, YELLOW, GREEN)
        return [TAKE[card(col, s.rows[col][-1])] for col in cols if s.rows[col]]
    if k == P_GREEN_LIGHT:
        return [CHOOSE[p]]
    # P_GREEN_ACT, chosen: itself
    return [SWAP[o][c] for o in s.oracle if s._playable(o) for c in sorted(s.hands[p])]


def green_act_actions(s: SilencioState, q: int) -> list[Action]:
    """The green actions of the chosen player q. Ruling C-4 (version 3): during a start-of-turn shrine the player in
    turn's own choices keep it a card to play (it gives or swaps away no card it would need); another player's
    choices are free (the rulebook: "gives any other player a card from their hand")."""
    out = green_options(s, q)
    if s.enable and q == s.turn:
        hand = s.hands[q]
        out = [a for a in out
               if (a.verb == "giveto" and keeps_play(s, [c for c in hand if c != a.args[0]]))
               or (a.verb == "swap" and keeps_play(s, [*(c for c in hand if c != a.args[1]), int(a.args[0])]))
               or a.verb == "renew oracle"]
    return out


def green_options(s: SilencioState, q: int) -> list[Action]:
    hand = sorted(s.hands[q])
    out = [GIVETO[c][r] for c in hand for r in range(s.players) if r != q]
    out.extend(SWAP[o][c] for o in s.oracle for c in hand)  # ruling C-13: never the card just taken
    if s.oracle or s.deck:
        out.append(RENEW)
    return out


def dark_created(s: SilencioState) -> None:
    """Ruling C-12: only dark effects created while the tavern is closed count toward opening it."""
    if s.tavern and not s.tavern_open:
        s.tavern_count += 1
        if s.tavern_count >= COMPONENTS.tavern_opens_after:
            s.tavern_open = True


def dark_effect(s: SilencioState, p: int, col: int) -> None:
    if col == RED:
        s.skip_light = True
    elif col == BLUE:
        if s.oracle:
            pend(s, P_BLUE_DARK, p)
    elif col == YELLOW:
        s.random_play = (p + 1) % s.players
    else:
        s.green_only = True


def offer_light(s: SilencioState, p: int, col: int) -> None:
    """Offer p the (optional) light effect of `col`; skipped at once when it has no possible use."""
    if col == RED:
        pend(s, P_RED_LIGHT, p)
    elif col == BLUE:
        if s.rows[RED] or s.rows[YELLOW] or s.rows[GREEN]:
            pend(s, P_BLUE_LIGHT, p)
    elif col == YELLOW:
        if s.hands[p]:
            pend(s, P_YELLOW_LIGHT, p)
    elif s.oracle or s.deck or any(s.hands):  # someone can be chosen (see _green_options)
        pend(s, P_GREEN_LIGHT, p)


def pend(s: SilencioState, kind: int, who: int, a: int = 0) -> None:
    s.phase, s.pending, s.pend_a = EFFECT, kind, a
    s.to_move = who


def done_effect(s: SilencioState) -> None:
    s.pending, s.enable = -1, 0
    s.phase, s.to_move = s.after, s.turn
    if s.after == END:
        s._enter_end()


def resolve_effect(s: SilencioState, p: int, a: Action) -> None:
    verb, args = a.verb, a.args
    if verb == "skip":
        s._note(("skip", p))
    elif verb == "use red light":
        s.skip_dark = True
        s._note(("red", p))
    elif verb == "take":
        c = int(args[0])
        s.rows[c >> 4].pop()
        s.halves[c >> 4].pop()
        s.hands[p].append(c)
        s.known[c] = ALL_KNOW
        s._note(("take", p, c))
    elif verb == "place":
        c = int(args[0])
        s.hands[p].remove(c)
        s.fronts[p].append(c)
        s.known[c] = ALL_KNOW
        s._note(("place", p, c))
    elif verb == "choose":
        q = int(args[0])
        s._note(("choose", p, q))
        pend(s, P_GREEN_ACT, q, p)  # ruling C-3: the chosen player picks the action and its details
        return
    elif verb == "giveto":
        c, r = int(args[0]), int(args[1])
        s._give_privately(p, r, c)
        s._note(("giveto", p, r, c))
        pend(s, P_GREEN_RETURN, r, p)
        return
    elif verb == "return":
        c, r = int(args[0]), s.pend_a
        s._give_privately(p, r, c)
        s._note(("giveto", p, r, c))
    elif verb == "swap":
        o, c = int(args[0]), int(args[1])
        i = s.oracle.index(o)
        s.hands[p].remove(c)
        s.hands[p].append(o)
        s.oracle[i] = c
        s.known[o] = s.known[c] = ALL_KNOW
        s._note(("swap", p, o, c))
    elif verb == "renew oracle":
        s.box.extend(s.oracle)
        s.oracle = [s.deck.pop() for _ in range(min(s.players, len(s.deck)))]
        for c in s.oracle:
            s.known[c] = ALL_KNOW
        s._note(("renew", p))
    elif verb == "oracle":
        c, q = int(args[0]), int(args[1])
        i = s.oracle.index(c)
        s.hands[q].append(c)
        s.known[c] = ALL_KNOW
        if s.deck:
            s.oracle[i] = s.deck.pop()
            s.known[s.oracle[i]] = ALL_KNOW
        else:
            del s.oracle[i]  # ruling C-6: an empty deck leaves the spot empty
        s._note(("oracle", p, q, c))
    done_effect(s, )
