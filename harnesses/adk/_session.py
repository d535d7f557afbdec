"""One scenario on ADK: each step drives the ``Runner``, and each record says what the
agent did, read from the events ADK yielded and stored.

A conversation is an ADK session, stored by ADK's ``SqliteSessionService`` (artifacts by
its ``FileArtifactService``); a turn is one invocation, started by a user message; a run
is one ``Runner.run_async`` call.  The app is resumable, so an invocation that stops on
a long-running call (ADK's confirmation request, or ``adk_request_input``) is paused,
and the user's ``FunctionResponse`` to that call resumes the same invocation.  A turn is
paused while its invocation has such a call open.
"""

from __future__ import annotations

import asyncio
import itertools
import shutil
import warnings
from collections.abc import Coroutine, Iterator
from contextlib import aclosing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from google.adk.agents import LlmAgent
from google.adk.apps import App, ResumabilityConfig
from google.adk.artifacts import FileArtifactService
from google.adk.events import Event
from google.adk.runners import Runner
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.adk.tools import request_input  # type: ignore[attr-defined]  # exported lazily
from google.genai import types

from adapters.kit import Cause, Disposition, Pass, Run, Script, Session, StepRecord, WireTurn
from adapters.scenario import Answer, Approve, Decline, Restart, Scenario, StartTurn, Step, Wait
from harnesses.adk._model import ASK, RESPONSE_ID, Recorder, ScriptedLlm
from harnesses.adk._tools import ScenarioTool, artifacts_of, decode_artifact
from harnesses.adk._wire import (
    CONFIRM,
    dumped,
    open_interrupts,
    pending_of,
    result_of,
    row_of,
    tool_message,
)

__all__ = ["EXPOSED", "AdkSession"]

#: A tool pass's output is one event: the function responses, and the event's actions
#: (the artifacts it recorded, the confirmations it asks for); the application reads both.
EXPOSED = {"function_responses": True, "actions": True}
APP, USER = "rttool", "user"
#: The most tool passes one run may take.  No scenario needs more than a few; ADK can
#: answer the same calls again and again without calling the model in between, and a
#: harness served in-process has no request timeout to end that.
MAX_PASSES = 20
_RESTLESS = (
    f"stopped after {MAX_PASSES} tool passes in one run: the invocation did not come to rest"
)
_T = TypeVar("_T")


@contextmanager
def _quiet() -> Iterator[None]:
    """ADK warns, once per feature, that resumability and confirmation are experimental;
    the warning is for the developer, not the trace."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"\[EXPERIMENTAL\]")
        yield


@dataclass
class _Turn:
    conversation: str
    invocation: str | None = None  # ADK's invocation, once it started
    failed: bool = False
    declined: set[str] = field(default_factory=set)


class AdkSession(Session):
    """The runner, its SQLite sessions and artifact files, and what the harness saw."""

    def __init__(self, scenario: Scenario, directory: Path) -> None:
        super().__init__(scenario)
        self.script = Script(scenario)
        self.recorder = Recorder()
        self.directory = directory
        self.loop = asyncio.new_event_loop()
        self.turns: dict[str, _Turn] = {}
        self.order: dict[str, list[str]] = {}  # conversation -> its turns, oldest first
        self.reply_of: dict[str, str] = {}  # call id -> the scripted reply that made it
        self._run_ids = itertools.count(1)
        self._open()

    def _call(self, work: Coroutine[Any, Any, _T]) -> _T:
        with _quiet():
            return self.loop.run_until_complete(work)

    def _open(self) -> None:
        tools: list[Any] = [ScenarioTool(t, self.script, self.recorder) for t in self.script.tools]
        if ASK not in {tool.name for tool in self.script.tools}:
            tools.append(request_input)
        agent = LlmAgent(name="agent", model=ScriptedLlm(self.script, self.recorder), tools=tools)
        with _quiet():
            app = App(
                name=APP,
                root_agent=agent,
                resumability_config=ResumabilityConfig(is_resumable=True),
            )
            self.runner = Runner(
                app=app,
                session_service=SqliteSessionService(str(self.directory / "sessions.db")),
                artifact_service=FileArtifactService(self.directory / "artifacts"),
                auto_create_session=True,
            )

    def close(self) -> None:
        self._call(self.runner.close())
        self.loop.close()
        shutil.rmtree(self.directory, ignore_errors=True)

    async def _events(self, conversation: str) -> list[Event]:
        stored = await self.runner.session_service.get_session(
            app_name=APP, user_id=USER, session_id=conversation
        )
        return list(stored.events) if stored is not None else []

    # ---------------------------------------------------------------- steps

    def step(self, index: int, step: Step) -> StepRecord:
        record = StepRecord(index, step.op)
        match step:
            case StartTurn(turn=label) if label in self.turns:
                record.refused("turn_exists", f"turn {label} was already started")
            case StartTurn(turn=label, conversation=conversation, message=text):
                self.turns[label] = _Turn(conversation)
                self.order.setdefault(conversation, []).append(label)
                message = types.Content(role="user", parts=[types.Part(text=text)])
                self._run(record, label, "start", message, None)
            case Answer(turn=label, value=value):
                self._resume(record, label, "answer", ASK, {"result": value})
            case Approve(turn=label):
                self._resume(record, label, "approve", CONFIRM, {"confirmed": True})
            case Decline(turn=label):
                self._resume(record, label, "decline", CONFIRM, {"confirmed": False})
            case Wait():
                pass  # ADK does nothing on its own
            case Restart():  # a new process: a new runner on the same SQLite file and files
                self._call(self.runner.close())
                self._open()
            case _:
                record.refused("not_supported", f"ADK has no {step.op}")
        self._report_wire(record)
        return record

    def _resume(
        self, record: StepRecord, label: str, cause: Cause, name: str, answer: dict[str, Any]
    ) -> None:
        """Answer the first call the turn waits on that ``name`` can answer: one call at a
        time, even when ADK has asked for several at once."""
        turn = self.turns.get(label)
        waiting = [] if turn is None else self._waiting(turn)
        chosen = next(((e, call) for e, call in waiting if call.name == name), None)
        if turn is None or chosen is None:
            record.refused("not_paused", f"turn {label} is not waiting for {name}")
            return
        event, call = chosen
        if cause == "decline":
            original = (call.args or {}).get("originalFunctionCall") or {}
            turn.declined.add(str(original.get("id")))
        response = types.FunctionResponse(id=call.id, name=name, response=answer)
        message = types.Content(role="user", parts=[types.Part(function_response=response)])
        self._run(record, label, cause, message, event.invocation_id)

    def _waiting(self, turn: _Turn) -> list[tuple[Event, types.FunctionCall]]:
        events = self._call(self._events(turn.conversation))
        return open_interrupts(e for e in events if e.invocation_id == turn.invocation)

    def _run(
        self,
        record: StepRecord,
        label: str,
        cause: Cause,
        message: types.Content,
        invocation: str | None,
    ) -> None:
        turn = self.turns[label]
        run_id = f"run-{next(self._run_ids)}"
        run = record.add_run(Run(run_id, turn=label, conversation=turn.conversation, cause=cause))
        before = len(self._call(self._events(turn.conversation)))
        self.recorder.start(run)
        failure: BaseException | str | None
        try:
            failure = self._call(self._drive(run, turn, message, invocation))
        except Exception as err:  # the invocation failed: reported as ADK reported it
            failure = err
        finally:
            self.recorder.start(None)
        if turn.invocation is None:
            stored = self._call(self._events(turn.conversation))
            turn.invocation = stored[before].invocation_id if len(stored) > before else None
        turn.failed = failure is not None
        if failure is not None:
            record.run_failed(run, "agent_error", failure)
        elif self._waiting(turn):
            run.ended("paused")

    async def _drive(
        self, run: Run, turn: _Turn, message: types.Content, invocation: str | None
    ) -> str | None:
        """Run one invocation (or resume one); report each tool pass as its event comes.
        Returns ADK's error, when an event carried one, or why the run was stopped."""
        failure = None
        events = self.runner.run_async(
            user_id=USER,
            session_id=turn.conversation,
            invocation_id=invocation,
            new_message=message,
        )
        async with aclosing(events):
            async for event in events:
                if event.error_code or event.error_message:
                    failure = f"{event.error_code}: {event.error_message}"
                response_id = (event.custom_metadata or {}).get(RESPONSE_ID)
                for call in event.get_function_calls():
                    if isinstance(response_id, str) and call.id:
                        self.reply_of[call.id] = response_id
                if event.author != "user" and event.get_function_responses():
                    await self._pass(run, turn, event)
                    if len(run.passes) >= MAX_PASSES:
                        return _RESTLESS
        return failure

    async def _pass(self, run: Run, turn: _Turn, event: Event) -> None:
        """One tool pass: the function responses of one event, for the batch of the reply
        that made the calls."""
        responses = event.get_function_responses()
        reply = next((self.reply_of[r.id] for r in responses if r.id in self.reply_of), "")
        batch = self.recorder.batches.get(reply, [])
        one = run.add_pass(Pass(batch, exposed=EXPOSED))
        # ADK gives a call the model sent without an id one of its own (adk-<uuid>).
        sent = {c.get("tool_call_id") for c in batch if isinstance(c, dict)}
        gated = set(event.actions.requested_tool_confirmations or {})
        for response in responses:
            if response.id in gated:  # ADK's placeholder while it asks for confirmation
                continue
            artifacts = await self._artifacts(turn.conversation, event, response.id)
            disposition = self._disposition(turn, response)
            one.result(
                response.name,
                response.id,
                disposition,
                result_of(response, artifacts),
                generated_id=response.id not in sent,
            )
            one.tool_message(tool_message(response))
        parts = (event.content.parts or []) if event.content is not None else []
        one.port("function_responses", [dumped(part) for part in parts])
        one.port("actions", dumped(event.actions)).outcome(None)  # ADK counts no outcome
        if gated:
            one.mark_paused()

    async def _artifacts(self, conversation: str, event: Event, call_id: str | None) -> object:
        """What ADK recorded the call as having saved, on the event that answered it
        (``None``: nothing)."""
        saved = artifacts_of(call_id, event.actions.artifact_delta)
        service = self.runner.artifact_service
        if not saved or service is None:
            return None
        loaded = []
        for name, version in saved:
            part = await service.load_artifact(
                app_name=APP, user_id=USER, session_id=conversation, filename=name, version=version
            )
            loaded.append(decode_artifact(part))
        return loaded

    def _disposition(self, turn: _Turn, response: types.FunctionResponse) -> Disposition:
        if response.name not in {tool.name for tool in self.scenario.tools}:
            return "unknown_tool"
        if response.id in self.recorder.ran:
            self.recorder.ran.remove(response.id)
            return "executed"
        if response.id in turn.declined:
            return "declined"
        return "invalid"  # ADK answered the call without running its body

    # ---------------------------------------------------------------- the wire

    def _report_wire(self, record: StepRecord) -> None:
        for conversation, labels in self.order.items():
            events = self._call(self._events(conversation))
            for label in labels:
                turn = self.turns[label]
                mine = [
                    (index, event)
                    for index, event in enumerate(events)
                    if event.invocation_id == turn.invocation and event.content is not None
                ]
                waiting = open_interrupts(event for _, event in mine)
                status = "paused" if waiting else "failed" if turn.failed else "completed"
                record.wire(
                    conversation,
                    label,
                    WireTurn(
                        status,
                        id=label,
                        messages=[row_of(event, conversation, index) for index, event in mine],
                        pending=pending_of(waiting),
                        tool_artifacts=None,  # ADK keeps no turn result to aggregate them on
                    ),
                )
