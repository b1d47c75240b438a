"""Security headers on every HTTP answer (a CSP with no inline script or style, nosniff, no framing, no referrer),
`Cache-Control: no-store` on every /api answer but the public meta ones, and the CDN-loading API pages off by
default (the API's description, /openapi.json, stays)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tabletop.server.web import STATIC

from .conftest import Factory, auth, two_humans


def secure(r: httpx.Response) -> None:
    csp = r.headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in csp, (r.request.url, r.status_code, csp)
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_every_answer_carries_the_headers_and_token_answers_are_not_stored(make_client: Factory) -> None:
    client = make_client()
    gid, tokens = two_humans(client, "silos")
    seat = auth(tokens[0])
    private = [
        client.get(f"/api/games/{gid}/state", headers=seat),
        client.get(f"/api/games/{gid}/log?start=0", headers=seat),
        client.post(f"/api/games/{gid}/actions", headers=seat, json={"action": "nonsense", "seq": 0}),
        client.post(f"/api/games/{gid}/undo", headers=seat, json={"count": 1, "seq": 0}),
        client.post("/api/games", json={"game": "silos", "players": 2}),
        client.get(f"/api/games/{gid}"), client.get("/api/games"), client.get(f"/api/games/{gid}/chat"),
        client.get("/api/games/0000/state"),  # 404
        client.post("/api/games", content=b"x" * 20000, headers={"content-type": "application/json"}),  # 413
    ]
    for r in private:
        secure(r)
        assert r.headers["cache-control"] == "no-store", (r.request.url, r.status_code)
    limited = make_client(rate_per_address=0.01, burst_per_address=1)
    limited.get("/api/games")
    r = limited.get("/api/games")
    assert r.status_code == 429
    secure(r)
    public = [client.get("/api/meta/games"), client.get("/api/meta/games/silos/help"), client.get("/"),
              client.get(f"/g/{gid}"), client.get("/openapi.json")]
    for r in public:
        secure(r)
        assert r.status_code in (200, 503) and r.headers.get("cache-control") != "no-store", r.request.url
    page = client.get("/").headers["content-security-policy"]
    script = re.search(r"script-src ([^;]*)", page)
    style = re.search(r"style-src ([^;]*)", page)
    assert script and style and "unsafe" not in script.group(1) + style.group(1), page


def test_the_api_pages_are_off_by_default_and_say_what_they_load_when_on(make_client: Factory) -> None:
    client = make_client()
    assert [client.get(p).status_code for p in ("/docs", "/redoc")] == [404, 404]
    assert client.get("/openapi.json").status_code == 200  # no outside script in it
    docs = make_client(api_docs=True).get("/docs")
    assert docs.status_code == 200 and "cdn.jsdelivr.net" in docs.headers["content-security-policy"]


def test_the_built_client_has_no_inline_script_or_style() -> None:
    index = STATIC / "index.html"
    html = index.read_text() if index.is_file() else ""
    assert html, "the client is not built (scripts/setup)"
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
    assert "<style" not in html and " style=" not in html, "an inline style"
    for js in Path(STATIC / "assets").glob("*.js"):
        assert 'setAttribute("style"' not in js.read_text(), js


def test_an_unhandled_errors_500_carries_the_headers_too(tmp_path: Path) -> None:
    """Starlette answers an unhandled error outside every middleware: the server's handler of it sets the headers
    itself, and says nothing but "internal server error"."""
    from fastapi.testclient import TestClient

    from tabletop.server import Settings, create_app

    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'db.sqlite3'}", ai_workers=0, hint_workers=0))

    @app.get("/api/boom")
    def boom() -> None:
        raise RuntimeError("a fault of the server's own, with a secret in its message")

    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/api/boom")
    assert r.status_code == 500 and r.json() == {"detail": "internal server error"}
    secure(r)
    assert r.headers["cache-control"] == "no-store" and "secret" not in r.text
