"""Test support: the toy harness of ``docs/writing-an-adapter.md``, and ways to bend it.

The toy runtime the tests drive is the one the guide publishes, taken from the guide's
code block as its published standing is (``conformance.publish``), so the guide's
harness is exercised by every transport test.  ``Twisted``
wraps it to misbehave on purpose (another protocol version, ``unsupported``, a step
record that breaks the schema, a turn API); ``handle`` serves any harness over HTTP,
for a WSGI app (``wsgi_app``) and an ASGI one (``starlette_app``).
"""

from __future__ import annotations

import copy
import importlib.util
import itertools
import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from conformance.publish import GUIDE_HARNESS_FILE, guide_harness_source

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "writing-an-adapter.md"
STALE = "stale copy from the harness"

_module_names = itertools.count(1)


def toy_source(guide: Path = GUIDE) -> str:
    """The guide's harness: the one ``python`` code block that starts with the marker."""
    return guide_harness_source(guide)


def write_toy(directory: Path) -> Path:
    """Write the guide's harness to ``directory/toy_harness.py``."""
    path = directory / GUIDE_HARNESS_FILE
    path.write_text(toy_source(), "utf-8")
    return path


def load_toy(path: str | Path) -> ModuleType:
    """Import the harness file at ``path`` as a fresh module."""
    spec = importlib.util.spec_from_file_location(f"rttool_toy_{next(_module_names)}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def set_pointer(document: Any, pointer: str, value: object) -> None:
    """Set the value at a JSON pointer (every parent must exist)."""
    *parents, last = [part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:]]
    for part in parents:
        document = document[int(part)] if isinstance(document, list) else document[part]
    if isinstance(document, list):
        document[int(last)] = value
    else:
        document[last] = value


class Twisted:
    """A harness that answers like ``inner``, bent as asked (every option off by default).

    ``protocol``: the handshake names this version; ``v2_field``: the handshake carries
    a field protocol 1 does not know; ``unsupported``: ``start`` answers unsupported
    with this capability; ``break_step``: every step record gets ``"exploded"`` at this
    JSON pointer; ``turn_api``: the base URL of a turn API this object serves (see
    :meth:`read_turn`), advertised at ``start``, while the step records' own wire is
    replaced by a stale copy.
    """

    def __init__(
        self,
        inner: Any,
        *,
        protocol: str = "",
        v2_field: str = "",
        unsupported: str = "",
        break_step: str = "",
        turn_api: str = "",
    ) -> None:
        self.inner = inner
        self.protocol = protocol
        self.v2_field = v2_field
        self.unsupported = unsupported
        self.break_step = break_step
        self.turn_api = turn_api.rstrip("/")
        self.requests: list[str] = []
        self._turns: dict[tuple[str, str], object] = {}

    def request(self, message: Mapping[str, Any]) -> Mapping[str, Any]:
        cmd = str(message.get("cmd"))
        self.requests.append(cmd)
        if cmd == "start" and self.unsupported:
            return {"unsupported": {"capability": self.unsupported, "message": "bent on purpose"}}
        reply: dict[str, Any] = copy.deepcopy(dict(self.inner.request(message)))
        if cmd == "hello" and self.protocol:
            reply["protocol"] = self.protocol
        if cmd == "hello" and self.v2_field:
            reply[self.v2_field] = {"only": "in protocol 2"}
        if cmd == "start" and self.turn_api and "session" in reply:
            base = f"{self.turn_api}/api/conversations/{{conversation}}"
            reply["turn_api"] = {"turn": base + "/turns/{turn}", "messages": base + "/messages"}
        if cmd == "step" and self.turn_api:
            self._hand_over_wire(str(message["session"]), reply)
        if cmd == "step" and self.break_step:
            set_pointer(reply, self.break_step, "exploded")
        return reply

    def read_turn(self, conversation_id: str, turn_id: str) -> object | None:
        """The turn as this harness's turn API serves it (``None``: no such turn)."""
        return self._turns.get((conversation_id, turn_id))

    def _hand_over_wire(self, session: str, record: dict[str, Any]) -> None:
        ids: dict[str, dict[str, str]] = {"conversations": {}, "turns": {}}
        for conversation, turns in record["wire"].items():
            conversation_id = ids["conversations"][conversation] = f"{session}.{conversation}"
            for label, wire in turns.items():
                turn_id = ids["turns"][label] = f"{session}.{label}"
                self._turns[(conversation_id, turn_id)] = wire
                turns[label] = {
                    "status": STALE,
                    "continueOffered": False,
                    "messages": [],
                    "toolArtifacts": [],
                }
        record["ids"] = ids


def create(source: str, **options: str) -> Twisted:
    """``python:tests.adapters.toy:create?source=PATH&...``: the guide's toy, bent."""
    return Twisted(load_toy(source).ToyHarness(), **options)


def handle(harnesses: Mapping[str, Any], method: str, path: str, body: bytes) -> tuple[int, object]:
    """Route one HTTP request: ``POST [/VARIANT]/rttool`` and the turn API's ``GET``.

    ``harnesses`` maps a variant (the first path segment; ``""`` for ``/rttool``) to
    a harness.
    """
    parts = path.strip("/").split("/")
    variant = parts[0] if len(parts) > 1 else ""
    harness = harnesses.get(variant)
    rest = parts[1:] if variant else parts
    if harness is None:
        return 404, {"detail": "no such harness"}
    if method == "POST" and rest == ["rttool"]:
        try:
            return 200, harness.request(json.loads(body))
        except Exception as err:  # what a web framework does with a harness bug
            return 500, {"detail": f"{type(err).__name__}: {err}"}
    if (
        method == "GET"
        and len(rest) == 5
        and rest[0:2] == ["api", "conversations"]
        and rest[3] == "turns"
    ):
        found = harness.read_turn(rest[2], rest[4])
        return (404, {"detail": "no such turn"}) if found is None else (200, found)
    return 404, {"detail": "no such route"}


WsgiApp = Callable[[dict[str, Any], Callable[..., object]], Iterable[bytes]]


def wsgi_app(harnesses: Mapping[str, Any]) -> WsgiApp:
    """A WSGI app serving ``harnesses`` (for ``httpx.WSGITransport``)."""

    def app(environ: dict[str, Any], start_response: Callable[..., object]) -> Iterable[bytes]:
        size = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(size) if size else b""
        status, payload = handle(harnesses, environ["REQUEST_METHOD"], environ["PATH_INFO"], body)
        data = json.dumps(payload).encode()
        start_response(
            f"{status} {'OK' if status == 200 else 'Not Found'}",
            [("Content-Type", "application/json"), ("Content-Length", str(len(data)))],
        )
        return [data]

    return app


def starlette_app(harnesses: Mapping[str, Any]) -> Any:
    """An ASGI (Starlette) app serving ``harnesses``, for a real server."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def endpoint(request: Request) -> JSONResponse:
        status, payload = handle(harnesses, request.method, request.url.path, await request.body())
        return JSONResponse(payload, status_code=status)

    return Starlette(routes=[Route("/{path:path}", endpoint, methods=["GET", "POST"])])
