"""Examples as test vectors: every json example of a rule file is run.

Each rule package says how its examples run (``vectors.BINDINGS``) and at which stage
each of its verdicts is observed (``vectors.STAGES``; the types are
:class:`~conformance.toolkit.machinery.Binding` and
:data:`~conformance.toolkit.machinery.Stage`).  A *whole* example is a vector on its own;
an *input* example starts one and the *outcome* examples after it complete it.  Where an
example has no outcome block (RT-TOOL-8's third), the rule text decides the outcome
(docs/running-the-suite.md, "Examples as vectors").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping, Sequence

from adapters.errors import SuiteError
from conformance.engine._case import Case
from conformance.rules import Example, Rule
from conformance.toolkit.machinery import Binding, CheckContext, Stage, VectorRun

__all__ = ["group_examples", "rule_vector_cases"]


def group_examples(
    examples: Sequence[Example], stages: Mapping[tuple[str, str], Stage]
) -> list[VectorRun] | str:
    """The vectors of one rule's examples, or a message naming the first problem."""
    groups: list[list[Example]] = []
    open_group: list[Example] | None = None
    for example in examples:
        stage = stages.get((example.rule_id, example.verdict))
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
                stages.get((e.rule_id, e.verdict)) == "outcome" for e in open_group
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


def _runner(binding: Binding, run: VectorRun) -> Callable[[CheckContext], None]:
    return functools.partial(binding.run, run=run)  # type: ignore[call-arg]


def rule_vector_cases(
    rule: Rule,
    bindings: Sequence[Binding],
    stages: Mapping[tuple[str, str], Stage],
    clause_ids: Collection[str],
) -> list[Case]:
    """One case per vector of ``rule``, run by ``bindings``, whose clauses must be among
    ``clause_ids``; raises :class:`SuiteError` for an example that no binding can run."""
    by_shape = {(b.rule, b.verdicts): b for b in bindings}
    cases: list[Case] = []
    grouped = group_examples(rule.examples, stages)
    if isinstance(grouped, str):
        raise SuiteError("an example cannot be run as a vector", problem=grouped)
    for run in grouped:
        binding = by_shape.get((rule.id, run.verdicts))
        first = run.examples[0]
        if binding is None:
            raise SuiteError(
                "no vector binding for these verdicts",
                rule=rule.id,
                verdicts="+".join(run.verdicts),
                line=first.line,
            )
        missing = [c for c in binding.clauses if c not in clause_ids]
        if missing:
            raise SuiteError(
                "a vector binding cites a clause that does not exist",
                rule=rule.id,
                clause=missing[0],
            )
        shape = "-".join(run.verdicts)
        cases.append(
            Case(
                id=f"{first.id}/{shape}",
                kind="vector",
                name=f"example-{first.id.split('#')[1]}-{shape}",
                clauses=binding.clauses,
                summary=first.title,
                run=_runner(binding, run),
                through=binding.through,
            )
        )
    return cases
