"""How examples become vectors.

Each verdict of a rule names the stage at which its example's value is observed.  A
*whole* example is a vector on its own (its value says both what goes in and what comes
out); an *input* example starts a vector and the *outcome* examples after it complete
it.  A binding runs one shape of vector: ``(rule, verdicts)``.  Adding an example with
verdicts a rule already binds adds a test without touching code; an example whose
verdict has no stage here is a lint error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from conformance.checks import CheckContext
from conformance.rules import Example

__all__ = ["STAGES", "Binding", "Stage", "VectorRun", "group_examples"]

Stage = Literal["whole", "input", "outcome"]

#: (rule id, verdict) -> the stage its example is observed at.
STAGES: dict[tuple[str, str], Stage] = {
    ("RT-TOOL-1", "plain"): "whole",
    ("RT-TOOL-1", "attached"): "whole",
    ("RT-TOOL-2", "mixed"): "input",
    ("RT-TOOL-2", "lifted"): "outcome",
    ("RT-TOOL-3", "produced"): "input",
    ("RT-TOOL-3", "surfaced"): "outcome",
    ("RT-TOOL-4", "produced"): "input",
    ("RT-TOOL-4", "reported"): "outcome",
    ("RT-TOOL-5", "produced"): "input",
    ("RT-TOOL-5", "dropped"): "outcome",
    ("RT-TOOL-6", "kept"): "whole",
    ("RT-TOOL-7", "held"): "whole",
    ("RT-TOOL-8", "sent"): "input",
    ("RT-TOOL-8", "decoded"): "outcome",
    ("RT-TOOL-9", "skipped"): "input",
    ("RT-TOOL-9", "recorded"): "outcome",
    ("RT-TOOL-9", "resumed"): "input",
    ("RT-TOOL-9", "mixed"): "outcome",
    ("RT-TOOL-10", "resent"): "input",
    ("RT-TOOL-10", "idle"): "outcome",
    ("RT-TOOL-10", "sent"): "input",
    ("RT-TOOL-10", "active"): "outcome",
    ("DR-1", "ledger"): "input",
    ("DR-1", "journal"): "outcome",
    ("DR-2", "journaled"): "input",
    ("DR-2", "noted"): "outcome",
    ("DR-2", "bare"): "outcome",
    ("DR-3", "completed"): "input",
    ("DR-3", "redispatched"): "input",
    ("DR-3", "ran"): "outcome",
    ("DR-5", "cut"): "input",
    ("DR-5", "capped"): "outcome",
}


@dataclass(frozen=True)
class VectorRun:
    """The examples of one vector, in page order."""

    examples: tuple[Example, ...]

    @property
    def verdicts(self) -> tuple[str, ...]:
        """The examples' verdicts, in order."""
        return tuple(example.verdict for example in self.examples)

    def value(self, verdict: str) -> object:
        """The JSON value of the first example with ``verdict``."""
        return next(e.value for e in self.examples if e.verdict == verdict)

    def has(self, verdict: str) -> bool:
        """Whether an example with ``verdict`` is part of the vector."""
        return verdict in self.verdicts


@dataclass(frozen=True)
class Binding:
    """Runs the vectors of one rule whose verdicts are ``verdicts`` (in page order)."""

    rule: str
    verdicts: tuple[str, ...]
    clauses: tuple[str, ...]
    run: Callable[[CheckContext, VectorRun], None]


def group_examples(examples: Sequence[Example]) -> list[VectorRun] | str:
    """The vectors of one rule's examples, or a message naming the first problem."""
    groups: list[list[Example]] = []
    open_group: list[Example] | None = None
    for example in examples:
        stage = STAGES.get((example.rule_id, example.verdict))
        if stage is None:
            return (
                f"{example.rule_id} example {example.index}: verdict {example.verdict!r} "
                "has no stage"
            )
        if stage == "whole":
            groups.append([example])
            open_group = None
        elif stage == "input":
            if open_group is None or any(
                STAGES.get((e.rule_id, e.verdict)) == "outcome" for e in open_group
            ):
                open_group = [example]
                groups.append(open_group)
            else:
                open_group.append(example)
        else:
            if open_group is None:
                return (
                    f"{example.rule_id} example {example.index}: an outcome "
                    f"({example.verdict!r}) with no input before it"
                )
            open_group.append(example)
    return [VectorRun(tuple(group)) for group in groups]
