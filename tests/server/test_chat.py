"""Table chat (SILOS, SiliconVania): seated players write, everyone reads; stored with a per-game index, pushed over
the socket, length- and rate-limited, bounded per game. None in Silencio, whose rules forbid talking."""

from __future__ import annotations

import pytest

from tabletop.core import game_info, games

from .conftest import BACKENDS, Factory, auth, two_humans


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_a_line_is_stored_read_by_everyone_from_an_index_and_kept_across_restarts(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "siliconvania")
    for i, text in enumerate(["hello", "  good luck  ", "bid high"]):
        r = client.post(f"/api/games/{gid}/chat", headers=auth(tokens[i % 2]), json={"text": text})
        assert r.status_code == 200, r.text
        assert r.json()["message"]["index"] == i and r.json()["message"]["seat"] == i % 2
    page = client.get(f"/api/games/{gid}/chat").json()  # a spectator reads
    assert [m["text"] for m in page["messages"]] == ["hello", "good luck", "bid high"]
    assert page["chat"] is True and page["chat_pos"] == 3 and {m["kind"] for m in page["messages"]} == {"chat"}
    later = client.get(f"/api/games/{gid}/chat?start=2").json()
    assert [m["index"] for m in later["messages"]] == [2] and later["chat_pos"] == 3
    assert client.get(f"/api/games/{gid}/chat?start=3").json()["messages"] == []
    client.__exit__(None, None, None)
    again = make_client()
    assert again.get(f"/api/games/{gid}/chat").json()["messages"] == page["messages"]


def test_new_lines_are_pushed_to_seats_and_spectators_from_their_cursor(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silos")
    client.post(f"/api/games/{gid}/chat", headers=auth(tokens[0]), json={"text": "first"})
    with client.websocket_connect(f"/api/games/{gid}/ws") as spectator, \
            client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[1]}&chat_since=1") as seat:
        assert spectator.receive_json()["type"] == "state"
        backlog = spectator.receive_json()
        assert backlog["type"] == "chat" and [m["text"] for m in backlog["messages"]] == ["first"]
        assert seat.receive_json()["type"] == "state"  # chat_since=1: the first line is not sent again
        client.post(f"/api/games/{gid}/chat", headers=auth(tokens[1]), json={"text": "second"})
        for ws in (spectator, seat):
            msg = ws.receive_json()
            assert msg["type"] == "chat" and msg["start"] == 1 and msg["chat_pos"] == 2
            assert [(m["seat"], m["text"]) for m in msg["messages"]] == [(1, "second")]


def test_silencio_has_no_chat_because_its_rules_forbid_talking(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silencio")
    r = client.post(f"/api/games/{gid}/chat", headers=auth(tokens[0]), json={"text": "play your red five"})
    assert r.status_code == 403 and "forbid talking" in r.json()["detail"]
    page = client.get(f"/api/games/{gid}/chat").json()
    assert page["chat"] is False and page["messages"] == []


def test_whether_a_table_has_chat_is_the_games_own_fact_published_with_its_reason(make_client: Factory) -> None:
    client = make_client()
    meta = {m["name"]: m for m in client.get("/api/meta/games").json()}
    assert set(meta) == set(games())
    for name, m in meta.items():
        assert m["no_chat"] == game_info(name).no_chat and m["chat"] is (not game_info(name).no_chat)
    assert meta["silencio"]["chat"] is False and "forbid talking" in meta["silencio"]["no_chat"]
    assert meta["silos"]["chat"] is True and meta["silos"]["no_chat"] == ""
    for game, chat in (("silencio", False), ("siliconvania", True)):
        gid, _ = two_humans(client, game)
        assert client.get(f"/api/games/{gid}").json()["chat"] is chat  # what the browser's table reads


def test_spectators_read_only(make_client: Factory) -> None:
    client = make_client()
    gid, _ = two_humans(client, "silos")
    r = client.post(f"/api/games/{gid}/chat", json={"text": "hi"})
    assert r.status_code == 401 and "spectators may read" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}/chat").json()["messages"] == []


@pytest.mark.parametrize("text", ["", "   ", "x" * 501, "x" * 2001, "bell\x07", "new\nline", "rtl\u202eflip"])
def test_bad_lines_are_refused_and_nothing_is_stored(make_client: Factory, text: str) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silos")
    r = client.post(f"/api/games/{gid}/chat", headers=auth(tokens[0]), json={"text": text})
    assert r.status_code == 422 and "detail" in r.json()
    assert client.get(f"/api/games/{gid}/chat").json()["messages"] == []


def test_chat_is_rate_limited_per_seat_and_bounded_per_game(make_client: Factory) -> None:
    client = make_client(chat_burst=2, chat_rate=0.01, chat_max_messages=3)
    gid, tokens = two_humans(client, "silos")
    codes = [client.post(f"/api/games/{gid}/chat", headers=auth(tokens[0]), json={"text": "a"}).status_code
             for _ in range(3)]
    assert codes == [200, 200, 429]
    assert client.post(f"/api/games/{gid}/chat", headers=auth(tokens[1]), json={"text": "b"}).status_code == 200
    r = client.post(f"/api/games/{gid}/chat", headers=auth(tokens[1]), json={"text": "c"})
    assert r.status_code == 409 and "holds 3 messages" in r.json()["detail"]
    assert len(client.get(f"/api/games/{gid}/chat").json()["messages"]) == 3


def test_unknown_game_chat_is_404(make_client: Factory) -> None:
    client = make_client()
    assert client.get("/api/games/abc123/chat").status_code == 404
