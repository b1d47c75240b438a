"""Throw-away distributions, as an installer leaves them in site-packages: the package files beside a
`<dist>-1.0.dist-info/` whose `entry_points.txt` declares games in the `tabletop.games` group.

Shared by tests/core/test_plugins.py (toy plugins) and tests/fourth (the fourth game, `nines`, installed from
tests/fourth/nines/).
"""

from __future__ import annotations

import shutil
from pathlib import Path

NINES = Path(__file__).with_name("nines")
"""The fourth game's folder; `install_nines` copies it as the package `nines`."""


def write_distribution(root: Path, dist: str, entry_points: dict[str, str], files: dict[str, str]) -> None:
    """Write the package `files` (relative path -> text) and `<dist>-1.0.dist-info/` into `root`."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    info = root / f"{dist}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    lines = "".join(f"{name} = {target}\n" for name, target in entry_points.items())
    (info / "entry_points.txt").write_text(f"[tabletop.games]\n{lines}")


def install_nines(root: Path) -> Path:
    """The distribution `tabletop-nines` in `root`: the package `nines` (tests/fourth/nines, copied as it is) and the
    entry point `nines = nines:register_game`. Returns `root`, the folder to put on `sys.path` (or `PYTHONPATH`)."""
    shutil.copytree(NINES, root / "nines", ignore=shutil.ignore_patterns("__pycache__"))
    write_distribution(root, "tabletop_nines", {"nines": "nines:register_game"}, {})
    return root
