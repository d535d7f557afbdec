"""Errors of the report layer: a bad ``standing.json`` and a bad expectations file."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adapters.errors import RttoolError

__all__ = ["ExpectationsError", "Problem", "ReportWriteError", "StandingFormatError"]


class StandingFormatError(RttoolError):
    """A ``standing.json`` that is not JSON, breaks the schema, or contradicts itself.

    Details name the file (``source``) and the JSON ``pointer`` of the offending value.
    """


class ReportWriteError(RttoolError):
    """A report could not be written (``path`` names the file)."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an expectations file, at a line (1-based; 0 if unknown)."""

    source: str
    line: int
    text: str

    def __str__(self) -> str:
        # Line 0 means the file as a whole (unreadable, empty): no line to point at.
        where = f"{self.source}:{self.line}" if self.line > 0 else self.source
        return f"{where}: {self.text}"


class ExpectationsError(RttoolError):
    """An expectations file that cannot be used; ``problems`` lists every fault found.

    The message is the first problem (``FILE:LINE: what``) and how many more there are.
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        more = len(self.problems) - 1
        text = str(self.problems[0]) if self.problems else "bad expectations file"
        super().__init__(text + (f" (and {more} more)" if more > 0 else ""))
