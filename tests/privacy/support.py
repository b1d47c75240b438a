"""Helpers for the privacy tests: random mid-game states, and which decisions are private to whom.

A *private decision* is one whose choice only the deciding seat (and, for a card handed over, its receiver) may
learn: a Silencio pass or green-light give-back, a SiliconVania silent bid. SILOS has none (all its information is
public; only future chance is unknown).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import tabletop
from tabletop.core import Action, Rng, State

GAMES = tabletop.games()


def states(game: str, players: int, seed: int, every: int = 5, limit: int = 400) -> Iterator[State]:
    """Copies of the states of one random playout, every `every`-th decision on average (never the last one)."""
    state = tabletop.new_game(game, players, seed)
    rng = Rng(seed + 17)
    steps = 0
    while not state.is_over and steps < limit:
        if rng.below(every) == 0:
            yield state.clone()
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        steps += 1


def private_groups(state: State) -> list[tuple[int | None, list[Action]]]:
    """The legal actions of `state.to_move` that must look alike to every seat but the mover (and the receiver).

    Returns groups (receiver or None, actions): within a group, the actions differ only in what is secret from
    every other seat, so applying any of them must give the same view to all those seats.
    """
    legal = state.legal_actions()
    game = state.game
    if game == "silencio":
        groups: dict[int | None, list[Action]] = {}
        for a in legal:
            if a.verb == "give":  # the passing round: to the left
                groups.setdefault((state.to_move + 1) % state.players, []).append(a)  # type: ignore[operator]
            elif a.verb == "giveto":  # green light: the chosen seat gives a card to another seat
                groups.setdefault(int(a.args[1]), []).append(a)
            elif a.verb == "return":  # green light: the receiver gives a card back
                groups.setdefault(int(state.pend_a), []).append(a)  # type: ignore[attr-defined]
        return [(r, acts) for r, acts in groups.items() if len(acts) > 1]
    if game == "siliconvania":
        bids = [a for a in legal if a.verb == "bid"]
        return [(None, bids)] if len(bids) > 1 else []
    return []


def still_secret(state: State) -> bool:
    """False once the secret is out by the rules: the last silent bid reveals every bid at once; in Silencio, once
    the flow has gone on past the card handed over to a seat's pass or play without asking (ruling C-9: a decision
    with one legal answer is taken for the seat), the table has seen what the rules show it: a pass says that seat
    cannot play, a play is the only card it could play."""
    if state.game == "silencio":
        events = state.events  # type: ignore[attr-defined]
        last = max((i for i, e in enumerate(events) if e[0] in ("give", "giveto")), default=len(events))
        return not any(e[0] in ("pass", "play") for e in events[last + 1:])
    return not (state.game == "siliconvania" and state.revealed)  # type: ignore[attr-defined]


def view_text(state: State, seat: int | None) -> str:
    return json.dumps(state.view(seat), sort_keys=True)


def comparable(state: State) -> dict[str, Any]:
    """The whole state as data, to compare two samples."""
    return json.loads(json.dumps(state.snapshot(), sort_keys=True, default=str))
