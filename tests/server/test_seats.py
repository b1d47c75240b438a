"""Creating games and filling seats: validation, one-time invites, open seats, re-seating, the lobby."""

from __future__ import annotations

from .conftest import Factory, auth, create, state_of


def test_unknown_game_is_refused_with_the_known_games(make_client: Factory) -> None:
    client = make_client()
    r = client.post("/api/games", json={"game": "chess"})
    assert r.status_code == 422
    assert set(r.json()["allowed"]["games"]) == {"silencio", "siliconvania", "silos"}


def test_bad_options_and_player_counts_say_what_is_allowed(make_client: Factory) -> None:
    client = make_client()
    r = client.post("/api/games", json={"game": "silencio", "options": {"variant": "nonsense"}})
    assert r.status_code == 422
    body = r.json()
    assert "variant" in body["detail"] and body["allowed"]["name"] == "silencio"
    r = client.post("/api/games", json={"game": "silencio", "players": 9})
    assert r.status_code == 422 and "players" in r.json()["detail"]
    r = client.post("/api/games", json={"game": "silos", "players": 2, "seats": [{"kind": "creator"}]})
    assert r.status_code == 422 and "seats" in r.json()["detail"]
    r = client.post("/api/games", json={"game": "silos", "players": 2,
                                        "seats": [{"kind": "creator"}, {"kind": "ai", "ai": "ismcts:iters=1e9"}]})
    assert r.status_code == 422  # clients name strengths by label only, never agent specs


def test_meta_lists_the_engine_games(make_client: Factory) -> None:
    meta = make_client().get("/api/meta/games").json()
    assert {m["name"] for m in meta} == {"silencio", "siliconvania", "silos"}
    # the built-in strengths weakest first, the shipped policies among them (tests/server/test_policies.py)
    levels = ("easy", "medium", "hard")
    assert all([a for a in m["ai"] if a in levels] == list(levels) and m["version"] for m in meta)


def test_an_invite_is_claimed_once(make_client: Factory) -> None:
    client = make_client()
    g = create(client, "silencio", [{"kind": "creator"}, {"kind": "invite", "name": "Ann"}])
    gid, invite = g["id"], g["invites"][0]
    assert invite["seat"] == 1 and invite["url"].endswith(f"/join/{gid}#{invite['code']}")
    assert g["info"]["status"] == "waiting"
    first = client.post(f"/api/games/{gid}/claim", json={"invite": invite["code"]})
    assert first.status_code == 200 and first.json()["seat"] == 1
    token = first.json()["token"]
    assert token != invite["code"] and len(token) >= 43  # 256 bits, URL-safe
    again = client.post(f"/api/games/{gid}/claim", json={"invite": invite["code"]})
    assert again.status_code == 403 and "token" not in again.json()
    assert state_of(client, gid, token)["seat"] == 1
    info = client.get(f"/api/games/{gid}").json()
    assert info["status"] == "playing" and info["seats"][1]["name"] == "Ann"


def test_open_seats_are_taken_from_the_lobby(make_client: Factory) -> None:
    client = make_client()
    pub = create(client, "silos", [{"kind": "creator"}, {"kind": "open"}], visibility="public")
    create(client, "silos", [{"kind": "creator"}, {"kind": "open"}])  # private: not listed
    lobby = client.get("/api/games").json()
    assert [g["id"] for g in lobby] == [pub["id"]]
    assert lobby[0]["seats"][1] == {"seat": 1, "kind": "human", "mode": "open", "ai": None, "name": "seat 2",
                                    "bot": False, "taken": False}
    r = client.post(f"/api/games/{pub['id']}/claim", json={"name": "Bo"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    r = client.post(f"/api/games/{pub['id']}/claim", json={})
    assert r.status_code == 409


def test_the_creator_reseats_a_lost_player_and_the_old_token_dies(make_client: Factory) -> None:
    client = make_client()
    g = create(client, "siliconvania", [{"kind": "creator"}, {"kind": "invite"}])
    gid = g["id"]
    old = client.post(f"/api/games/{gid}/claim", json={"invite": g["invites"][0]["code"]}).json()["token"]
    r = client.post(f"/api/games/{gid}/reseat", headers=auth(old), json={"seat": 1})
    assert r.status_code == 403  # only the creator
    r = client.post(f"/api/games/{gid}/reseat", headers=auth(g["creator_token"]), json={"seat": 1})
    assert r.status_code == 200
    assert client.get(f"/api/games/{gid}/state", headers=auth(old)).status_code == 401
    new = client.post(f"/api/games/{gid}/claim", json={"invite": r.json()["code"]})
    assert new.status_code == 200 and state_of(client, gid, new.json()["token"])["seat"] == 1


def test_public_info_has_no_seed_and_no_hashes(make_client: Factory) -> None:
    client = make_client()
    g = create(client, "silos", [{"kind": "creator"}, {"kind": "invite"}])
    text = client.get(f"/api/games/{g['id']}").text + client.get("/api/games").text
    assert "seed" not in text and "hash" not in text and g["token"] not in text
