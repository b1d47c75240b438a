"""The fourth game's folder is found as a game's folder is: its parts by `tabletop.core.parts.part`, its help file
by `tabletop.core.help.game_help`, through the distribution's package and nothing in tabletop."""

from __future__ import annotations

import inspect

from core import test_help
from tabletop import new_game
from tabletop.core import SeatHandle
from tabletop.core.help import game_help
from tabletop.core.parts import PARTS, part


def test_the_parts_of_the_fourth_game_are_found_in_its_own_package(nines: str) -> None:
    present = {name for name in PARTS if part(nines, name) is not None}
    assert present >= {"heuristic", "render", "features", "encoding", "ai"}
    assert "tui" not in present and "team" not in present  # absent parts are None, not an error
    for name in present:
        module = part(nines, name)
        assert module is not None and module.__name__ == f"nines.{name}", name
        for attr in PARTS[name]:
            assert hasattr(module, attr), (name, attr)
    state = new_game(nines, seed=3)
    heuristic = part(nines, "heuristic")
    assert heuristic is not None
    action = heuristic.HeuristicAgent(1).act(SeatHandle(state, 0))
    assert action == max(state.legal_actions(), key=lambda a: int(a.args[0]))  # it leads its highest card
    render = part(nines, "render")
    assert render is not None
    assert "trick" in str(render.render(state.view(0)))


def test_the_help_checks_pass_for_the_fourth_game(nines: str) -> None:
    h = game_help(nines)
    assert h["title"] == "Nines" and "play " in h["actions"]
    checks = [f for name, f in vars(test_help).items()
              if name.startswith("test_every_") and list(inspect.signature(f).parameters) == ["game"]]
    assert len(checks) == 2
    for check in checks:
        check(nines)
