"""Examples as test vectors: every json example of a rule file is run.

See :mod:`conformance.vectors._binding` for how verdicts map to stages.  Where an example
has no outcome block (RT-TOOL-8's third), the rule text decides the outcome
(docs/running-the-suite.md, "Examples as vectors").
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from adapters.errors import SuiteError
from conformance.cases import Case
from conformance.checks import CheckContext
from conformance.rules import Corpus
from conformance.vectors._binding import STAGES, Binding, VectorRun, group_examples
from conformance.vectors._dr import DR_BINDINGS
from conformance.vectors._rt import RT_BINDINGS

__all__ = ["BINDINGS", "STAGES", "Binding", "VectorRun", "bound_pairs", "vector_cases"]

BINDINGS: tuple[Binding, ...] = (*RT_BINDINGS, *DR_BINDINGS)


def bound_pairs() -> frozenset[tuple[str, str]]:
    """Every (rule, verdict) pair that has a stage (for the linter)."""
    return frozenset(STAGES)


def _runner(binding: Binding, run: VectorRun) -> Callable[[CheckContext], None]:
    return functools.partial(binding.run, run=run)  # type: ignore[call-arg]


def vector_cases(corpus: Corpus) -> list[Case]:
    """One case per vector of every rule; raises :class:`SuiteError` for an example that no
    binding can run (the linter reports the same)."""
    by_shape = {(b.rule, b.verdicts): b for b in BINDINGS}
    cases: list[Case] = []
    clause_ids = {clause.id for clause in corpus.clauses}
    for rule in corpus.rules:
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
