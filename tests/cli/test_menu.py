"""The human seat's menu: numbered, grouped when long, numbers match the actions; refusals and hints stay short."""

from __future__ import annotations

import pytest
from rich.console import Console

import tabletop
from tabletop.cli import play as play_cli
from tabletop.core import Action, SeatHandle


def text_of(renderable: object, width: int = 100) -> str:
    console = Console(record=True, width=width)
    console.print(renderable)
    return console.export_text()


def test_short_menu_lists_one_action_a_line_in_legal_order():
    state = tabletop.new_game("silencio", 3, 7)
    legal = state.legal_actions()
    assert play_cli.menu_order(legal) == legal
    lines = [line.split() for line in text_of(play_cli.menu(legal)).splitlines() if line.strip()]
    assert lines == [[str(i + 1), *a.text.split()] for i, a in enumerate(legal)]


def test_siliconvania_bids_are_a_grid_of_bid_values_by_specialist():
    state = tabletop.new_game("siliconvania", 3, 7)
    legal = state.legal_actions()
    assert len(legal) == 54  # 7 cards x 6 specialists, and 6=0 / 7=0 with the two starting vampires (ruling V-9)
    order = play_cli.menu_order(legal)
    assert sorted(a.text for a in order) == sorted(a.text for a in legal)
    lines = [line.split() for line in text_of(play_cli.menu(legal)).splitlines() if line.strip()]
    specialists = lines[0]
    assert len(lines) == 1 + 9 and len(specialists) == 6
    for row in lines[1:]:
        value = row[1]
        for spec, number in zip(specialists, row[2:], strict=True):
            assert order[int(number) - 1].text == f"bid {value} {spec}"


def test_menu_fits_a_100_column_terminal():
    state = tabletop.new_game("silos", 3, 7)
    for _ in range(200):
        if state.to_move is None:
            break
        legal = state.legal_actions()
        out = text_of(play_cli.menu(legal), width=100)
        assert "…" not in out, out
        # every action's number appears once: the menu and the number mapping agree
        assert len(play_cli.menu_order(legal)) == len(legal)
        state.apply(legal[len(legal) // 2])


def test_human_number_follows_the_grouped_menu(monkeypatch):
    state = tabletop.new_game("siliconvania", 3, 7)
    answers = iter(["bid 4 s4", "20"])
    monkeypatch.setattr(play_cli.Prompt, "ask", lambda *a, **k: next(answers))
    console = Console(record=True, width=150)
    human = play_cli.HumanAgent(console, "siliconvania")
    action = human.act(SeatHandle(state, 0))
    assert action is play_cli.menu_order(state.legal_actions())[19]
    out = console.export_text()
    assert "is not legal now" in out and "Did you mean" in out
    # the refusal does not dump all 42 legal actions
    assert out.count("bid 7") < 3


@pytest.mark.parametrize("cooperative", [False, True])
def test_hint_table_shows_menu_numbers_and_explains_the_value(cooperative):
    state = tabletop.new_game("silencio" if cooperative else "siliconvania", 3, 7)
    shown = play_cli.menu_order(state.legal_actions())
    ranked: list[tuple[Action, int, float]] = [(shown[3], 40, 0.61), (shown[0], 12, 0.3)]
    out = text_of(play_cli.hint_table(ranked, shown))
    assert "from your view only" in out and "0 (worst) to 1" in out
    row = next(line for line in out.splitlines() if shown[3].text in line)
    assert row.split()[0] == "4" and "0.61" in row
