"""The Starlette application: routes, bearer-token check, JSON errors, lifespan."""

from __future__ import annotations

import hmac
import logging
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from reference_impl.runtime import Runtime
from reference_impl.seams import Seams
from reference_impl.server._api import ApiRoutes
from reference_impl.server._harness import SESSION_API, HarnessEndpoint, HttpHarness
from reference_impl.server._openapi import openapi_document
from reference_impl.server._responses import error_response, guarded, settle_quietly
from reference_impl.server.demo import DemoModel, DemoWorld
from reference_impl.workflow import NullObserver

__all__ = ["PROTECTED_PREFIXES", "LoggingObserver", "build_runtime", "create_app"]

log = logging.getLogger("reference_impl.server")

#: Every request under these paths needs the bearer token when one is set.
PROTECTED_PREFIXES = ("/api", "/rttool")


class LoggingObserver(NullObserver):
    """Hears the runtime; logs its warnings (a dropped artifact names tool, run, type and
    call), ignores the rest."""

    def warning(self, warning: Mapping[str, object]) -> None:
        """Log one runtime warning."""
        log.warning("%s", warning.get("message"))


def build_runtime(db_path: str | Path, *, seams: Seams | None = None) -> Runtime:
    """A runtime on ``db_path`` with the demo model and tool bodies (``seams`` are for
    tests: a failing write-back, a cut run)."""
    return Runtime(
        db_path,
        model=DemoModel(),
        world=DemoWorld(db_path),
        observer=LoggingObserver(),
        seams=seams,
    )


def _protected(path: str) -> bool:
    return any(path == prefix or path.startswith(prefix + "/") for prefix in PROTECTED_PREFIXES)


class BearerToken:
    """ASGI middleware: with a token set, ``/api`` and ``/rttool`` need
    ``Authorization: Bearer <token>`` (compared in constant time)."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self._token = None if token is None else token.encode("utf-8")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._token is not None and scope["type"] == "http" and _protected(scope["path"]):
            # Raw header bytes: a token is compared exactly as it was sent (UTF-8).
            raw = next((v for k, v in scope["headers"] if k == b"authorization"), b"")
            scheme, _, given = bytes(raw).partition(b" ")
            good = scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self._token)
            if not good:
                response = error_response(401, "unauthorized", "a valid bearer token is required")
                response.headers["WWW-Authenticate"] = "Bearer"
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    codes = {404: "not_found", 405: "method_not_allowed"}
    response = error_response(
        exc.status_code, codes.get(exc.status_code, "http_error"), str(exc.detail)
    )
    if exc.headers:
        response.headers.update(exc.headers)
    return response


def create_app(
    runtime: Runtime,
    *,
    token: str | None = None,
    auto_continue: bool = True,
    on_shutdown: Sequence[Callable[[], None]] = (),
) -> Starlette:
    """The reference runtime's HTTP API over ``runtime``.

    ``token`` (when set) is required on every ``/api`` and ``/rttool`` request.
    ``auto_continue`` continues a turn left ``resuming`` after the response (and, at
    startup, any left by a previous process).  At shutdown the harness sessions and the
    runtime are closed, then ``on_shutdown`` runs.  One harness per application.
    """
    harness = HttpHarness()
    endpoint = HarnessEndpoint(harness, token)
    api = ApiRoutes(lambda request: runtime, writable=True, auto_continue=auto_continue)
    sessions = ApiRoutes(endpoint.session_runtime, writable=False, auto_continue=False)
    document = openapi_document()

    async def openapi(request: Request) -> Response:
        """``GET /api/openapi.json``: this API's OpenAPI document."""
        return JSONResponse(document)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            async with anyio.create_task_group() as group:
                if auto_continue:  # turns a previous process left resuming continue now
                    group.start_soon(run_in_threadpool, settle_quietly, runtime)
                yield
        finally:
            harness.request({"cmd": "bye"})
            runtime.close()
            for callback in on_shutdown:
                callback()

    routes = [
        Route("/api/openapi.json", guarded(openapi), methods=["GET"]),
        Mount("/api", routes=api.routes()),
        Route("/rttool", guarded(endpoint.handle), methods=["POST"]),
        Mount(SESSION_API, routes=sessions.routes()),
    ]
    return Starlette(
        routes=routes,
        middleware=[Middleware(BearerToken, token=token)],
        exception_handlers={HTTPException: _http_error},
        lifespan=lifespan,
    )
