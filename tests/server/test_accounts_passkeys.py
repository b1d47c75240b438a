"""Passkeys over the API (issue 23; the whole ceremony with a virtual authenticator is in
tests/web/test_accounts_passkeys_browser.py): what is refused and changes nothing, and an account with a passkey
deleted cleanly (the passkey goes with it)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, insert, select

from tabletop.server.models import AccountRow, PasskeyRow

from .conftest import BACKENDS, Factory
from .test_accounts import FAST, csrf, other_browser, signup


def test_registration_needs_a_session_and_its_csrf_token(make_client: Factory) -> None:
    c = make_client(**FAST, public_url="http://localhost:8000")
    assert other_browser(c).post("/api/account/passkeys/options").status_code == 401
    me = signup(c)
    assert c.post("/api/account/passkeys/options").status_code == 403  # the cookie without the CSRF token
    got = c.post("/api/account/passkeys/options", headers=csrf(me))
    assert got.status_code == 200
    options = json.loads(got.json()["options"])
    assert options["rp"]["id"] == "localhost" and options["user"]["name"] == "alice"
    assert options["authenticatorSelection"]["residentKey"] == "required"


def test_a_made_up_answer_or_ceremony_is_refused_and_stores_nothing(make_client: Factory) -> None:
    c = make_client(**FAST, public_url="http://localhost:8000")
    me = signup(c)
    ceremony = c.post("/api/account/passkeys/options", headers=csrf(me)).json()["ceremony"]
    fake = {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
            "response": {"clientDataJSON": "e30", "attestationObject": "oA"}}
    r = c.post("/api/account/passkeys", headers=csrf(me), json={"ceremony": ceremony, "credential": fake})
    assert r.status_code == 403 and "not accepted" in r.text
    r = c.post("/api/account/passkeys", headers=csrf(me), json={"ceremony": ceremony, "credential": fake})
    assert r.status_code == 403 and "ceremony" in r.text  # a ceremony is spent once, even by a refusal
    assert c.get("/api/account/passkeys").json() == []
    guest = other_browser(c)
    sign = guest.post("/api/account/passkey/options").json()["ceremony"]
    r = guest.post("/api/account/passkey/signin", json={"ceremony": sign, "credential": fake})
    assert r.status_code == 401 and "set-cookie" not in r.headers
    r = guest.post("/api/account/passkey/signin", json={"ceremony": "nope", "credential": fake})
    assert r.status_code == 403
    r = guest.post("/api/account/passkey/options", headers={"Origin": "https://evil.example"})
    assert r.status_code == 403  # no other site's page starts a sign-in


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
def test_deleting_an_account_deletes_its_passkeys(make_client: Factory) -> None:
    c = make_client(**FAST)
    me = signup(c)
    storage = c.app.state.accounts.storage  # type: ignore[attr-defined]
    with storage._session() as s:
        aid = s.scalars(select(AccountRow.id)).one()
    storage._write(lambda conn: conn.execute(insert(PasskeyRow.__table__), {  # type: ignore[arg-type]
        "credential_id": "abc", "account_id": aid, "public_key": b"k", "sign_count": 0, "name": "laptop",
        "created": datetime.now(UTC)}))
    assert [k["name"] for k in c.get("/api/account/passkeys").json()] == ["laptop"]
    assert c.delete("/api/account/passkeys/nope", headers=csrf(me)).status_code == 404
    r = c.post("/api/account/delete", headers=csrf(me), json={"password": "correct horse battery"})
    assert r.status_code == 200, r.text
    with storage._session() as s:
        assert s.scalar(select(func.count()).select_from(PasskeyRow)) == 0
