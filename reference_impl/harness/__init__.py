"""The reference runtime's harness: it speaks the adapter protocol for the runtime.

* in-process: ``python:reference_impl.harness:create`` (``?mutant=NAME`` for a mutant,
  ``?variant=NAME`` for a legal variant, ``?shape=NAME`` for a runtime shape);
* stdio: ``python -m reference_impl.harness [--mutant NAME | --variant NAME | --shape NAME]``;
* HTTP: the routes under ``/rttool`` of ``rttool serve-reference``.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping

from adapters.codec import CodecError, from_json
from adapters.handshake import PROTOCOL
from adapters.protocol import Message
from adapters.scenario import Scenario
from reference_impl import __version__
from reference_impl.behaviour import Components
from reference_impl.durable import NUDGE
from reference_impl.harness._database import Template
from reference_impl.harness._session import ScenarioSession
from reference_impl.seams import POINTS, RESUMABLE

__all__ = ["MAX_SESSIONS", "SESSION_IDLE_SECONDS", "ReferenceHarness", "create", "handshake"]

#: Sessions a harness keeps at once: starting one more ends the one idle longest, so a
#: client that never says ``finish`` cannot use up files or descriptors.
MAX_SESSIONS = 32
#: A session nobody has used for this long is ended (and its files with it).
SESSION_IDLE_SECONDS = 600.0

CAUSES = (
    "time_limit",
    "gateway_timeout",
    "transport_error",
    "stop",
    "cancel",
    "error",
    "credential",
    "rate_limit",
    "crash",
)


def handshake(
    mutant: str | None = None,
    components: Components | None = None,
    variant: str | None = None,
    shape: str | None = None,
) -> dict[str, object]:
    """The reference runtime's handshake.  A mutant, a variant or a shape says which one it
    is in its version; what the components decide is declared as they decide it: whether
    artifacts are collected, what the wire's status words mean, which interruptions
    resume on their own."""
    parts = components or Components()
    bounds = parts.collector_class.default_bounds
    behaviour = parts.behaviour
    version = __version__
    if mutant is not None:
        version += f"+mutant.{mutant}"
    if variant is not None:
        version += f"+variant.{variant}"
    if shape is not None:
        version += f"+shape.{shape}"
    durable: dict[str, object] = {"nudge": NUDGE}
    if behaviour.resumes_on_its_own() != RESUMABLE:
        durable["resumes_on_its_own"] = sorted(behaviour.resumes_on_its_own())
    extra: dict[str, object] = {}
    states = parts.wire.turn_states()
    if states is not None:
        extra["turn_states"] = states
    return extra | {
        "protocol": PROTOCOL,
        "implementation": {
            "name": "rttool-reference",
            "version": version,
            "homepage": "https://github.com/rttool/rttool",
        },
        "profiles": ["runtime", "durable-resume"],
        "collects_artifacts": behaviour.collects_artifacts(),
        "capabilities": {
            "restart": True,
            "write_back_failure": True,
            "interrupt_points": list(POINTS),
            "interrupt_causes": list(CAUSES),
            "ledger": True,
            "journal_probe": True,
            "ledger_read_failure": True,
            "gates": True,
            "entry_points": ["chat", "api", "trigger"],
            "late_artifacts": True,
            "held_observation": True,
            "collection_observation": True,
            "configurable_bounds": True,
            "unencodable_payloads": True,
            "concurrent_clients": True,
            "port_exposure": True,
            "turn_api": False,
        },
        "limits": {
            "payload_bytes": bounds.payload_bytes,
            "run_artifacts": bounds.run_artifacts,
            "run_bytes": bounds.run_bytes,
            "held_artifacts": bounds.held_artifacts,
            "normalize_passes": parts.node.normalizer.max_passes,
        },
        "durable_resume": durable,
    }


class ReferenceHarness:
    """Answers protocol requests by running scenarios on fresh reference runtimes.

    At most ``max_sessions`` sessions live at once, and one unused for ``idle_seconds``
    (by ``clock``) is ended when the next session starts.
    """

    def __init__(
        self,
        mutant: str | None = None,
        variant: str | None = None,
        shape: str | None = None,
        *,
        max_sessions: int = MAX_SESSIONS,
        idle_seconds: float = SESSION_IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if sum(chosen is not None for chosen in (mutant, variant, shape)) > 1:
            raise ValueError("a harness runs one mutant, variant or shape, not several")
        self.mutant = mutant
        self.variant = variant
        self.shape = shape
        self._components = _components(mutant, variant, shape)
        self._sessions: dict[str, ScenarioSession] = {}
        self._used: dict[str, float] = {}  # session id -> when it was last used
        self._max_sessions = max_sessions
        self._idle_seconds = idle_seconds
        self._clock = clock
        self._template: Template | None = None
        self._lock = threading.Lock()

    def live_sessions(self) -> tuple[str, ...]:
        """The ids of the sessions alive now, oldest first."""
        with self._lock:
            return tuple(self._sessions)

    def request(self, message: Message) -> Message:
        """Answer one request (see ``adapters/schemas/messages.json``)."""
        command = message.get("cmd")
        try:
            if command == "hello":
                return handshake(self.mutant, self._components, self.variant, self.shape)
            if command == "start":
                return self._start(message.get("scenario"))
            if command == "step":
                return self._session(message).step(int(str(message.get("index"))))
            if command == "finish":
                session = self._session(message)
                ledger = session.ledger()
                self._close(str(message.get("session")))
                return {"ledger": ledger}
            if command == "bye":
                for session_id in self.live_sessions():
                    self._close(session_id)
                return {}
        except (KeyError, ValueError, CodecError) as err:
            return {"error": {"message": f"{type(err).__name__}: {err}"}}
        return {"error": {"message": f"unknown command {command!r}"}}

    def end_sessions(self, session_ids: Iterable[str]) -> None:
        """End the named sessions (those already ended are passed over): what ``bye``
        does for a client that shares this harness with others."""
        for session_id in session_ids:
            self._close(session_id)

    def _start(self, raw: object) -> Message:
        scenario = from_json(Scenario, raw)
        session_id = f"s-{secrets.token_urlsafe(16)}"  # unguessable: no client finds another's
        with self._lock:
            ended = self._make_room()
            if self._template is None:
                self._template = Template()
            self._sessions[session_id] = ScenarioSession(scenario, self._components, self._template)
            self._used[session_id] = self._clock()
        for session in ended:
            session.close()
        return {"session": session_id}

    def _make_room(self) -> list[ScenarioSession]:
        """Take out the sessions idle too long, then the idlest until one more fits (the
        lock is held; the caller closes what is returned)."""
        now = self._clock()
        gone = [sid for sid, used in self._used.items() if now - used > self._idle_seconds]
        while len(self._sessions) - len(gone) >= self._max_sessions:
            gone.append(min((s for s in self._used if s not in gone), key=self._used.__getitem__))
        for session_id in gone:
            del self._used[session_id]
        return [self._sessions.pop(session_id) for session_id in gone]

    def _session(self, message: Mapping[str, object]) -> ScenarioSession:
        session_id = str(message.get("session"))
        with self._lock:
            session = self._sessions[session_id]
            self._used[session_id] = self._clock()
        return session

    def _close(self, session_id: str) -> None:
        with self._lock:
            session = self._sessions.pop(session_id, None)
            self._used.pop(session_id, None)
        if session is not None:
            session.close()


def _components(mutant: str | None, variant: str | None, shape: str | None) -> Components:
    if shape is not None:
        from reference_impl.shapes import components_for as shape_components

        return shape_components(shape)
    if mutant is not None:
        from reference_impl.mutants import components_for

        return components_for(mutant)
    if variant is not None:
        from reference_impl.variants import components_for as variant_components

        return variant_components(variant)
    return Components()


def create(
    mutant: str | None = None, variant: str | None = None, shape: str | None = None
) -> ReferenceHarness:
    """A harness for the reference runtime, for one of its mutants, for one of its legal
    variants, or for one of the runtime shapes of its catalogue."""
    return ReferenceHarness(mutant or None, variant or None, shape or None)
