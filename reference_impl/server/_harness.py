"""The adapter-protocol harness over HTTP: ``POST /rttool`` and each session's turn API.

``POST /rttool`` takes one protocol message and answers the harness's reply, with two
additions that only the HTTP transport can make: the handshake offers ``turn_api``, and
a ``start`` reply says where the new session's turns are read on the real wire
(``/rttool/sessions/{session}/api/...``, served by the same route code as ``/api``
from that session's runtime, until the session's ``finish``).

Several runs may share one server: a session belongs to the client that started it
(the ``X-Rttool-Client`` header the suite's HTTP transport sends), its id is
unguessable, and ``bye`` ends only the sessions of the client that says it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from adapters.http import CLIENT_HEADER
from reference_impl.errors import Refusal
from reference_impl.harness import ReferenceHarness
from reference_impl.runtime import Runtime
from reference_impl.server._bodies import HARNESS_BODY_LIMIT, read_json

__all__ = ["SESSION_API", "HarnessEndpoint", "HttpHarness"]

#: Where a session's turn API is mounted (``{session}`` is a path parameter).
SESSION_API = "/rttool/sessions/{session}/api"


class HttpHarness(ReferenceHarness):
    """The reference harness, with its sessions' runtimes reachable for reads."""

    def runtime_of(self, session_id: str) -> Runtime | None:
        """The runtime a live session is running on (the current one, after a restart)."""
        with self._lock:
            session = self._sessions.get(session_id)
        return None if session is None else session.runtime


class HarnessEndpoint:
    """``POST /rttool`` and the runtime resolver of the session routes."""

    def __init__(self, harness: HttpHarness, token: str | None) -> None:
        self._harness = harness
        self._token = token
        # Whose each session is: the client header of the request that started it.
        self._owners: dict[str, str | None] = {}
        self._lock = threading.Lock()

    def session_runtime(self, request: Request) -> Runtime:
        """The runtime of the session named in the path (404 when it has finished)."""
        session = str(request.path_params.get("session"))
        runtime = self._harness.runtime_of(session)
        if runtime is None:
            raise Refusal("unknown_session", "no such harness session", status=404, session=session)
        return runtime

    async def handle(self, request: Request) -> Response:
        """Answer one protocol message."""
        message = await read_json(request, limit=HARNESS_BODY_LIMIT)
        if not isinstance(message, dict):
            raise Refusal("invalid_body", "the body must be one protocol message", status=400)
        client = request.headers.get(CLIENT_HEADER)
        command = message.get("cmd")
        if command == "bye":
            # Several runs may share this server: a bye ends the sessions of the client
            # that says it, never another's case in progress.
            await run_in_threadpool(self._harness.end_sessions, self._take(client))
            return Response("{}", media_type="application/json")
        reply = dict(await run_in_threadpool(self._harness.request, message))
        if command == "hello":
            reply = _with_turn_api_capability(reply)
        elif command == "start" and isinstance(reply.get("session"), str):
            with self._lock:
                self._owners[str(reply["session"])] = client
            reply["turn_api"] = self._turn_api(request, str(reply["session"]))
        elif command == "finish":
            with self._lock:
                self._owners.pop(str(message.get("session")), None)
        try:
            body = json.dumps(reply, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        except ValueError as err:  # a value JSON cannot carry: say so in the protocol
            reply = {"error": {"message": f"reply does not encode as JSON: {err}"[:300]}}
            body = json.dumps(reply)
        return Response(body, media_type="application/json")

    def _take(self, client: str | None) -> list[str]:
        """The sessions ``client`` started (and has not finished), no longer tracked."""
        with self._lock:
            owned = [sid for sid, owner in self._owners.items() if owner == client]
            for session_id in owned:
                del self._owners[session_id]
        return owned

    def _turn_api(self, request: Request, session: str) -> dict[str, str]:
        # The templates are formatted by the suite with str.format: braces in the base
        # URL are doubled, and the session id is quoted into one path segment.
        base = str(request.base_url).rstrip("/").replace("{", "{{").replace("}", "}}")
        root = f"{base}{SESSION_API.format(session=quote(session, safe=''))}"
        conversation = f"{root}/conversations/{{conversation}}"
        api: dict[str, str] = {
            "turn": f"{conversation}/turns/{{turn}}",
            "messages": f"{conversation}/messages",
        }
        if self._token is not None:
            api["token"] = self._token
        return api


def _with_turn_api_capability(reply: Mapping[str, object]) -> dict[str, object]:
    capabilities = reply.get("capabilities")
    if not isinstance(capabilities, Mapping):
        return dict(reply)
    return {**reply, "capabilities": {**capabilities, "turn_api": True}}
