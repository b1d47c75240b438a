"""Issue 28: a Silencio hint on the server reads the table as it is (which seats are people, which AI at which
level) and says what it assumed; the kinds come from the game's public seats only."""

from __future__ import annotations

from tabletop.server.ai import seat_kinds

from .conftest import Factory, auth, create, state_of


def test_the_seat_kinds_are_people_and_ai_labels_from_the_public_seats():
    seats = [{"seat": 0, "kind": "human", "ai": None}, {"seat": 1, "kind": "ai", "ai": "medium"},
             {"seat": 2, "kind": "ai", "ai": "mypolicy"}]
    assert seat_kinds(seats) == ["human", "medium", "mypolicy"]


def test_a_silencio_hint_says_which_teammates_it_assumed(make_client: Factory) -> None:
    client = make_client(hint_seconds=0.3)
    g = create(client, "silencio", [{"kind": "creator"}, {"kind": "ai", "ai": "medium"}, {"kind": "ai", "ai": "easy"}],
               options={"first_player": 0})
    gid, token = g["id"], g["token"]
    before = state_of(client, gid, token)
    assert 0 in before["deciding"], before["deciding"]
    r = client.post(f"/api/games/{gid}/hints", headers=auth(token))
    assert r.status_code == 200, r.text
    hints = r.json()["hints"]
    assert hints and all(h["action"] in before["legal"] for h in hints)
    assert all(h["reason"].endswith("assumes Player 2 medium AI, Player 3 easy AI") for h in hints), hints
    assert state_of(client, gid, token) == before  # asking changes nothing
