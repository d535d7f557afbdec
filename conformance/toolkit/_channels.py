"""What an observation goes through, and the clause that governs it.

A check sees what a runtime did through some channel: the artifacts on the message rows,
the turn's result, a port of the tool node, the journal, the order a batch ran in.
When that channel is itself broken in the trace (the runtime never puts artifacts on its
messages, reports no ``executed`` port), what the check then sees is the channel's
failure, not the failure of the clause the check judges: it belongs to the clause that
governs the channel, whose own cases fail it.  So every check, vector and invariant
declares the channels its observation goes through (``through=``), and the engine holds
each failure to them: a failure observed in a trace where one of its channels does not
hold is *blocked* by that channel's clause, never charged to the case's own.  A channel
with no clause is an assumption the check makes of the trace's shape (the calls of a
batch ran one after another): where it does not hold, the case is untested, the
assumption named.

This is blame by construction: the same rule for every case and every runtime shape,
instead of a prerequisite each check remembers to state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace

__all__ = ["Channel", "ChannelBreak", "broken_channels"]

#: Why a channel does not hold in a trace (``None``: it holds).
Holds = Callable[[Scenario, Trace, Handshake], str | None]


@dataclass(frozen=True)
class Channel:
    """A way an observation is made: ``name`` in words ("the messages' artifacts"),
    ``clause`` the clause whose words make it hold (``None``: an assumption about the
    trace's shape, which no clause promises), and ``broken`` the test of a trace: why the
    channel does not hold there, or ``None``."""

    name: str
    clause: str | None
    broken: Holds
    #: the clauses whose failures it holds, in a case bound to several (empty: the
    #: failures of every clause of the case): what a vector observes of one clause
    #: through a channel, it may observe of another directly
    judged: tuple[str, ...] = ()

    def __hash__(self) -> int:
        return hash((self.name, self.clause, self.judged))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Channel) and (self.name, self.clause, self.judged) == (
            other.name,
            other.clause,
            other.judged,
        )

    def judging(self, *clauses: str) -> Channel:
        """The channel, holding only the failures charged to ``clauses`` (a case bound to
        several clauses observes only some of them through it)."""
        return replace(self, judged=tuple(clauses))

    def holds_failures_of(self, clauses: Iterable[str]) -> bool:
        """Whether a failure charged to ``clauses`` is held to this channel."""
        return not self.judged or any(clause in self.judged for clause in clauses)


@dataclass(frozen=True)
class ChannelBreak:
    """A channel that does not hold in a trace, and why."""

    channel: Channel
    why: str

    def reason(self) -> str:
        """The break in words, as an untested case says it: ``blocked by RT-TOOL-4 ¶1:
        the messages' artifacts do not hold in this trace: ...``, or for an assumption
        ``it assumes the calls of a batch ran in order, which this trace does not show:
        ...``."""
        from conformance.toolkit._outcomes import citation

        if self.channel.clause is None:
            return f"it assumes {self.channel.name}, which this trace does not show: {self.why}"
        return (
            f"blocked by {citation(self.channel.clause)}: it observes through "
            f"{self.channel.name}, which does not hold in this trace: {self.why}"
        )


def broken_channels(
    channels: Iterable[Channel],
    scenario: Scenario,
    trace: Trace,
    handshake: Handshake,
    *,
    judging: Iterable[str] = (),
) -> tuple[ChannelBreak, ...]:
    """The channels of ``channels`` that do not hold in ``trace``.  A channel governed by
    one of the clauses ``judging`` (the case's own) is left out: a case judging the
    clause that governs a channel is the one that fails it."""
    own = set(judging)
    found: list[ChannelBreak] = []
    for channel in channels:
        if channel.clause is not None and channel.clause in own:
            continue
        why = channel.broken(scenario, trace, handshake)
        if why:
            found.append(ChannelBreak(channel, why))
    return tuple(found)
