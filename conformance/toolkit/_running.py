"""Running a scenario from a check, and reading a pass's ports."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from adapters.scenario import Bounds, Reply, StartTurn, Step, Tool
from adapters.trace import PassRecord, Trace
from conformance.toolkit._context import CheckContext
from conformance.toolkit._json import mapping
from conformance.toolkit._scenarios import scenario

__all__ = ["has_port", "one_turn", "port", "ports"]


def one_turn(
    ctx: CheckContext,
    name: str,
    *,
    tools: Iterable[Tool],
    model: Iterable[Reply],
    steps: Sequence[Step] | None = None,
    expose: Mapping[str, bool] | None = None,
    bounds: Bounds | None = None,
) -> Trace:
    """Run a scenario that, by default, starts one turn ``t1``."""
    return ctx.run(
        scenario(
            name,
            tools=tools,
            model=model,
            expose=expose,
            bounds=bounds,
            steps=steps if steps is not None else [StartTurn("t1")],
        )
    )


def ports(one: PassRecord) -> Mapping[str, object]:
    """A pass's port values."""
    return mapping(one.ports)


def port(one: PassRecord, name: str) -> object:
    """One port's value (``None`` when the implementation did not report it)."""
    return ports(one).get(name)


def has_port(trace: Trace, name: str) -> bool:
    """Whether any pass of ``trace`` has the output port ``name``: reports a value for it,
    or says whether it is exposed.  A port that no pass has does not exist, which is the
    failure of the clause that provides it, and blocks every case that reads it."""
    return any(name in ports(one) or name in mapping(one.exposed) for _, one in trace.passes())
