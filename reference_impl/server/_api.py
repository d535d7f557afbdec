"""The turn API's routes, over whichever runtime a request resolves to.

The same handlers serve ``/api`` (the server's own runtime) and the read routes under
``/rttool/sessions/{session}/api`` (a harness session's runtime), so what the suite
reads there is the real wire.  Each request does its runtime work in one worker-thread
call (the runtime is synchronous: SQLite, a model, tool bodies); a request that leaves
its turn ``resuming`` gets a background task that continues it after the response.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from reference_impl import records
from reference_impl.errors import Refusal
from reference_impl.runtime import RunFailed, Runtime
from reference_impl.server._bodies import (
    API_BODY_LIMIT,
    object_body,
    optional_string,
    parse_limit,
    parse_workflow,
    read_json,
    required_string,
)
from reference_impl.server._responses import (
    encode_json,
    error_response,
    guarded,
    json_response,
    settle_quietly,
)
from reference_impl.server.demo import demo_workflow

__all__ = ["ApiRoutes", "RuntimeSource"]

#: Resolves the runtime a request is about (raises a 404 Refusal when there is none).
RuntimeSource = Callable[[Request], Runtime]

_TEXT_LIMIT = 200_000
_DEFAULT_PAGE = 50


def _known_conversation(runtime: Runtime, conversation_id: str) -> None:
    if records.load_workflow(runtime.store.read(), conversation_id) is None:
        raise Refusal(
            "unknown_conversation",
            "no such conversation",
            status=404,
            conversation=conversation_id,
        )


def _ledger(runtime: Runtime, conversation_id: str, turn_id: str) -> dict[str, object]:
    _known_conversation(runtime, conversation_id)
    if records.get_turn(runtime.store.read(), turn_id, conversation_id) is None:
        raise Refusal("unknown_turn", "no such turn", status=404, turn=turn_id)
    return {"turn": turn_id, "events": [event.to_json() for event in runtime.ledger(turn_id)]}


@dataclass(frozen=True)
class _Outcome:
    """What a turn action produced: the encoded turn read, or the failed write-back."""

    body: bytes = b""
    resuming: bool = False
    failure: RunFailed | None = None
    turn_id: str = ""

    @classmethod
    def of(cls, view: Mapping[str, object], turn_id: str) -> _Outcome:
        """The outcome of an action that left the turn as ``view`` shows it."""
        return cls(encode_json(view), view.get("status") == "resuming", None, turn_id)


class ApiRoutes:
    """The handlers of the turn API over ``source``; ``writable`` adds the routes that
    change state, ``auto_continue`` continues resuming turns after a response."""

    def __init__(self, source: RuntimeSource, *, writable: bool, auto_continue: bool) -> None:
        self._source = source
        self._writable = writable
        self._auto_continue = auto_continue

    def routes(self) -> list[BaseRoute]:
        """The routes, relative to where they are mounted."""
        turn = "/conversations/{conversation}/turns/{turn}"
        reads: list[BaseRoute] = [
            Route(turn, guarded(self.read_turn), methods=["GET"]),
            Route("/conversations/{conversation}/messages", guarded(self.poll), methods=["GET"]),
            Route(f"{turn}/ledger", guarded(self.ledger), methods=["GET"]),
        ]
        if not self._writable:
            return reads
        actions = {
            "answer": self.answer,
            "approve": self.approve,
            "decline": self.decline,
            "continue": self.continue_turn,
            "stop": self.stop,
        }
        return [
            Route("/conversations", guarded(self.create_conversation), methods=["POST"]),
            Route(
                "/conversations/{conversation}/turns", guarded(self.start_turn), methods=["POST"]
            ),
            *reads,
            *(
                Route(f"{turn}/{name}", guarded(handler), methods=["POST"])
                for name, handler in actions.items()
            ),
        ]

    # -- reads ------------------------------------------------------------------------

    async def read_turn(self, request: Request) -> Response:
        """``GET .../turns/{turn}``: the turn read."""
        runtime = self._source(request)
        conversation, turn = _ids(request)

        def read() -> dict[str, object]:
            _known_conversation(runtime, conversation)
            return runtime.turn_view(turn, conversation)

        return json_response(await run_in_threadpool(lambda: encode_json(read())))

    async def poll(self, request: Request) -> Response:
        """``GET .../messages``: the PLAY-3 poll envelope."""
        runtime = self._source(request)
        conversation = request.path_params["conversation"]
        query = request.query_params
        limit = parse_limit(query.get("limit"), _DEFAULT_PAGE)
        after, before = query.get("after"), query.get("before")
        body = await run_in_threadpool(
            lambda: encode_json(runtime.poll(conversation, limit=limit, after=after, before=before))
        )
        return json_response(body)

    async def ledger(self, request: Request) -> Response:
        """``GET .../turns/{turn}/ledger``: the turn's run-event ledger."""
        runtime = self._source(request)
        conversation, turn = _ids(request)
        body = await run_in_threadpool(lambda: encode_json(_ledger(runtime, conversation, turn)))
        return json_response(body)

    # -- conversations and turns --------------------------------------------------------

    async def create_conversation(self, request: Request) -> Response:
        """``POST /conversations``: a new conversation (the demo workflow by default)."""
        runtime = self._source(request)
        body = object_body(
            await read_json(request, limit=API_BODY_LIMIT),
            allowed=("workflow",),
            empty_ok=True,
        )
        workflow = parse_workflow(body["workflow"]) if "workflow" in body else demo_workflow()
        conversation = await run_in_threadpool(runtime.create_conversation, workflow)
        return JSONResponse({"id": conversation}, status_code=201)

    async def start_turn(self, request: Request) -> Response:
        """``POST .../turns``: send a user message; the new turn runs to its next rest."""
        runtime = self._source(request)
        conversation = request.path_params["conversation"]
        body = object_body(
            await read_json(request, limit=API_BODY_LIMIT),
            allowed=("message", "entryPoint"),
        )
        message = required_string(body, "message", max_length=_TEXT_LIMIT)
        entry_point = optional_string(body, "entryPoint", max_length=16) or "chat"
        if entry_point not in ("chat", "api", "trigger"):
            raise Refusal(
                "invalid_field",
                "entryPoint must be chat, api or trigger",
                status=400,
                field="entryPoint",
            )

        def start() -> _Outcome:
            _known_conversation(runtime, conversation)
            try:
                turn = runtime.start_turn(conversation, message, entry_point)
            except RunFailed as failure:
                return _Outcome(failure=failure, turn_id=runtime.turns(conversation)[-1])
            return _Outcome.of(runtime.turn_view(turn, conversation), turn)

        outcome = await run_in_threadpool(start)
        # Where the new turn is read from now on.
        location = f"{request.url.path}/{outcome.turn_id}"
        return self._respond(runtime, outcome, status=201, headers={"Location": location})

    async def answer(self, request: Request) -> Response:
        """``POST .../answer``: answer the question the turn is paused on."""
        body = object_body(await read_json(request, limit=API_BODY_LIMIT), allowed=("value",))
        value = required_string(body, "value", max_length=_TEXT_LIMIT)
        return await self._act(request, lambda rt, c, t: rt.answer(t, value, c))

    async def approve(self, request: Request) -> Response:
        """``POST .../approve``: approve the gated call the turn is paused on."""
        await _no_body(request)
        return await self._act(request, lambda rt, c, t: rt.approve(t, c))

    async def decline(self, request: Request) -> Response:
        """``POST .../decline``: decline the gated call; the model hears why."""
        body = object_body(
            await read_json(request, limit=API_BODY_LIMIT),
            allowed=("reason",),
            empty_ok=True,
        )
        reason = optional_string(body, "reason", max_length=_TEXT_LIMIT) or "declined"
        return await self._act(request, lambda rt, c, t: rt.decline(t, reason, c))

    async def continue_turn(self, request: Request) -> Response:
        """``POST .../continue``: continue a stopped turn."""
        await _no_body(request)
        return await self._act(request, lambda rt, c, t: rt.continue_turn(t, c))

    async def stop(self, request: Request) -> Response:
        """``POST .../stop``: stop a resuming or paused turn."""
        await _no_body(request)
        return await self._act(request, lambda rt, c, t: rt.stop(t, c))

    # -- shared steps -------------------------------------------------------------------

    async def _act(self, request: Request, action: Callable[[Runtime, str, str], None]) -> Response:
        runtime = self._source(request)
        conversation, turn = _ids(request)

        def act() -> _Outcome:
            _known_conversation(runtime, conversation)
            try:
                action(runtime, conversation, turn)
            except RunFailed as failure:
                return _Outcome(failure=failure, turn_id=turn)
            return _Outcome.of(runtime.turn_view(turn, conversation), turn)

        return self._respond(runtime, await run_in_threadpool(act), status=200)

    def _respond(
        self,
        runtime: Runtime,
        outcome: _Outcome,
        *,
        status: int,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        if outcome.failure is not None:
            return error_response(
                503, outcome.failure.code, str(outcome.failure), turn=outcome.turn_id
            )
        background = None
        if self._auto_continue and outcome.resuming:
            background = BackgroundTask(settle_quietly, runtime)
        return json_response(outcome.body, status=status, headers=headers, background=background)


def _ids(request: Request) -> tuple[str, str]:
    return request.path_params["conversation"], request.path_params["turn"]


async def _no_body(request: Request) -> None:
    """Actions without parameters accept an empty body or an empty object."""
    object_body(await read_json(request, limit=API_BODY_LIMIT), allowed=(), empty_ok=True)
