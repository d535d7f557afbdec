"""Mutants of artifact collection and its bounds (RT-TOOL-5, RT-TOOL-6)."""

from __future__ import annotations

import html
import json
import math
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from reference_impl import records
from reference_impl.artifacts import Bounds, Collector, Drop, encoded_size
from reference_impl.behaviour import Behaviour
from reference_impl.mutants._model import Mutant, with_behaviour, with_collector, with_wire
from reference_impl.records import MessageRow
from reference_impl.wire import Wire
from reference_impl.workflow import Workflow

__all__ = ["MUTANTS"]

#: Under RT-TOOL-6's 512 KB payload floor, whichever way "KB" is read.
_SHORT_PAYLOAD_BOUND = 500_000
#: Under its 50-artifact and 2 MB floors.
_SHORT_RUN_COUNT = 49
#: A count bound no run reaches: the declared one is not kept.
_UNKEPT_RUN_COUNT = 1_000_000
_SHORT_RUN_BYTES = 1_950_000


class _CollectionStanceMisdeclared(Behaviour):
    def collects_artifacts(self) -> bool:
        return False  # ...while it goes on collecting


class _UnopenedRunCollectionReachesBack(Collector):
    """Keeps what arrives for a run that never opened collection, and hands it over when
    the run opens it."""

    def __init__(self, on_drop: Callable[[Drop], None]) -> None:
        super().__init__(on_drop)
        self._early_lock = threading.Lock()
        self._early: dict[str, list[tuple[str, Mapping[str, object]]]] = {}
        self._ever_opened: set[str] = set()

    def open(self, run_id: str, bounds: Bounds) -> None:
        super().open(run_id, bounds)
        with self._early_lock:
            self._ever_opened.add(run_id)
            early = self._early.pop(run_id, [])
        for tool, entry in early:
            super().add(run_id, tool, entry)

    def add(self, run_id: str, tool: str, entry: Mapping[str, object]) -> bool:
        with self._early_lock:
            if run_id not in self._ever_opened:
                self._early.setdefault(run_id, []).append((tool, entry))
                return True
        return super().add(run_id, tool, entry)


class _DrainEndsCollection(Collector):
    def drain(self, run_id: str) -> list[dict[str, object]]:
        drained = super().drain(run_id)
        self.release(run_id)
        return drained


class _CollectionNeverReleased(Behaviour):
    def release(self, collector: Collector, run_id: str) -> None:
        """Never called on any way out, so collection outlives the run."""


class _ApiRunsCollectNothing(Behaviour):
    def opens_collection(self, entry_point: str) -> bool:
        return entry_point != "api"


class _RecheckedAgainstRunBound(Behaviour):
    def merge(self, held: Sequence[object], collected: Sequence[object]) -> list[object]:
        # A downstream re-check: the delivered list is cut to what one run may collect.
        return super().merge(held, collected)[: Bounds().run_artifacts]


class _PayloadBoundBelowFloor(Collector):
    def open(self, run_id: str, bounds: Bounds) -> None:
        payload = min(bounds.payload_bytes, _SHORT_PAYLOAD_BOUND)
        super().open(run_id, replace(bounds, payload_bytes=payload))


class _RecheckedAgainstScenarioBounds(Behaviour):
    """Cuts the merged list a write-back delivers to the run's own bounds again (count and
    aggregate bytes), as read from the conversation's workflow."""

    def persist(
        self, conn: sqlite3.Connection, turn_id: str, message_id: str, merged: list[object]
    ) -> None:
        turn = records.get_turn(conn, turn_id)
        stored = None if turn is None else records.load_workflow(conn, turn.conversation_id)
        bounds = Workflow.from_json(stored).bounds if stored is not None else Bounds()
        kept: list[object] = []
        used = 0
        for entry in merged:
            payload = entry.get("payload") if isinstance(entry, Mapping) else None
            size = encoded_size(payload)
            if len(kept) < bounds.run_artifacts and used + size <= bounds.run_bytes:
                kept.append(entry)
                used += size
        super().persist(conn, turn_id, message_id, kept)


class _RunCountBelowFloor(Collector):
    def open(self, run_id: str, bounds: Bounds) -> None:
        count = min(bounds.run_artifacts, _SHORT_RUN_COUNT)
        super().open(run_id, replace(bounds, run_artifacts=count))


class _RunCountNotEnforced(Collector):
    """The declared count bound is not kept: a run collects every artifact it is given."""

    def open(self, run_id: str, bounds: Bounds) -> None:
        super().open(run_id, replace(bounds, run_artifacts=_UNKEPT_RUN_COUNT))


class _RunBytesBelowFloor(Collector):
    def open(self, run_id: str, bounds: Bounds) -> None:
        super().open(run_id, replace(bounds, run_bytes=min(bounds.run_bytes, _SHORT_RUN_BYTES)))


class _OddCountBoundRoundedUp(Collector):
    """An odd count bound is kept as the even number above it (the default 50 is kept)."""

    def open(self, run_id: str, bounds: Bounds) -> None:
        count = bounds.run_artifacts + bounds.run_artifacts % 2
        super().open(run_id, replace(bounds, run_artifacts=count))


class _PayloadBoundOneShort(Collector):
    """A payload exactly at the payload bound is dropped (the default stays over 512 KB)."""

    def open(self, run_id: str, bounds: Bounds) -> None:
        super().open(run_id, replace(bounds, payload_bytes=bounds.payload_bytes - 1))


class _RunBytesBoundOneShort(Collector):
    """An artifact that fills what remains of the aggregate budget exactly is dropped."""

    def open(self, run_id: str, bounds: Bounds) -> None:
        super().open(run_id, replace(bounds, run_bytes=bounds.run_bytes - 1))


class _RunBytesBoundOneOver(Collector):
    """An artifact one byte over what remains of the aggregate budget is kept."""

    def open(self, run_id: str, bounds: Bounds) -> None:
        super().open(run_id, replace(bounds, run_bytes=bounds.run_bytes + 1))


class _MeasuredInCharacters(Collector):
    """Measures a payload in characters of its compact encoding, not in UTF-8 bytes."""

    def measure(self, payload: object) -> int:
        return len(json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False))


class _DropWithoutWarning(Collector):
    def __init__(self, on_drop: Callable[[Drop], None]) -> None:
        super().__init__(lambda drop: None)


class _FirstDropClosesRunBudget(Collector):
    """After its first drop, a run's collection refuses everything else."""

    def __init__(self, on_drop: Callable[[Drop], None]) -> None:
        super().__init__(on_drop)
        self._closed_lock = threading.Lock()
        self._closed: set[str] = set()

    def add(self, run_id: str, tool: str, entry: Mapping[str, object]) -> bool:
        with self._closed_lock:
            closed = run_id in self._closed
        if closed:
            self._on_drop(
                Drop(
                    "the run's budget closed at its first drop",
                    tool,
                    run_id,
                    str(entry.get("type")),
                    str(entry.get("tool_call_id")),
                )
            )
            return False
        kept = super().add(run_id, tool, entry)
        if not kept:
            with self._closed_lock:
                self._closed.add(run_id)
        return kept


class _EmptyTypeCollected(Collector):
    def type_refused(self, kind: object) -> bool:
        return False  # admitted like any other artifact, bounds and all


def _unescaped(value: object) -> object:
    if isinstance(value, str):
        return html.unescape(value)
    if isinstance(value, Mapping):
        return {key: _unescaped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_unescaped(item) for item in value]
    return value


def _coerced(value: object) -> object:
    """Strings that read as numbers become numbers, all the way down."""
    if isinstance(value, str):
        try:
            number = json.loads(value)
        except ValueError:
            return value
        finite = isinstance(number, int | float) and math.isfinite(number)
        return number if finite and not isinstance(number, bool) else value
    if isinstance(value, Mapping):
        return {key: _coerced(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_coerced(item) for item in value]
    return value


class _NumericStringsCoercedOnWire(Wire):
    def message_row(self, message: MessageRow) -> dict[str, object]:
        row = super().message_row(message)
        carried = row.get("toolArtifacts")
        if isinstance(carried, list):
            row["toolArtifacts"] = [_coerced(entry) for entry in carried]
        return row


class _PayloadEntitiesDecodedOnWire(Wire):
    def message_row(self, message: MessageRow) -> dict[str, object]:
        row = super().message_row(message)
        carried = row.get("toolArtifacts")
        if isinstance(carried, list):
            row["toolArtifacts"] = [_unescaped(entry) for entry in carried]
        return row


MUTANTS = (
    Mutant(
        "collection-stance-misdeclared",
        ("RT-TOOL-5#c1",),
        "the handshake says no artifacts are collected, yet the runtime collects them",
        with_behaviour(_CollectionStanceMisdeclared),
    ),
    Mutant(
        "unopened-run-collection-reaches-back",
        ("RT-TOOL-5#c2",),
        "an artifact arriving before its run opened collection is kept for it",
        with_collector(_UnopenedRunCollectionReachesBack),
        hunted=True,
    ),
    Mutant(
        "drain-ends-collection",
        ("RT-TOOL-5#c3",),
        "draining a run's collection also releases it",
        with_collector(_DrainEndsCollection),
    ),
    Mutant(
        "collection-never-released",
        ("RT-TOOL-5#c4",),
        "no way out of a run releases its collection",
        with_behaviour(_CollectionNeverReleased),
        hunted=True,
    ),
    Mutant(
        "api-runs-collect-nothing",
        ("RT-TOOL-5#c5",),
        "a run launched from the `api` entry point never opens collection",
        with_behaviour(_ApiRunsCollectNothing),
    ),
    Mutant(
        "run-count-bound-not-enforced",
        ("RT-TOOL-6#c1",),
        "the run's declared count bound is not kept: a run collects every artifact it is given",
        with_collector(_RunCountNotEnforced),
    ),
    Mutant(
        "delivered-list-rechecked-against-run-bound",
        ("RT-TOOL-6#c1",),
        "the merged list a write-back delivers is cut again to the per-run bound",
        with_behaviour(_RecheckedAgainstRunBound),
    ),
    Mutant(
        "delivered-list-rechecked-against-scenario-bounds",
        ("RT-TOOL-6#c1",),
        "the merged list a write-back delivers is cut again to the run's own count and byte bounds",
        with_behaviour(_RecheckedAgainstScenarioBounds),
    ),
    Mutant(
        "payload-bound-below-floor",
        ("RT-TOOL-6#c2",),
        f"a payload over {_SHORT_PAYLOAD_BOUND} bytes is dropped, under the 512 KB floor",
        with_collector(_PayloadBoundBelowFloor),
    ),
    Mutant(
        "run-count-bound-below-floor",
        ("RT-TOOL-6#c2",),
        f"a run keeps at most {_SHORT_RUN_COUNT} artifacts, under the floor of 50",
        with_collector(_RunCountBelowFloor),
    ),
    Mutant(
        "run-bytes-bound-below-floor",
        ("RT-TOOL-6#c2",),
        f"a run keeps at most {_SHORT_RUN_BYTES} bytes of payload, under the 2 MB floor",
        with_collector(_RunBytesBelowFloor),
    ),
    Mutant(
        "odd-count-bound-rounded-up",
        ("RT-TOOL-6#c3",),
        "an odd count bound is kept as the even number above it, so one artifact too many stays",
        with_collector(_OddCountBoundRoundedUp),
    ),
    Mutant(
        "payload-at-the-bound-dropped",
        ("RT-TOOL-6#c3",),
        "a payload exactly at the payload bound is dropped as if it exceeded it",
        with_collector(_PayloadBoundOneShort),
    ),
    Mutant(
        "aggregate-filled-exactly-dropped",
        ("RT-TOOL-6#c3",),
        "an artifact that fills what remains of the aggregate bound to the byte is dropped",
        with_collector(_RunBytesBoundOneShort),
    ),
    Mutant(
        "aggregate-one-byte-over-kept",
        ("RT-TOOL-6#c3",),
        "an artifact one byte over what remains of the aggregate bound is kept",
        with_collector(_RunBytesBoundOneOver),
    ),
    Mutant(
        "payload-measured-in-characters",
        ("RT-TOOL-6#c3",),
        "payloads are measured in characters, so non-ASCII text over a byte bound is kept",
        with_collector(_MeasuredInCharacters),
        hunted=True,
    ),
    Mutant(
        "drop-without-warning",
        ("RT-TOOL-6#c3",),
        "an artifact over a bound is dropped silently",
        with_collector(_DropWithoutWarning),
    ),
    Mutant(
        "first-drop-closes-run-budget",
        ("RT-TOOL-6#c4",),
        "after a run's first drop, every later artifact of the run is dropped too",
        with_collector(_FirstDropClosesRunBudget),
    ),
    Mutant(
        "empty-type-collected",
        ("RT-TOOL-6#c5",),
        "an artifact with an empty `type` is collected like any other",
        with_collector(_EmptyTypeCollected),
        hunted=True,
    ),
    Mutant(
        "numeric-payload-strings-coerced",
        ("RT-TOOL-6#c6",),
        "payload strings that read as numbers are delivered as numbers",
        with_wire(_NumericStringsCoercedOnWire),
    ),
    Mutant(
        "payload-entities-decoded-on-wire",
        ("RT-TOOL-6#c6",),
        "payload strings have their HTML character references decoded on the wire",
        with_wire(_PayloadEntitiesDecodedOnWire),
    ),
)
