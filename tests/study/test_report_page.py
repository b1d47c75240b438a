"""The shipped study reports open in Chromium (Playwright, Debian's /usr/bin/chromium as tests/web does): the page
loads, every image it names is present and decoded, and at a 1280-pixel window no plot is scaled down (its 10-11 pt
labels stay at least 10 pt on the page)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
SHIPPED = Path(__file__).resolve().parents[2] / "docs" / "studies"


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"the report page test needs Debian's Chromium at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as p:  # opened for this module only (see tests/fourth)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 900})
        finally:
            browser.close()


@pytest.mark.parametrize("game", ["silos", "silencio", "siliconvania"])
def test_a_shipped_report_loads_with_every_image_present_and_unscaled(page: Any, game: str) -> None:
    index = SHIPPED / game / "index.html"
    named = re.findall(r'<img src="([^"]+)"', index.read_text(encoding="utf-8"))
    assert named and all((index.parent / n).exists() for n in named)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(index.as_uri())
    page.wait_for_load_state("load")
    assert page.locator("h1").inner_text().strip()
    assert page.locator("h2", has_text="Findings").count() == 1
    images = page.eval_on_selector_all(
        "img", "els => els.map(e => [e.getAttribute('src'), e.complete, e.naturalWidth, e.clientWidth])")
    assert [i[0] for i in images] == named
    for src, complete, natural, shown in images:
        assert complete and natural > 0, src
        assert shown >= 0.97 * natural, (src, natural, shown)  # at most the page's width: never shrunk
    assert not errors
