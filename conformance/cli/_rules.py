"""``rttool rules``: lint, list, show, import and compare the rule corpus.

Exit codes follow the CLI's: 0 clean (warnings allowed), 1 a finding (a lint
error, a difference from upstream), 2 a usage or corpus error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.coverage import BoundCase
    from conformance.rules import Corpus, Rule

from conformance.cli import plural

__all__ = ["configure"]

_EXIT_OK = 0
_EXIT_FINDING = 1
_EXIT_USAGE = 2
# Control characters from a page never reach the terminal as themselves.
_CONTROL = {code: f"\\u{code:04x}" for code in (*range(0x20), *range(0x7F, 0xA0))}


def _clean(text: str) -> str:
    return text.translate(_CONTROL)


def _out(line: str = "") -> None:
    sys.stdout.write(_clean(line) + "\n")


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


def _lint(args: argparse.Namespace) -> int:
    from conformance.rules import corpus_path, lint

    paths: Sequence[Path] = args.paths or [_shown(corpus_path())]
    missing = [path for path in paths if not path.exists()]
    if missing:
        said = _clean(f"rttool rules lint: error: no such file or folder: {missing[0]}")
        sys.stderr.write(said + "\n")
        return _EXIT_USAGE
    from conformance.coverage import suite_policy

    report = lint(paths, suite_policy())
    if not report.files:
        sys.stderr.write("rttool rules lint: error: no rule pages (*.md) under the paths given\n")
        return _EXIT_USAGE
    for finding in report.findings:
        _out(str(finding))
    sys.stderr.write(
        f"{plural(report.files, 'file')}, {plural(report.errors, 'error')}, "
        f"{plural(report.warnings, 'warning')}\n"
    )
    return _EXIT_FINDING if report.errors else _EXIT_OK


def _list(args: argparse.Namespace) -> int:
    corpus = _corpus(args)
    if args.format == "json":
        rows = [
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
        sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
        return _EXIT_OK
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
    for row in table:
        cells = [
            cell.rjust(width) if column in (4, 5) else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=False))
        ]
        _out("  ".join([*cells, row[-1]]))
    _out(_summary(corpus))
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


def _rule_json(
    rule: Rule, cases: dict[str, tuple[BoundCase, ...]] | None = None
) -> dict[str, object]:
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
    if args.format == "json":
        sys.stdout.write(json.dumps(_rule_json(rule, cases), ensure_ascii=False, indent=2) + "\n")
        return _EXIT_OK
    part = f" (Part {rule.part})" if rule.part else ""
    _out(f"{rule.id} — {rule.title}")
    _out(
        f"{rule.family}{part} · level {rule.level} · profiles {', '.join(rule.profiles)} · "
        f"posture {rule.posture} · added {rule.added} · changed {rule.changed}"
    )
    _out(f"source: {rule.source}")
    _out(f"file: {rule.path}:{rule.line}")
    if rule.summary:
        _out()
        _out(rule.summary)
    _out()
    _out("Clauses:")
    for clause in rule.clauses:
        _out(f"  {clause.citation}  [{clause.id}, line {clause.line}]  {clause.text}")
        if cases is not None:
            _show_cases(cases.get(clause.id, ()))
    if rule.examples:
        _out()
        _out("Examples:")
        for example in rule.examples:
            _out(f"  {example.id}  verdict={example.verdict}  line {example.line}  {example.title}")
    _out()
    _out(f"Names: {', '.join(rule.names) or '—'}")
    _out(f"Referenced by: {', '.join(rule.referenced_by) or '—'}")
    return _EXIT_OK


def _show_cases(cases: Sequence[BoundCase]) -> None:
    """One line per case under its clause: kind, name, and ``file:line`` of its code."""
    if not cases:
        _out("      (no case)")
        return
    width = max(len(case.name) for case in cases)
    for case in cases:
        _out(f"      {case.kind:<6}  {case.name:<{width}}  {case.file}:{case.line}")


def _import(args: argparse.Namespace) -> int:
    from conformance.rules import corpus_path, import_upstream, load_upstream, parse_pages

    checkout = load_upstream(args.upstream)
    out: Path = args.out or _shown(corpus_path())
    others = (
        [page.rule for page in parse_pages([out]) if page.rule is not None]
        if (out.is_dir())
        else []
    )
    for note in checkout.notes:
        sys.stderr.write(_clean(f"warning: upstream: {note}") + "\n")
    for written in import_upstream(checkout, out, others):
        _out(f"wrote {written}")
    return _EXIT_OK


def _check_upstream(args: argparse.Namespace) -> int:
    from conformance.rules import compare_with_upstream, load_upstream

    checkout = load_upstream(args.upstream)
    results = compare_with_upstream(checkout, _corpus(args))
    for result in results:
        _out(str(result))
    return _EXIT_OK if all(result.status == "same" for result in results) else _EXIT_FINDING
