"""``publish``: regenerate the standings named (all when none is), then their matrix."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from adapters.errors import RttoolError
from conformance.publish._checkout import Checkout
from conformance.publish._entries import COMMITTED, Committed
from conformance.publish._making import make_standing
from conformance.publish._pages import write_matrix_pages

__all__ = ["Publication", "Step", "UnknownStanding", "choose", "publish"]


class UnknownStanding(RttoolError):
    """A name that no published standing has."""


@dataclass(frozen=True)
class Step:
    """One standing of a publication: skipped (``missing`` names the modules it lacks),
    about to be made (no exit code yet), or made (the exit code of its ``rttool run``)."""

    entry: Committed
    missing: tuple[str, ...] = ()
    exit_code: int | None = None

    @property
    def skipped(self) -> bool:
        """Its optional dependencies are not installed: its committed standing stays."""
        return bool(self.missing)

    @property
    def failed(self) -> bool:
        """The run could not be made, or an implementation expected to conform does not.

        Exit 1 is a finding: the standing is written all the same, and published as it is.
        """
        if self.exit_code is None:
            return False
        return self.exit_code not in (0, 1) or (self.entry.conforms and self.exit_code != 0)


@dataclass(frozen=True)
class Publication:
    """What a publication did: every standing's step, and the matrix pages written."""

    steps: tuple[Step, ...]
    pages: tuple[Path, ...]
    checkout: Checkout

    @property
    def failed(self) -> tuple[Step, ...]:
        """The steps that failed."""
        return tuple(step for step in self.steps if step.failed)

    @property
    def exit_code(self) -> int:
        """0, or 1 when a standing failed to be made."""
        return 1 if self.failed else 0


def choose(names: Sequence[str], entries: Sequence[Committed] = COMMITTED) -> tuple[Committed, ...]:
    """The entries named, in the order given (every entry when none is)."""
    known = {entry.name: entry for entry in entries}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise UnknownStanding(
            "no such published standing", name=", ".join(unknown), known=", ".join(known)
        )
    return tuple(known[name] for name in names) or tuple(entries)


def publish(
    checkout: Checkout,
    chosen: Sequence[Committed],
    *,
    entries: Sequence[Committed] = COMMITTED,
    progress: Callable[[Step], None] = lambda step: None,
) -> Publication:
    """Make each standing of ``chosen`` into its folder, then write the matrix of every
    standing of ``entries`` committed.  ``progress`` hears of each step before it is
    made (or skipped): a run takes minutes, and prints as it goes."""
    steps = []
    for entry in chosen:
        step = Step(entry, missing=entry.missing(checkout))
        progress(step)
        if not step.skipped:
            done = make_standing(entry, checkout, entry.folder(checkout))
            step = replace(step, exit_code=done.returncode)
        steps.append(step)
    return Publication(tuple(steps), write_matrix_pages(checkout, entries), checkout)
