"""The handshake builder: the harness's answer to ``hello``, checked as it is built."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from adapters._codec import to_json
from adapters.handshake import PROTOCOL, Capabilities, Limits
from adapters.kit._frame import checked

__all__ = ["handshake"]


def _plain(value: Capabilities | Limits | Mapping[str, object]) -> dict[str, Any]:
    if dataclasses.is_dataclass(value):
        rendered = to_json(value)
        assert isinstance(rendered, dict)
        return rendered
    assert isinstance(value, Mapping)
    return {key: list(item) if isinstance(item, tuple) else item for key, item in value.items()}


def handshake(
    name: str,
    version: str,
    *,
    profiles: Iterable[str] = ("runtime",),
    capabilities: Capabilities | Mapping[str, object] | None = None,
    limits: Limits | Mapping[str, object] | None = None,
    collects_artifacts: bool = True,
    homepage: str | None = None,
    nudge: str | None = None,
    levels: Iterable[str] | None = None,
) -> dict[str, object]:
    """A complete handshake, validated against ``messages.json#/$defs/handshake``.

    ``capabilities`` and ``limits`` take the :mod:`adapters.handshake` dataclasses or
    plain mappings naming only what is offered (everything absent is not offered; a
    limit absent is not stated).  ``nudge`` is the durable-resume nudge text, for a
    harness that claims the ``durable-resume`` profile.  A wrong value raises
    :class:`~adapters.kit.BuildError` naming its JSON pointer.
    """
    implementation: dict[str, object] = {"name": name, "version": version}
    if homepage is not None:
        implementation["homepage"] = homepage
    value: dict[str, object] = {
        "protocol": PROTOCOL,
        "implementation": implementation,
        "profiles": list(profiles),
        "collects_artifacts": collects_artifacts,
        "capabilities": _plain(capabilities if capabilities is not None else {}),
        "limits": _plain(limits if limits is not None else {}),
    }
    if nudge is not None:
        value["durable_resume"] = {"nudge": nudge}
    if levels is not None:
        value["levels"] = list(levels)
    built: dict[str, object] = checked("messages#/$defs/handshake", value)
    return built
