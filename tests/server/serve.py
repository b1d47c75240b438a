"""`tabletop serve` for the tests that run real server processes: `python tests/server/serve.py serve --port ...`.

It is the real command (`tabletop.cli.main.main`, uvicorn and all), run with the interpreter of the tests.
"""

from __future__ import annotations

import sys

from tabletop.cli.main import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
