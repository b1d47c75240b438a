"""A real server process for the browser tests whose move clocks the test drives (issue 23's done-test): it serves
`create_app(Settings(**json))` with uvicorn on the given port and answers one line per command read on stdin:
`tick` (the clocks checked now: new decisions get their deadline), `advance SECONDS` (the clocks checked that far
in the future: the late seats are moved for), `sweep` (the "your turn" mails sent). The clocks' own tick and the
mail interval are set long by the test, so only these commands move them. Run as
`python tests/web/clocked_server.py PORT SETTINGS_JSON`."""

from __future__ import annotations

import json
import sys
import threading
import time
from datetime import timedelta

import uvicorn

from tabletop.server.app import create_app
from tabletop.server.settings import Settings
from tabletop.server.storage import now


def main(port: int, settings: dict[str, object]) -> None:
    app = create_app(Settings(**settings))  # type: ignore[arg-type]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    print("ready", flush=True)
    for line in sys.stdin:
        cmd, *args = line.split()
        if cmd == "tick":
            done = app.state.clocks.check(now())
        elif cmd == "advance":
            done = app.state.clocks.check(now() + timedelta(seconds=float(args[0])))
        elif cmd == "sweep":
            done = app.state.mail.sweep()
        else:
            done = -1
        print(f"ok {done}", flush=True)
    server.should_exit = True


if __name__ == "__main__":
    main(int(sys.argv[1]), json.loads(sys.argv[2]))
