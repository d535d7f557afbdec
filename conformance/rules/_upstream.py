"""Read an upstream specification checkout, render it into corpus pages, compare with it.

An upstream checkout is laid out as the specification repository is:
``rules/RT-TOOL-<n>.yml`` (metadata and normative text), ``rules/schema.json``
and ``narrative/RT-TOOL-<n>.mdx`` ("What it means" and examples, with a
``rule_hash`` front matter).  Only the RT-TOOL family is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator

from adapters.files import read_text, write_file
from adapters.limits import TooDeep, loads, yaml_document
from conformance.rules._frontmatter import read_front_matter
from conformance.rules._model import Clause, Corpus, CorpusError, Finding, Rule, rule_sort_key
from conformance.rules._narrative import parse_narrative
from conformance.rules._parser import MAX_PAGE_BYTES
from conformance.rules._render import render_page
from conformance.rules._splitter import collapse_whitespace, split_clauses
from conformance.rules._vocabulary import (
    LICENCE,
    UPSTREAM_FAMILIES,
    UPSTREAM_SPECIFICATION,
    upstream_source_url,
)

__all__ = [
    "Comparison",
    "UpstreamCheckout",
    "compare_with_upstream",
    "import_upstream",
    "load_upstream",
]

_REQUIRED = (
    "id",
    "family",
    "title",
    "normative",
    "posture",
    "level",
    "profiles",
    "added",
    "changed",
)

#: What ``check-upstream`` compares, in the order differences are reported.
_COMPARED = (
    "normative",
    "title",
    "summary",
    "family",
    "part",
    "level",
    "profiles",
    "posture",
    "added",
    "changed",
    "source",
    "specification",
    "licence",
    "names",
    "narrative",
)


@dataclass(frozen=True)
class UpstreamCheckout:
    """The upstream rules, as :class:`Rule` objects located in the upstream files.

    ``notes`` are problems in the upstream text itself (a narrative whose
    ``rule_hash`` no longer matches its rule, an example that is not JSON); they are
    reported, never silently fixed.
    """

    root: Path
    rules: tuple[Rule, ...]
    notes: tuple[Finding, ...]


@dataclass(frozen=True)
class Comparison:
    """One line of ``check-upstream``: ``same``, ``different-text``, ``missing`` or ``extra``."""

    rule_id: str
    status: str
    fields: tuple[str, ...] = ()

    def __str__(self) -> str:
        detail = f" ({', '.join(self.fields)})" if self.fields else ""
        return f"{self.rule_id} {self.status}{detail}"


def _key_line(lines: Sequence[str], key: str) -> int:
    return next((i + 1 for i, text in enumerate(lines) if text.startswith(f"{key}:")), 1)


def _read_yaml(path: Path) -> Mapping[str, object]:
    try:
        _, loaded = yaml_document(read_text(path, limit=MAX_PAGE_BYTES))
    except TooDeep as err:
        raise CorpusError(
            "upstream rule file does not load",
            file=str(path),
            pointer=err.pointer,
            problem=err.complaint,
        ) from err
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise CorpusError(
            "upstream rule file does not load",
            file=str(path),
            problem=" ".join(str(err).split())[:200],
        ) from err
    if not isinstance(loaded, dict):
        raise CorpusError("upstream rule file is not a mapping", file=str(path))
    return loaded


def _check_schema(root: Path, path: Path, values: Mapping[str, object]) -> None:
    schema_path = root / "rules" / "schema.json"
    if not schema_path.is_file():
        return
    try:
        schema = loads(read_text(schema_path, limit=MAX_PAGE_BYTES))
    except (OSError, ValueError, TooDeep) as err:
        raise CorpusError(
            "upstream schema does not load", file=str(schema_path), problem=str(err)[:200]
        ) from err
    if not isinstance(schema, dict):
        raise CorpusError("upstream schema is not a JSON object", file=str(schema_path))
    for error in Draft202012Validator(schema).iter_errors(dict(values)):
        pointer = "/" + "/".join(str(step) for step in error.absolute_path)
        raise CorpusError(
            "upstream rule file breaks the upstream schema",
            file=str(path),
            pointer=pointer,
            complaint=error.message[:200],
        )


def _rule_number(path: Path) -> tuple[int, str, int, str]:
    return rule_sort_key(path.stem)


def load_upstream(root: Path) -> UpstreamCheckout:
    """Read the RT-TOOL rules and narratives of the upstream checkout at ``root``."""
    files = sorted((root / "rules").glob("RT-TOOL-*.yml"), key=_rule_number)
    if not files:
        raise CorpusError("not an upstream checkout: no rules/RT-TOOL-*.yml", dir=str(root))
    notes: list[Finding] = []
    rules = [_upstream_rule(root, path, notes) for path in files]
    referenced = _referenced_by(rules)
    rules = [replace(rule, referenced_by=referenced.get(rule.id, ())) for rule in rules]
    return UpstreamCheckout(root, tuple(rules), tuple(notes))


def _referenced_by(rules: Iterable[Rule]) -> dict[str, tuple[str, ...]]:
    naming: dict[str, list[str]] = {}
    for rule in rules:
        for name in rule.names:
            naming.setdefault(name, []).append(rule.id)
    return {name: tuple(sorted(ids, key=rule_sort_key)) for name, ids in naming.items()}


def _upstream_rule(root: Path, path: Path, notes: list[Finding]) -> Rule:
    values = _read_yaml(path)
    _check_schema(root, path, values)
    absent = [key for key in _REQUIRED if key not in values]
    if absent:
        raise CorpusError("upstream rule file lacks a field", file=str(path), field=absent[0])
    lines = read_text(path, limit=MAX_PAGE_BYTES).splitlines()
    rule_id = str(values["id"])
    if rule_id != path.stem:
        raise CorpusError("upstream rule id differs from its file name", file=str(path), id=rule_id)
    family = str(values["family"])
    normative_line = _key_line(lines, "normative")
    clauses = tuple(
        Clause(rule_id, number, text, path, normative_line)
        for number, text in enumerate(split_clauses(str(values["normative"])), start=1)
    )
    related = values.get("related")
    names = (
        tuple(sorted((str(item) for item in related), key=rule_sort_key))
        if isinstance(related, list)
        else ()
    )
    summary = values.get("summary")
    rule = Rule(
        id=rule_id,
        family=family,
        title=collapse_whitespace(str(values["title"])),
        level=str(values["level"]),
        profiles=tuple(str(p) for p in _list(values["profiles"])),
        posture=str(values["posture"]),
        added=str(values["added"]),
        changed=str(values["changed"]),
        source=upstream_source_url(rule_id, family),
        specification=UPSTREAM_SPECIFICATION,
        licence=LICENCE,
        part=str(values["part"]) if "part" in values else None,
        rule_hash=None,
        summary=collapse_whitespace(summary) if isinstance(summary, str) else None,
        what_it_means="",
        narrative="",
        clauses=clauses,
        examples=(),
        names=names,
        referenced_by=(),
        path=path,
        line=_key_line(lines, "id"),
        locations=(("normative", normative_line), ("title", _key_line(lines, "title"))),
    )
    rule = replace(rule, rule_hash=rule.computed_hash)
    narrative_path = root / "narrative" / f"{rule_id}.mdx"
    if not narrative_path.is_file():
        return rule
    return _with_narrative(rule, narrative_path, notes)


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _with_narrative(rule: Rule, path: Path, notes: list[Finding]) -> Rule:
    try:
        lines = read_text(path, limit=MAX_PAGE_BYTES).splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise CorpusError("upstream narrative does not read", file=str(path)) from err
    front = read_front_matter(lines, path)
    notes.extend(front.findings)
    values = front.values or {}
    stated = values.get("rule_hash")
    if stated is not None and stated != rule.computed_hash:
        notes.append(
            Finding(
                path,
                front.line_of("rule_hash"),
                "rule-hash",
                f"narrative rule_hash {stated} does not match its rule's text "
                f"({rule.computed_hash}): the narrative is out of date",
            )
        )
    narrative = parse_narrative(rule.id, lines[front.body_line - 1 :], front.body_line, path)
    notes.extend(narrative.findings)
    return replace(
        rule,
        what_it_means=narrative.what_it_means,
        narrative=narrative.text,
        examples=narrative.examples,
    )


def import_upstream(
    checkout: UpstreamCheckout, out: Path, others: Sequence[Rule] = ()
) -> list[Path]:
    """Write one corpus page per upstream rule into ``out``; returns the files written.

    ``others`` are corpus rules of rttool's own families; where they name an upstream
    rule they count in its "Referenced by" line.
    """
    own = [rule for rule in others if rule.family not in UPSTREAM_FAMILIES]
    referenced = _referenced_by([*checkout.rules, *own])
    written: list[Path] = []
    for rule in checkout.rules:
        page = render_page(replace(rule, referenced_by=referenced.get(rule.id, ())))
        written.append(write_file(out, f"{rule.id}.md", page.encode("utf-8")))
    return written


def _field(rule: Rule, name: str) -> object:
    if name == "normative":
        return rule.normative_text
    return getattr(rule, name)


def compare_with_upstream(checkout: UpstreamCheckout, corpus: Corpus) -> list[Comparison]:
    """One :class:`Comparison` per upstream rule and per corpus rule upstream lacks."""
    results: list[Comparison] = []
    upstream_ids = {rule.id for rule in checkout.rules}
    for rule in checkout.rules:
        mine = corpus.get(rule.id)
        if mine is None:
            results.append(Comparison(rule.id, "missing"))
            continue
        differing = tuple(name for name in _COMPARED if _field(rule, name) != _field(mine, name))
        results.append(Comparison(rule.id, "different-text" if differing else "same", differing))
    for mine in corpus:
        if mine.family in UPSTREAM_FAMILIES and mine.id not in upstream_ids:
            results.append(Comparison(mine.id, "extra"))
    return sorted(results, key=lambda item: rule_sort_key(item.rule_id))
