"""The terminal rendering draws every part of the view; the heuristic agent is legal and beats random play."""

from __future__ import annotations

from rich.console import Console

import tabletop
from tabletop.agents import RandomAgent, play_game
from tabletop.core import Rng
from tabletop.core.logwords import render as say
from tabletop.games.silos.heuristic import HeuristicAgent
from tabletop.games.silos.render import render


def test_render_shows_locations_figures_ranks_players_and_deck():
    s = tabletop.new_game("silos", 3, 4, {"crop_circles": 6, "skill_tiles": True, "alternate_tiles": [5]})
    rng = Rng(2)
    for _ in range(80):
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    console = Console(width=140, record=True, color_system=None)
    console.print(render(s.view(1)))
    text = console.export_text()
    for needle in ("Town Hall", "Bus Station", "Church*", "Town Hall ranks", "Common deck", "UFO", "emblems",
                   "B:", "crop tile", "you are yellow (seat 1)", "Recent events", "Decision for", "discards",
                   "streets", "skill tiles", "crop tokens"):
        assert needle in text, needle
    assert say(s.view(1)["log"][-1], None, 1) in text
    assert s.view(1)["seats"][0]["color"] in text


def test_heuristic_agent_plays_legal_actions_and_beats_random():
    wins = 0
    for g in range(6):
        s = tabletop.new_game("silos", 2, g)
        play_game(s, [HeuristicAgent(g), RandomAgent(g)])
        wins += 0 in s.winners()
    assert wins >= 5
