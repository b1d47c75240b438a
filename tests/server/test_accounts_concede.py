"""Conceding, the table's leaver level and rematches of signed-in players (issue 23, the last parts).

`POST /api/games/{id}/concede` (token or session + CSRF): a 2-player game ends at once, the other wins, a rated game
rates the conceder last, the record holds the concession and replays to the same result; a 3-player game goes on with
the conceder's seat played by the AI at the table's leaver level (not taken back, the player's own moves refused),
the conceder placed last; a cooperative game refuses. The leaver level chosen at creation is stored, shown and used.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, text

import tabletop
from tabletop.server.creation import token_hash

from .conftest import BACKENDS, Factory, auth, state_of
from .test_accounts import FAST, PASSWORD, _alembic, csrf, other_browser, signup
from .test_accounts_leavers import _play, _three


def _two(make_client: Factory, rated: bool = True) -> tuple[Any, list[Any], list[dict[str, Any]], str, list[str]]:
    client = make_client(ai_workers=1, **FAST)
    browsers = [client, other_browser(client)]
    me = [signup(b, n) for b, n in zip(browsers, ("ann", "ben"), strict=True)]
    g = client.post("/api/games", headers=csrf(me[0]), json={
        "game": "silos", "players": 2, "rated": rated, "seats": [{"kind": "creator"}, {"kind": "invite"}]}).json()
    r = browsers[1].post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]}, headers=csrf(me[1]))
    return client, browsers, me, g["id"], [g["token"], r.json()["token"]]


def test_conceding_a_two_player_rated_game_ends_it_and_rates_the_conceder_last(make_client: Factory) -> None:
    client, browsers, me, gid, tokens = _two(make_client)
    _play(client, gid, tokens, [0, 1], random.Random(3), actions=6)
    assert other_browser(client).post(f"/api/games/{gid}/concede").status_code == 401  # no token, no session
    assert browsers[1].post(f"/api/games/{gid}/concede").status_code == 403  # a session without its CSRF token
    r = browsers[1].post(f"/api/games/{gid}/concede", headers=csrf(me[1]))  # ben, by his session
    assert r.status_code == 200, r.text
    assert r.json() == {"seat": 1, "over": True, "ai": None}
    s = state_of(client, gid, tokens[0])
    assert s["status"] == "over" and s["view"]["winners"] == [0] and s["view"]["conceded"] == [1]
    log = client.get(f"/api/games/{gid}/log", headers=auth(tokens[0])).json()["entries"]
    assert log[-1]["text"] == "Player 2 conceded; the game is over"
    assert browsers[1].post(f"/api/games/{gid}/concede", headers=csrf(me[1])).status_code == 409  # over
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["actions"][-1] == "concede p1"
    again = tabletop.replay(record)
    assert again.is_over and again.winners() == [0] and again.places() == [1, 2]
    ann = client.get("/api/players/ann").json()
    ben = client.get("/api/players/ben").json()
    assert ann["recent"][0]["place"] == 1 and ann["recent"][0]["won"] and ann["recent"][0]["rated"]
    assert ben["recent"][0]["place"] == 2 and not ben["recent"][0]["won"] and ben["recent"][0]["rated"]
    assert ann["ratings"][0]["mu"] > ben["ratings"][0]["mu"]


def test_conceding_a_three_player_game_hands_the_seat_to_the_ai_placed_last(make_client: Factory) -> None:
    client, _browsers, _me, gid, tokens = _three(make_client)
    r = client.post(f"/api/games/{gid}/concede", headers=auth(tokens[2]))  # carl, by his token
    assert r.status_code == 200, r.text
    assert r.json() == {"seat": 2, "over": False, "ai": "medium"}
    seat = client.get(f"/api/games/{gid}").json()["seats"][2]
    assert seat["kind"] == "ai" and seat["mode"] == "conceded" and seat["ai"] == "medium"
    notices = [m["text"] for m in client.get(f"/api/games/{gid}/chat").json()["messages"] if m["kind"] == "notice"]
    assert any("carl" in t and "conceded" in t and "AI (medium)" in t for t in notices)
    refused = client.post(f"/api/games/{gid}/takeback", headers=auth(tokens[2]))
    assert refused.status_code == 409 and "concession stands" in refused.json()["detail"]
    assert client.post(f"/api/games/{gid}/concede", headers=auth(tokens[2])).status_code == 409
    s = state_of(client, gid, tokens[2])
    if s["legal"]:
        act = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[2]),
                          json={"action": s["legal"][0], "seq": s["seq"]})
        assert act.status_code == 409 and "conceded" in act.json()["detail"]
    _play(client, gid, tokens, [0, 1], random.Random(5))
    final = state_of(client, gid, tokens[0])
    assert final["status"] == "over" and 2 not in final["view"]["winners"]
    carl = client.get("/api/players/carl").json()["recent"][0]
    assert carl["place"] == 3 and carl["rated"], "a rated game rates the conceder, last"
    record = client.get(f"/api/games/{gid}/record").json()
    assert "concede p2" in record["actions"] and tabletop.replay(record).places()[2] == 3


def test_a_cooperative_game_cannot_be_conceded(make_client: Factory) -> None:
    client = make_client(**FAST)
    g = client.post("/api/games", json={"game": "silencio", "players": 2,
                                        "seats": [{"kind": "creator"}, {"kind": "ai", "ai": "easy"}]}).json()
    before = state_of(client, g["id"], g["token"])
    r = client.post(f"/api/games/{g['id']}/concede", headers=auth(g["token"]))
    assert r.status_code == 409 and "cooperative" in r.json()["detail"] and "leave" in r.json()["detail"]
    assert state_of(client, g["id"], g["token"])["seq"] == before["seq"]


def test_the_tables_leaver_level_is_chosen_at_creation_shown_and_used(make_client: Factory) -> None:
    client = make_client(ai_workers=1, **FAST)
    bad = client.post("/api/games", json={"game": "silos", "players": 2, "leaver_level": "grandmaster"})
    assert bad.status_code == 422 and "leaver_level" in bad.text and "easy" in bad.text
    g = client.post("/api/games", json={"game": "silos", "players": 2, "leaver_level": "easy",
                                        "seats": [{"kind": "creator"}, {"kind": "invite"}]}).json()
    assert g["info"]["leaver_level"] == "easy"
    assert client.get(f"/api/games/{g['id']}").json()["leaver_level"] == "easy"
    client.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][0]["code"]}).raise_for_status()
    r = client.post(f"/api/games/{g['id']}/leave", headers=auth(g["token"]))
    assert r.status_code == 200 and r.json() == {"seat": 0, "ai": "easy"}
    assert client.get(f"/api/games/{g['id']}").json()["seats"][0]["ai"] == "easy"
    plain = client.post("/api/games", json={"game": "silos", "players": 2}).json()
    assert plain["info"]["leaver_level"] == "medium"  # the server's setting stays the default


def test_a_rematch_binds_signed_in_players_seats_to_their_accounts(make_client: Factory) -> None:
    client, browsers, me, gid, _tokens = _two(make_client, rated=False)
    ben_phone = other_browser(client)
    r = ben_phone.post("/api/account/signin", json={"username": "ben", "password": PASSWORD})
    assert r.status_code == 200, r.text
    ben_phone_me = r.json()
    browsers[0].post(f"/api/games/{gid}/concede", headers=csrf(me[0])).raise_for_status()
    made = browsers[0].post(f"/api/games/{gid}/rematch", headers=csrf(me[0]))
    assert made.status_code == 200, made.text
    new = made.json()["id"]
    # ben's seat of the rematch is his account's at once, on both his browsers, before he clicked anything
    for b in (browsers[1], ben_phone):
        mine = {x["id"]: x for x in b.get("/api/account/games").json()}
        assert new in mine and mine[new]["seat"] == 1
        assert b.get(f"/api/games/{new}/state").json()["seat"] == 1
    click = ben_phone.post(f"/api/games/{gid}/rematch", headers=csrf(ben_phone_me))
    assert click.status_code == 200, click.text
    assert click.json()["id"] == new and click.json()["seat"] == 1 and click.json()["token"] is None
    s = ben_phone.get(f"/api/games/{new}/state").json()
    assert s["status"] == "playing"


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_a_database_before_leaver_levels_upgrades_with_no_game_lost(db_url: str, make_client: Factory) -> None:
    engine = create_engine(db_url)
    with engine.begin() as conn:
        command.upgrade(_alembic(conn), "0010_passkeys")
        conn.execute(text("INSERT INTO games (id, game, rules_version, players, options, seed, visibility, "
                          "creator_name, creator_hash, status, created) VALUES ('abc123', 'silos', :v, 2, '{}', "
                          "7, 'private', 'ann', :ch, 'playing', :t)"),
                     {"v": tabletop.game_info("silos").version, "ch": token_hash("creator"), "t": datetime.now(UTC)})
        conn.execute(text("INSERT INTO seats (game_id, seat, kind, mode, token_hash, invite_hash, name) VALUES "
                          "('abc123', 0, 'human', 'creator', :t, NULL, 'ann'), "
                          "('abc123', 1, 'human', 'invite', :u, NULL, 'ben')"),
                     {"t": token_hash("ann's token"), "u": token_hash("ben's token")})
    engine.dispose()
    c = make_client(db=db_url, **FAST)  # starting the server migrates to the newest schema
    info = c.get("/api/games/abc123").json()
    assert info["status"] == "playing" and info["leaver_level"] == "medium"  # no choice stored: the default
    r = c.post("/api/games/abc123/concede", headers=auth("ben's token"))
    assert r.status_code == 200 and r.json()["over"]
    assert state_of(c, "abc123", "ann's token")["view"]["winners"] == [0]
