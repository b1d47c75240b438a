"""`tabletop bot --server URL --join INVITE --agent SPEC`: any agent as a remote seat of a server's game.

The bot claims the invite (or plays a seat it holds the token of: `--game ID --token TOKEN`), marks the seat as a
bot at the table and in the lobby, then plays it to the end through the public API only (docs/bots.md): it sees the
seat's view, log and legal actions, never the state. SPEC is any agent spec (`random`, `heuristic`,
`ismcts:time=1.0`, `hard`, `policy:path=F.npz`, ...) or your own class, `mypackage.mymodule:MyAgent` or
`path/to/file.py:MyAgent` (the agent protocol of docs/agents.md: a `name` and `act(seat) -> Action`; built with
`MyAgent(seed)` if it takes an argument, else `MyAgent()`).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import inspect
import re
import sys
from pathlib import Path
from typing import Any

from tabletop.cli.common import Refused
from tabletop.core.errors import shorten

_CLASS_SPEC = re.compile(r"^(?P<module>[^:=,]+?):(?P<cls>[A-Za-z_][A-Za-z0-9_]*)$")


def add_parser(sub: Any) -> None:
    """`tabletop bot`."""
    p = sub.add_parser("bot", help="play a seat of a server's game with an agent (a bot over the network)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", required=True, help="the server's address, e.g. http://127.0.0.1:8000")
    p.add_argument("--join", default=None, metavar="INVITE", help="an invite link (https://host/join/<game>#<code>)")
    p.add_argument("--game", default=None, help="with --token: the game id of a seat you hold")
    p.add_argument("--token", default=None, help="with --game: the seat token (instead of an invite)")
    p.add_argument("--agent", default="heuristic", help="an agent spec, or module:Class / file.py:Class")
    p.add_argument("--name", default=None, help="the bot's name at the table (default: the agent's name)")
    p.add_argument("--seed", type=int, default=0, help="the agent's seed")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.set_defaults(func=run)


def load_agent(spec: str, game: str, seed: int) -> Any:
    """The agent of `spec` for `game`: a built-in spec, or a user's class named `module:Class` / `file.py:Class`."""
    from tabletop.agents import make_agent

    m = _CLASS_SPEC.match(spec.strip())
    if m is None or not ("." in m.group("module") or "/" in m.group("module")):
        return make_agent(spec, game, seed)
    where, name = m.group("module"), m.group("cls")
    try:
        if where.endswith(".py"):
            path = Path(where)
            if not path.is_file():
                raise Refused(f"--agent {shorten(spec)}: no such file {shorten(where)}")
            loaded = importlib.util.spec_from_file_location(path.stem, path)
            if loaded is None or loaded.loader is None:
                raise Refused(f"--agent {shorten(spec)}: cannot load {shorten(where)}")
            module = importlib.util.module_from_spec(loaded)
            sys.modules[path.stem] = module
            loaded.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except ImportError as e:
        raise Refused(f"--agent {shorten(spec)}: cannot import {shorten(where)}: {e}") from None
    cls = getattr(module, name, None)
    if cls is None or not callable(cls):
        raise Refused(f"--agent {shorten(spec)}: {shorten(where)} has no class {name}")
    try:
        takes_seed = bool(inspect.signature(cls).parameters)
    except (TypeError, ValueError):
        takes_seed = False
    agent = cls(seed) if takes_seed else cls()
    if not callable(getattr(agent, "act", None)):
        raise Refused(f"--agent {shorten(spec)}: {name} has no act(seat) method (the agent protocol, docs/agents.md)")
    if not isinstance(getattr(agent, "name", None), str):
        agent.name = name
    return agent


def run(args: argparse.Namespace) -> int:
    from tabletop.client import ApiError, Client, parse_invite
    from tabletop.client.bot import run_bot

    if (args.join is None) == (args.token is None):
        raise Refused("give an invite (--join LINK) or a seat you hold (--game ID --token TOKEN), one of the two")
    if args.token is not None and not args.game:
        raise Refused("--token needs --game, the game's id")
    if args.join is not None:
        try:
            base, _, _ = parse_invite(args.join)
        except ValueError as e:
            raise Refused(str(e)) from None
        if base.rstrip("/") != args.server.rstrip("/"):
            raise Refused(f"this invite is for {base}, not --server {args.server}")
    say = (lambda line: None) if args.quiet else print
    with Client(args.server) as client:
        try:
            game = client.info(parse_invite(args.join)[1] if args.join else args.game)["game"]
            agent = load_agent(args.agent, str(game), args.seed)
            name = args.name or f"{getattr(agent, 'name', 'bot')} (bot)"
            seat = client.claim_invite(args.join, name=name[:40]) if args.join else client.seat(args.game,
                                                                                                args.token)
            seat.mark_bot()
            if args.join and not args.quiet:
                print(f"seat {seat.seat} of game {seat.game_id}; its token (to resume with --game/--token): "
                      f"{seat.token}")
            result = run_bot(seat, agent, say=say)
        except ApiError as e:
            raise Refused(e.detail if e.status == 0 else f"the server refused: {e}") from None
    final = result.final
    winners = (final.get("view") or {}).get("winners")
    print(f"game {seat.game_id}: {final.get('status', '?')}; {result.sent} decisions sent, "
          f"{len(result.refused)} refused" + (f"; winners {winners}" if winners is not None else ""))
    return 0
