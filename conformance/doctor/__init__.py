"""``rttool doctor``: is a harness ready for ``rttool run``?

A quick, friendly smoke test.  It sends ``hello`` and holds the handshake to the
protocol, listing every problem with its JSON pointer and a hint; then it sends a few
small scenarios the suite itself would send (:mod:`conformance.doctor._probes`) and
looks at each answer as a harness's answer (:mod:`conformance.doctor._traces`), not as
a verdict on the runtime.  Each finding is one line: what was wrong, where, how to fix.
Exit codes: 0 ready, 1 problems found, 3 the harness cannot be driven at all.
"""

from __future__ import annotations

import contextlib

from adapters import Driver, connect
from adapters.errors import ImplementationError
from adapters.handshake import PROTOCOL, Handshake
from adapters.protocol import Connection, Message
from conformance.doctor._findings import ARGS_HINT, Diagnosis, Finding, Probe, fix_for
from conformance.doctor._handshake import check_claims, check_hello
from conformance.doctor._probes import choose, send

__all__ = ["ARGS_HINT", "Diagnosis", "Finding", "Probe", "diagnose"]


class _OneHello:
    """The connection, answering a second ``hello`` from the first reply: the doctor
    reads the raw handshake itself, then hands the connection to a driver."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.spec = connection.spec
        self.hello: Message | None = None

    def request(self, message: Message, *, timeout: float | None = None) -> Message:
        if message.get("cmd") == "hello" and self.hello is not None:
            return self.hello
        reply = self.connection.request(message, timeout=timeout)
        if message.get("cmd") == "hello":
            self.hello = reply
        return reply

    def close(self) -> None:
        self.connection.close()


def _handshake(driver: Driver, connection: _OneHello, diagnosis: Diagnosis) -> Handshake | None:
    from conformance import __version__

    hello = {
        "cmd": "hello",
        "protocol": PROTOCOL,
        "suite": {"name": "rttool", "version": __version__},
    }
    try:
        reply = connection.request(hello, timeout=driver.timeout)
    except ImplementationError as err:
        diagnosis.problem(str(err), "hello", fix_for(err))
        return None
    if not check_hello(reply, diagnosis):
        return None
    try:
        return driver.handshake()
    except ImplementationError as err:  # the schema passed; the decoder still may not
        diagnosis.problem(str(err), f"hello {getattr(err, 'pointer', '')}".strip(), fix_for(err))
        return None


def diagnose(spec: str, *, timeout: float = 10.0) -> Diagnosis:
    """Examine the harness at adapter ``spec``; never raises for the harness's faults
    (an unknown spec form raises :class:`adapters.errors.SpecError`)."""
    from conformance import __version__

    diagnosis = Diagnosis(spec=spec)
    connection = _OneHello(connect(spec, timeout=timeout))
    driver = Driver(connection, timeout=timeout, suite_version=__version__)
    try:
        handshake = _handshake(driver, connection, diagnosis)
        if handshake is None:
            diagnosis.undrivable = True
            return diagnosis
        diagnosis.handshake = handshake
        check_claims(handshake, diagnosis)
        probes, unexercised = choose(handshake)
        for name in unexercised:
            diagnosis.note(
                f"{name} is not probed: no scenario listed for this handshake needs it",
                "hello /capabilities",
                "nothing to do here; a run's hunt may still use it",
            )
        for probe in probes:
            if not send(driver, handshake, probe, diagnosis):
                diagnosis.note(
                    "the remaining probes were not sent",
                    "doctor",
                    "fix the problem above, then run rttool doctor again",
                )
                break
    finally:
        with contextlib.suppress(ImplementationError):  # a harness that died is closed
            driver.close()
    return diagnosis
