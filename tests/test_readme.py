"""The README's Python examples run as written, and its commands name real subcommands."""

from __future__ import annotations

import re
from pathlib import Path

from tabletop.cli.main import build_parser

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_readme_python_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)


def test_readme_commands_parse():
    parser = build_parser()
    shell = "\n".join(re.findall(r"```sh\n(.*?)```", README, flags=re.S))
    commands = re.findall(r"^tabletop (.+?)(?:\s+#.*)?$", shell, flags=re.M)
    assert len(commands) >= 5
    for line in commands:
        parser.parse_args(line.split())
