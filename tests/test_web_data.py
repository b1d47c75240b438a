"""The browser table's component data (web/src/games/siliconvania.data.ts) is generated from components.toml and
kept current: a change to the component file without `scripts/web-data` fails here."""

from __future__ import annotations

import importlib.util
from importlib.machinery import SourceFileLoader
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _web_data() -> object:
    loader = SourceFileLoader("web_data", str(ROOT / "scripts" / "web-data"))
    spec = importlib.util.spec_from_loader("web_data", loader)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def test_the_siliconvania_client_data_is_generated_from_the_current_component_file() -> None:
    mod = _web_data()
    out: Path = mod.OUT  # type: ignore[attr-defined]
    assert out.read_text() == mod.text(), "run scripts/web-data"  # type: ignore[attr-defined]


def test_the_client_data_holds_only_printed_component_facts() -> None:
    from tabletop.games.siliconvania.components import client_data, load

    d = client_data(load())
    assert set(d) == {"version", "types", "animals", "tiles", "castles", "trains", "antiquities", "objectives",
                      "specialists", "track", "bid_cards", "bonus_kinds", "rounds"}
    assert len(d["tiles"]) == 88 and len(d["specialists"]) == 70
