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
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response as StarletteResponse
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

STATIC = Path(__file__).with_name("static")

NOT_BUILT = """<!doctype html><html lang="en"><meta charset="utf-8"><title>tabletop: client not built</title>
<body style="font-family:system-ui,sans-serif;max-width:40em;margin:3em auto;line-height:1.5">
<h1>The browser client is not built</h1>
<p>This server runs from a checkout whose web client has not been built yet. Run</p>
<pre style="background:#eee;padding:.6em">./scripts/setup</pre>
<p>(it needs Node.js 20 or newer and builds <code>web/</code> into <code>src/tabletop/server/static/</code>),
then reload this page. The API under <code>/api</code> works meanwhile.</p>
</body></html>
"""

GameId = Annotated[str, PathParam(min_length=1, max_length=32, pattern=r"^[0-9a-f]+$")]


def mount_web(app: FastAPI, static: Path = STATIC) -> None:
    """Serve the client at `/` from `static` (or the not-built page), and compress responses."""
    index = static / "index.html"

    def page() -> Response:
        if not index.is_file():
            return HTMLResponse(NOT_BUILT, status_code=503, headers={"Cache-Control": "no-store"})
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
