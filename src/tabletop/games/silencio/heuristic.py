"""A sensible casual Silencio teammate.

Every card skipped over in a row is lost for the team: playing b7 on b3 kills b4, b5 and b6 for good. So the
heuristic plays the card that kills the fewest live cards, counting a skipped card fully when it is known to be
held (its own hand, cards face up in front of players, cards it knows a teammate holds) and by probability when
its place is unknown. Follow-on cards are cheap but create dark effects, priced by how much they usually hurt the
team: blue (a card more for someone) > yellow (a random card next turn) > green (green only) > red. Before a
costly dark effect it takes a red (or the large) shrine to skip it. Light effects: it always uses red light and
otherwise declines (blue light takes a card back, which the team must play again). When it may pass because only
cards in front of others fit, it plays them only if they kill nothing. Passing round: it gives away its highest
card. Blue dark: the most playable oracle card goes to the next player. It never takes the tavern.
"""

from __future__ import annotations

from typing import Any

from tabletop.core import Action, SeatHandle
from tabletop.games.silencio.notation import COLOURS, card_text

DARK_COST = {"red": 0.1, "blue": 0.8, "yellow": 0.6, "green": 0.35}


class HeuristicAgent:
    """Plays the card that wastes the fewest live cards; see the module docstring."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # the heuristic is deterministic; the seed is accepted for the common agent signature

    def act(self, seat: SeatHandle) -> Action:
        """The heuristic's choice among the legal actions."""
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal[0]
        view = seat.view()
        by_text = {a.text: a for a in legal}
        verbs = {a.verb for a in legal}
        if "give" in verbs and all(a.verb == "give" for a in legal):
            return max(legal, key=lambda a: (int(a.text[6:]), a.text))  # give the highest card
        if "use red light" in verbs:
            return by_text["use red light"]
        if "oracle" in verbs:
            return self._blue_dark(view, legal)
        if "play" in verbs:
            return self._play(view, legal, by_text)
        if "skip" in by_text:
            return by_text["skip"]
        if "end" in by_text:
            return by_text["end"]
        if "renew oracle" in by_text:
            return by_text["renew oracle"]
        if "pass" in by_text:
            # unable to play but able after a start-of-turn shrine (ruling C-4): take it rather than pass
            return next((a for a in legal if a.verb == "shrine"), by_text["pass"])
        return legal[0]  # give/return in a green swap: any card does

    def _play(self, view: dict[str, Any], legal: list[Action], by_text: dict[str, Action]) -> Action:
        weights = _live_weights(view)
        seat = view["seat"]
        mine = set(view["hand"]) | set(view["fronts"][seat])
        hand_left = len(view["hand"]) + len(view["fronts"][seat])
        best: tuple[float, int, str] | None = None
        for a in legal:
            if a.verb != "play":
                continue
            text = a.text[5:]
            colour = COLOURS["rbyg".index(text[0])]
            value = int(text[1:])
            top = view["rows"][colour][-1] if view["rows"][colour] else 1
            cost = sum(weights.get(f"{text[0]}{u}", 0.0) for u in range(top + 1, value))
            is_last = text in mine and hand_left == 1
            creates_dark = value == top + 1 and not is_last and not (colour == "green" and value == view["max_value"])
            if creates_dark and not view["effects"]["skip_next_dark"]:
                cost += DARK_COST[colour]
            if text not in mine:
                cost += 0.05  # prefer own cards: others' face-up cards stay playable by anyone
            key = (cost, value, text)
            if best is None or key < best:
                best = key
        assert best is not None
        cost, value, text = best
        if "pass" in by_text and text not in mine and cost >= 0.5:
            return by_text["pass"]
        colour = COLOURS["rbyg".index(text[0])]
        top = view["rows"][colour][-1] if view["rows"][colour] else 1
        dark = value == top + 1 and DARK_COST[colour] >= 0.6 and not view["effects"]["skip_next_dark"]
        if dark and len(mine) > 1:
            for shrine in ("shrine red", "shrine large red"):
                if shrine in by_text:
                    return by_text[shrine]
        return by_text[f"play {text}"]

    def _blue_dark(self, view: dict[str, Any], legal: list[Action]) -> Action:
        nxt = f"p{(view['seat'] + 1) % view['players']}"

        def gap(a: Action) -> tuple[int, int]:
            text = a.text.split()[1]
            colour = COLOURS["rbyg".index(text[0])]
            top = view["rows"][colour][-1] if view["rows"][colour] else 1
            value = int(text[1:])
            playable = value > top
            return (0 if playable else 1, value - top if playable else -value)

        candidates = [a for a in legal if a.text.endswith(nxt)] or legal
        return min(candidates, key=lambda a: (*gap(a), a.text))


def _live_weights(view: dict[str, Any]) -> dict[str, float]:
    """How surely each unplayed card will still have to be played by the team (1 = surely held)."""
    weights: dict[str, float] = {}
    held = set(view["hand"])
    for f in view["fronts"]:
        held.update(f)
    for cards in view["known"].values():
        held.update(cards)
    for c in held:
        weights[c] = 1.0
    for c in view["oracle"]:
        weights[c] = 0.3
    hidden_in_hands = sum(view["hand_sizes"]) - len(view["hand"]) - sum(len(v) for v in view["known"].values())
    hidden = hidden_in_hands + view["deck"]
    p_hand = hidden_in_hands / hidden if hidden else 0.0
    played = {f"{colour[0]}{v}" for colour, values in view["rows"].items() for v in values}
    out_of_play = set(view["box"]) | played | set(view["oracle"])
    for colour in COLOURS:
        for v in range(2, view["max_value"] + 1):
            c = card_text("rbyg".index(colour[0]) * 16 + v)
            if c not in weights and c not in out_of_play:
                weights[c] = p_hand
    return weights
