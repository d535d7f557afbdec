"""Responses shared by the routes: the error shape, pre-encoded JSON, the guard that
turns refusals into errors, and the background continuation."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping

from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from adapters.errors import RttoolError
from reference_impl.errors import Refusal
from reference_impl.runtime import RunFailed, Runtime

__all__ = [
    "Handler",
    "encode_json",
    "error_response",
    "guarded",
    "json_response",
    "settle_quietly",
]

log = logging.getLogger("reference_impl.server")

#: An endpoint.
Handler = Callable[[Request], Awaitable[Response]]


def error_response(
    status: int, code: str, message: str, *, field: object = None, turn: str | None = None
) -> JSONResponse:
    """The one error shape: ``{"error": {"code", "message", "field"?, "turn"?}}``."""
    error: dict[str, object] = {"code": code, "message": message}
    if isinstance(field, str):
        error["field"] = field
    if turn is not None:
        error["turn"] = turn
    return JSONResponse({"error": error}, status_code=status)


def guarded(handler: Handler) -> Handler:
    """``handler`` with refusals turned into error responses, and anything unexpected
    into a logged 500 that shows no internals."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except Refusal as refusal:
            return error_response(
                refusal.status, refusal.code, refusal.message, field=refusal.details.get("field")
            )
        except Exception:
            log.exception("unexpected error on %s %s", request.method, request.url.path)
            return error_response(500, "internal_error", "the server failed; see its log")

    endpoint.__name__ = handler.__name__
    endpoint.__doc__ = handler.__doc__
    return endpoint


def settle_quietly(runtime: Runtime) -> None:
    """Perform pending automatic continuations; a failure is logged, never raised (there
    is no client left to tell, and the turn stays where the failure put it)."""
    try:
        runtime.settle()
    except (RunFailed, RttoolError) as err:
        log.warning("automatic continuation failed: %s", err)
    except Exception:
        log.exception("automatic continuation failed")


def encode_json(value: object) -> bytes:
    """JSON as the API sends it (Starlette's JSONResponse encoding).  Encoding happens in
    the worker thread, next to the read, so the event loop never spends time on it."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def json_response(
    body: bytes,
    *,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
    background: BackgroundTask | None = None,
) -> Response:
    """A response carrying an already encoded JSON ``body``."""
    return Response(
        body,
        status_code=status,
        headers=headers,
        media_type="application/json",
        background=background,
    )
