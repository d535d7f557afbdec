"""In-process transport: ``python:MODULE:ATTR[?key=value&...]``.

``ATTR`` names an object implementing :class:`~adapters.protocol.Harness`, or a
callable returning one (called with the query's ``key=value`` pairs as keyword
arguments).  Every message is round-tripped through JSON, so an in-process harness is
held to exactly what the other transports carry.
"""

from __future__ import annotations

import contextlib
import importlib
import json
from collections.abc import Mapping
from urllib.parse import parse_qsl

from adapters.errors import BadJson, ImplementationError, SpecError, Unreachable
from adapters.protocol import Harness, Message

__all__ = ["InProcessConnection", "load_harness"]


def load_harness(target: str) -> Harness:
    """Import ``MODULE:ATTR[?query]`` and return the harness it names."""
    path, _, query = target.partition("?")
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise SpecError("in-process spec must be python:MODULE:ATTR", spec=f"python:{target}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name and (module_name == err.name or module_name.startswith(f"{err.name}.")):
            # The module named in the spec is not there: the spec is wrong.
            raise SpecError("no such harness module", module=module_name) from err
        raise Unreachable(
            "cannot import harness module", module=module_name, reason=str(err)
        ) from err
    except ImportError as err:
        raise Unreachable(
            "cannot import harness module", module=module_name, reason=str(err)
        ) from err
    try:
        found: object = getattr(module, attr)
    except AttributeError as err:
        raise SpecError(
            "harness module has no such attribute", module=module_name, attr=attr
        ) from err
    kwargs = dict(parse_qsl(query, keep_blank_values=True))
    if isinstance(found, Harness) and not isinstance(found, type) and not kwargs:
        return found
    if callable(found):
        try:
            made = found(**kwargs)
        except SpecError:  # the factory refused its arguments: a wrong spec, not a fault
            raise
        except Exception as err:  # the harness's own failure: the implementation's fault
            raise Unreachable(
                "harness factory failed",
                module=module_name,
                attr=attr,
                error=f"{type(err).__name__}: {err}"[:300],
            ) from err
        if isinstance(made, Harness):
            return made
    raise SpecError(
        "attribute is not a harness (an object with request(message))",
        module=module_name,
        attr=attr,
    )


class InProcessConnection:
    """A connection to a harness living in this process."""

    def __init__(self, spec: str, harness: Harness) -> None:
        self.spec = spec
        self._harness = harness

    def request(self, message: Message, *, timeout: float | None = None) -> Message:
        """Hand ``message`` to the harness (no timeout applies in-process)."""
        sent = json.loads(json.dumps(message))
        try:
            reply = self._harness.request(sent)
        except Exception as err:  # the harness's own failure is the implementation's fault
            raise ImplementationError(
                "in-process harness raised",
                impl=self.spec,
                error=f"{type(err).__name__}: {err}"[:300],
            ) from err
        try:
            decoded = json.loads(json.dumps(reply, allow_nan=False))
        except (TypeError, ValueError) as err:
            raise BadJson(
                "in-process harness replied with something that is not JSON",
                impl=self.spec,
                reason=str(err)[:200],
            ) from err
        if not isinstance(decoded, Mapping):
            raise BadJson("harness reply is not a JSON object", impl=self.spec)
        return decoded

    def close(self) -> None:
        """Tell the harness goodbye if it cares."""
        with contextlib.suppress(Exception):  # closing must never fail a run
            self._harness.request({"cmd": "bye"})
