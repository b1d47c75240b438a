"""`tabletop serve`: the online game server (FastAPI on uvicorn). Needs the `server` extra."""

from __future__ import annotations

import argparse
import logging
import re
from typing import Any
from urllib.parse import unquote_plus

from rich.console import Console
from rich.markup import escape


def _redact(url: str) -> str:
    """The database URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


class RedactTokens(logging.Filter):
    """Hide seat tokens in log lines: a socket's URL carries its token (`?token=...`), and uvicorn logs every
    connection with its URL, access log or not. A log file is a channel too: no credential goes into it. The
    parameter is recognised however it is spelled: the server decodes `%74oken=` (or `to%6Ben=`) as `token=`, so
    a parameter whose name decodes to `token`, in any case, has its value redacted."""

    PARAM = re.compile(r"(?:^|(?<=[?&\s]))([^=&?\s\"']+)=([^&\s\"']*)")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "=" in message:
            redacted = self.PARAM.sub(self._redact, message)
            if redacted != message:
                record.msg, record.args = redacted, ()
        return True

    @staticmethod
    def _redact(m: re.Match[str]) -> str:
        name = unquote_plus(m.group(1)).strip().lower()
        return f"{m.group(1)}=[redacted]" if name.endswith("token") else m.group(0)


def redact_server_logs() -> None:
    """Put `RedactTokens` on uvicorn's loggers (after uvicorn configured its logging)."""
    for name in ("uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


def open_line(host: str, port: int, public_url: str) -> str:
    """The line saying where to point a browser, once the server listens on `host`:`port`."""
    shown = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)  # all addresses: this machine's
    url = f"http://[{shown}]:{port}/" if ":" in shown else f"http://{shown}:{port}/"
    invites = "" if public_url.rstrip("/") == url.rstrip("/") else f"; invite links use {public_url}"
    return f"Open {url} in your browser (Ctrl-C stops the server{invites})."


def announcing_server(base: type[Any], config: Any, public_url: str, console: Console) -> Any:
    """A uvicorn server (`base` is uvicorn.Server) that prints `open_line` once its socket listens: after its
    start-up (the app's lifespan, then the bind) succeeded, never before, and never when it failed."""

    class AnnouncingServer(base):  # type: ignore[misc]
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            if self.started and self.servers and self.servers[0].sockets:
                port = self.servers[0].sockets[0].getsockname()[1]
                console.print(f"\n  {open_line(config.host, port, public_url)}\n", highlight=False, soft_wrap=True)

    return AnnouncingServer(config)


def cmd_serve(args: argparse.Namespace) -> int:
    """Migrate the database, say where it is and where to connect, then serve until interrupted."""
    try:
        import uvicorn
        from pydantic import ValidationError

        from tabletop.server import Settings, create_app
        from tabletop.server.limits import ConnectionGuard, guarded_http
    except ModuleNotFoundError as e:
        hint = "pip install 'tabletop[server]'"
        Console(stderr=True).print(f"[bold red]error:[/] the server needs its extra: {escape(hint)} ({escape(str(e))})")
        return 2
    overrides: dict[str, Any] = {}
    if args.db:
        overrides["db"] = args.db
    overrides["public_url"] = args.public_url or f"http://{args.host}:{args.port}"
    if args.ai_workers is not None:
        overrides["ai_workers"] = args.ai_workers
    if args.policy_dir is not None:
        overrides["policy_dir"] = args.policy_dir
    try:
        settings = Settings(**overrides)
    except ValidationError as e:  # a TABLETOP_* variable (or a flag) that is not a valid value: said, not a bug
        problems = "; ".join(f"TABLETOP_{'_'.join(str(x) for x in err['loc']).upper()}: {err['msg']}"
                             f" (got {str(err.get('input'))[:60]!r})" for err in e.errors()[:5])
        Console(stderr=True).print(f"[bold red]error:[/] a server setting is not valid: {escape(problems)}",
                                   highlight=False)
        return 2
    console = Console()
    console.print(f"database: {_redact(settings.db_url())}")
    if not settings.public_url.startswith("https://") and args.host not in ("127.0.0.1", "localhost", "::1"):
        console.print("[yellow]warning:[/] seat tokens travel in clear without TLS; see docs/server.md")
    # uvicorn's own limit on socket frames (default 16 MiB) is brought down to what the server accepts at all
    # no access log unless asked: a line per request costs CPU on every move, and the proxy in front logs anyway
    # slow clients: a request head must come within head_timeout, a silent connection is closed after
    # idle_timeout, and one address holds at most max_connections_per_address (tabletop.server.limits)
    guard = ConnectionGuard(settings.head_timeout, settings.idle_timeout, settings.max_head_bytes,
                            settings.max_connections_per_address, settings.trusted_proxies)
    config = uvicorn.Config(create_app(settings), host=args.host, port=args.port, log_level="info",
                            ws_max_size=settings.max_socket_message_bytes * 4, access_log=args.access_log,
                            ws_per_message_deflate=settings.socket_compression, http=guarded_http(guard),
                            timeout_keep_alive=settings.idle_timeout,
                            h11_max_incomplete_event_size=settings.max_head_bytes or None,
                            forwarded_allow_ips=settings.trusted_proxies)
    redact_server_logs()  # uvicorn.Config has configured logging by now
    announcing_server(uvicorn.Server, config, settings.public_url, console).run()
    return 0


def add_parser(sub: Any) -> None:
    """Register `tabletop serve`."""
    p = sub.add_parser("serve", help="run the online game server")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=None, help="database URL (default: an SQLite file in the user data directory)")
    p.add_argument("--public-url", default=None, help="the address people reach the server at (for invite links)")
    p.add_argument("--ai-workers", type=int, default=None, help="worker processes for AI moves (default 1)")
    p.add_argument("--policy-dir", default=None,
                   help="directory of trained policies (NAME.npz) offered as AI seats by name "
                   "(default: the shipped ones)")
    p.add_argument("--access-log", action="store_true", help="log a line per HTTP request (default off)")
    p.set_defaults(func=cmd_serve)
