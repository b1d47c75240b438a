"""Player names are checked as chat lines are (`tabletop.server.schemas.plain_text`): a NUL, a newline, a
right-to-left override, a zero-width character or a blank name is refused with a 422 that says what a name may
hold, on SQLite and PostgreSQL alike (where a NUL used to reach the database and give a 500), and nothing is stored."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import BACKENDS, Factory, auth, create, state_of, two_humans

pytestmark = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)

BAD = ["nul\x00name", "two\nlines", "\u202eevil", "zero\u200bwidth", "   ", "\u2028", "\ufeffbom", "tab\there"]


def refused(r: Any) -> None:
    assert r.status_code == 422, (r.status_code, r.text)
    assert "Traceback" not in r.text
    msgs = " ".join(e["msg"] for e in r.json()["detail"])
    assert "a name may" in msgs, msgs


@pytest.mark.parametrize("bad", BAD)
def test_a_bad_name_is_refused_everywhere_and_nothing_is_stored(make_client: Factory, bad: str) -> None:
    client = make_client()
    public: dict[str, Any] = {"game": "silos", "players": 2, "visibility": "public"}
    refused(client.post("/api/games", json={**public, "creator_name": bad}))
    refused(client.post("/api/games", json={**public, "seats": [{"kind": "creator"}, {"kind": "invite",
                                                                                       "name": bad}]}))
    assert client.get("/api/games").json() == []  # no game was stored
    g = create(client, "silos", [{"kind": "creator"}, {"kind": "invite"}, {"kind": "open"}])
    refused(client.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"], "name": bad}))
    refused(client.post(f"/api/games/{g['id']}/claim", json={"seat": 2, "name": bad}))
    info = client.get(f"/api/games/{g['id']}").json()
    assert info["status"] == "waiting" and [s["taken"] for s in info["seats"]] == [True, False, False], info
    r = client.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"], "name": "Bo"})
    assert r.status_code == 200, r.text  # the refused claim spent nothing


def test_good_names_are_kept_and_trimmed(make_client: Factory) -> None:
    client = make_client()
    g = create(client, "silos", [{"kind": "creator"}, {"kind": "open"}], creator_name="  Åsa 李 (ann) ☕ ")
    r = client.post(f"/api/games/{g['id']}/claim", json={"seat": 1, "name": "Zoë-Émile"})
    assert r.status_code == 200, r.text
    names = [s["name"] for s in client.get(f"/api/games/{g['id']}").json()["seats"]]
    assert names == ["Åsa 李 (ann) ☕", "Zoë-Émile"]


def test_a_client_action_id_with_a_nul_is_refused_not_a_500(make_client: Factory) -> None:
    """A client action id is stored with its event: on PostgreSQL a NUL in it was a 500 (DataError)."""
    client = make_client()
    gid, tokens = two_humans(client, "silos")
    s = state_of(client, gid, tokens[0])
    token = tokens[0] if s["legal"] else tokens[1]
    s = state_of(client, gid, token)
    for path, body in ((f"/api/games/{gid}/actions", {"action": s["legal"][0], "seq": s["seq"]}),
                       (f"/api/games/{gid}/undo", {"count": 1, "seq": s["seq"]})):
        r = client.post(path, headers=auth(token), json={**body, "client_action_id": "a\x00b"})
        assert r.status_code == 422 and "client action id may not" in r.text, r.text
    with client.websocket_connect(f"/api/games/{gid}/ws?token={token}") as ws:
        ws.receive_json()
        ws.send_json({"type": "act", "action": s["legal"][0], "seq": s["seq"], "client_action_id": "a\x00b"})
        answer = ws.receive_json()
        while answer["type"] != "refused":
            answer = ws.receive_json()
        assert answer["status"] == 422, answer
    assert state_of(client, gid, token)["seq"] == s["seq"]  # nothing was stored
