"""A wheel built from the repository carries the built browser client: installed into a fresh virtual environment
with `pip install 'tabletop-*.whl[server]'`, its `tabletop serve` serves the client's page and assets with no Node
anywhere on its PATH (issue 20, point 14). Needs the client built (scripts/setup does it) and pip's index; about
30 s with pip's cache warm."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import httpx
import pytest

from .proc import free_port
from .test_serve_address import lines_until_open

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "tabletop" / "server" / "static"


def source_tree(dest: Path) -> Path:
    """What a wheel is built from, copied (the build writes build/ and *.egg-info beside its sources, and the
    client may be rebuilt in the checkout meanwhile): the project files and src/, without caches or built modules."""
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    for licence in ROOT.glob("LICEN[CS]E*"):
        shutil.copy2(licence, dest / licence.name)
    shutil.copytree(ROOT / "src", dest / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info", "*.pyc"))
    return dest


def test_a_wheel_serves_the_browser_client_without_node(tmp_path: Path) -> None:
    if not (STATIC / "index.html").is_file():
        pytest.fail("the browser client is not built: run scripts/setup (needs Node.js 20+)", pytrace=False)
    (tmp_path / "tree").mkdir()
    tree = source_tree(tmp_path / "tree")
    built = tree / "src" / "tabletop" / "server" / "static"
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), str(tree)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = dist.glob("tabletop-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    client = {str(p.relative_to(built)) for p in built.rglob("*") if p.is_file() and not p.name.startswith(".")}
    assert client and {f"tabletop/server/static/{c}" for c in client} <= names, sorted(names)

    venv = tmp_path / "venv"  # a fresh one; the current pip installs into it, as `pip install` in it would
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--quiet", "--no-compile",
                    f"{wheel}[server]"],
                   check=True, capture_output=True, timeout=600)
    where = subprocess.run([str(py), "-c", "import tabletop; print(tabletop.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(venv), where  # the installed package, not this checkout's

    path = str(venv / "bin")  # nothing else: no node, no npm, no npx
    assert not any(shutil.which(tool, path=path) for tool in ("node", "npm", "npx"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env |= {"PATH": path, "TABLETOP_HINT_WORKERS": "0", "TABLETOP_RATE_PER_ADDRESS": "0"}
    port = free_port()
    proc = subprocess.Popen([str(venv / "bin" / "tabletop"), "serve", "--port", str(port), "--ai-workers", "0",
                             "--db", f"sqlite:///{tmp_path / 'server.sqlite3'}"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        seen, printed = lines_until_open(proc)
        assert printed == port, "".join(seen)
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=10)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html"), page.text[:500]
        assert page.text == (built / "index.html").read_text()  # the client's page, not the "not built" one
        scripts = re.findall(r'src="/(assets/[^"]+\.js)"', page.text)
        assert scripts, page.text
        for asset in scripts:
            r = httpx.get(f"http://127.0.0.1:{port}/{asset}", timeout=10)
            assert r.status_code == 200 and "javascript" in r.headers["content-type"], (asset, r.headers)
            assert r.content == (built / asset).read_bytes(), asset
    finally:
        proc.terminate()
        proc.wait(30)
