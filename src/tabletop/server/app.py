"""The FastAPI application: storage migrated at start, AI worker pool, error handlers that never leak a trace."""

from __future__ import annotations

import gc
import logging
import multiprocessing
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from tabletop.server.accounts import make_accounts
from tabletop.server.ai import Lane, worker_init
from tabletop.server.api.main import api_router
from tabletop.server.clocks import Clocks
from tabletop.server.limits import Buckets, RateLimit
from tabletop.server.mail import TurnMail
from tabletop.server.pubsub import Broker, InProcessBroker, PgBroker
from tabletop.server.ratings import Ratings
from tabletop.server.reviews import Reviews
from tabletop.server.service import STATUS, GameService, ServiceError
from tabletop.server.settings import Settings
from tabletop.server.storage import Storage
from tabletop.server.table import Table
from tabletop.server.web import SecurityHeaders, mount_web, security_headers

log = logging.getLogger("tabletop.server")



def _pool_factory(workers: int) -> Callable[[], Executor] | None:
    """Worker processes for AI moves, forked from a clean fork server (not from the threaded server)."""
    if workers <= 0:
        return None
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["tabletop.server.ai"])
    return lambda: ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=worker_init)


class BodyLimit:
    """Refuse request bodies over `limit` bytes (413), and bodies of unknown length (411)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT", "PATCH"):
            headers = dict(scope["headers"])
            length = headers.get(b"content-length")
            status, detail = 0, ""
            if length is None:
                status, detail = 411, "a request body needs a Content-Length"
            elif not length.isdigit() or int(length) > self.limit:
                status, detail = 413, f"request bodies are limited to {self.limit} bytes"
            if status:
                await JSONResponse({"detail": detail}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def quiet_collector(young: int) -> None:
    """Keep Python's cyclic garbage collector from stalling the event loop: the start-up heap (modules, the engine's
    tables, SQLAlchemy's and FastAPI's structures) is frozen out of its scans, and the young generation is
    collected every `young` allocations instead of 700, so that a game state or a message, which lives until the
    next action, dies by reference counting before it is promoted. Measured (200 people-paced tables, SQLite):
    with Python's defaults, full collections of 60-210 ms every 10-20 s were the round trips' tail. 0 keeps
    Python's defaults. Once per process (an app started again in the same process, as tests do, freezes nothing
    more)."""
    global _QUIETED
    if young <= 0 or _QUIETED:
        return
    _QUIETED = True
    gc.collect()
    gc.freeze()
    _, mid, old = gc.get_threshold()
    gc.set_threshold(young, mid, old)


_QUIETED = False


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application for `settings` (defaults and TABLETOP_* variables if None)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(settings.db_url(), settings.sqlite_sync)
        storage.migrate()
        broker: Broker = PgBroker(storage.url) if storage.engine.dialect.name == "postgresql" else InProcessBroker()
        service = GameService(storage, broker, _pool_factory(settings.ai_workers), settings.public_url,
                              settings.cache_games, settings.policy_dir or None, settings.ai_workers,
                              settings.creation_limits())
        app.state.service = service
        app.state.accounts = make_accounts(storage, broker, settings)
        app.state.ratings = Ratings(storage)
        service.on_over = app.state.ratings.final_op
        app.state.mail = TurnMail(service, storage, broker, settings)
        hint_pool = _pool_factory(settings.hint_workers)
        hints = Lane("hint", hint_pool, settings.hint_workers, retries=1) if hint_pool is not None else None
        app.state.table = Table(service, settings, hints)
        app.state.reviews = Reviews(service, settings, hints)
        app.state.clocks = Clocks(service, app.state.table, settings.clock_tick)
        # actions sent over a socket are applied here when not in the loop (`act_in_loop`; the commit waits on the
        # database, never in the event loop)
        app.state.act_pool = ThreadPoolExecutor(max_workers=settings.act_threads, thread_name_prefix="act")
        app.state.act_in_loop = settings.act_in_loop
        service.start()
        app.state.clocks.start()
        app.state.mail.start()
        quiet_collector(settings.gc_young_threshold)
        try:
            yield
        finally:
            app.state.act_pool.shutdown(wait=True)
            app.state.clocks.close()
            app.state.mail.close()
            app.state.reviews.close()
            app.state.table.close()
            service.close()
            storage.close()

    # the interactive API pages load their scripts from a CDN: off unless TABLETOP_API_DOCS (/openapi.json stays)
    docs = settings.api_docs
    app = FastAPI(title="tabletop", lifespan=lifespan, docs_url="/docs" if docs else None,
                  redoc_url="/redoc" if docs else None)
    app.state.settings = settings
    app.include_router(api_router)
    mount_web(app)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    per_token = Buckets(settings.rate_per_token, settings.burst_per_token)
    app.state.per_token = per_token  # a socket's actions spend from its token's bucket, as requests do
    app.add_middleware(RateLimit, per_address=Buckets(settings.rate_per_address, settings.burst_per_address),
                       per_token=per_token)
    app.add_middleware(SecurityHeaders)  # outermost of ours: 413, 429 and gzipped answers get the headers too
    _handlers(app)
    return app


def _handlers(app: FastAPI) -> None:
    async def service_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ServiceError)
        retry = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(retry)} if retry is not None else None
        return JSONResponse({"detail": exc.message, **exc.extra}, status_code=STATUS[exc.kind], headers=headers)

    async def invalid_request(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
                  for e in exc.errors()[:20]]
        return JSONResponse({"detail": errors}, status_code=422)

    async def internal(_: Request, exc: Exception) -> JSONResponse:
        log.error("internal error", exc_info=exc)
        return JSONResponse({"detail": "internal server error"}, status_code=500, headers=security_headers())

    app.add_exception_handler(ServiceError, service_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(Exception, internal)


