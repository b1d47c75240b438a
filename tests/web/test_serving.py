"""`tabletop serve` serves the browser client: SPA routes, the not-built page, compression, and the wheel's data."""

from __future__ import annotations

import glob
import gzip
import re
import tomllib
from pathlib import Path

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tabletop.server.web import NOT_BUILT, mount_web

from .conftest import ROOT, Served

JS_BUDGET = 300 * 1024


def test_the_table_pages_javascript_is_under_300_kb_gzipped_as_the_server_sends_it(server: Served) -> None:
    page = httpx.get(f"{server.url}/g/0123abcd")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    scripts = re.findall(r'<script[^>]+src="([^"]+\.js)"', page.text)
    assert scripts, page.text
    total = 0
    with httpx.Client(base_url=server.url) as c:
        for src in scripts:
            with c.stream("GET", src, headers={"Accept-Encoding": "gzip"}) as r:
                assert r.status_code == 200
                assert r.headers.get("content-encoding") == "gzip"
                assert "immutable" in r.headers["cache-control"]
                raw = b"".join(r.iter_raw())
            assert gzip.decompress(raw)
            total += len(raw)
    assert 0 < total <= JS_BUDGET, f"{total} bytes gzipped"


def test_spa_routes_answer_the_client_and_unknown_paths_stay_json_404(server: Served) -> None:
    for path in ("/", "/g/0123abcd", "/join/0123abcd"):
        r = httpx.get(server.url + path)
        assert r.status_code == 200 and '<div id="app">' in r.text, path
    r = httpx.get(f"{server.url}/no/such/page")
    assert r.status_code == 404 and "detail" in r.json()
    assert httpx.get(f"{server.url}/g/not-hex!").status_code == 422


def test_a_checkout_served_without_a_build_says_to_run_scripts_setup(tmp_path: Path) -> None:
    app = FastAPI()
    mount_web(app, tmp_path)  # an empty static folder: nothing built
    with TestClient(app) as c:
        for path in ("/", "/g/abc", "/join/abc"):
            r = c.get(path)
            assert r.status_code == 503 and r.text == NOT_BUILT and "scripts/setup" in r.text, path


def test_a_wheel_carries_the_built_client() -> None:
    """The package data names every file of the built client (index.html and the hashed assets); that a wheel built
    from the repository really serves it is tests/server/test_packaging.py."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["tabletop"]
    built = [p.relative_to(ROOT / "src" / "tabletop").as_posix()
             for p in (ROOT / "src" / "tabletop" / "server" / "static").rglob("*")
             if p.is_file() and not p.name.startswith(".")]  # .built: the build's stamp, not served
    assert any(b.endswith("index.html") for b in built) and any("/assets/" in b for b in built), built
    pkg = ROOT / "src" / "tabletop"
    covered = {m for pattern in data for m in glob.glob(pattern, root_dir=pkg, recursive=True)}  # as setuptools globs
    assert set(built) <= covered, sorted(set(built) - covered)
