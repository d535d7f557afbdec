"""Expectations files: known failures an implementation has declared, with reasons.

::

    expectations:
      - clause: RT-TOOL-7#c4
        reason: held artifacts lost when a write-back fails
        issue: https://example.org/tracker/12      # optional
      - rule: RT-TOOL-5
        reason: optional rule not implemented yet
      - check: "RT-TOOL-9#c2::repeat-re-emits-stored-result"
        reason: stored result re-emitted without its artifacts

The file is read once with the safe loader, under the nesting limit of
``adapters.limits``; its node tree gives every entry's line.  Everything wrong is
collected and reported as ``FILE:LINE: what``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Literal, cast

import yaml

from adapters.limits import TooDeep, yaml_document
from conformance.report._errors import ExpectationsError, Problem

__all__ = ["Expectation", "Expectations", "Scope", "load_expectations", "parse_expectations"]

Scope = Literal["rule", "clause", "check"]
_SCOPES: tuple[Scope, ...] = ("rule", "clause", "check")
_KEYS = frozenset({"rule", "clause", "check", "reason", "issue"})
# A rule id has no '#', no whitespace and no '::'.
_RULE = r"[^#\s:]+(?::[^#\s:]+)*"
_FORMS = MappingProxyType(
    {
        "rule": re.compile(_RULE),
        "clause": re.compile(rf"{_RULE}#c[1-9][0-9]*"),
        "check": re.compile(rf"{_RULE}#c[1-9][0-9]*::\S.*"),
    }
)
_SHAPES = MappingProxyType({"rule": "RULE", "clause": "RULE#cN", "check": "RULE#cN::CHECK"})


@dataclass(frozen=True, kw_only=True)
class Expectation:
    """One declared known failure: a rule, a clause or a check, and why."""

    scope: Scope
    target: str
    reason: str
    issue: str | None = None
    line: int = 0

    @property
    def rule(self) -> str:
        """The rule the target belongs to."""
        return self.target.split("#", 1)[0]

    @property
    def clause(self) -> str | None:
        """The clause the target belongs to (``None`` for a rule entry)."""
        return None if self.scope == "rule" else self.target.split("::", 1)[0]

    def covers(self, rule: str, clause: str, check: str) -> bool:
        """Whether this entry covers the check ``check`` of ``clause`` of ``rule``."""
        return self.target == {"rule": rule, "clause": clause, "check": check}[self.scope]


@dataclass(frozen=True, kw_only=True)
class Expectations:
    """An expectations file: its name (as given, used in messages) and its entries."""

    source: str
    entries: tuple[Expectation, ...] = ()

    def where(self, entry: Expectation) -> str:
        """``FILE:LINE`` of ``entry``."""
        return f"{self.source}:{entry.line}"


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _entry(
    node: yaml.Node, value: object, source: str, problems: list[Problem]
) -> Expectation | None:
    """One entry: ``node`` (for lines and duplicate keys) and its safe-loaded ``value``."""
    line = _line(node)
    if not isinstance(node, yaml.MappingNode) or not isinstance(value, dict):
        problems.append(
            Problem(source, line, "an entry is a mapping with rule, clause or check and a reason")
        )
        return None
    values: dict[str, str] = {}
    mistyped: set[str] = set()  # reported once, as "must be a string", not again below
    seen: set[object] = set()
    for key_node, value_node in cast("list[tuple[yaml.Node, yaml.Node]]", node.value):
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if key in seen:
            problems.append(Problem(source, _line(key_node), f"key {key!r} given twice"))
            continue
        seen.add(key)
        if not isinstance(key, str) or key not in _KEYS:
            problems.append(
                Problem(
                    source,
                    _line(key_node),
                    f"unknown key {key!r} (known: " + ", ".join(sorted(_KEYS)) + ")",
                )
            )
            continue
        loaded = value.get(key)
        if not isinstance(loaded, str):
            problems.append(Problem(source, _line(value_node), f"{key} must be a string"))
            mistyped.add(key)
            continue
        values[key] = loaded.strip()
    if mistyped:
        return None
    targets = [scope for scope in _SCOPES if scope in values]
    if len(targets) > 1:
        problems.append(
            Problem(
                source,
                line,
                "an entry names exactly one of rule, clause, check; "
                f"this one names {' and '.join(targets)}",
            )
        )
        return None
    if not targets:
        problems.append(Problem(source, line, "an entry names one of rule, clause or check"))
        return None
    scope = targets[0]
    if not _FORMS[scope].fullmatch(values[scope]):
        problems.append(
            Problem(source, line, f"{scope} {values[scope]!r} is not of the form {_SHAPES[scope]}")
        )
        return None
    if not values.get("reason"):
        problems.append(
            Problem(
                source,
                line,
                f"{scope} {values[scope]} has no reason; say why the failure is expected",
            )
        )
        return None
    return Expectation(
        scope=scope,
        target=values[scope],
        reason=values["reason"],
        issue=values.get("issue") or None,
        line=line,
    )


def _contradictions(entries: list[Expectation], source: str) -> list[Problem]:
    """Targets listed twice, and entries inside a rule or clause that is listed itself."""
    problems: list[Problem] = []
    seen: dict[str, Expectation] = {}
    unique: list[Expectation] = []
    for entry in entries:
        first = seen.get(entry.target)
        if first is not None:
            problems.append(
                Problem(
                    source,
                    entry.line,
                    f"{entry.scope} {entry.target} is already listed at line {first.line}",
                )
            )
        else:
            seen[entry.target] = entry
            unique.append(entry)
    for entry in unique:
        for outer in (entry.rule, entry.clause if entry.scope == "check" else None):
            holder = seen.get(outer) if outer and outer != entry.target else None
            if holder is not None:
                problems.append(
                    Problem(
                        source,
                        entry.line,
                        f"{entry.scope} {entry.target} is "
                        f"inside {holder.scope} {holder.target}, listed at line "
                        f"{holder.line}; list one or the other",
                    )
                )
    return problems


def parse_expectations(text: str, *, source: str = "expectations.yaml") -> Expectations:
    """Parse an expectations file's text; raises :class:`ExpectationsError`.

    The text is composed once into its node tree, which supplies line numbers and
    shows keys given twice (which loading alone would silently merge); the values are
    constructed from that tree by the safe loader.
    """
    try:
        root, data = yaml_document(text)
    except TooDeep as err:
        line = int(str(err.details.get("line", 0)))
        raise ExpectationsError([Problem(source, line, f"{err.pointer}: {err.complaint}")]) from err
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise ExpectationsError([Problem(source, line, f"not valid YAML: {problem}")]) from err
    if not isinstance(root, yaml.MappingNode) or not isinstance(data, dict):
        raise ExpectationsError(
            [
                Problem(
                    source,
                    _line(root) if root is not None else 1,
                    "expected a mapping with the key 'expectations'",
                )
            ]
        )
    problems: list[Problem] = []
    entries_node: yaml.Node | None = None
    for key_node, value_node in cast("list[tuple[yaml.Node, yaml.Node]]", root.value):
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == "expectations":
            entries_node = value_node
        else:
            problems.append(
                Problem(
                    source,
                    _line(key_node),
                    f"unknown top-level key {key_node.value!r}; only 'expectations' is allowed",
                )
            )
    if entries_node is None:
        raise ExpectationsError(
            [*problems, Problem(source, _line(root), "the key 'expectations' is missing")]
        )
    loaded = data.get("expectations")
    entries: list[Expectation] = []
    if isinstance(entries_node, yaml.SequenceNode) and isinstance(loaded, list):
        nodes = cast("list[yaml.Node]", entries_node.value)
        for item, value in zip(nodes, loaded, strict=True):
            entry = _entry(item, value, source, problems)
            if entry is not None:
                entries.append(entry)
    elif loaded is not None:
        problems.append(Problem(source, _line(entries_node), "'expectations' is a list"))
    problems += _contradictions(entries, source)
    if problems:
        raise ExpectationsError(sorted(problems, key=lambda problem: problem.line))
    return Expectations(source=source, entries=tuple(entries))


#: An expectations file lists a few dozen clauses; one far larger is not one.
_MAX_EXPECTATIONS_BYTES = 4 * 1024 * 1024


def load_expectations(path: Path) -> Expectations:
    """Read and parse the expectations file at ``path``."""
    from adapters.files import UnreadableFile, read_text

    try:
        text = read_text(path, limit=_MAX_EXPECTATIONS_BYTES)
    except UnreadableFile as err:
        raise ExpectationsError([Problem(str(path), 0, f"cannot read: {err.strerror}")]) from err
    return parse_expectations(text, source=str(path))
