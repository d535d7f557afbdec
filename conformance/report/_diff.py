"""``rttool report diff``: how an implementation's standing moved between two reports.

For every rule and clause: a **regression** went from conforms, untested or
not-applicable to does-not-conform or error; a **fix** went from does-not-conform or
error to conforms; **added** and **removed** are present in one report only; anything
else that moved is **changed**.  Any regression makes the exit code 1.

Two runs are only comparable when the newer one looked at least as hard: a run limited
with ``--only`` (to another selection than the older one), or one without the hunt when
the older one had it, would show clauses as removed or fixed that were merely not
looked at.  Those differences are listed as **mismatches**; the command line refuses
them (exit 2) unless told to compare anyway.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from conformance._escape import printable
from conformance.report._standing import StandingReport
from conformance.report._values import FAILING, Standing

__all__ = ["Change", "StandingDiff", "diff_reports"]

Kind = Literal["rule", "clause"]


@dataclass(frozen=True, kw_only=True)
class Change:
    """One rule or clause whose standing differs (``None``: absent from that report)."""

    kind: Kind
    id: str
    old: Standing | None
    new: Standing | None

    def __str__(self) -> str:
        return f"{self.kind} {printable(self.id)}: {self.old or 'absent'} -> {self.new or 'absent'}"


@dataclass(frozen=True, kw_only=True)
class StandingDiff:
    """Every change between two reports, sorted into kinds, in report order."""

    regressions: tuple[Change, ...] = ()
    fixes: tuple[Change, ...] = ()
    added: tuple[Change, ...] = ()
    removed: tuple[Change, ...] = ()
    changed: tuple[Change, ...] = ()
    notes: tuple[str, ...] = ()
    #: why the two runs are not comparable (empty when they are)
    mismatches: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        """1 if anything regressed, else 0."""
        return 1 if self.regressions else 0

    def as_text(self) -> str:
        """A plain-text account, one change per line, sections in a fixed order."""
        lines = [f"mismatch: {printable(reason)}" for reason in self.mismatches]
        lines += [f"note: {printable(note)}" for note in self.notes]
        for title, changes in (
            ("regressions", self.regressions),
            ("fixes", self.fixes),
            ("added", self.added),
            ("removed", self.removed),
            ("changed", self.changed),
        ):
            lines.append(f"{title}: {len(changes)}")
            lines += [f"  {change}" for change in changes]
        return "\n".join(lines) + "\n"

    def as_json(self) -> str:
        """A JSON account: a list of ``{"kind", "id", "old", "new"}`` per section."""

        def listed(changes: tuple[Change, ...]) -> list[dict[str, object]]:
            return [
                {"kind": change.kind, "id": change.id, "old": change.old, "new": change.new}
                for change in changes
            ]

        data = {
            "regressions": listed(self.regressions),
            "fixes": listed(self.fixes),
            "added": listed(self.added),
            "removed": listed(self.removed),
            "changed": listed(self.changed),
            "notes": list(self.notes),
            "mismatches": list(self.mismatches),
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _standings(report: StandingReport) -> dict[tuple[Kind, str], Standing]:
    found: dict[tuple[Kind, str], Standing] = {}
    for rule in report.rules:
        found["rule", rule.id] = rule.standing
        for clause in rule.clauses:
            found["clause", clause.id] = clause.standing
    return found


def diff_reports(old: StandingReport, new: StandingReport) -> StandingDiff:
    """Compare ``old`` with ``new``."""
    before, after = _standings(old), _standings(new)
    sorted_changes: dict[str, list[Change]] = {
        "regressions": [],
        "fixes": [],
        "added": [],
        "removed": [],
        "changed": [],
    }
    for key in [*after, *(key for key in before if key not in after)]:
        was, now = before.get(key), after.get(key)
        change = Change(kind=key[0], id=key[1], old=was, new=now)
        if was is None:
            sorted_changes["added"].append(change)
        elif now is None:
            sorted_changes["removed"].append(change)
        elif was == now:
            continue
        elif was not in FAILING and now in FAILING:
            sorted_changes["regressions"].append(change)
        elif was in FAILING and now == "conforms":
            sorted_changes["fixes"].append(change)
        else:
            sorted_changes["changed"].append(change)
    notes = []
    old_impl, new_impl = old.implementation, new.implementation
    if (old_impl.name, old_impl.version) != (new_impl.name, new_impl.version):
        notes.append(
            f"comparing {old_impl.name} {old_impl.version} with {new_impl.name} {new_impl.version}"
        )
    if old.suite != new.suite:
        notes.append(f"suite changed from {old.suite.version} to {new.suite.version}")
    return StandingDiff(
        **{name: tuple(changes) for name, changes in sorted_changes.items()},
        notes=tuple(notes),
        mismatches=_mismatches(old, new),
    )


def _mismatches(old: StandingReport, new: StandingReport) -> tuple[str, ...]:
    """Why ``new`` looked less hard than ``old`` (see the module's docstring)."""
    found = []
    uncovered = [item for item in old.run.only or ("",) if not _covers(new.run.only, item)]
    if uncovered:
        was = ", ".join(old.run.only) or "everything"
        found.append(f"the new run covered only {', '.join(new.run.only)} (the old one: {was})")
    if old.hunt_status() != "off" and new.hunt_status() == "off":
        found.append("the new run did not run the hunt, the old one did")
    return tuple(found)


def _covers(only: tuple[str, ...], item: str) -> bool:
    """Whether a run limited to ``only`` (nothing: everything) covers ``item`` (a rule or
    clause id; ``""``: everything)."""
    if not only:
        return True
    if not item:
        return False
    return item in only or item.partition("#")[0] in only
