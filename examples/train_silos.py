"""2-player SILOS through `examples/train.py` (the one training command for every game; this name is kept for the
commands in docs/rl.md's history).

    python examples/train_silos.py --minutes 15 --out silos-policy.npz --plot silos-curve.png

is `python examples/train.py --game silos --players 2 --minutes 15 --out silos-policy.npz --plot silos-curve.png`:
every other option is train.py's (`--help` lists them).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any


def main(argv: list[str] | None = None) -> dict[str, Any]:
    spec = importlib.util.spec_from_file_location("train", Path(__file__).with_name("train.py"))
    assert spec is not None and spec.loader is not None
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    result: dict[str, Any] = train.main(["--game", "silos", "--players", "2",
                                         *(sys.argv[1:] if argv is None else argv)])
    return result


if __name__ == "__main__":
    main()
