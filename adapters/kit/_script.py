"""The scenario's script, played: the model's replies in order, each tool's returns.

Every harness plays the same script, whatever its runtime: the model's replies are
consumed in order across the whole scenario (``{"text": "Done."}`` once they run out),
and each tool's successive invocations take its ``returns`` in order, the last one
repeating.  The runtime-specific part is only where these are plugged in: the
runtime's own model seam and its own tool bodies.
"""

from __future__ import annotations

from adapters.scenario import Reply, Return, Scenario, Tool

__all__ = ["DONE", "Script"]

#: What the model answers once the scenario's replies have run out.
DONE = Reply(text="Done.")


class Script:
    """One scenario's model and tools, played in order."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self._replies = list(scenario.model)
        self._tools = {tool.name: tool for tool in scenario.tools}
        self._invocations: dict[str, int] = {}

    def next_reply(self) -> Reply:
        """The model's next reply (``DONE`` once the script has run out)."""
        return self._replies.pop(0) if self._replies else DONE

    @property
    def replies_left(self) -> int:
        """How many scripted replies have not been played yet."""
        return len(self._replies)

    def tool(self, name: object) -> Tool | None:
        """The tool wired under ``name`` (``None``: no such tool)."""
        return self._tools.get(name) if isinstance(name, str) else None

    @property
    def tools(self) -> tuple[Tool, ...]:
        """Every tool of the scenario, in order."""
        return self.scenario.tools

    def invoke(self, name: str) -> Return:
        """What the next invocation of tool ``name``'s body does (counted as one run).

        Raises ``KeyError`` for a tool the scenario does not wire: asking is the
        harness's mistake, since an unknown tool never has a body to run.
        """
        tool = self._tools[name]
        count = self._invocations[name] = self._invocations.get(name, 0) + 1
        return tool.returns[min(count, len(tool.returns)) - 1]

    def invocations(self, name: str) -> int:
        """How many times tool ``name``'s body has run."""
        return self._invocations.get(name, 0)
