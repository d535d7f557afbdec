"""What a call's node did, read from the scenario: the n-th executed call of a tool
plays the n-th of the tool's scripted returns (the last repeating), whatever the
implementation made of it.  The situations of the rules that speak of a node's
artifacts (RT-TOOL-1 to RT-TOOL-4) read the circumstance this way, never the verdict."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from adapters.scenario import Return, Scenario
from adapters.trace import PassRecord, RunRecord, ToolResultRecord, Trace
from conformance.toolkit._results import kept_entry

__all__ = ["NodeOutput", "node_outputs"]


@dataclass(frozen=True)
class NodeOutput:
    """One executed call: its run, its pass, its result, and what its tool's node did on
    that invocation (``returned``)."""

    run: RunRecord
    one: PassRecord
    result: ToolResultRecord
    returned: Return

    @property
    def has_reserved_key(self) -> bool:
        """The node's output carries the reserved ``artifacts`` key."""
        return isinstance(self.returned.output, Mapping) and "artifacts" in self.returned.output

    @property
    def entries(self) -> list[object]:
        """The entries on the reserved key (``[]`` when it holds no list)."""
        output = self.returned.output
        found = output.get("artifacts") if isinstance(output, Mapping) else None
        return list(found) if isinstance(found, list) else []

    @property
    def failed(self) -> bool:
        """The invocation was a failure (whatever the node emitted before it)."""
        return self.returned.fail is not None

    @property
    def attached(self) -> list[object]:
        """The entries a successful call attaches (RT-TOOL-2 ¶3's kept entries)."""
        return [] if self.failed else [entry for entry in self.entries if kept_entry(entry)]


def node_outputs(scenario: Scenario, trace: Trace) -> Iterator[NodeOutput]:
    """Every executed call of ``trace``, with what its tool's node did: the n-th executed
    call of a tool plays the n-th of the tool's scripted returns, the last repeating."""
    tools = {tool.name: tool for tool in scenario.tools}
    played: dict[str, int] = {}
    for run, one in trace.passes():
        for result in one.results:
            if result.disposition != "executed" or not isinstance(result.tool, str):
                continue
            tool = tools.get(result.tool)
            if tool is None or not tool.returns:
                continue
            count = played.get(tool.name, 0)
            played[tool.name] = count + 1
            yield NodeOutput(run, one, result, tool.returns[min(count, len(tool.returns) - 1)])
