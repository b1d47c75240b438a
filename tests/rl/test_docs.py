"""The Python blocks of docs/rl.md's "Conventions" section run as written."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def _blocks() -> list[str]:
    text = DOC.read_text()
    section = text[text.index("## Conventions"):]
    section = section[:section.index("\n## ", 1)]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_conventions_section_has_its_examples() -> None:
    assert len(_blocks()) == 6


@pytest.mark.parametrize("i", range(6))
def test_a_conventions_example_runs(i: int) -> None:
    block = _blocks()[i]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(block, f"docs/rl.md conventions block {i}", "exec"), {})
