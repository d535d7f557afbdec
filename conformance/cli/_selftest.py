"""``rttool selftest``: every mutant of the reference runtime must be caught by the checks
of the clauses it breaks, and every legal variant of it must conform to every clause.

By default each mutant runs against the cases of the rules it breaks only (the mode CI
uses: the full mode costs the whole suite once per mutant); ``--full`` runs every case.
Exit codes: 0 every mutant is killed, each claimed clause by its own cases, every clause
of the corpus is broken by some mutant, and every variant conforms; 1 otherwise; 2 a
usage error; 3 the catalogue could not be read.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance._variants import VariantResult
    from conformance.selftest import MutantResult

from conformance.cli import plural

__all__ = ["configure"]


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``rttool selftest``."""
    from conformance._arguments import positive_float

    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (default: a line per mutant as it finishes) or json",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="run every case against every mutant, not only the cases of "
        "the rules it breaks (N times the cost of the suite)",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        action="extend",
        default=[],
        metavar="NAME",
        help="run only these mutants and variants",
    )
    parser.add_argument(
        "--no-variants",
        action="store_true",
        help="leave out the legal variants (which must each conform to every clause)",
    )
    parser.add_argument(
        "--list", action="store_true", help="list the mutants and the clauses they break, and stop"
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=30.0,
        metavar="S",
        help="per-request timeout for the harness (default 30)",
    )
    parser.set_defaults(handler=selftest)


def selftest(args: argparse.Namespace) -> int:
    """Run the self-test and report it; returns the exit code."""
    from conformance import _variants
    from conformance import selftest as engine
    from conformance._escape import printable
    from conformance.cli import EXIT_FINDING, EXIT_OK, EXIT_USAGE
    from conformance.rules import load_corpus

    catalogue = engine.read_catalogue()
    variants = () if args.no_variants else _variants.read_variants()
    known = {mutant.name for mutant in catalogue} | {variant.name for variant in variants}
    unknown = [name for name in args.only if name not in known]
    if unknown:
        sys.stderr.write(
            f"rttool: error: no such mutant: {printable(', '.join(unknown))} "
            "(rttool selftest --list shows them)\n"
        )
        return EXIT_USAGE
    if args.list:
        width = max(len(m.name) for m in catalogue)
        for mutant in catalogue:
            kind = "  (hunt only)" if mutant.hunt else ""
            print(f"{mutant.name:<{width}}  breaks {', '.join(mutant.breaks)}{kind}")
        for variant in variants:
            print(f"{variant.name:<{width}}  legal variant: reading {variant.reading}")
        return EXIT_OK
    chosen = [m for m in catalogue if not args.only or m.name in args.only]
    chosen_variants = [v for v in variants if not args.only or v.name in args.only]
    corpus = load_corpus()
    cases = engine.suite_cases(corpus)
    uncovered = engine.uncovered_clauses(corpus, catalogue)
    text = args.format == "text"
    names = [m.name for m in chosen] + [v.name for v in chosen_variants]
    width = max((len(name) for name in names), default=1)
    if text:
        n = len(chosen)
        mode = (
            "full mode: the whole suite once per mutant (CI runs the restricted mode)"
            if args.full
            else "restricted mode: each mutant against the cases of the rules it breaks "
            "(what CI runs; --full runs the whole suite once per mutant)"
        )
        print(f"rttool: selftest of {plural(n, 'mutant')}, {mode}", flush=True)
    started = time.perf_counter()
    results: list[MutantResult] = []
    for result in engine.run_mutants(chosen, corpus, cases, full=args.full, timeout=args.timeout):
        results.append(result)
        if text:
            print(_line(result, width), flush=True)
    killed = sum(1 for r in results if r.caught)
    # Whether every case was seen failing is only known when every mutant ran.
    unproven = () if args.only else engine.unproven_cases(cases, results)
    quiet_invariants = () if args.only else engine.unproven_invariants(results)
    if text and chosen_variants:
        print(
            f"rttool: {plural(len(chosen_variants), 'legal variant')}, each against every "
            "check, vector and a seeded hunt",
            flush=True,
        )
    judged = _variants.run_variants(chosen_variants, timeout=args.timeout, suite=(corpus, cases))
    if text:
        _summary(results, killed, uncovered, time.perf_counter() - started)
        if unproven:
            print(
                f"rttool: {plural(len(unproven), 'case')} failed against no mutant: "
                f"{', '.join(unproven)}"
            )
        elif not args.only:
            print("rttool: every check and example vector failed against at least one mutant")
        if quiet_invariants:
            print(
                f"rttool: {plural(len(quiet_invariants), 'hunt invariant')} found broken "
                f"against no mutant: {', '.join(quiet_invariants)}"
            )
        elif not args.only:
            print("rttool: every hunt invariant was found broken against at least one mutant")
        _variant_lines(judged, width)
    else:
        print(
            json.dumps(
                {
                    "mutants": [r.to_json() for r in results],
                    "killed": killed,
                    "total": len(results),
                    "uncovered": list(uncovered),
                    "unproven": list(unproven),
                    "unproven_invariants": list(quiet_invariants),
                    "variants": [v.to_json() for v in judged],
                },
                indent=2,
            )
        )
    clean = (
        not uncovered
        and not unproven
        and not quiet_invariants
        and all(r.clean for r in results)
        and all(v.conforms for v in judged)
    )
    return EXIT_OK if clean else EXIT_FINDING


def _line(result: MutantResult, width: int) -> str:
    from conformance._escape import printable

    breaks = ", ".join(result.breaks)
    by = ", ".join(result.caught_by) or "-"
    line = (
        f"  {result.name:<{width}}  breaks {breaks:<13}  "
        f"caught: {'yes' if result.caught else 'NO '}  by {by}"
    )
    if result.missed:
        line += f"  MISSED {', '.join(result.missed)}"
    if result.hunt is not None:
        hunt = result.hunt
        alone = hunt.hunt_only and hunt.checks_alone_caught
        if hunt.counterexample_steps is None:
            line += "  [hunt: NOT FOUND within its budget]"
        else:
            line += (
                f"  [hunt: {', '.join(hunt.invariants)} after {hunt.first_failure_examples} "
                f"examples ({hunt.first_failure_s} s), {hunt.counterexample_steps} steps"
                f"{'; CAUGHT BY THE CHECKS ALONE' if alone else ''}]"
            )
    if result.error is not None:
        line += f"  error: {printable(result.error)}"
    return line


def _variant_lines(judged: list[VariantResult], width: int) -> None:
    """A line per variant, and each case that rejected one (its first message)."""
    from conformance._escape import printable

    for variant in judged:
        verdict = "yes" if variant.conforms else "NO "
        print(f"  {variant.name:<{width}}  reading {variant.reading:<24}  conforms: {verdict}")
        if variant.error is not None:
            print(f"      could not be driven: {printable(variant.error)}")
        for case, message in variant.rejected_by:
            print(f"      rejected by {printable(case)}: {printable(message[:300])}")
        if variant.unproven:
            print(f"      no passing check or vector for {', '.join(variant.unproven)}")
    rejected = [v.name for v in judged if not v.conforms]
    if rejected:
        print(f"rttool: legal variants the suite rejects: {', '.join(rejected)}")
    elif judged:
        print(f"rttool: every legal variant conforms to every clause ({len(judged)} variants)")


def _summary(
    results: list[MutantResult], killed: int, uncovered: tuple[str, ...], seconds: float
) -> None:
    survivors = [r.name for r in results if not r.caught]
    missed = [r for r in results if r.missed]
    print(f"rttool: killed {killed} of {plural(len(results), 'mutant')} in {seconds:.1f} s")
    if survivors:
        print(f"rttool: surviving mutants: {', '.join(survivors)}")
    for result in missed:
        print(
            f"rttool: {result.name} breaks {', '.join(result.missed)}, but no case of "
            f"{'that clause' if len(result.missed) == 1 else 'those clauses'} caught it"
        )
    if uncovered:
        print(f"rttool: {len(uncovered)} clauses are broken by no mutant: {', '.join(uncovered)}")
    else:
        print("rttool: every clause of the corpus is broken by at least one mutant")
