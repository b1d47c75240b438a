"""The heuristic agent plays legal moves and beats random play; the renderer draws any view."""

from __future__ import annotations

from rich.console import Console

import tabletop
from tabletop.core import Rng, SeatHandle
from tabletop.games.siliconvania.heuristic import HeuristicAgent
from tabletop.games.siliconvania.render import render


def test_heuristic_agent_plays_whole_games_and_render_draws_every_view():
    wins = 0
    for seed in range(3):
        s = tabletop.new_game("siliconvania", 2, seed)
        agent, rng = HeuristicAgent(seed), Rng(seed)
        steps = 0
        while not s.is_over:
            if s.to_move == 0:
                a = agent.act(SeatHandle(s, 0))
            else:
                legal = s.legal_actions()
                a = legal[rng.below(len(legal))]
            s.apply(a)
            steps += 1
            if steps % 40 == 0:
                Console(width=140, file=open("/dev/null", "w")).print(render(s.view(0)))  # noqa: SIM115
        wins += 0 in s.winners()
        out = Console(width=140, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
        out.print(render(s.view(None)))
        assert "Final scoring" in out.export_text()
    assert wins >= 2


def test_render_shows_your_city_first_the_log_since_your_last_decision_and_no_raw_python():
    s = tabletop.new_game("siliconvania", 3, 5)
    rng = Rng(2)
    while s.round < 3 or s.to_move != 0 or s.legal_actions()[0].verb != "pool":
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    out = Console(width=160, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    out.print(render(s.view(0)))
    text = out.export_text()
    assert text.index("Your city") < text.index("Council board") < text.index("Seat 1  ")
    assert "Since your last decision" in text and "revealed bid" in text
    assert "{'" not in text and "[0, " not in text  # no raw dicts or lists


def test_your_face_down_bid_is_not_shown_again_among_your_bid_cards_and_specialists():
    """Once you bid (face down), the bid card and its specialist are shown as the bid, not also as free cards."""
    from tabletop.games.siliconvania.render import free_bid_cards, free_hand

    s = tabletop.new_game("siliconvania", 3, 5)
    bid = s.legal_actions()[0]
    s.apply(bid)
    me = s.view(0)["seats"][0]
    card, spec = me["bid"]
    assert card in me["bid_cards"] and spec in me["hand"]  # the view still holds them (they are yours)
    assert card not in free_bid_cards(me) and spec not in free_hand(me)
    assert len(free_bid_cards(me)) == len(me["bid_cards"]) - 1 and len(free_hand(me)) == len(me["hand"]) - 1
    console = Console(width=140, record=True, color_system=None)
    console.print(render(s.view(0)))
    text = console.export_text()
    assert f"bid {card} with s{spec}" in text
    assert f"bid cards {' '.join(map(str, free_bid_cards(me)))}" in text
    assert text.count(f"s{spec} ") == text.count(f"with s{spec} ") >= 1  # only where the bid is named
