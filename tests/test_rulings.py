"""Every ruling in docs/rulings.md gives its reason and names at least one test, and every test it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _rulings() -> dict[str, str]:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    sections = re.split(r"^### ", text, flags=re.M)[1:]
    return {s.split()[0]: s for s in sections}


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.update(re.findall(r"^\s*def (test_\w+)", path.read_text(encoding="utf-8"), flags=re.M))
    return names


def test_rulings_are_numbered_per_game_without_gaps():
    numbers: dict[str, list[int]] = {}
    for key in _rulings():
        prefix, _, n = key.partition("-")
        numbers.setdefault(prefix, []).append(int(n))
    assert set(numbers) == {"C", "S", "V", "K"}  # K: conceding, the same for every competitive game
    for prefix, ns in numbers.items():
        assert ns == list(range(1, len(ns) + 1)), f"{prefix}- rulings are not numbered 1..n: {ns}"


def test_every_ruling_is_pinned_by_an_existing_test():
    existing = _test_names()
    for key, section in _rulings().items():
        named = set(re.findall(r"(test_\w+)", section)) - {n for n in re.findall(r"(test_\w+)\.py", section)}
        assert named, f"ruling {key} names no test"
        assert "Reason" in section or "reason" in section, f"ruling {key} gives no reason"
        missing = sorted(named - existing)
        assert not missing, f"ruling {key} names tests that do not exist: {missing}"
