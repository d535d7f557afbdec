"""rttool's adapter protocol: scenario in, trace out, over any transport.

This package depends on nothing else in the project.  The suite (``conformance``) and
the bundled reference runtime (``reference_impl``) both speak through it.
"""

from adapters.driver import Driver, Unsupported
from adapters.errors import (
    BadJson,
    Crashed,
    ImplementationError,
    ProtocolMismatch,
    RttoolError,
    SchemaViolation,
    SpecError,
    SuiteError,
    TimedOut,
    Unreachable,
)
from adapters.handshake import (
    PROTOCOL,
    Capabilities,
    DurableResume,
    Handshake,
    Implementation,
    Limits,
)
from adapters.protocol import Connection, Harness, Message
from adapters.scenario import Scenario
from adapters.spec import connect
from adapters.trace import Trace

__all__ = [
    "PROTOCOL",
    "BadJson",
    "Capabilities",
    "Connection",
    "Crashed",
    "Driver",
    "DurableResume",
    "Handshake",
    "Harness",
    "Implementation",
    "ImplementationError",
    "Limits",
    "Message",
    "ProtocolMismatch",
    "RttoolError",
    "Scenario",
    "SchemaViolation",
    "SpecError",
    "SuiteError",
    "TimedOut",
    "Trace",
    "Unreachable",
    "Unsupported",
    "connect",
]
