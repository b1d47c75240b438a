"""The AI worker function: every strength label decides through a seat handle of a state rebuilt from the record."""

from __future__ import annotations

import pytest

import tabletop
from tabletop.server.ai import AI_LABELS, choose_action

from .conftest import Factory, create, state_of


@pytest.mark.parametrize("label", sorted(AI_LABELS))
def test_each_label_picks_a_legal_action(label: str) -> None:
    state = tabletop.new_game("siliconvania", players=2, seed=4)
    text = choose_action(state.record(), state.to_move or 0, label, seed=1)
    assert text in [a.text for a in state.legal_actions()]


def test_stored_options_are_the_resolved_ones(make_client: Factory) -> None:
    client = make_client()
    g = create(client, "silencio", [{"kind": "creator"}, {"kind": "invite"}])
    info = client.get(f"/api/games/{g['id']}").json()
    assert set(info["options"]) == {o.name for o in tabletop.game_info("silencio").options}
    assert state_of(client, g["id"])["seq"] == 0
