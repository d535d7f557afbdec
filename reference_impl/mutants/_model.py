"""What a mutant is, the short-hands the catalogue modules build them with, and what
several of them look up about the pass they break."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reference_impl import records
from reference_impl.artifacts import ArtifactPolicy, Collector
from reference_impl.behaviour import Behaviour, Components
from reference_impl.normalize import Normalizer
from reference_impl.passes import PassContext, ToolNode
from reference_impl.records import TurnRow
from reference_impl.runtime import UNFINISHED
from reference_impl.wire import Wire

__all__ = [
    "Mutant",
    "run_cause",
    "unfinished_turn_before",
    "with_behaviour",
    "with_collector",
    "with_node",
    "with_wire",
]


@dataclass(frozen=True)
class Mutant:
    """A deliberately broken variant of the reference runtime.

    ``breaks`` are the clause ids (``RT-TOOL-7#c4``) whose checks must catch it;
    ``build`` makes a fresh set of components each time, so that no state a mutant keeps
    (a count in memory, say) leaks from one harness into another.
    """

    name: str
    breaks: tuple[str, ...]
    description: str
    build: Callable[[], Components]
    #: shows only after a combination of events: the hunt must find it, the
    #: hand-written checks miss it
    hunt: bool = False
    #: the hunt must find it too (its checks may or may not): it proves an invariant,
    #: and every invariant has one, so that each is seen failing against a broken
    #: runtime; said where the mutant is declared, in its catalogue module
    hunted: bool = False

    def listing(self) -> str:
        """Its line of ``--list`` after its name: the clauses it breaks, what it does."""
        return f"{' '.join(self.breaks):<13}  {self.description}"

    def to_json(self) -> dict[str, object]:
        """``{"name", "breaks", "description", "hunt", "hunted"}``, as ``--list --format
        json`` prints it."""
        return {
            "name": self.name,
            "breaks": list(self.breaks),
            "description": self.description,
            "hunt": self.hunt,
            "hunted": self.hunted,
        }


def with_behaviour(cls: type[Behaviour]) -> Callable[[], Components]:
    """Components whose behaviour is a fresh ``cls``."""
    return lambda: Components(behaviour=cls())


def with_node(
    cls: type[ToolNode] = ToolNode,
    *,
    policy: Callable[[], ArtifactPolicy] | None = None,
    normalizer: Callable[[], Normalizer] | None = None,
) -> Callable[[], Components]:
    """Components whose tool node is a fresh ``cls`` (with its own policy or normalizer)."""
    return lambda: Components(
        node=cls(
            policy=None if policy is None else policy(),
            normalizer=None if normalizer is None else normalizer(),
        )
    )


def with_wire(cls: type[Wire]) -> Callable[[], Components]:
    """Components whose wire is a fresh ``cls``."""
    return lambda: Components(wire=cls())


def with_collector(cls: type[Collector]) -> Callable[[], Components]:
    """Components whose runtimes build their collectors from ``cls``."""
    return lambda: Components(collector_class=cls)


def run_cause(ctx: PassContext) -> str | None:
    """The cause of the run the pass belongs to (``start``, ``continue``, ``decline``...)."""
    runs = records.list_runs(ctx.store.read(), ctx.turn_id)
    return next((run.cause for run in runs if run.id == ctx.run_id), None)


def unfinished_turn_before(ctx: PassContext) -> TurnRow | None:
    """The turn before the pass's own in its conversation, when that one is unfinished."""
    conn = ctx.store.read()
    turns = [t.id for t in records.list_turns(conn, ctx.conversation_id)]
    index = turns.index(ctx.turn_id) if ctx.turn_id in turns else 0
    previous = records.get_turn(conn, turns[index - 1]) if index > 0 else None
    return previous if previous is not None and previous.status in UNFINISHED else None
