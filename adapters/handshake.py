"""The handshake: who the implementation is, what it claims, and what it can do.

The suite sends ``hello`` first, naming the protocol version it speaks; the harness
answers with a :class:`Handshake`.  A harness speaking another version is refused with
:class:`~adapters.errors.ProtocolMismatch` before any scenario is sent.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PROTOCOL", "Capabilities", "DurableResume", "Handshake", "Implementation", "Limits"]

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
    """The implementation's default bounds (``None``: unbounded or not stated)."""

    payload_bytes: int | None = None
    run_artifacts: int | None = None
    run_bytes: int | None = None
    held_artifacts: int | None = None
    normalize_passes: int | None = None


@dataclass(frozen=True)
class DurableResume:
    """Durable-resume choices the guide leaves open, made observable."""

    nudge: str


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
    #: The rule levels the implementation claims to meet (the default CI gate).
    levels: tuple[str, ...] = ("core", "extended", "optional")
