"""How ``rttool selftest`` says what it planned, did and found: text or JSON, each a pure
function of the plan, of a progress event, or of the result."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from conformance._escape import printable
from conformance.cli import plural
from conformance.cli._output import Output, json_output, text
from conformance.cli._selftest_model import (
    SelftestEvent,
    SelftestPlan,
    SelftestResult,
    ShapesStarting,
    VariantsStarting,
)
from conformance.cli._selftest_shapes import (
    blame_findings,
    blame_json,
    blame_lines,
    shape_failure,
    shape_lines,
    shapes_json,
)

if TYPE_CHECKING:
    from conformance._variants import VariantResult
    from conformance.selftest import HuntVerdict, MutantResult

__all__ = ["RENDERERS", "SelftestRenderer", "failures", "unknown_names", "verdict_line"]

_FULL = "full mode: the whole suite once per mutant (CI runs the restricted mode)"
_RESTRICTED = (
    "restricted mode: each mutant against the cases of the rules it breaks "
    "(what CI runs; --full runs the whole suite once per mutant)"
)


@dataclass(frozen=True)
class SelftestRenderer:
    """One format's renderers: of the catalogues (``--list``), of the plan before it
    runs, of each progress event, and of the result."""

    listing: Callable[[SelftestPlan], Output]
    start: Callable[[SelftestPlan], Output]
    event: Callable[[SelftestEvent, SelftestPlan], Output]
    result: Callable[[SelftestResult], Output]


def unknown_names(names: Sequence[str]) -> Output:
    """The usage error of ``--only`` names no catalogue has."""
    return Output(
        err=f"rttool: error: no such mutant: {printable(', '.join(names))} "
        "(rttool selftest --list shows them)\n"
    )


def _listing_text(plan: SelftestPlan) -> Output:
    width = max(len(mutant.name) for mutant in plan.catalogue)
    lines = [
        f"{m.name:<{width}}  breaks {', '.join(m.breaks)}{'  (hunt only)' if m.hunt else ''}"
        for m in plan.catalogue
    ]
    lines += [f"{v.name:<{width}}  legal variant: reading {v.reading}" for v in plan.variants]
    return Output(text(lines))


def _start_text(plan: SelftestPlan) -> Output:
    mode = _FULL if plan.full else _RESTRICTED
    return Output(text([f"rttool: selftest of {plural(len(plan.mutants), 'mutant')}, {mode}"]))


def _event_text(event: SelftestEvent, plan: SelftestPlan) -> Output:
    from conformance._shapes import ShapeResult
    from conformance._variants import VariantResult

    if isinstance(event, VariantResult | ShapeResult):
        return Output()  # the variants and shapes are said together, with the result
    if isinstance(event, VariantsStarting):
        count = plural(event.count, "legal variant")
        said = f"rttool: {count}, each against every check, vector and a seeded hunt"
        return Output(text([said]))
    if isinstance(event, ShapesStarting):
        count = plural(event.count, "runtime shape")
        said = f"rttool: {count}, each judged off the standing of a whole run"
        return Output(text([said]))
    return Output(text([mutant_line(event, plan.width)]))


def _hunt_part(hunt: HuntVerdict) -> str:
    if hunt.counterexample_steps is None:
        return "  [hunt: NOT FOUND within its budget]"
    alone = hunt.hunt_only and hunt.checks_alone_caught
    return (
        f"  [hunt: {', '.join(hunt.invariants)} after {hunt.first_failure_examples} "
        f"examples ({hunt.first_failure_s} s), {hunt.counterexample_steps} steps"
        f"{'; CAUGHT BY THE CHECKS ALONE' if alone else ''}]"
    )


def mutant_line(result: MutantResult, width: int) -> str:
    """The line of one mutant: what it breaks, whether and by what it was caught."""
    breaks = ", ".join(result.breaks)
    by = ", ".join(result.caught_by) or "-"
    line = (
        f"  {result.name:<{width}}  breaks {breaks:<13}  "
        f"caught: {'yes' if result.caught else 'NO '}  by {by}"
    )
    if result.missed:
        line += f"  MISSED {', '.join(result.missed)}"
    if result.hunt is not None:
        line += _hunt_part(result.hunt)
    if result.error is not None:
        line += f"  error: {printable(result.error)}"
    return line


def _mutant_summary(result: SelftestResult) -> list[str]:
    survivors = [r.name for r in result.mutants if not r.caught]
    lines = [
        f"rttool: killed {result.killed} of {plural(len(result.mutants), 'mutant')} "
        f"in {result.seconds:.1f} s"
    ]
    if survivors:
        lines.append(f"rttool: surviving mutants: {', '.join(survivors)}")
    lines += [
        f"rttool: {r.name} breaks {', '.join(r.missed)}, but no case of "
        f"{'that clause' if len(r.missed) == 1 else 'those clauses'} caught it"
        for r in result.mutants
        if r.missed
    ]
    uncovered = result.uncovered
    if uncovered:
        lines.append(
            f"rttool: {len(uncovered)} clauses are broken by no mutant: {', '.join(uncovered)}"
        )
    else:
        lines.append("rttool: every clause of the corpus is broken by at least one mutant")
    return lines


def _proof_lines(result: SelftestResult) -> list[str]:
    """Whether every case and every hunt invariant was seen failing (known only when
    every mutant ran)."""
    partial = bool(result.plan.only)
    lines = []
    if result.unproven:
        cases = plural(len(result.unproven), "case")
        lines.append(f"rttool: {cases} failed against no mutant: {', '.join(result.unproven)}")
    elif not partial:
        lines.append("rttool: every check and example vector failed against at least one mutant")
    if result.quiet_invariants:
        quiet = result.quiet_invariants
        lines.append(
            f"rttool: {plural(len(quiet), 'hunt invariant')} found broken "
            f"against no mutant: {', '.join(quiet)}"
        )
    elif not partial:
        lines.append("rttool: every hunt invariant was found broken against at least one mutant")
    return lines


def _variant_lines(judged: Sequence[VariantResult], width: int) -> list[str]:
    """A line per variant, and each case that rejected one (its first message)."""
    lines = []
    for variant in judged:
        verdict = "yes" if variant.conforms else "NO "
        lines.append(
            f"  {variant.name:<{width}}  reading {variant.reading:<24}  conforms: {verdict}"
        )
        if variant.error is not None:
            lines.append(f"      {printable(variant.error)}")
        lines += [
            f"      rejected by {printable(case)}: {printable(message[:300])}"
            for case, message in variant.rejected_by
        ]
        if variant.unproven:
            lines.append(f"      no passing check or vector for {', '.join(variant.unproven)}")
    rejected = [v.name for v in judged if not v.conforms]
    if rejected:
        lines.append(f"rttool: legal variants the suite rejects: {', '.join(rejected)}")
    elif judged:
        lines.append(
            f"rttool: every legal variant conforms to every clause ({len(judged)} variants)"
        )
    return lines


def _unsound(hunt: HuntVerdict) -> str:
    """Why the hunt's verdict on a mutant it must find does not hold."""
    from conformance.selftest import MAX_COUNTEREXAMPLE_STEPS

    if hunt.hunt_only and hunt.checks_alone_caught:
        return "the checks alone caught it, so it is no combination bug"
    if hunt.counterexample_steps is None:
        return "the hunt did not find it within its count of examples"
    return (
        f"the hunt's shortest counterexample has {hunt.counterexample_steps} steps, more "
        f"than {MAX_COUNTEREXAMPLE_STEPS}"
    )


def _mutant_failure(result: MutantResult) -> str | None:
    """What is wrong with one mutant's result, or ``None``."""
    if result.error is not None:
        said = result.error
        why = said if said.startswith("no verdict") else f"could not be driven: {said}"
        return f"mutant {result.name}: {why}"
    if not result.caught:
        return f"mutant {result.name} survived: no case failed against it"
    if result.missed:
        return f"mutant {result.name} breaks {', '.join(result.missed)}, but no case of it failed"
    if result.hunt is not None and not result.hunt.sound:
        return f"mutant {result.name}: {_unsound(result.hunt)}"
    if result.misworded:
        said = result.misworded[0]
        return f"mutant {result.name} drew a failure not worded as a report line: {said}"
    return None


def _variant_failure(variant: VariantResult) -> str | None:
    """What is wrong with one variant's result, or ``None``."""
    if variant.error is not None:
        return f"legal variant {variant.name}: {variant.error}"
    if variant.rejected_by:
        case, message = variant.rejected_by[0]
        return f"legal variant {variant.name} rejected by {case}: {message[:200]}"
    if variant.unproven:
        return f"legal variant {variant.name}: no passing check or vector for {variant.unproven[0]}"
    return None


def failures(result: SelftestResult) -> list[str]:
    """Every way the self-test failed, each in a few words naming the mutant, variant,
    clause, case or invariant and why: mutants, then variants, then what no mutant
    proved."""
    found = [why for r in result.mutants if (why := _mutant_failure(r)) is not None]
    found += [why for v in result.variants if (why := _variant_failure(v)) is not None]
    found += [why for s in result.shapes if (why := shape_failure(s)) is not None]
    found += [line.removeprefix("blame: ") for line in blame_findings(result.blame)]
    return found + _unproven(result)


def _unproven(result: SelftestResult) -> list[str]:
    """The first clause, case and invariant no mutant proved, each in a few words."""
    found = []
    if result.uncovered:
        found.append(f"clause {result.uncovered[0]} is broken by no mutant")
    if result.unproven:
        found.append(f"case {result.unproven[0]} failed against no mutant")
    if result.quiet_invariants:
        found.append(f"hunt invariant {result.quiet_invariants[0]} was broken by no mutant")
    return found


def verdict_line(result: SelftestResult) -> str:
    """The self-test's last line: passed, or the first thing that failed and why."""
    found = failures(result)
    if not found:
        return (
            f"rttool: selftest passed: {plural(len(result.mutants), 'mutant')} caught by "
            f"their own clauses, {plural(len(result.variants), 'legal variant')} conforming, "
            f"{plural(len(result.shapes), 'runtime shape')} judged as the rule text says"
        )
    more = f" (and {len(found) - 1} more, above)" if len(found) > 1 else ""
    return f"rttool: selftest FAILED: {printable(found[0])}{more}"


def _result_text(result: SelftestResult) -> Output:
    lines = _mutant_summary(result) + _proof_lines(result)
    lines += _variant_lines(result.variants, result.plan.width)
    lines += shape_lines(result.shapes, result.plan.width)
    lines += blame_lines(result.blame)
    return Output(text([*lines, verdict_line(result)]))


def _listing_json(plan: SelftestPlan) -> Output:
    return json_output(
        {
            "mutants": [dataclasses.asdict(mutant) for mutant in plan.catalogue],
            "variants": [dataclasses.asdict(variant) for variant in plan.variants],
        },
        ascii_only=True,
    )


def _result_json(result: SelftestResult) -> Output:
    return json_output(
        {
            "mutants": [r.to_json() for r in result.mutants],
            "killed": result.killed,
            "total": len(result.mutants),
            "uncovered": list(result.uncovered),
            "unproven": list(result.unproven),
            "unproven_invariants": list(result.quiet_invariants),
            "variants": [v.to_json() for v in result.variants],
            "shapes": shapes_json(result.shapes),
            "blame": blame_json(result.blame),
        },
        ascii_only=True,
    )


def _nothing(*_: object) -> Output:
    return Output()


RENDERERS: dict[str, SelftestRenderer] = {
    "text": SelftestRenderer(_listing_text, _start_text, _event_text, _result_text),
    "json": SelftestRenderer(_listing_json, _nothing, _nothing, _result_json),
}
