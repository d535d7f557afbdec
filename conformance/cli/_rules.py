"""``rttool rules``: lint, list, show, import and compare the rule corpus.

Each action computes the rule layer's own result (a lint report, the corpus, a rule
with its cases, the pages written, the comparison with upstream) and renders it with a
function of this module, in text or (``list``, ``show``) JSON.  Exit codes follow the
CLI's: 0 clean (warnings allowed), 1 a finding (a lint error, a difference from
upstream), 2 a usage or corpus error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from conformance.cli import plural
from conformance.cli._output import Output, emit, json_output, text

if TYPE_CHECKING:
    from conformance.coverage import BoundCase
    from conformance.rules import Comparison, Corpus, LintReport, Rule, UpstreamCheckout

__all__ = [
    "ClauseCases",
    "compared_text",
    "configure",
    "lint_output",
    "listing_json",
    "listing_text",
    "rule_json",
    "rule_text",
    "upstream_warnings",
    "written_text",
]

#: Under each clause, its cases (``rttool rules show ID --cases``); ``None`` without.
ClauseCases: TypeAlias = Mapping[str, Sequence["BoundCase"]] | None

_EXIT_OK = 0
_EXIT_FINDING = 1
_EXIT_USAGE = 2
# Control characters from a page never reach the terminal as themselves.
_CONTROL = {code: f"\\u{code:04x}" for code in (*range(0x20), *range(0x7F, 0xA0))}


def _clean(text: str) -> str:
    return text.translate(_CONTROL)


def _lines(lines: Iterable[str]) -> str:
    return text(_clean(line) for line in lines)


def _shown(path: Path) -> Path:
    """``path`` relative to the working folder when it lies inside it."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``rules`` sub-subcommands to ``parser``."""
    sub = parser.add_subparsers(
        dest="rules_command", metavar="SUBCOMMAND", parser_class=type(parser)
    )
    lint = sub.add_parser("lint", help="check rule pages; prints PATH:LINE: CODE: message")
    lint.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="rule page or folder (default: the bundled corpus)",
    )
    lint.set_defaults(handler=_lint)
    listing = sub.add_parser("list", help="the rules of the corpus, with clause and example counts")
    _add_format(listing)
    _add_corpus(listing)
    listing.set_defaults(handler=_list)
    show = sub.add_parser("show", help="one rule with its clauses, citations and examples")
    show.add_argument("rule_id", metavar="ID")
    show.add_argument(
        "--cases",
        action="store_true",
        help="under each clause, every check (each variant), vector and hunt invariant bound "
        "to it, with the file and line of its code",
    )
    _add_format(show)
    _add_corpus(show)
    show.set_defaults(handler=_show)
    imports = sub.add_parser("import", help="render an upstream checkout into corpus pages")
    imports.add_argument("upstream", type=Path, metavar="DIR")
    imports.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="PATH",
        help="folder to write the pages to (default: the bundled corpus)",
    )
    imports.set_defaults(handler=_import)
    check = sub.add_parser("check-upstream", help="compare the corpus with an upstream checkout")
    check.add_argument("upstream", type=Path, metavar="DIR")
    _add_corpus(check)
    check.set_defaults(handler=_check_upstream)
    parser.set_defaults(handler=_help(parser))


def _add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _add_corpus(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--corpus",
        type=Path,
        default=None,
        metavar="DIR",
        help="corpus folder (default: the bundled corpus)",
    )


def _help(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    def handler(_args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return _EXIT_USAGE

    return handler


def _corpus(args: argparse.Namespace) -> Corpus:
    from conformance.rules import corpus_path, load_corpus

    return load_corpus([args.corpus or _shown(corpus_path())])


def _missing(paths: Sequence[Path]) -> Output | None:
    missing = [path for path in paths if not path.exists()]
    if not missing:
        return None
    said = f"rttool rules lint: error: no such file or folder: {missing[0]}"
    return Output(err=_lines([said]))


def lint_output(report: LintReport) -> Output:
    """A line per finding (``PATH:LINE: CODE: message``), then the counts on standard
    error."""
    counts = (
        f"{plural(report.files, 'file')}, {plural(report.errors, 'error')}, "
        f"{plural(report.warnings, 'warning')}\n"
    )
    return Output(_lines(str(finding) for finding in report.findings), counts)


def _lint(args: argparse.Namespace) -> int:
    from conformance.coverage import suite_policy
    from conformance.rules import corpus_path, lint

    paths: Sequence[Path] = args.paths or [_shown(corpus_path())]
    missing = _missing(paths)
    if missing is not None:
        emit(missing)
        return _EXIT_USAGE
    report = lint(paths, suite_policy())
    if not report.files:
        said = "rttool rules lint: error: no rule pages (*.md) under the paths given"
        emit(Output(err=_lines([said])))
        return _EXIT_USAGE
    emit(lint_output(report))
    return _EXIT_FINDING if report.errors else _EXIT_OK


def listing_json(corpus: Corpus) -> Output:
    """A JSON object per rule: its facts and how many clauses and examples it has."""
    return json_output(
        [
            {
                "id": rule.id,
                "title": rule.title,
                "level": rule.level,
                "profiles": list(rule.profiles),
                "posture": rule.posture,
                "clauses": len(rule.clauses),
                "examples": len(rule.examples),
                "file": str(rule.path),
            }
            for rule in corpus
        ]
    )


def listing_text(corpus: Corpus) -> Output:
    """A table of the rules, a row each, then the counts of the corpus."""
    header = ("ID", "LEVEL", "POSTURE", "PROFILES", "CLAUSES", "EXAMPLES", "TITLE")
    table = [header] + [
        (
            rule.id,
            rule.level,
            rule.posture,
            ",".join(rule.profiles),
            str(len(rule.clauses)),
            str(len(rule.examples)),
            rule.title,
        )
        for rule in corpus
    ]
    widths = [max(len(row[column]) for row in table) for column in range(len(header) - 1)]
    rows = [
        "  ".join(
            [
                *(
                    cell.rjust(width) if column in (4, 5) else cell.ljust(width)
                    for column, (cell, width) in enumerate(zip(row, widths, strict=False))
                ),
                row[-1],
            ]
        )
        for row in table
    ]
    return Output(_lines([*rows, _summary(corpus)]))


def _list(args: argparse.Namespace) -> int:
    corpus = _corpus(args)
    emit(listing_json(corpus) if args.format == "json" else listing_text(corpus))
    return _EXIT_OK


def _summary(corpus: Corpus) -> str:
    parts = []
    for family in corpus.families:
        rules = [rule for rule in corpus if rule.family == family]
        clauses = sum(len(rule.clauses) for rule in rules)
        examples = sum(len(rule.examples) for rule in rules)
        parts.append(f"{family}: {len(rules)} rules, {clauses} clauses, {examples} examples")
    return (
        f"{len(corpus)} rules, {len(corpus.clauses)} clauses, "
        f"{len(corpus.examples)} examples ({'; '.join(parts)})"
    )


def _case_json(case: BoundCase) -> dict[str, object]:
    return {
        "id": case.id,
        "kind": case.kind,
        "name": case.name,
        "file": case.file,
        "line": case.line,
    }


def _rule_json(rule: Rule, cases: ClauseCases = None) -> dict[str, object]:
    return {
        "id": rule.id,
        "family": rule.family,
        "title": rule.title,
        "level": rule.level,
        "profiles": list(rule.profiles),
        "posture": rule.posture,
        "added": rule.added,
        "changed": rule.changed,
        "part": rule.part,
        "source": rule.source,
        "specification": rule.specification,
        "licence": rule.licence,
        "rule_hash": rule.rule_hash,
        "computed_hash": rule.computed_hash,
        "summary": rule.summary,
        "normative_text": rule.normative_text,
        "clauses": [
            {
                "id": clause.id,
                "citation": clause.citation,
                "number": clause.number,
                "text": clause.text,
                "line": clause.line,
                **(
                    {}
                    if cases is None
                    else {"cases": [_case_json(case) for case in cases.get(clause.id, ())]}
                ),
            }
            for clause in rule.clauses
        ],
        "what_it_means": rule.what_it_means,
        "examples": [
            {
                "id": example.id,
                "index": example.index,
                "title": example.title,
                "verdict": example.verdict,
                "value": example.value,
                "line": example.line,
                "prose_after": example.prose_after,
            }
            for example in rule.examples
        ],
        "names": list(rule.names),
        "referenced_by": list(rule.referenced_by),
        "file": str(rule.path),
        "line": rule.line,
    }


def rule_json(rule: Rule, cases: ClauseCases = None) -> Output:
    """The rule as JSON, with each clause's cases when they were asked for."""
    return json_output(_rule_json(rule, cases))


def _head(rule: Rule) -> list[str]:
    part = f" (Part {rule.part})" if rule.part else ""
    lines = [
        f"{rule.id} — {rule.title}",
        f"{rule.family}{part} · level {rule.level} · profiles {', '.join(rule.profiles)} · "
        f"posture {rule.posture} · added {rule.added} · changed {rule.changed}",
        f"source: {rule.source}",
        f"file: {rule.path}:{rule.line}",
    ]
    return lines + (["", rule.summary] if rule.summary else [])


def _case_lines(cases: Sequence[BoundCase]) -> list[str]:
    """One line per case under its clause: kind, name, and ``file:line`` of its code."""
    if not cases:
        return ["      (no case)"]
    width = max(len(case.name) for case in cases)
    return [
        f"      {case.kind:<6}  {case.name:<{width}}  {case.file}:{case.line}" for case in cases
    ]


def rule_text(rule: Rule, cases: ClauseCases = None) -> Output:
    """The rule: its facts, its clauses (each with its cases, when asked for), its
    examples, its names and what refers to it."""
    lines = [*_head(rule), "", "Clauses:"]
    for clause in rule.clauses:
        lines.append(f"  {clause.citation}  [{clause.id}, line {clause.line}]  {clause.text}")
        if cases is not None:
            lines += _case_lines(cases.get(clause.id, ()))
    if rule.examples:
        lines += ["", "Examples:"]
        lines += [
            f"  {example.id}  verdict={example.verdict}  line {example.line}  {example.title}"
            for example in rule.examples
        ]
    lines += [
        "",
        f"Names: {', '.join(rule.names) or '—'}",
        f"Referenced by: {', '.join(rule.referenced_by) or '—'}",
    ]
    return Output(_lines(lines))


def _show(args: argparse.Namespace) -> int:
    from conformance.rules import CorpusError

    corpus = _corpus(args)
    rule = corpus.get(args.rule_id)
    if rule is None:
        raise CorpusError("no such rule in the corpus", id=args.rule_id)
    cases = None
    if args.cases:
        from conformance.coverage import clause_cases

        cases = clause_cases(rule, corpus)
    emit(rule_json(rule, cases) if args.format == "json" else rule_text(rule, cases))
    return _EXIT_OK


def upstream_warnings(notes: Sequence[object]) -> Output:
    """The upstream checkout's notes, as warnings on standard error."""
    return Output(err=_lines(f"warning: upstream: {note}" for note in notes))


def written_text(written: Sequence[Path]) -> Output:
    """A line per page written."""
    return Output(_lines(f"wrote {path}" for path in written))


def _import(args: argparse.Namespace) -> int:
    from conformance.rules import corpus_path, import_upstream, load_upstream, parse_pages

    checkout = load_upstream(args.upstream)
    out: Path = args.out or _shown(corpus_path())
    others = (
        [page.rule for page in parse_pages([out]) if page.rule is not None]
        if (out.is_dir())
        else []
    )
    emit(upstream_warnings(checkout.notes))
    emit(written_text(import_upstream(checkout, out, others)))
    return _EXIT_OK


def compared_text(results: Sequence[Comparison]) -> Output:
    """A line per rule compared with upstream."""
    return Output(_lines(str(result) for result in results))


def _check_upstream(args: argparse.Namespace) -> int:
    from conformance.rules import compare_with_upstream, load_upstream

    checkout: UpstreamCheckout = load_upstream(args.upstream)
    results = compare_with_upstream(checkout, _corpus(args))
    emit(compared_text(results))
    return _EXIT_OK if all(result.status == "same" for result in results) else _EXIT_FINDING
