"""The base class a harness subclasses: the protocol's conversation, done once.

:class:`KitHarness` answers every request of ``rttool-adapter/1``: it checks each
request against the published schema, answers ``hello`` with the harness's handshake,
decodes the scenario at ``start`` into :mod:`adapters.scenario` objects, refuses a
scenario whose needs the handshake does not offer, hands each ``step`` to the session
with the typed step, and turns every mistake into an error reply (logged, with its
traceback, to standard error) so that the suite reports it and goes on.  A subclass
writes only :meth:`KitHarness.describe` and :meth:`KitHarness.open`, and a
:class:`Session` for its runtime.
"""

from __future__ import annotations

import itertools
import logging
import traceback
from collections.abc import Mapping
from typing import Any

from jsonschema.exceptions import best_match

from adapters._codec import CodecError, from_json
from adapters._schemas import validator
from adapters.capabilities import missing_capability, needed_capabilities
from adapters.errors import DETAIL_CHARS, RttoolError
from adapters.handshake import Handshake
from adapters.kit._frame import BuildError, checked, escape_pointer
from adapters.kit._records import StepRecord
from adapters.protocol import Message
from adapters.scenario import Scenario, Step

__all__ = ["KitHarness", "RequestError", "Session", "UnsupportedScenario"]

log = logging.getLogger("adapters.kit")


class UnsupportedScenario(RttoolError):
    """Raised by :meth:`KitHarness.open` for a scenario the implementation cannot run:
    answered ``unsupported``, so the suite reports its checks untested."""

    def __init__(self, capability: str, message: str = "") -> None:
        super().__init__(message or f"cannot run a scenario that needs {capability}")
        self.capability = capability
        self.reason = message


class RequestError(RttoolError):
    """A request the harness cannot answer (unknown session, a step out of order)."""

    def __init__(self, message: str, *, code: str, **details: object) -> None:
        super().__init__(message, **details)
        self.code = code


class Session:
    """One scenario's isolated world.  Subclass it for a runtime.

    ``scenario`` is the decoded scenario.  :meth:`step` performs one step and returns its
    record; :meth:`finish` returns the run-event ledger (for a harness offering
    ``ledger``) or ``None``; :meth:`close` releases whatever the session holds.
    """

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario

    def step(self, index: int, step: Step) -> StepRecord:
        """Perform ``step`` (``scenario.steps[index]``) and report what happened."""
        raise NotImplementedError

    def finish(self) -> list[object] | None:
        """The scenario's run-event ledger, oldest first (``None``: not offered)."""
        return None

    def close(self) -> None:
        """Release the session's resources (called after ``finish`` and at ``bye``)."""


class KitHarness:
    """A complete ``rttool-adapter/1`` harness; subclass it with the runtime's parts."""

    def __init__(self) -> None:
        self._sessions: dict[str, tuple[Session, int]] = {}
        self._ids = itertools.count(1)
        self._handshake: dict[str, object] | None = None

    # ------------------------------------------------------------ for a subclass

    def describe(self) -> dict[str, object]:
        """The handshake (build it with :func:`adapters.kit.handshake`)."""
        raise NotImplementedError

    def open(self, scenario: Scenario) -> Session:
        """A fresh session for ``scenario``; raise :class:`UnsupportedScenario` for one
        the implementation cannot run for a reason the handshake cannot express."""
        raise NotImplementedError

    # ------------------------------------------------------------ the protocol

    def request(self, message: Message) -> dict[str, Any]:
        """Answer one request; any failure becomes an error reply, logged to stderr."""
        cmd = message.get("cmd") if isinstance(message, Mapping) else None
        try:
            return self._answer(message)
        except RequestError as err:
            log.warning("%s: %s", cmd, err)
            return _error(str(err), err.code)
        except BuildError as err:
            log.exception("%s: the harness built a value that breaks the protocol", cmd)
            return _error(f"harness built a bad value: {err}", "build")
        except Exception as err:  # the harness's own bug: answer anyway, and say what
            log.exception("%s failed", cmd)
            said = _error(f"{type(err).__name__}: {err}"[:2000], "harness")
            # The traceback goes with the reply, so that the suite keeps it with the
            # error's evidence whatever the transport.
            said["error"]["detail"] = traceback.format_exc()[-DETAIL_CHARS:]
            return said

    def handshake(self) -> dict[str, object]:
        """The handshake, built and checked once."""
        if self._handshake is None:
            self._handshake = checked("messages#/$defs/handshake", self.describe())
        return self._handshake

    def close(self) -> None:
        """Close every open session."""
        sessions, self._sessions = self._sessions, {}
        for session, _ in sessions.values():
            session.close()

    def _answer(self, message: Message) -> dict[str, Any]:
        error = best_match(validator("messages#/$defs/request").iter_errors(message))
        if error is not None:
            raise RequestError(
                "request breaks the protocol schema",
                code="bad_request",
                pointer="".join(escape_pointer(part) for part in error.absolute_path) or "/",
                complaint=error.message[:200],
            )
        cmd, session, index = message["cmd"], message.get("session"), message.get("index")
        if cmd == "hello":
            return self.handshake()
        if cmd == "start":
            return self._start(message["scenario"])
        if cmd == "step":
            assert isinstance(index, int)  # the schema says so
            return self._step(str(session), index)
        if cmd == "finish":
            return self._finish(str(session))
        self.close()  # bye
        return {}

    def _start(self, raw: object) -> dict[str, Any]:
        try:
            scenario = from_json(Scenario, raw)
        except CodecError as err:
            raise RequestError(
                "scenario does not fit the protocol",
                code="bad_request",
                pointer="/scenario" + err.pointer,
            ) from err
        offered = from_json(Handshake, self.handshake()).capabilities
        missing = missing_capability(offered, needed_capabilities(scenario))
        try:
            if missing is not None:
                raise UnsupportedScenario(missing, "the handshake does not offer it")
            session = self.open(scenario)
        except UnsupportedScenario as err:
            log.info("unsupported %s: %s", scenario.id, err.capability)
            detail = {"capability": err.capability}
            return {"unsupported": detail | ({"message": err.reason} if err.reason else {})}
        name = f"session-{next(self._ids)}"
        self._sessions[name] = (session, 0)
        return {"session": name}

    def _session(self, name: str) -> tuple[Session, int]:
        found = self._sessions.get(name)
        if found is None:
            raise RequestError("unknown session", code="unknown_session", session=name)
        return found

    def _step(self, name: str, index: int) -> dict[str, Any]:
        session, expected = self._session(name)
        if index != expected or index >= len(session.scenario.steps):
            raise RequestError(
                "step out of order", code="bad_step", session=name, index=index, expected=expected
            )
        self._sessions[name] = (session, index + 1)
        record = session.step(index, session.scenario.steps[index])
        if not isinstance(record, StepRecord):
            raise TypeError(f"Session.step returned {type(record).__name__}, not a StepRecord")
        return record.to_json()

    def _finish(self, name: str) -> dict[str, Any]:
        session, _ = self._session(name)
        try:
            ledger = session.finish()
        finally:
            del self._sessions[name]
            session.close()
        if ledger is None:
            return {}
        return {"ledger": checked("messages#/$defs/finished", {"ledger": ledger})["ledger"]}


def _error(message: str, code: str) -> dict[str, Any]:
    return {"error": {"message": message, "code": code}}
