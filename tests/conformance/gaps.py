"""Small harnesses with one real gap each, made from the reference runtime (or one of
its mutants) by rewriting what it reports: a framework without RT-TOOL-10's ports, one
whose model seam gives every call an id of its own, one that states its bounds another
way.  Each reproduces what a real framework showed, so that a test can hold the suite
to charging the gap to the clause whose words it breaks, and to no other.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping

from adapters import Driver
from adapters.driver import Unsupported
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from adapters.trace import PassRecord, RunRecord, Trace
from tests.conformance._support import mutant_driver, reference_driver

__all__ = [
    "Rewritten",
    "generated_ids",
    "no_pass_without_calls",
    "reference",
    "without_ports",
]

RunRewrite = Callable[[RunRecord], RunRecord]


class Rewritten:
    """The reference runtime (or ``mutant``), its handshake replaced by ``handshake``
    and every run of every trace passed through ``rewrite``."""

    def __init__(
        self,
        rewrite: RunRewrite | None = None,
        *,
        mutant: str | None = None,
        handshake: Callable[[Handshake], Handshake] | None = None,
    ) -> None:
        self._driver: Driver = mutant_driver(mutant) if mutant else reference_driver()
        self._owned = mutant is not None
        self._rewrite = rewrite
        self._handshake = handshake

    def handshake(self) -> Handshake:
        found = self._driver.handshake()
        return self._handshake(found) if self._handshake else found

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        trace = self._driver.run(scenario)
        if isinstance(trace, Unsupported) or self._rewrite is None:
            return trace
        rewrite = self._rewrite
        steps = tuple(
            dataclasses.replace(step, runs=tuple(rewrite(run) for run in step.runs))
            for step in trace.steps
        )
        return dataclasses.replace(trace, steps=steps)

    def close(self) -> None:
        if self._owned:
            self._driver.close()


def reference(mutant: str | None = None) -> Rewritten:
    """The reference runtime (or a mutant), reported as it is."""
    return Rewritten(mutant=mutant)


def without_ports(*names: str) -> RunRewrite:
    """A framework whose tool step has none of the output ports ``names``: they are
    neither reported nor said to be exposed."""

    def strip(value: object) -> object:
        if not isinstance(value, Mapping):
            return value
        return {key: item for key, item in value.items() if key not in names}

    def rewrite(run: RunRecord) -> RunRecord:
        passes = tuple(
            dataclasses.replace(one, ports=strip(one.ports), exposed=strip(one.exposed))
            for one in run.passes
        )
        return dataclasses.replace(run, passes=passes)

    return rewrite


def generated_ids(*, marked: bool) -> RunRewrite:
    """A framework whose model seam gives every call the model sent without an id one of
    its own (``gen-1``, ``gen-2``...), on its result and its body's side effect, as most
    providers' wires do; ``marked`` reports it as generated (``generated_id``)."""
    numbers = itertools.count(1)

    def rewrite(run: RunRecord) -> RunRecord:
        made: list[str] = []

        def results(one: PassRecord) -> PassRecord:
            out = []
            for result in one.results:
                if result.tool_call_id is not None:
                    out.append(result)
                    continue
                made.append(f"gen-{next(numbers)}")
                out.append(
                    dataclasses.replace(
                        result, tool_call_id=made[-1], generated_id=True if marked else None
                    )
                )
            return dataclasses.replace(one, results=tuple(out))

        passes = tuple(results(one) for one in run.passes)
        given = iter(made)
        effects = tuple(
            {**effect, "tool_call_id": next(given, "gen-0")}
            if isinstance(effect, Mapping) and effect.get("tool_call_id") is None
            else effect
            for effect in run.side_effects
        )
        return dataclasses.replace(run, passes=passes, side_effects=effects)

    return rewrite


def _well_formed(call: object) -> bool:
    name = call.get("name") if isinstance(call, Mapping) else None
    return isinstance(name, str | int | float | bool) and str(name).strip() != ""


def no_pass_without_calls() -> RunRewrite:
    """A framework whose model seam cannot carry a malformed call (its message type has
    no room for a call that is not a map, or for a name that is not a string) and whose
    tool step never runs for a reply without calls: a batch of only malformed calls
    leaves no pass behind, as LangGraph's, PydanticAI's and ADK's harnesses showed."""

    def rewrite(run: RunRecord) -> RunRecord:
        passes = tuple(one for one in run.passes if any(_well_formed(c) for c in one.batch))
        return dataclasses.replace(run, passes=passes)

    return rewrite
