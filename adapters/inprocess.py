"""In-process transport: ``python:MODULE:ATTR[?key=value&...]``.

``ATTR`` names an object implementing :class:`~adapters.protocol.Harness`, or a
callable returning one (called with the query's ``key=value`` pairs as keyword
arguments).  Every message is round-tripped through JSON, so an in-process harness is
held to exactly what the other transports carry, the nesting limit and unique keys
included.

Whatever the harness raises (an exception, ``SystemExit``, any other
``BaseException`` but a real ``KeyboardInterrupt``) is the implementation's fault: it
never ends the suite's process, and so never ends a run with an exit code of its
choosing.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from urllib.parse import parse_qsl

from adapters.errors import (
    BadJson,
    ImplementationError,
    SchemaViolation,
    SpecError,
    Unreachable,
)
from adapters.limits import DuplicateKey, TooDeep, check_depth, loads
from adapters.protocol import Harness, Message

__all__ = ["InProcessConnection", "load_harness"]


def _encoded(reply: object) -> str:
    """``reply`` as JSON text; too deep for the encoder is too deep for the limit."""
    try:
        return json.dumps(reply, allow_nan=False)
    except RecursionError:
        check_depth(reply)  # names the pointer
        raise


def _raised(err: BaseException) -> str:
    """What a harness raised, in one bounded piece of text (``SystemExit: 0``)."""
    try:
        text = f"{type(err).__name__}: {err}"
    except Exception:  # a __str__ that raises: the type is all there is to say
        text = type(err).__name__
    return text[:300]


def load_harness(target: str) -> Harness:
    """Import ``MODULE:ATTR[?query]`` and return the harness it names."""
    path, _, query = target.partition("?")
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise SpecError("in-process spec must be python:MODULE:ATTR", spec=f"python:{target}")
    try:
        module = importlib.import_module(module_name)
    except KeyboardInterrupt:
        raise
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
    except BaseException as err:  # the module itself failed (or exited) while importing
        raise Unreachable(
            "harness module failed while importing", module=module_name, error=_raised(err)
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
        except (SpecError, KeyboardInterrupt):  # a wrong spec is not a fault; Ctrl-C is Ctrl-C
            raise
        except BaseException as err:  # the harness's own failure: the implementation's fault
            raise Unreachable(
                "harness factory failed", module=module_name, attr=attr, error=_raised(err)
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
        request = str(message.get("cmd"))
        try:
            reply = self._harness.request(sent)
        except KeyboardInterrupt:
            raise
        except BaseException as err:  # SystemExit included: the implementation's fault
            raise ImplementationError(
                "in-process harness raised", impl=self.spec, request=request, error=_raised(err)
            ) from err
        try:
            decoded = loads(_encoded(reply), unique_keys=True)
        except (TooDeep, DuplicateKey) as err:
            raise SchemaViolation(
                "implementation reply breaks the protocol",
                pointer=err.pointer,
                complaint=err.complaint,
                impl=self.spec,
                request=request,
            ) from err
        except KeyboardInterrupt:
            raise
        except BaseException as err:  # not JSON; or a value whose own code raised
            raise BadJson(
                "in-process harness replied with something that is not JSON",
                impl=self.spec,
                request=request,
                reason=_raised(err),
            ) from err
        if not isinstance(decoded, Mapping):
            raise BadJson("harness reply is not a JSON object", impl=self.spec, request=request)
        return decoded

    def close(self) -> None:
        """Tell the harness goodbye if it cares."""
        try:
            self._harness.request({"cmd": "bye"})
        except KeyboardInterrupt:
            raise
        except BaseException:  # closing must never fail (or end) a run  # noqa: S110
            pass
