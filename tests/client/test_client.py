"""`tabletop.client` against a real `tabletop serve` process: create, claim by invite link, play whole games over
REST and the socket, refusals as ApiError with what the server said."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.proc import Server
from tabletop.client import ApiError, Client, parse_invite


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("client-serve")
    env = {"TABLETOP_GAMES_PER_HOUR": "0", "TABLETOP_OPEN_GAMES": "0", "TABLETOP_AI_SEATS_PER_ADDRESS": "0",
           "TABLETOP_AI_ONLY_GAMES": "0"}
    s = Server(f"sqlite:///{tmp / 'client.sqlite3'}", tmp / "serve.log", ai_workers=1, env=env).start()
    yield s
    s.stop()


def test_an_invite_link_names_its_server_game_and_code() -> None:
    assert parse_invite("https://play.example/tt/join/g123#abc") == ("https://play.example/tt", "g123", "abc")
    with pytest.raises(ValueError, match="invite link"):
        parse_invite("https://play.example/join/g123")  # no code


def test_two_people_play_a_whole_game_through_the_client(server: Server) -> None:
    with Client(server.url) as c:
        assert "silencio" in {g["name"] for g in c.games()}
        made = c.create("silos", players=2, seats=[{"kind": "creator"}, {"kind": "invite"}], name="Ann")
        assert made.token and len(made.invites) == 1
        ann = c.seat(made.game_id, made.token)
        bo = c.claim_invite(made.invites[0]["url"], name="Bo")
        assert (ann.seat, bo.seat) == (0, 1)
        seats = {0: ann, 1: bo}
        moves = 0
        state = ann.state()
        while state["status"] != "over":
            mover = seats[state["to_move"]]
            mine = mover.state()
            answer = mover.act(mine["legal"][-1], mine["seq"])
            assert answer["duplicate"] is False
            state = answer["state"]
            moves += 1
        record = c.record(made.game_id)
        assert len(record["actions"]) >= moves > 50
        assert bo.log()["log_pos"] > 0


def test_refusals_are_api_errors_with_what_the_server_said(server: Server) -> None:
    with Client(server.url) as c:
        made = c.create("silencio", players=2, seats=[{"kind": "creator"}, {"kind": "invite"}],
                        options={"first_player": 0})
        ann = c.seat(made.game_id, made.token)
        bo = c.claim_invite(made.invites[0]["url"])
        state = ann.state()
        assert state["to_move"] == 0
        with pytest.raises(ApiError) as illegal:
            ann.act("fly away", state["seq"])
        assert illegal.value.status == 422 and illegal.value.legal == state["legal"]
        with pytest.raises(ApiError) as off_turn:
            bo.act(state["legal"][0], state["seq"])
        assert off_turn.value.status == 409 and "seat 0" in off_turn.value.detail and not off_turn.value.legal
        with pytest.raises(ApiError) as silent:
            ann.chat("hello")
        assert silent.value.status == 403 and "talk" in silent.value.detail
        with pytest.raises(ApiError) as live:
            c.record(made.game_id)
        assert live.value.status == 409
        first = ann.act(state["legal"][0], state["seq"], client_action_id="py-same")
        again = ann.act(state["legal"][0], state["seq"], client_action_id="py-same")
        assert again["duplicate"] is True and again["seq"] == first["seq"]


def test_a_seat_plays_an_ai_over_the_socket_waiting_for_its_moves(server: Server, tmp_path: Path) -> None:
    with Client(server.url) as c:
        made = c.create("silencio", players=2, seats=[{"kind": "creator"}, {"kind": "ai", "ai": "medium"}])
        me = c.seat(made.game_id, made.token)
        state = me.state()
        waits = 0
        while state["status"] != "over":
            if state.get("owes_decision"):
                state = me.act(state["legal"][0], state["seq"])["state"]
            else:
                state = me.wait(state["seq"], timeout=60)
                waits += 1
        assert waits > 0 and state["status"] == "over"
        assert me.log_pos > 0  # the socket's states carried the seat's log
