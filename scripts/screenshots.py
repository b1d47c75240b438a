"""Screenshots of the browser client for docs/screenshots/ (issue 22): the lobby, each game's table in play against
an AI, a tutorial's table, and a finished Silencio table, at a laptop's 1366x768 and a phone's 390x844.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots]

It builds the client (scripts/build-web), starts a real `tabletop serve` on a free port with a throwaway SQLite
database, and drives Debian's Chromium (/usr/bin/chromium) with Playwright, as the browser tests do; the moves
before a screenshot are random legal clicks from a fixed seed, so a rerun shows the same kind of table (the deals
are the server's own, so not the same cards). No pytest needed.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import Page, sync_playwright
from rich.progress import Progress

ROOT = Path(__file__).resolve().parents[1]
SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
TABLE = {"silencio": ".silencio", "silos": ".silos", "siliconvania": ".sv"}
MOVES = {"silencio": 2, "silos": 16, "siliconvania": 12}
"""How many of the player's moves are made before the table's picture (SILOS: past the positioning)."""


def serve(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    env = {"TABLETOP_RATE_PER_ADDRESS": "0", "TABLETOP_RATE_PER_TOKEN": "0", "TABLETOP_GAMES_PER_HOUR": "0",
           "TABLETOP_OPEN_GAMES": "0"}
    log = open(tmp / "serve.log", "ab")  # noqa: SIM115 - open while the server runs
    boot = "import sys; from tabletop.cli.main import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen([sys.executable, "-c", boot, "serve", "--port", str(port), "--db",
                             f"sqlite:///{tmp / 'shots.sqlite3'}", "--ai-workers", "1"],
                            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **env})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"tabletop serve exited: {(tmp / 'serve.log').read_text()[-2000:]}")
        try:
            if httpx.get(f"{url}/api/meta/games", timeout=2).status_code == 200:
                return proc, url
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("tabletop serve did not answer within 60 s")


def create(page: Page, base: str, game: str) -> None:
    page.goto(f"{base}/")
    page.wait_for_selector("form.create")
    page.select_option("form.create select[name=game]", game)
    page.select_option("form.create select[name=players]", "2")
    page.fill("form.create input[name=name]", "Ann")
    page.select_option("form.create select[name=seat0]", "me")
    page.select_option("form.create select[name=seat1]", "ai:easy")
    page.click("form.create button[type=submit]")
    page.wait_for_selector("[data-testid=created]")
    page.click("text=Open the table")
    page.wait_for_selector(f"{TABLE[game]}[data-seq]")


def seq(page: Page) -> int:
    return int(page.get_attribute(".table > [data-seq]", "data-seq") or -1)


def my_turn(page: Page) -> bool:
    page.wait_for_selector(".tablehead .turn.mine, .actions .result", timeout=90_000)
    return page.query_selector(".actions .result") is None


def move(page: Page, rng: random.Random) -> None:
    """One random legal move by clicks (a component, following a move of several, or a fallback button)."""
    page.wait_for_function("() => document.querySelector('.table .target, .actions > .buttons button.act')",
                           timeout=30_000)
    before = seq(page)
    for _ in range(4):
        targets = page.query_selector_all(".table .target, .actions > .buttons button.act")
        try:
            targets[rng.randrange(len(targets))].click(position={"x": 4, "y": 4})
        except Exception:  # redrawn under the click: take the fresh ones
            continue
        page.wait_for_timeout(60)
        if not page.query_selector(".table .selected"):
            break
    page.wait_for_function(
        "([s]) => { const t = document.querySelector('.table > [data-seq]');"
        " return (t && Number(t.dataset.seq) > s) || document.querySelector('.actions .result'); }",
        arg=[before], timeout=30_000)


def shoot(page: Page, out: Path, name: str) -> list[Path]:
    """The page at each size (the viewport a person sees, from the top)."""
    made = []
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_timeout(250)
        path = out / f"{name}-{size}.png"
        page.screenshot(path=str(path))
        made.append(path)
    return made


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(ROOT / "scripts" / "build-web")], check=True)
    made: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw, Progress() as bar:
        proc, base = serve(Path(tmp))
        task = bar.add_task("screenshots", total=2 + len(TABLE))
        try:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
            page.goto(f"{base}/")
            page.wait_for_selector("section.learn")
            made += shoot(page, args.out, "lobby")
            bar.advance(task)
            for game in TABLE:
                create(page, base, game)
                rng = random.Random(5)
                for _ in range(MOVES[game]):
                    if not my_turn(page):
                        break
                    move(page, rng)
                my_turn(page)
                made += shoot(page, args.out, game)
                if game == "silencio":  # on to its end: the result panel
                    while my_turn(page):
                        move(page, rng)
                    made += shoot(page, args.out, "silencio-over")
                bar.advance(task)
            page.goto(f"{base}/")
            page.click("button[data-tutorial=silos]")
            page.wait_for_selector("[data-testid=tutorial] .step")
            made += shoot(page, args.out, "tutorial-silos")
            bar.advance(task)
            browser.close()
        finally:
            proc.terminate()
            proc.wait(20)
    for p in made:
        print(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
