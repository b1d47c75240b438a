"""Accounts (issue 23, part 1): sign-up, sign-in, sign-out, the session cookie, CSRF refusals, log-in rate limits,
passwords never echoed or logged, change of password, sessions listed and revoked, deleting an account; and the
schema's migration from the one before accounts with no game lost."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text

import tabletop
from tabletop.server.accounts import COOKIE, CSRF_HEADER
from tabletop.server.creation import token_hash
from tabletop.server.models import Base
from tabletop.server.storage import MIGRATIONS, Storage

from .conftest import BACKENDS, Factory, create, state_of

FAST = {"password_memory_kib": 1024, "password_time_cost": 1, "hint_workers": 0}
"""Cheap Argon2id parameters for the tests (the defaults take 64 MiB and ~0.1 s a hash)."""
PASSWORD = "correct horse battery"


def signup(client: TestClient, username: str = "alice", password: str = PASSWORD) -> dict[str, Any]:
    r = client.post("/api/account/signup", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def csrf(body: dict[str, Any]) -> dict[str, str]:
    return {CSRF_HEADER: body["csrf"]}


def other_browser(client: TestClient) -> TestClient:
    """A second browser on the same server (its own cookie jar)."""
    return TestClient(client.app)


def test_sign_up_sets_an_httponly_samesite_cookie_and_signs_in(make_client: Factory) -> None:
    c = make_client(**FAST)
    r = c.post("/api/account/signup", json={"username": "alice", "password": PASSWORD})
    assert r.status_code == 201, r.text
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain http: a Secure cookie would never come back
    assert PASSWORD not in r.text
    me = c.get("/api/account/me").json()
    assert me["username"] == "alice" and me["csrf"] == r.json()["csrf"]
    assert c.get("/api/account/sessions").json()[0]["current"] is True


def test_the_cookie_is_secure_behind_tls(make_client: Factory) -> None:
    c = make_client(public_url="https://games.example", **FAST)
    r = c.post("/api/account/signup", json={"username": "alice", "password": PASSWORD})
    assert "Secure" in r.headers["set-cookie"]


def test_sign_in_is_case_insensitive_and_wrong_answers_are_alike(make_client: Factory) -> None:
    c = make_client(**FAST)
    signup(c)
    b = other_browser(c)
    assert b.get("/api/account/me").status_code == 401
    wrong = b.post("/api/account/signin", json={"username": "alice", "password": "not the password"})
    unknown = b.post("/api/account/signin", json={"username": "nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()  # which usernames exist is not told
    assert "set-cookie" not in wrong.headers
    r = b.post("/api/account/signin", json={"username": "ALICE", "password": PASSWORD})
    assert r.status_code == 200, r.text
    assert b.get("/api/account/me").json()["username"] == "alice"
    assert len(b.get("/api/account/sessions").json()) == 2


def test_a_taken_username_and_bad_passwords_are_refused(make_client: Factory) -> None:
    c = make_client(**FAST)
    signup(c)
    b = other_browser(c)
    taken = b.post("/api/account/signup", json={"username": "Alice", "password": PASSWORD})
    assert taken.status_code == 409 and "taken" in taken.json()["detail"]
    for username, password in [("bob", "short"), ("bob", "x" * 257), ("bobby-the-first", "bobby-the-first"),
                               ("b", PASSWORD), ("bad name", PASSWORD), ("-bob", PASSWORD)]:
        r = b.post("/api/account/signup", json={"username": username, "password": password})
        assert r.status_code == 422, (username, r.text)
        assert password not in r.text or password == username
    assert b.get("/api/account/me").status_code == 401


def test_passwords_are_never_logged_or_echoed(make_client: Factory, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    c = make_client(**FAST)
    secret = "a very secret phrase 42"
    texts = [signup(c, password=secret).__repr__()]
    texts.append(c.post("/api/account/signin", json={"username": "alice", "password": secret + "x"}).text)
    texts.append(c.post("/api/account/signin", json={"username": "alice", "password": secret, "extra": 1}).text)
    h = csrf(c.get("/api/account/me").json())
    texts.append(c.post("/api/account/password", headers=h,
                        json={"old_password": secret + "!", "new_password": secret + "2"}).text)
    texts.append(c.post("/api/account/password", headers=h,
                        json={"old_password": secret, "new_password": "short"}).text)
    for t in texts:
        assert "secret phrase" not in t
    assert "secret phrase" not in caplog.text


def test_state_changing_requests_of_a_session_need_its_csrf_token(make_client: Factory) -> None:
    c = make_client(**FAST)
    me = signup(c)
    for headers in ({}, {CSRF_HEADER: "forged"}, {CSRF_HEADER: ""}):
        r = c.post("/api/account/signout", headers=headers)
        assert r.status_code == 403 and CSRF_HEADER in r.json()["detail"]
        r = c.post("/api/account/password", headers=headers,
                   json={"old_password": PASSWORD, "new_password": "another password"})
        assert r.status_code == 403
        r = c.delete(f"/api/account/sessions/{me['session']}", headers=headers)
        assert r.status_code == 403
    assert c.get("/api/account/me").status_code == 200  # nothing changed
    b = other_browser(c)
    assert b.post("/api/account/signin", json={"username": "alice", "password": PASSWORD}).status_code == 200
    r = c.post("/api/account/signout", headers=csrf(me))
    assert r.status_code == 200 and f"{COOKIE}=" in r.headers["set-cookie"]
    assert c.get("/api/account/me").status_code == 401


def test_sign_in_from_another_sites_page_is_refused(make_client: Factory) -> None:
    c = make_client(**FAST)
    signup(c)
    b = other_browser(c)
    evil = {"Origin": "https://evil.example"}
    r = b.post("/api/account/signin", json={"username": "alice", "password": PASSWORD}, headers=evil)
    assert r.status_code == 403 and "set-cookie" not in r.headers
    r = b.post("/api/account/signup", json={"username": "mallory", "password": PASSWORD}, headers=evil)
    assert r.status_code == 403
    ok = {"Origin": "http://testserver"}
    assert b.post("/api/account/signin", json={"username": "alice", "password": PASSWORD},
                  headers=ok).status_code == 200


def test_log_in_attempts_are_limited_per_account(make_client: Factory) -> None:
    c = make_client(login_burst_per_account=3, login_rate_per_account=0.001, login_burst_per_address=100,
                    **FAST)
    signup(c, "alice")
    signup(other_browser(c), "bob")
    b = other_browser(c)
    for _ in range(3):
        assert b.post("/api/account/signin", json={"username": "alice", "password": "guess guess"}).status_code == 401
    r = b.post("/api/account/signin", json={"username": "alice", "password": PASSWORD})  # even the right one
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1 and "set-cookie" not in r.headers
    assert b.post("/api/account/signin", json={"username": "bob", "password": PASSWORD}).status_code == 200


def test_log_in_attempts_are_limited_per_address(make_client: Factory) -> None:
    c = make_client(login_burst_per_account=100, login_burst_per_address=4, login_rate_per_address=0.001, **FAST)
    b = other_browser(c)
    codes = [b.post("/api/account/signin", json={"username": f"user{i}", "password": "guess guess"}).status_code
             for i in range(6)]
    assert codes == [401] * 4 + [429] * 2
    assert b.post("/api/account/signup", json={"username": "late", "password": PASSWORD}).status_code == 429


def test_changing_the_password_closes_the_other_sessions(make_client: Factory) -> None:
    c = make_client(**FAST)
    me = signup(c)
    b = other_browser(c)
    assert b.post("/api/account/signin", json={"username": "alice", "password": PASSWORD}).status_code == 200
    wrong = c.post("/api/account/password", headers=csrf(me),
                   json={"old_password": "not it at all", "new_password": "a new password"})
    assert wrong.status_code == 403 and b.get("/api/account/me").status_code == 200
    r = c.post("/api/account/password", headers=csrf(me),
               json={"old_password": PASSWORD, "new_password": "a new password"})
    assert r.status_code == 200 and r.json()["sessions_closed"] == 1
    assert b.get("/api/account/me").status_code == 401  # the other browser is signed out
    assert c.get("/api/account/me").status_code == 200  # this one stays
    fresh = other_browser(c)
    assert fresh.post("/api/account/signin", json={"username": "alice", "password": PASSWORD}).status_code == 401
    assert fresh.post("/api/account/signin",
                      json={"username": "alice", "password": "a new password"}).status_code == 200


def test_sessions_are_listed_and_revoked(make_client: Factory) -> None:
    c = make_client(**FAST)
    me = signup(c)
    b = other_browser(c)
    theirs = b.post("/api/account/signin", json={"username": "alice", "password": PASSWORD}).json()
    listed = c.get("/api/account/sessions").json()
    assert {s["id"] for s in listed} == {me["session"], theirs["session"]}
    assert all("csrf" not in s and "secret" not in s for s in listed)
    r = c.delete(f"/api/account/sessions/{theirs['session']}", headers=csrf(me))
    assert r.status_code == 200
    assert b.get("/api/account/me").status_code == 401
    assert [s["id"] for s in c.get("/api/account/sessions").json()] == [me["session"]]
    assert c.delete(f"/api/account/sessions/{theirs['session']}", headers=csrf(me)).status_code == 404
    mallory = other_browser(c)
    m = signup(mallory, "mallory")
    assert mallory.delete(f"/api/account/sessions/{me['session']}", headers=csrf(m)).status_code == 404
    assert c.get("/api/account/me").status_code == 200  # another account's session is not found, not revoked


def test_deleting_an_account(make_client: Factory) -> None:
    c = make_client(**FAST)
    me = signup(c)
    assert c.post("/api/account/delete", headers=csrf(me), json={"password": "not the password"}).status_code == 403
    assert c.get("/api/account/me").status_code == 200
    r = c.post("/api/account/delete", headers=csrf(me), json={"password": PASSWORD})
    assert r.status_code == 200
    assert c.get("/api/account/me").status_code == 401
    b = other_browser(c)
    assert b.post("/api/account/signin", json={"username": "alice", "password": PASSWORD}).status_code == 401
    signup(b, "alice")  # the username is free again


def test_guest_play_is_unchanged_with_a_session_cookie(make_client: Factory) -> None:
    """A signed-in browser still creates and plays a guest game by its tokens (bearer: no CSRF token needed)."""
    c = make_client(**FAST)
    signup(c)
    g = create(c, "silos", [{"kind": "creator"}, {"kind": "invite"}])
    code = g["invites"][0]["code"]
    guest = other_browser(c)
    assert guest.post(f"/api/games/{g['id']}/claim", json={"invite": code}).status_code == 200
    s = state_of(c, g["id"], g["token"])
    assert s["seat"] == 0


def test_any_body_is_answered_without_a_500(make_client: Factory) -> None:
    c = make_client(**FAST)
    me = signup(c)

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(body=st.dictionaries(st.sampled_from(["username", "password", "old_password", "new_password", "x"]),
                                st.one_of(st.text(max_size=30), st.integers(), st.none(), st.lists(st.integers())),
                                max_size=4))
    def check(body: dict[str, Any]) -> None:
        for path in ("/api/account/signup", "/api/account/signin", "/api/account/password"):
            r = other_browser(c).post(path, json=body)
            assert r.status_code in (200, 201, 401, 403, 409, 422, 429), (path, body, r.text)
        r = c.post("/api/account/password", json=body, headers=csrf(me))
        assert r.status_code in (200, 403, 422, 429), (body, r.text)

    check()


# ---- the schema ---------------------------------------------------------------------------------------------------

def _alembic(conn: Any) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    return cfg


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_the_models_match_the_migrations(db_url: str) -> None:
    storage = Storage(db_url)
    storage.migrate()
    with storage.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    storage.close()
    assert diff == []


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_a_database_of_the_schema_before_accounts_upgrades_with_no_game_lost(db_url: str, make_client: Factory
                                                                             ) -> None:
    engine = create_engine(db_url)
    with engine.begin() as conn:  # a database of the schema before accounts, with a game waiting for a friend
        command.upgrade(_alembic(conn), "0003_creator_address")
        conn.execute(text("INSERT INTO games (id, game, rules_version, players, options, seed, visibility, "
                          "creator_name, creator_hash, status, created) VALUES ('abc123', 'silos', :v, 2, '{}', "
                          "7, 'private', 'ann', :ch, 'waiting', :t)"),
                     {"v": tabletop.game_info("silos").version, "ch": token_hash("creator"),
                      "t": datetime.now(UTC)})
        conn.execute(text("INSERT INTO seats (game_id, seat, kind, mode, token_hash, invite_hash, name) VALUES "
                          "('abc123', 0, 'human', 'creator', :t, NULL, 'ann'), "
                          "('abc123', 1, 'human', 'invite', NULL, :i, 'Player 2')"),
                     {"t": token_hash("ann's token"), "i": token_hash("the invite")})
    engine.dispose()
    c = make_client(db=db_url, **FAST)  # starting the server migrates to the newest schema
    assert state_of(c, "abc123", "ann's token")["seat"] == 0
    r = c.post("/api/games/abc123/claim", json={"invite": "the invite"})
    assert r.status_code == 200, r.text
    s = state_of(c, "abc123", "ann's token")
    c.post("/api/games/abc123/actions", json={"action": s["legal"][0], "seq": s["seq"]},
           headers={"Authorization": "Bearer ann's token"}).raise_for_status()
    engine = create_engine(db_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM games")).scalar() == 1
        assert conn.execute(text("SELECT account_id FROM seats ORDER BY seat")).all() == [(None,), (None,)]
        assert conn.execute(text("SELECT count(*) FROM events")).scalar() == 1
    engine.dispose()
    signup(c)
