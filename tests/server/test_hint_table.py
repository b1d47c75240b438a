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


def test_an_ai_seat_decides_knowing_who_sits_at_the_table(make_client: Factory, monkeypatch) -> None:
    """The server hands its AI move the table's seat kinds (public facts): Silencio's hard seat reads its teammates
    by them (`TeamAgent.at_table`)."""
    client = make_client(ai_workers=1)
    service = client.app.state.service
    asked: list[tuple[int, str, list[str | None] | None]] = []

    def submit(game_id, seq, seat, label, record, priority, table=None):
        asked.append((seat, label, table))

    monkeypatch.setattr(service.ai, "submit", submit)
    create(client, "silencio", [{"kind": "ai", "ai": "hard"}, {"kind": "creator"}, {"kind": "ai", "ai": "medium"}],
           options={"first_player": 0})
    assert (0, "hard", ["hard", "human", "medium"]) in asked, asked


def test_choose_action_seats_the_team_agent_at_the_table(monkeypatch) -> None:
    import tabletop
    from tabletop.agents.team import TeamAgent
    from tabletop.server.ai import choose_action

    seated: list[tuple[int, list[str | None]]] = []
    original = TeamAgent.at_table

    def at_table(self: TeamAgent, me: int, kinds: list[str | None]) -> TeamAgent:
        seated.append((me, list(kinds)))
        return original(self, me, kinds)

    monkeypatch.setattr(TeamAgent, "at_table", at_table)
    monkeypatch.setattr("tabletop.server.ai.level_spec", lambda label, game: "team:iters=20")
    state = tabletop.new_game("silencio", players=3, seed=3, options={"first_player": 0})
    text = choose_action(state.record(), 0, "hard", seed=1, table=["hard", "human", "medium"])
    assert text in [a.text for a in state.legal_actions()]
    assert seated == [(0, ["hard", "human", "medium"])]
    choose_action(state.record(), 0, "hard", seed=1)  # no table known: the agent as its level makes it
    assert len(seated) == 1
