"""The handshake: who the implementation is, what it claims, and what it can do.

The suite sends ``hello`` first, naming the protocol version it speaks; the harness
answers with a :class:`Handshake`.  A harness speaking another version is refused with
:class:`~adapters.errors.ProtocolMismatch` before any scenario is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "PROTOCOL",
    "RESUMING_ON_THEIR_OWN",
    "Capabilities",
    "DurableResume",
    "Handshake",
    "Implementation",
    "Limits",
    "TurnStates",
]

PROTOCOL = "rttool-adapter/1"


@dataclass(frozen=True)
class Implementation:
    """The implementation under test."""

    name: str
    version: str
    homepage: str | None = None


@dataclass(frozen=True)
class Capabilities:
    """What the harness can do to, and observe of, its implementation.

    A scenario that needs a capability the harness lacks is answered ``unsupported``
    and reported as untested, never as a pass or a failure.
    """

    restart: bool = False
    write_back_failure: bool = False
    interrupt_points: tuple[str, ...] = ()
    interrupt_causes: tuple[str, ...] = ()
    ledger: bool = False
    journal_probe: bool = False
    ledger_read_failure: bool = False
    gates: bool = False
    entry_points: tuple[str, ...] = ("chat",)
    late_artifacts: bool = False
    held_observation: bool = False
    collection_observation: bool = False
    configurable_bounds: bool = False
    unencodable_payloads: bool = False
    concurrent_clients: bool = False
    port_exposure: bool = False
    turn_api: bool = False


@dataclass(frozen=True)
class Limits:
    """The implementation's default bounds.  ``None`` is a bound not stated;
    ``unbounded`` names the bounds the implementation states it does not have (RT-TOOL-6
    ¶1 forbids an unbounded run collection, and says nothing of a bound not stated)."""

    payload_bytes: int | None = None
    run_artifacts: int | None = None
    run_bytes: int | None = None
    held_artifacts: int | None = None
    normalize_passes: int | None = None
    unbounded: tuple[str, ...] = ()

    def stated(self, name: str) -> bool:
        """Whether the implementation said anything about bound ``name``: a value, or
        that it has none."""
        return getattr(self, name) is not None or name in self.unbounded


#: The interruption causes after which a run resumes on its own unless the handshake
#: says otherwise: the ones the durable-resume guide names (a soft timeout, a gateway
#: timeout, a resumable transport error).
RESUMING_ON_THEIR_OWN = ("time_limit", "gateway_timeout", "transport_error")


@dataclass(frozen=True)
class DurableResume:
    """Durable-resume choices the guide leaves open, made observable.

    ``nudge`` is the exact text a resumed run is prompted with.  ``resumes_on_its_own``
    lists the interruption causes after which the implementation continues a turn by
    itself; after any other cause the turn waits for Continue.  DR-5 requires a time
    limit among them; whether a gateway timeout or a transport error resumes on its own
    or waits for Continue, the rules leave to the implementation (docs/interpretations.md).
    """

    nudge: str
    resumes_on_its_own: tuple[str, ...] = RESUMING_ON_THEIR_OWN


@dataclass(frozen=True)
class TurnStates:
    """Which status words of the implementation's wire mean which state of a turn.

    The rules speak of states (a turn that is paused, resuming, stopped with Continue
    available, completed), never of the words a wire uses for them; the checks judge a
    turn by the state its status word is declared to mean.  Each list holds the words
    that mean one state; the defaults are the words the protocol guide uses.  A stopped
    turn is recognised by ``continueOffered`` whatever its word (a turn that failed and
    offers Continue is stopped in the rules' sense).
    """

    running: tuple[str, ...] = ("running",)
    resuming: tuple[str, ...] = ("resuming",)
    paused: tuple[str, ...] = ("paused",)
    stopped: tuple[str, ...] = ("stopped",)
    completed: tuple[str, ...] = ("completed",)
    failed: tuple[str, ...] = ("failed",)

    def state(self, status: object) -> str | None:
        """The state ``status`` is declared to mean, or ``None`` for a word not declared."""
        for name in ("running", "resuming", "paused", "stopped", "completed", "failed"):
            if status in getattr(self, name):
                return name
        return None


@dataclass(frozen=True)
class Handshake:
    """The harness's answer to ``hello``."""

    protocol: str
    implementation: Implementation
    profiles: tuple[str, ...]
    capabilities: Capabilities
    limits: Limits
    collects_artifacts: bool = True
    durable_resume: DurableResume | None = None
    #: what the wire's turn status words mean (absent: the guide's words)
    turn_states: TurnStates = TurnStates()
    #: The rule levels the implementation claims to meet (the default CI gate).
    levels: tuple[str, ...] = ("core", "extended", "optional")
