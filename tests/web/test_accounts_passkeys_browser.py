"""Passkeys in Chromium (issue 23) with a CDP virtual authenticator (WebAuthn.enable,
WebAuthn.addVirtualAuthenticator: a CTAP2 internal authenticator with resident keys and user verification): a
signed-in account adds a passkey on its settings page, signs out, and signs in again with the passkey alone; a
second browser context without the passkey cannot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext

from .conftest import LAPTOP
from .test_accounts_done_browser import Clocked

PASSWORD = "correct horse battery"


@pytest.fixture
def local(built: None, tmp_path: Path) -> Iterator[Clocked]:
    s = Clocked(tmp_path, smtp_port=1, host="localhost")  # no mail is sent: nobody has an address
    yield s
    s.stop()


def with_authenticator(context: BrowserContext) -> str:
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    got = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    context.cdp = cdp  # type: ignore[attr-defined]  # kept alive with its page
    return str(got["authenticatorId"])


def test_a_passkey_is_added_in_settings_and_signs_in(browser: Browser, local: Clocked) -> None:
    base = local.url
    ctx = browser.new_context(viewport=LAPTOP)
    authenticator = with_authenticator(ctx)
    page = ctx.pages[0]
    page.goto(f"{base}/signup")
    page.fill("form[data-testid=signup] input[name=username]", "hana")
    page.fill("form[data-testid=signup] input[name=password]", PASSWORD)
    page.click("form[data-testid=signup] button[type=submit]")
    page.wait_for_selector("main.mygames")
    page.goto(f"{base}/account")
    page.fill("section.passkeys input[name=passkey_name]", "laptop")
    page.click("section.passkeys button:has-text('Add a passkey')")
    page.wait_for_selector("section.passkeys p:has-text('Passkey added')")
    assert page.inner_text("[data-testid=passkeys] li").startswith("laptop")
    creds = ctx.cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})  # type: ignore[attr-defined]
    assert len(creds["credentials"]) == 1 and creds["credentials"][0]["isResidentCredential"]

    page.click(".accountbar button:has-text('Sign out')")
    page.wait_for_selector("form.create")
    page.goto(f"{base}/signin")
    page.click("[data-testid=passkey-signin]")
    page.wait_for_selector("main.mygames")
    assert page.inner_text(".accountbar strong") == "hana"
    page.goto(f"{base}/account")  # the new session is listed, and a second passkey sign-in works again
    page.wait_for_selector("[data-testid=passkeys] li")

    other = browser.new_context(viewport=LAPTOP)  # its own authenticator, which holds no passkey of ours
    with_authenticator(other)
    page2 = other.pages[0]
    page2.goto(f"{base}/signin")
    page2.click("[data-testid=passkey-signin]")
    page2.wait_for_selector("form[data-testid=signin] .error:not(:empty)", timeout=30_000)
    assert "Sign in" in page2.inner_text(".accountbar")
    other.close()
    ctx.close()
