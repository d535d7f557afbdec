"""The tool-call journal: a pure read over a turn's run-event ledger (DR-1).

* completed: a ``tool_start`` with a matching ``tool_done``;
* interrupted: a ``tool_start`` with no matching ``tool_done`` (outcome unknown).

A ``tool_done`` pairs with the oldest still-open ``tool_start`` of the same tool name
(FIFO per tool), taken from the done's own run when events carry their run: a start
left open by an earlier, interrupted run stays interrupted rather than being closed by
a later call of the same tool.  A ``done`` with nothing open is ignored.  A ``clear``
(abandoned partial output) resets the tally of open starts; calls already completed
stay completed.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter

__all__ = ["Entry", "Journal", "LedgerEvent", "Snapshot", "classify", "closed_starts", "signature"]


def signature(tool: str, args: object) -> str:
    """A call's content address: its tool name plus a canonical encoding of its input."""
    return (
        tool + "\x00" + json.dumps(args, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    )


@dataclass(frozen=True)
class LedgerEvent:
    """One event of the run-event ledger: a ``tool_start`` carries its call's input, a
    ``tool_done`` its call's input and result, a ``clear`` neither."""

    event: str
    tool: str | None = None
    input: object = None
    result: object = None
    seq: int = 0
    run: str | None = None

    def to_json(self) -> dict[str, object]:
        """The event as a ledger read shows it: its kind, its tool, and the input and
        result its kind carries (its place and run left out)."""
        shown: dict[str, object] = {"event": self.event}
        if self.tool is not None:
            shown["tool"] = self.tool
        if self.event in ("tool_start", "tool_done"):
            shown["input"] = self.input
        if self.event == "tool_done":
            shown["result"] = self.result
        return shown


@dataclass(frozen=True, slots=True)
class Entry:
    """A journaled call; ``result`` is ``None`` for an interrupted one."""

    tool: str
    input: object
    result: object = None
    seq: int = 0

    @property
    def signature(self) -> str:
        """The entry's content address."""
        return signature(self.tool, self.input)

    def to_json(self, *, with_result: bool) -> dict[str, object]:
        """The entry as the trace and the journal probe report it."""
        out: dict[str, object] = {"tool": self.tool, "input": self.input}
        if with_result:
            out["result"] = self.result
        return out


@dataclass(frozen=True)
class Journal:
    """A turn's calls, classified."""

    completed: tuple[Entry, ...] = ()
    interrupted: tuple[Entry, ...] = ()

    @property
    def empty(self) -> bool:
        """No tool activity to report."""
        return not self.completed and not self.interrupted

    def to_json(self) -> dict[str, object]:
        """``{"completed": [...], "interrupted": [...]}``."""
        return {
            "completed": [e.to_json(with_result=True) for e in self.completed],
            "interrupted": [e.to_json(with_result=False) for e in self.interrupted],
        }


def classify(events: Iterable[LedgerEvent]) -> Journal:
    """Classify a turn's ledger events (in recording order).

    Linear in the number of events.  Open starts are kept as positions only, so that the
    one object allocated per call is its :class:`Entry` (a long turn's ledger is large,
    and the collector's work grows with what is allocated)."""
    ledger = events if isinstance(events, Sequence) else list(events)
    open_starts: dict[str, deque[int]] = {}
    completed: list[Entry] = []
    for position, event in enumerate(ledger):
        kind, tool = event.event, event.tool
        if kind == "tool_start" and tool is not None:
            queue = open_starts.get(tool)
            if queue is None:
                queue = open_starts[tool] = deque()
            queue.append(position)
        elif kind == "tool_done" and tool is not None:
            queue = open_starts.get(tool)
            if queue:
                start = _pair(queue, ledger, event.run)
                completed.append(Entry(tool, ledger[start].input, event.result, start))
        elif kind == "clear":
            open_starts.clear()
    # Dones mostly arrive in start order, so this sort is close to linear.
    completed.sort(key=attrgetter("seq"))
    left = sorted(position for queue in open_starts.values() for position in queue)
    interrupted = tuple(Entry(ledger[p].tool or "", ledger[p].input, None, p) for p in left)
    return Journal(tuple(completed), interrupted)


def closed_starts(ledger: Sequence[LedgerEvent]) -> dict[int, int]:
    """Which ``tool_start`` each ``tool_done`` closes, as ``{done position: start
    position}``, paired exactly as :func:`classify` pairs them (a done that closes nothing
    is left out).  Storage uses it to give a ``tool_done`` recorded without its input the
    input of its start."""
    open_starts: dict[str, deque[int]] = {}
    closed: dict[int, int] = {}
    for position, event in enumerate(ledger):
        kind, tool = event.event, event.tool
        if kind == "tool_start" and tool is not None:
            open_starts.setdefault(tool, deque()).append(position)
        elif kind == "tool_done" and tool is not None:
            queue = open_starts.get(tool)
            if queue:
                closed[position] = _pair(queue, ledger, event.run)
        elif kind == "clear":
            open_starts.clear()
    return closed


def _pair(queue: deque[int], ledger: Sequence[LedgerEvent], run: str | None) -> int:
    """The start a ``tool_done`` closes: the oldest open start of its tool (FIFO), taken
    from the done's own run when the ledger says which run each event belongs to.

    A call starts and returns within one run, so in a recorded ledger its start is always
    open in its run; an older start left open by an earlier, interrupted run is that
    run's unknown outcome and must stay interrupted, not be closed by a later call of
    the same tool.  Events without a run (a ledger handed to the journal probe) pair
    purely first in, first out.
    """
    if run is not None and ledger[queue[0]].run != run:
        for index, position in enumerate(queue):
            if ledger[position].run == run:
                del queue[index]
                return position
    return queue.popleft()


class Snapshot:
    """The journal as a resumed chunk saw it when it began (DR-3): completed entries are
    claimed by content, each at most once.

    ``claimed`` lists the positions of the entries consumed so far, so that the run which
    carries on a paused chunk can rebuild the same snapshot (:meth:`consume`).
    ``ledger_read`` is false for the snapshot of a chunk whose ledger read failed: it
    holds nothing, because nothing could be read, not because nothing happened."""

    #: whether the ledger this snapshot was taken from could be read
    ledger_read: bool = True

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.claimed: list[int] = []
        self._unclaimed: dict[str, deque[Entry]] = {}
        for entry in journal.completed:
            self.add(entry)
        self._interrupted = {entry.signature for entry in journal.interrupted}

    def key(self, tool: str, args: object) -> str:
        """What a re-dispatched write is matched to a completed entry by: its content
        address, the tool name and a signature of its input, not its position (DR-3 ¶4)."""
        return signature(tool, args)

    def add(self, entry: Entry) -> None:
        """Make a completed entry claimable (the snapshot holds only the prior chunks'
        completions, added once as it is taken: DR-3 ¶1)."""
        self._unclaimed.setdefault(self.key(entry.tool, entry.input), deque()).append(entry)

    def claim(self, tool: str, args: object) -> Entry | None:
        """The oldest unclaimed completed entry with this content, now consumed."""
        queue = self._unclaimed.get(self.key(tool, args))
        if not queue:
            return None
        entry = queue.popleft()
        self.claimed.append(entry.seq)
        return entry

    def consume(self, positions: Iterable[int]) -> None:
        """Mark the completed entries at ``positions`` as already claimed."""
        gone = set(positions) - set(self.claimed)
        for signature_, queue in self._unclaimed.items():
            kept = [entry for entry in queue if entry.seq not in gone]
            self.claimed += [entry.seq for entry in queue if entry.seq in gone]
            self._unclaimed[signature_] = deque(kept)

    def interrupted(self, tool: str, args: object) -> bool:
        """Whether an identical call was interrupted in a prior chunk."""
        return signature(tool, args) in self._interrupted
