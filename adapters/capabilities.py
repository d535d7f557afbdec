"""Which handshake capabilities a scenario needs, derived from the scenario itself."""

from __future__ import annotations

from adapters.handshake import Capabilities
from adapters.scenario import (
    UNENCODABLE,
    Approve,
    ClassifyLedger,
    Decline,
    EmitLateArtifact,
    FailLedgerRead,
    FailWriteBack,
    Interrupt,
    Restart,
    Scenario,
    StartTurn,
    Wait,
)

__all__ = ["missing_capability", "needed_capabilities"]


def _mentions_unencodable(value: object) -> bool:
    if value == UNENCODABLE:
        return True
    if isinstance(value, dict):
        return any(_mentions_unencodable(item) for item in value.values())
    if isinstance(value, list | tuple):
        return any(_mentions_unencodable(item) for item in value)
    return False


def needed_capabilities(scenario: Scenario) -> list[str]:
    """Every capability ``scenario`` needs, named as ``name`` or ``name:value``."""
    needs: list[str] = []
    if scenario.bounds is not None:
        needs.append("configurable_bounds")
    # An exposure choice the harness does not apply is no choice: the node's (``expose``)
    # and a tool's (an ``artifacts`` port the author exposed) alike.
    if (scenario.node is not None and scenario.node.expose) or any(
        tool.expose_artifacts_port for tool in scenario.tools
    ):
        needs.append("port_exposure")
    if any(tool.gate for tool in scenario.tools):
        needs.append("gates")
    if any(_mentions_unencodable(ret.output) for tool in scenario.tools for ret in tool.returns):
        needs.append("unencodable_payloads")
    for step in scenario.steps:
        match step:
            case Restart():
                needs.append("restart")
            case FailWriteBack():
                needs.append("write_back_failure")
            case Interrupt(point=point, cause=cause):
                needs += [f"interrupt_points:{point}", f"interrupt_causes:{cause}"]
            case FailLedgerRead():
                needs.append("ledger_read_failure")
            case ClassifyLedger():
                needs.append("journal_probe")
            case Approve() | Decline():
                needs.append("gates")
            case StartTurn(entry_point=entry_point):
                needs.append(f"entry_points:{entry_point}")
            case EmitLateArtifact():
                needs.append("late_artifacts")
            case Wait(clients=clients) if clients > 1:
                needs.append("concurrent_clients")
            case _:
                pass
    return list(dict.fromkeys(needs))


def missing_capability(capabilities: Capabilities, needs: list[str]) -> str | None:
    """The first of ``needs`` that ``capabilities`` does not offer, or ``None``."""
    for need in needs:
        name, _, value = need.partition(":")
        offered = getattr(capabilities, name, None)
        if value:
            if not isinstance(offered, tuple) or value not in offered:
                return need
        elif offered is not True:
            return need
    return None
