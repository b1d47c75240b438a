"""Each game's render at the start, middle and end of a seeded game: key facts present, hidden cards absent.

The render is drawn from `state.view(seat)` only, into a 100-column recorded console, as `tabletop play` shows it.
"""

from __future__ import annotations

import importlib
import json
import re
from typing import Any

import pytest
from rich.console import Console

import tabletop
from tabletop.agents import make_agent
from tabletop.core import SeatHandle, State

SEAT = 0


def draw(game: str, view: dict[str, Any], width: int = 100) -> str:
    render = importlib.import_module(f"tabletop.games.{game}.render").render
    console = Console(record=True, width=width, color_system=None)
    console.print(render(view))
    return console.export_text()


def positions(game: str, seed: int = 7) -> dict[str, State]:
    """The seeded 3p game at SEAT's first decision, at one mid-game after others acted, and at the end."""
    state = tabletop.new_game(game, 3, seed)
    agents = [make_agent("heuristic", game, seed + i) for i in range(3)]
    out: dict[str, State] = {}
    mine, last = 0, None
    while state.to_move is not None:
        if state.to_move == SEAT:
            mine += 1
            if mine == 1:
                out["start"] = state.clone()
            elif mine >= 12 and last != SEAT and "mid" not in out:
                out["mid"] = state.clone()  # others have acted since SEAT's last decision
        last = state.to_move
        state.apply(agents[state.to_move].act(SeatHandle(state, state.to_move)))
    out["end"] = state
    assert set(out) == {"start", "mid", "end"}
    return out


@pytest.fixture(scope="module", params=["silencio", "silos", "siliconvania"])
def game(request: pytest.FixtureRequest) -> tuple[str, dict[str, State]]:
    return request.param, positions(request.param)


def test_start_and_mid_say_it_is_your_decision_and_what_it_is(game):
    name, at = game
    for when in ("start", "mid"):
        view = at[when].view(SEAT)
        text = draw(name, view)
        assert view["to_move"] == SEAT
        flat = " ".join(text.split())
        assert any(f"{p} {view['decision']}" in flat for p in ("Your decision —", "Decision for you:",
                                                                "your decision:")), (when, flat[-300:])
        # nothing a player should not read: no raw Python containers
        assert "{'" not in text and "[0, " not in text


def test_mid_game_shows_what_happened_since_your_last_decision(game):
    name, at = game
    view = at["mid"].view(SEAT)
    text = draw(name, view)
    assert "since your last decision" in text.lower()
    last = view["log"][-1]
    last_text = last["text"] if isinstance(last, dict) else last[1] if isinstance(last, list) else last
    assert " ".join(last_text.split()[:3]) in " ".join(text.split())


def test_end_shows_the_result_and_its_breakdown(game):
    name, at = game
    state = at["end"]
    view = state.view(SEAT)
    flat = " ".join(draw(name, view).split())
    if name == "silencio":
        assert f"Game over — {view['result']['cards_left']} card(s) left" in flat
    elif name == "silos":
        assert "Result" in flat and "winner" in flat and "humans + cows" in flat
        for i, seat in enumerate(view["seats"]):
            assert re.search(rf"{i} {seat['color']}\S* .*? {seat['emblems']} ", flat)
    else:
        assert "Final scoring" in flat and "Total" in flat and "Housed vampires" in flat
        totals = re.search(r"Total ((?:\d+ ?)+)", flat)
        assert totals is not None
        assert [int(x) for x in totals.group(1).split()] == [int(s) for s in state.scores()]


def test_every_position_fits_100_and_150_columns_without_cutting_words(game):
    name, at = game
    for state in at.values():
        for width in (100, 150):
            text = draw(name, state.view(SEAT), width)
            assert max(len(line) for line in text.splitlines()) <= width
            assert "…" not in text, (name, width)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]+\d+", text))


@pytest.mark.parametrize("when", ["start", "mid"])
def test_silencio_other_hands_are_not_drawn(when):
    state = positions("silencio")[when]
    view = state.view(SEAT)
    public = _words(json.dumps(view))
    hidden = {c for p, hand in enumerate(state.snapshot()["hands"]) if p != SEAT for c in _card_texts(hand)} - public
    assert hidden, "the test needs some hidden cards"
    assert not hidden & _words(draw("silencio", view))


def _card_texts(hand: list[Any]) -> list[str]:
    from tabletop.games.silencio.notation import card_text
    return [c if isinstance(c, str) else card_text(c) for c in hand]


@pytest.mark.parametrize("when", ["start", "mid"])
def test_siliconvania_other_hands_and_unrevealed_bids_are_not_drawn(when):
    state = positions("siliconvania")[when]
    view = state.view(SEAT)
    text = draw("siliconvania", view)
    public = {int(w[1:]) for w in re.findall(r"\bs\d+\b", text)}
    mine = set(view["seats"][SEAT]["hand"])
    others = {r for p in range(3) if p != SEAT for r in state.view(p)["seats"][p]["hand"]}
    visible = {r for s in view["seats"] for r in s["objectives"]} | set(view["row"])
    visible |= {s["bid"][1] for s in view["seats"] if s.get("bid")}
    visible |= {r for s in view["seats"] for r in s.get("revealed_discards", [])}
    visible |= {int(x) for e in view["log"] for x in re.findall(r"\bs(\d+)\b", e["text"])}  # e.g. taken from the row
    hidden = others - mine - visible
    assert hidden, "the test needs some hidden specialists"
    assert not hidden & public
