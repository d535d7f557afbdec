"""Drive one implementation through a connection: handshake, then scenarios into traces."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from adapters._codec import CodecError, from_json, to_json
from adapters._schemas import check_inbound, check_outbound
from adapters.capabilities import missing_capability, needed_capabilities
from adapters.errors import (
    DETAIL_CHARS,
    BrokenOffer,
    ImplementationError,
    ProtocolMismatch,
    SchemaViolation,
)
from adapters.handshake import PROTOCOL, Handshake
from adapters.protocol import Connection, Message
from adapters.scenario import Scenario
from adapters.trace import StepRecord, Trace

if TYPE_CHECKING:
    from adapters._turn_api import TurnApiReader

__all__ = ["DEFAULT_TIMEOUT", "Driver", "Unsupported"]

T = TypeVar("T")

DEFAULT_TIMEOUT = 30.0


@dataclass(frozen=True)
class Unsupported:
    """The implementation cannot run a scenario: it lacks ``capability``."""

    capability: str
    message: str = ""


class Driver:
    """The suite's handle on one implementation.

    Sends ``hello`` once (refusing an unknown protocol version), then runs scenarios
    step by step.  Every message is validated against the published schemas in both
    directions.  Where a session advertises its own turn API, the wire snapshot of each
    step is read from that API rather than taken from the harness's word.
    """

    def __init__(
        self, connection: Connection, *, timeout: float = DEFAULT_TIMEOUT, suite_version: str = "0"
    ) -> None:
        self.connection = connection
        self.timeout = timeout
        self._suite_version = suite_version
        self._handshake: Handshake | None = None
        self._turn_api: TurnApiReader | None = None

    @property
    def spec(self) -> str:
        """How the implementation was named."""
        return self.connection.spec

    def handshake(self) -> Handshake:
        """The implementation's handshake (sent once, then cached)."""
        if self._handshake is None:
            reply = self._request(
                {
                    "cmd": "hello",
                    "protocol": PROTOCOL,
                    "suite": {"name": "rttool", "version": self._suite_version},
                }
            )
            # The version is checked before the shape: another version may have another shape.
            spoken = reply.get("protocol")
            if isinstance(spoken, str) and spoken != PROTOCOL:
                raise ProtocolMismatch(
                    "implementation speaks another protocol version",
                    impl=self.spec,
                    spoken=spoken,
                    expected=PROTOCOL,
                )
            check_inbound(
                "messages#/$defs/handshake", reply, implementation=self.spec, request="hello"
            )
            handshake = self._decode(Handshake, reply, "hello")
            self._check_turn_states(handshake)
            self._check_limits(handshake)
            self._handshake = handshake
        return self._handshake

    def _check_limits(self, handshake: Handshake) -> None:
        """A bound is stated once: a value, or listed as one the implementation has not."""
        limits = handshake.limits
        for index, name in enumerate(limits.unbounded):
            if getattr(limits, name, None) is not None:
                raise SchemaViolation(
                    "implementation declares a bound and says it has none",
                    pointer=f"/limits/unbounded/{index}",
                    complaint=f"{name} is {getattr(limits, name)!r}",
                    impl=self.spec,
                    request="hello",
                )

    def _check_turn_states(self, handshake: Handshake) -> None:
        """A status word may mean one state only: a word declared for two would make every
        judgement of that turn a guess."""
        seen: dict[str, str] = {}
        states = handshake.turn_states
        for state in ("running", "resuming", "paused", "stopped", "completed", "failed"):
            for index, word in enumerate(getattr(states, state)):
                if word in seen:
                    raise SchemaViolation(
                        "implementation declares one status word for two turn states",
                        pointer=f"/turn_states/{state}/{index}",
                        complaint=f"{word!r} already means {seen[word]}",
                        impl=self.spec,
                        request="hello",
                    )
                seen[word] = state

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        """Run ``scenario``; :class:`Unsupported` when a needed capability is missing."""
        handshake = self.handshake()
        missing = missing_capability(handshake.capabilities, needed_capabilities(scenario))
        if missing is not None:
            return Unsupported(missing, "the handshake does not offer it")
        start = {"cmd": "start", "scenario": to_json(scenario)}
        check_outbound("messages#/$defs/start", start)
        started = self._request(start, "started", "unsupported")
        if "unsupported" in started:
            detail = started["unsupported"]
            assert isinstance(detail, Mapping)  # guaranteed by the schema
            capability = str(detail.get("capability"))
            if missing_capability(handshake.capabilities, [capability]) is None:
                raise BrokenOffer(
                    "the harness answered unsupported for a capability its handshake offered",
                    capability=capability[:200],
                    said=str(detail.get("message", ""))[:200],
                    impl=self.spec,
                    scenario=scenario.id,
                )
            return Unsupported(capability, str(detail.get("message", "")))
        session = str(started["session"])
        reader = self._reader(started.get("turn_api"))
        steps: list[StepRecord] = []
        try:
            for index, step in enumerate(scenario.steps):
                request = {"cmd": "step", "session": session, "index": index}
                raw = self._request(request, "step_reply")
                self._check_echo(raw, index, step.op)
                if reader is not None:
                    raw = reader.replace_wire(raw)
                steps.append(self._decode(StepRecord, raw, "step", f"/steps/{index}"))
            finished = self._request({"cmd": "finish", "session": session}, "finished")
        except ImplementationError as err:
            # What was answered before the error is its evidence: the step that failed is
            # the one after the last step recorded.
            err.partial_trace = Trace(scenario=scenario.id, steps=tuple(steps), ledger=None)
            raise
        return Trace(
            scenario=scenario.id,
            steps=tuple(steps),
            ledger=self._decode(_Finished, finished, "finish").ledger,
        )

    def close(self) -> None:
        """Close the connection (and the turn-API client, if one was made)."""
        if self._turn_api is not None:
            self._turn_api.close()
            self._turn_api = None
        self.connection.close()

    def _reader(self, turn_api: object) -> TurnApiReader | None:
        """The turn-API reader, pointed at this session's API (``None`` without one)."""
        if not isinstance(turn_api, Mapping):
            return None
        if self._turn_api is None:
            from adapters._turn_api import TurnApiReader as reader_cls

            self._turn_api = reader_cls(timeout=self.timeout, spec=self.spec)
        return self._turn_api.session(turn_api)

    def _request(self, message: Message, *refs: str) -> Mapping[str, object]:
        reply = self.connection.request(message, timeout=self.timeout)
        if "error" in reply and len(reply) == 1:
            check_inbound(
                "messages#/$defs/error_reply",
                reply,
                implementation=self.spec,
                request=str(message.get("cmd")),
            )
            error = reply["error"]
            assert isinstance(error, Mapping)
            failed = ImplementationError(
                "harness reported an error",
                impl=self.spec,
                request=str(message.get("cmd")),
                error=str(error.get("message"))[:300],
            )
            detail = error.get("detail")
            if isinstance(detail, str) and detail:
                failed.detail = detail[-DETAIL_CHARS:]
            raise failed
        if not refs:
            return reply
        ref = refs[0] if len(refs) == 1 or "unsupported" not in reply else refs[1]
        check_inbound(
            f"messages#/$defs/{ref}",
            reply,
            implementation=self.spec,
            request=str(message.get("cmd")),
        )
        return reply

    def _check_echo(self, record: Mapping[str, object], index: int, op: str) -> None:
        """A step record names the step it answers: its ``index`` and ``op`` echo the
        request, or the suite cannot tell which step the record is about."""
        for key, wanted in (("index", index), ("op", op)):
            got = record.get(key)
            if got != wanted or type(got) is not type(wanted):
                raise SchemaViolation(
                    "step record does not echo its request",
                    pointer=f"/{key}",
                    complaint=f"expected {wanted!r}, got {str(got)[:60]!r}",
                    impl=self.spec,
                    request="step",
                    index=index,
                )

    def _decode(self, cls: type[T], value: object, request: str, base: str = "") -> T:
        try:
            return from_json(cls, value)
        except CodecError as err:
            raise SchemaViolation(
                "implementation reply does not fit the protocol",
                pointer=base + err.pointer,
                complaint=err.complaint,
                impl=self.spec,
                request=request,
            ) from err
        except (TypeError, ValueError, ArithmeticError, RecursionError) as err:
            # The schema let through something the model cannot hold: still the reply's
            # fault, said in one line, never a fault of the suite.
            raise SchemaViolation(
                "implementation reply cannot be converted",
                pointer=base or "/",
                complaint=f"{type(err).__name__}: {err}"[:300],
                impl=self.spec,
                request=request,
            ) from err


@dataclass(frozen=True)
class _Finished:
    ledger: tuple[object, ...] | None = None
