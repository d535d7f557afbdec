"""Examples as test vectors: every json example of a rule file is run.

Each rule's ``vectors`` module (``conformance/checks/<rule>/vectors.py``) says how its
examples run (its ``BINDINGS``) and at which stage each of its verdicts is observed (its
``STAGES``; the types are :class:`conformance.toolkit.Binding` and
:data:`conformance.toolkit.Stage`).  This module gathers them in the order of
:data:`conformance.checks.RULE_PACKAGES` and makes one case per vector.  Where an example
has no outcome block (RT-TOOL-8's third), the rule text decides the outcome
(docs/running-the-suite.md, "Examples as vectors").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Sequence

from adapters.errors import SuiteError
from conformance.cases import Case
from conformance.checks import rule_modules
from conformance.rules import Corpus, Example, Rule
from conformance.toolkit import Binding, CheckContext, Stage, VectorRun

__all__ = [
    "BINDINGS",
    "STAGES",
    "bound_pairs",
    "group_examples",
    "rule_vector_cases",
    "vector_cases",
]


def _gathered() -> tuple[dict[tuple[str, str], Stage], tuple[Binding, ...]]:
    stages: dict[tuple[str, str], Stage] = {}
    bindings: list[Binding] = []
    for module in rule_modules("vectors"):
        stages.update(module.STAGES)
        bindings += module.BINDINGS
    return stages, tuple(bindings)


#: (rule id, verdict) -> the stage its example is observed at; and every binding.
STAGES, BINDINGS = _gathered()


def bound_pairs() -> frozenset[tuple[str, str]]:
    """Every (rule, verdict) pair that has a stage (for the linter)."""
    return frozenset(STAGES)


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


def _runner(binding: Binding, run: VectorRun) -> Callable[[CheckContext], None]:
    return functools.partial(binding.run, run=run)  # type: ignore[call-arg]


def vector_cases(corpus: Corpus) -> list[Case]:
    """One case per vector of every rule; raises :class:`SuiteError` for an example that no
    binding can run (the linter reports the same)."""
    clause_ids = frozenset(clause.id for clause in corpus.clauses)
    return [case for rule in corpus.rules for case in rule_vector_cases(rule, clause_ids)]


def rule_vector_cases(rule: Rule, clause_ids: Collection[str]) -> list[Case]:
    """One case per vector of ``rule``, whose bindings may cite only ``clause_ids``;
    raises :class:`SuiteError` for an example that no binding can run."""
    by_shape = {(b.rule, b.verdicts): b for b in BINDINGS}
    cases: list[Case] = []
    grouped = group_examples(rule.examples)
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
            )
        )
    return cases
