"""Artifacts: lifted off a tool node's output, surfaced on a port, collected per run.

* RT-TOOL-1/2: :meth:`ArtifactPolicy.tool_result` builds ``{success, data, error}`` and
  attaches ``artifacts`` only when at least one well-formed entry was lifted; the
  reserved key never stays in ``data``; failed and declined calls carry none.
* RT-TOOL-3: :meth:`ArtifactPolicy.port_entries` builds ``{type, payload, tool_call_id}``
  key by key, so a tool can neither forge the call id nor smuggle keys through.
* RT-TOOL-5/6: :class:`Collector` holds what each open run collected, enforces the
  bounds once, at the point of collection, and drops late arrivals.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

__all__ = ["RESERVED_KEY", "ArtifactPolicy", "Bounds", "Collector", "Drop", "encoded_size"]

RESERVED_KEY = "artifacts"


def encoded_size(payload: object) -> int:
    """Bytes of the compact UTF-8 JSON encoding; raises ValueError when it does not encode."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return len(text.encode("utf-8", errors="strict"))


@dataclass(frozen=True)
class Bounds:
    """What one run may collect, and how many artifacts a turn may hold across a pause.

    The defaults exceed RT-TOOL-6's floors (512 KB per payload, 50 artifacts and 2 MB per
    run) under either reading of "KB" and "MB".
    """

    payload_bytes: int = 512 * 1024
    run_artifacts: int = 64
    run_bytes: int = 2 * 1024 * 1024
    held_artifacts: int = 256


@dataclass(frozen=True)
class Drop:
    """An artifact the collector refused, with everything its warning names."""

    reason: str
    tool: str
    run: str
    type: str
    tool_call_id: str | None


class ArtifactPolicy:
    """How tool outputs become tool results and port entries (mutants override one method)."""

    def lift(self, output: object) -> tuple[object, list[dict[str, object]]]:
        """Split a node output into ``data`` and the well-formed reserved-key entries."""
        if not isinstance(output, Mapping) or RESERVED_KEY not in output:
            return output, []
        data = {key: value for key, value in output.items() if key != RESERVED_KEY}
        raw = output[RESERVED_KEY]
        kept = (
            [dict(entry) for entry in raw if self.well_formed(entry)]
            if isinstance(raw, list)
            else []
        )
        return data, kept

    def well_formed(self, entry: object) -> bool:
        """RT-TOOL-2: a string ``type`` and a map ``payload``."""
        return (
            isinstance(entry, Mapping)
            and isinstance(entry.get("type"), str)
            and isinstance(entry.get("payload"), Mapping)
        )

    def tool_result(self, *, success: bool, output: object, error: str | None) -> dict[str, object]:
        """The tool result for one call (``artifacts`` only when something was attached)."""
        data, lifted = self.lift(output)
        result: dict[str, object] = {
            "success": success,
            "data": data if success else None,
            "error": error,
        }
        if success and lifted:
            result["artifacts"] = lifted
        return result

    def port_entries(
        self, result: Mapping[str, object], tool_call_id: str | None
    ) -> list[dict[str, object]]:
        """RT-TOOL-3: exactly ``{type, payload, tool_call_id}``, built key by key."""
        attached = result.get("artifacts")
        if not isinstance(attached, list):
            return []
        return [self.port_entry(entry, tool_call_id) for entry in attached]

    def port_entry(
        self, entry: Mapping[str, object], tool_call_id: str | None
    ) -> dict[str, object]:
        """The port entry of one attached artifact: its type and payload and the call's
        real identifier, and nothing else (RT-TOOL-3 ¶1)."""
        return {"type": entry["type"], "payload": entry["payload"], "tool_call_id": tool_call_id}


class Collector:
    """Per-run artifact collection (RT-TOOL-5), bounded once at collection (RT-TOOL-6).

    Thread-safe: the HTTP server may run turns of different conversations at once.
    """

    #: The bounds a run collects under where its workflow sets none (the harness declares
    #: them as the handshake's ``limits``).
    default_bounds: ClassVar[Bounds] = Bounds()

    def __init__(self, on_drop: Callable[[Drop], None]) -> None:
        self._lock = threading.Lock()
        self._open: dict[str, _RunCollection] = {}
        self._on_drop = on_drop

    def open(self, run_id: str, bounds: Bounds) -> None:
        """Open collection for ``run_id``."""
        with self._lock:
            self._open[run_id] = _RunCollection(bounds, self.measure)

    def measure(self, payload: object) -> int:
        """The bytes ``payload`` counts for against the bounds ("once JSON-encoded": compact
        UTF-8); raises ValueError or TypeError when it does not encode."""
        return encoded_size(payload)

    def type_refused(self, kind: object) -> bool:
        """Whether an artifact of type ``kind`` is refused outright where it would be
        collected: one with an empty type is (RT-TOOL-6 ¶5)."""
        return kind == ""

    def release(self, run_id: str) -> None:
        """End collection for ``run_id``: anything arriving later is dropped."""
        with self._lock:
            self._open.pop(run_id, None)

    def open_runs(self) -> list[str]:
        """The runs whose collection is open (an observation for the suite)."""
        with self._lock:
            return sorted(self._open)

    def add(self, run_id: str, tool: str, entry: Mapping[str, object]) -> bool:
        """Collect one port entry; ``False`` when it was dropped or refused."""
        kind = entry.get("type")
        raw_id = entry.get("tool_call_id")
        call_id = raw_id if isinstance(raw_id, str) else None  # an id-less call names none
        with self._lock:
            collection = self._open.get(run_id)
            if collection is None:
                reason = "collection is not open for this run"
            elif self.type_refused(kind):
                reason = "empty type refused"
            else:
                refused = collection.admit(entry)
                if refused is None:
                    return True
                reason = refused
        self._on_drop(Drop(reason, tool, run_id, str(kind), call_id))
        return False

    def drain(self, run_id: str) -> list[dict[str, object]]:
        """Hand over what was collected so far; collection stays open."""
        with self._lock:
            collection = self._open.get(run_id)
            if collection is None:
                return []
            drained, collection.pending = collection.pending, []
            return drained


class _RunCollection:
    def __init__(self, bounds: Bounds, measure: Callable[[object], int]) -> None:
        self.bounds = bounds
        self.measure = measure
        self.pending: list[dict[str, object]] = []
        self.count = 0
        self.bytes = 0

    def admit(self, entry: Mapping[str, object]) -> str | None:
        try:
            size = self.measure(entry.get("payload"))
        except (TypeError, ValueError):
            return "payload does not encode as JSON"
        if size > self.bounds.payload_bytes:
            return f"payload of {size} bytes exceeds the {self.bounds.payload_bytes}-byte bound"
        if self.count + 1 > self.bounds.run_artifacts:
            return f"run already holds {self.bounds.run_artifacts} artifacts"
        if self.bytes + size > self.bounds.run_bytes:
            return f"run's aggregate payload would exceed {self.bounds.run_bytes} bytes"
        self.count += 1
        self.bytes += size
        self.pending.append(dict(entry))
        return None
