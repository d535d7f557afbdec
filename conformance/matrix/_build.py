"""The comparison matrix: several implementations' standings, rule by rule, clause by clause.

Each column is one ``standing.json``; each row is a rule or a clause, in the order the
reports list them (rules one report has and another lacks are kept, and shown as absent
where missing).  Nothing is recomputed: every standing is the one its report records.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from adapters.errors import RttoolError
from conformance.report import (
    ClauseResult,
    RuleResult,
    Standing,
    StandingFormatError,
    StandingReport,
    load_standing,
)

__all__ = ["MAX_STANDING_BYTES", "Column", "Matrix", "Row", "build_matrix", "heading_anchor"]

#: A standing.json larger than this is refused unread (the reference's is about 100 kB).
MAX_STANDING_BYTES = 32 * 1024 * 1024
_STANDING = "standing.json"


def heading_anchor(text: str) -> str:
    """The anchor a Markdown host (GitHub, GitLab) gives a heading with ``text``:
    lower case, punctuation dropped, spaces made hyphens.  Only word characters and
    hyphens remain, so the result is safe in any link."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


@dataclass(frozen=True)
class Column:
    """One implementation: its report, where the report lives, and its column label."""

    report: StandingReport
    folder: Path
    label: str

    def link(self, out: Path, page: str, anchor: str = "") -> str | None:
        """A relative URL from ``out`` to ``page`` in this column's folder (``None`` when
        no relative path exists, as between two drives)."""
        try:
            relative = Path(os.path.relpath(self.folder.resolve(), out.resolve())).as_posix()
        except ValueError:
            return None
        target = page if relative == "." else f"{relative}/{page}"
        return quote(target, safe="/") + (f"#{anchor}" if anchor else "")

    def has_page(self, page: str) -> bool:
        """Whether ``page`` (``report.html``) exists beside the column's standing.json."""
        return (self.folder / page).is_file()

    def rule_index(self, rule_id: str) -> int | None:
        """The 1-based position of ``rule_id`` in the report (``report.html#rule-N``)."""
        for index, rule in enumerate(self.report.rules, 1):
            if rule.id == rule_id:
                return index
        return None


@dataclass(frozen=True)
class Row:
    """A rule (``clause`` is ``None``) or one of its clauses, as the first report that has
    it describes it."""

    rule: RuleResult
    clause: ClauseResult | None = None

    @property
    def id(self) -> str:
        """The rule or clause id."""
        return self.clause.id if self.clause is not None else self.rule.id


@dataclass(frozen=True)
class Matrix:
    """Columns (implementations) and rows (rules, each followed by its clauses)."""

    columns: tuple[Column, ...]
    rows: tuple[Row, ...]

    @property
    def families(self) -> tuple[str, ...]:
        """Every family any report has, in order of first appearance."""
        return tuple(dict.fromkeys(row.rule.family for row in self.rows))

    def standing(self, column: Column, row: Row) -> Standing | None:
        """The standing ``column``'s report records for ``row`` (``None``: not in it)."""
        if row.clause is None:
            found = column.report.rule(row.rule.id)
            return None if found is None else found.standing
        clause = column.report.clause(row.clause.id)
        return None if clause is None else clause.standing


def _standing_path(path: Path) -> Path:
    return path if path.is_file() else path / _STANDING


def _load(path: Path) -> StandingReport:
    """The report at ``path``, refused in one line when it is missing or too large."""
    try:
        size = path.stat().st_size
    except OSError as err:
        raise StandingFormatError(
            "no standing report there", source=str(path), complaint=err.strerror or str(err)
        ) from err
    if size > MAX_STANDING_BYTES:
        raise StandingFormatError(
            "standing report is too large", source=str(path), size=size, limit=MAX_STANDING_BYTES
        )
    try:
        return load_standing(path)
    except RecursionError as err:  # json gives up on absurd nesting this way
        raise StandingFormatError("standing report is nested too deeply", source=str(path)) from err


def _labels(reports: Sequence[tuple[Path, StandingReport]]) -> list[str]:
    plain = [f"{r.implementation.name} {r.implementation.version}".strip() for _, r in reports]
    # Two runs of one implementation (two versions of a harness, a mutant) stay apart.
    return [
        f"{label} ({path.parent.name or path.name})" if plain.count(label) > 1 else label
        for label, (path, _) in zip(plain, reports, strict=True)
    ]


def _rows(reports: Iterable[StandingReport]) -> tuple[Row, ...]:
    rules: dict[str, RuleResult] = {}
    clauses: dict[str, dict[str, ClauseResult]] = {}
    for report in reports:
        for rule in report.rules:
            rules.setdefault(rule.id, rule)
            known = clauses.setdefault(rule.id, {})
            for clause in rule.clauses:
                known.setdefault(clause.id, clause)
    rows: list[Row] = []
    for rule_id, rule in rules.items():
        rows.append(Row(rule))
        ordered = sorted(clauses[rule_id].values(), key=lambda clause: clause.number)
        rows += [Row(rule, clause) for clause in ordered]
    return tuple(rows)


def build_matrix(paths: Sequence[Path]) -> Matrix:
    """The matrix of the standings at ``paths`` (each a directory holding
    ``standing.json``, or the file itself), in the order given.

    Raises :class:`StandingFormatError` for a report that cannot be read, naming the file
    (and the JSON pointer where one applies), and :class:`RttoolError` when one report is
    named twice.
    """
    if not paths:
        raise RttoolError("a matrix needs at least one standing report")
    files = [_standing_path(path) for path in paths]
    seen: set[Path] = set()
    for file in files:
        resolved = file.resolve()
        if resolved in seen:
            raise RttoolError("a standing report is named twice", source=str(file))
        seen.add(resolved)
    reports = [(file, _load(file)) for file in files]
    columns = tuple(
        Column(report=report, folder=file.parent, label=label)
        for (file, report), label in zip(reports, _labels(reports), strict=True)
    )
    return Matrix(columns=columns, rows=_rows(report for _, report in reports))
