"""Turn an implementation spec (``--impl``) into a connection.

* ``python:MODULE:ATTR[?key=value&...]``: a harness in this process;
* ``http://HOST:PORT[/PATH]`` (or ``https://``): a harness behind HTTP (``/rttool`` when
  no path is given);
* ``stdio:COMMAND``: a harness process speaking JSON lines on stdin/stdout.
"""

from __future__ import annotations

from adapters.errors import SpecError
from adapters.protocol import Connection

__all__ = ["connect"]


def connect(spec: str, *, timeout: float = 30.0) -> Connection:
    """Open a connection for ``spec``; raises :class:`SpecError` for an unknown form."""
    if spec.startswith("python:"):
        from adapters.inprocess import InProcessConnection, load_harness

        return InProcessConnection(spec, load_harness(spec.removeprefix("python:")))
    if spec.startswith(("http://", "https://")):
        from adapters.http import HttpConnection

        return HttpConnection(spec, timeout=timeout)
    if spec.startswith("stdio:"):
        from adapters.stdio import StdioConnection

        command = spec.removeprefix("stdio:").strip()
        if not command:
            raise SpecError("stdio spec needs a command", spec=spec)
        return StdioConnection(spec, command, timeout=timeout)
    raise SpecError(
        "unknown implementation spec; use python:MODULE:ATTR, http://HOST:PORT or stdio:COMMAND",
        spec=spec,
    )
