"""What an invariant is: a property every generated scenario's trace must have, the
clauses it judges, and the situation those clauses speak of.

A trace judged against an invariant proves something about its clauses only when the
situation they speak of occurred in it (a repeated identifier, a failed write-back, a
second pause): the search counts the examples that *exercised* each invariant beside
those it *judged*, and an invariant that no example exercised is reported untested.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.toolkit._channels import Channel

__all__ = ["Breach", "Invariant", "Situation", "Verdict", "Violation", "invariant"]


class Breach(str):
    """A one-line reason that also names the clauses whose words the counterexample
    breaks, among those its invariant is bound to.  The hunt charges the finding to
    those clauses alone: an invariant bound to RT-TOOL-8 ¶1–¶5 whose counterexample is
    an undecoded reference fails ¶4, and says nothing about ¶3.

    It is a ``str``, so that everything carrying a verdict's reason carries it unchanged.
    """

    clauses: tuple[str, ...]
    #: the channels this breach was seen through, where not the invariant's (``()``: read
    #: straight off the implementation's own report of what the clauses speak of, a port
    #: it does not report, say, and so never held to a channel)
    through: tuple[Channel, ...] | None

    def __new__(
        cls,
        message: str,
        clauses: tuple[str, ...],
        *,
        through: tuple[Channel, ...] | None = None,
    ) -> Breach:
        made = super().__new__(cls, message)
        made.clauses = tuple(clauses)
        made.through = through
        return made


#: ``None`` when the trace satisfies the invariant, else a one-line reason (a
#: :class:`Breach` where it can say which of the invariant's clauses it breaks).
Verdict = Callable[[Scenario, Trace, Handshake], str | None]
#: Whether the situation an invariant's clauses speak of occurred in the trace.
Situation = Callable[[Scenario, Trace, Handshake], bool]


class Violation(AssertionError):
    """An invariant does not hold; ``scenario`` and ``trace`` are the evidence."""

    invariant: str = ""

    def __init__(self, message: str, scenario: Scenario, trace: Trace) -> None:
        super().__init__(message)
        self.message = message
        self.scenario = scenario
        self.trace = trace


@dataclass(frozen=True)
class Invariant:
    """A named property, the clauses it enforces, the situation it needs to have been
    exercised, and what the handshake must offer for it to be judged at all."""

    name: str
    clauses: tuple[str, ...]
    judge: Verdict
    #: the situation in words, as a report says it: "a failed write-back"
    situation: str
    exercised: Situation
    needs: tuple[str, ...] = ()
    profile: str = "runtime"
    violation: type[Violation] = Violation
    #: its clauses speak of collected artifacts: not applicable to an implementation
    #: that declares it collects none (RT-TOOL-5 ¶1), as the clauses' checks say
    collecting: bool = False
    #: its place in the hunt's order: an example is held to the invariants by rank and
    #: the first broken is what it shows, so an invariant naming a cause ranks below those
    #: that only see its effect (artifacts moved under ``metadata`` are also "lost" from
    #: the messages, but the finding is no-metadata-leak's).  Ranks go in tens: the
    #: artifacts' invariants 10-160, the tool calls' 170-250, durable resume's 260-340
    rank: int = 0
    #: the channels its observations go through: an example whose trace breaks one of
    #: them is not judged against it (what it would see is that channel's failure)
    through: tuple[Channel, ...] = ()
    #: ``(file, line)`` of the :func:`invariant` call that declared it, for a reader
    #: walking from a clause to its code (``rttool rules show ID --cases``)
    declared_at: tuple[str, int] | None = field(default=None, compare=False)

    def not_applicable(self, handshake: Handshake) -> str | None:
        """Why the invariant does not bind the implementation, or ``None`` when it does."""
        if self.profile not in handshake.profiles:
            return f"profile {self.profile} not claimed"
        if self.collecting and not handshake.collects_artifacts:
            return "the implementation does not collect tool artifacts"
        return None


def invariant(
    name: str,
    clauses: tuple[str, ...],
    judge: Verdict,
    situation: str,
    exercised: Situation,
    *,
    needs: tuple[str, ...] = (),
    profile: str = "runtime",
    collecting: bool = False,
    rank: int = 0,
    through: tuple[Channel, ...] = (),
) -> Invariant:
    """An invariant whose violations have an exception type of their own, so that the
    search shrinks each invariant's failures apart from the others'.  It records where
    it was declared (the caller's file and line)."""
    violation = type(
        f"{name.title().replace('-', '')}Violated",
        (Violation,),
        {"invariant": name, "__module__": __name__},
    )
    here = inspect.currentframe()
    caller = here.f_back if here is not None else None
    declared = (caller.f_code.co_filename, caller.f_lineno) if caller is not None else None
    return Invariant(
        name,
        clauses,
        judge,
        situation,
        exercised,
        needs,
        profile,
        violation,
        collecting=collecting,
        rank=rank,
        through=through,
        declared_at=declared,
    )
