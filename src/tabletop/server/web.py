"""The browser client: the built assets (web/ built by scripts/setup into `static/`) served at `/`.

Routes of the single-page app (`/`, `/g/<id>`, `/join/<id>`) answer its `index.html`; `/assets/...` the hashed
files (cached for a year: their names change with their content). A checkout served without a build answers a
page saying to run scripts/setup. Responses are gzip-compressed when the client accepts it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import FastAPI
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.datastructures import MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response as StarletteResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

STATIC = Path(__file__).with_name("static")

NOT_BUILT = """<!doctype html><html lang="en"><meta charset="utf-8"><title>tabletop: client not built</title>
<body>
<h1>The browser client is not built</h1>
<p>This server runs from a checkout whose web client has not been built yet. Run</p>
<pre>./scripts/setup server</pre>
<p>(it needs Node.js 20 or newer and builds <code>web/</code> into <code>src/tabletop/server/static/</code>),
then reload this page. The API under <code>/api</code> works meanwhile.</p>
</body></html>
"""

GameId = Annotated[str, PathParam(min_length=1, max_length=32, pattern=r"^[0-9a-f]+$")]


def mount_web(app: FastAPI, static: Path = STATIC) -> None:
    """Serve the client at `/` from `static` (or the not-built page), and compress responses."""
    index = static / "index.html"

    def page() -> Response:
        if not index.is_file():  # its inline styles are the only ones the server sends
            return HTMLResponse(NOT_BUILT, status_code=503, headers={
                "Cache-Control": "no-store", "Content-Security-Policy": NOT_BUILT_CSP})
        return FileResponse(index, media_type="text/html", headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def lobby() -> Response:
        return page()

    @app.get("/g/{game_id}", include_in_schema=False)
    def table(game_id: GameId) -> Response:
        return page()

    @app.get("/join/{game_id}", include_in_schema=False)
    def join(game_id: GameId) -> Response:
        return page()

    # the account pages (issue 23): sign up and in, my games, settings, a profile, a leaderboard
    for path in ("/signin", "/signup", "/account", "/account/games"):
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    @app.get("/players/{username}", include_in_schema=False)
    def player(username: Annotated[str, PathParam(min_length=1, max_length=40)]) -> Response:
        return page()

    @app.get("/leaderboard/{game}", include_in_schema=False)
    def board(game: Annotated[str, PathParam(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")]) -> Response:
        return page()

    assets = static / "assets"
    if assets.is_dir():
        app.mount("/assets", ImmutableFiles(directory=assets), name="assets")
    app.add_middleware(GZipMiddleware, minimum_size=1000)


class ImmutableFiles(StaticFiles):
    """Hashed asset files: cached for a year."""

    async def get_response(self, path: str, scope: Scope) -> StarletteResponse:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        return response


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""The client's Content-Security-Policy: its own scripts and style sheets only (no inline script, no inline style
attribute: the client sets styles through the DOM), its favicon as a data: URL, its requests and sockets to its own
origin (`connect-src 'self'` covers same-origin ws: and wss:), and never framed."""
NOT_BUILT_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
            "font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https://fastapi.tiangolo.com "
            "https://cdn.redoc.ly; worker-src blob:; connect-src 'self'; frame-ancestors 'none'")
"""For /docs and /redoc when `TABLETOP_API_DOCS` turns them on: FastAPI's pages load Swagger UI or ReDoc from a
CDN and start it with an inline script."""
DOCS_PATHS = ("/docs", "/redoc")
PUBLIC_API = "/api/meta/"
"""API answers that depend on no token and no game (the games' descriptions and rules help): cacheable."""


def security_headers() -> dict[str, str]:
    """The headers every answer carries; an unhandled error's 500 (answered by Starlette outside every middleware)
    sets them itself."""
    return {"content-security-policy": CSP, "x-content-type-options": "nosniff", "x-frame-options": "DENY",
            "referrer-policy": "no-referrer", "cache-control": "no-store"}


class SecurityHeaders:
    """ASGI middleware: every HTTP answer gets a Content-Security-Policy (unless its route set its own),
    `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`, and every /api answer
    but the public meta ones `Cache-Control: no-store` (they depend on a token, or on a game that moves on)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        csp = DOCS_CSP if path.startswith(DOCS_PATHS) else CSP
        no_store = path.startswith("/api/") and not path.startswith(PUBLIC_API)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("content-security-policy", csp)
                headers.setdefault("x-content-type-options", "nosniff")
                headers.setdefault("x-frame-options", "DENY")
                headers.setdefault("referrer-policy", "no-referrer")
                if no_store:
                    headers["cache-control"] = "no-store"
            await send(message)

        await self.app(scope, receive, send_with_headers)
