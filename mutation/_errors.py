"""The mutation run's own errors, under the project's one exception root."""

from __future__ import annotations

from collections.abc import Sequence

from adapters.errors import RttoolError

__all__ = ["BaselineError", "EquivalentsError", "MutationError", "SelectionError"]


class MutationError(RttoolError):
    """A problem with the mutation run's inputs or set-up (never with a mutant)."""


class EquivalentsError(MutationError):
    """The equivalents file cannot be used; ``problems`` holds one line per problem,
    each naming the file and line."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(self.problems[0] if self.problems else "the equivalents file is unusable")


class SelectionError(MutationError):
    """The mutants asked for cannot be chosen (an unknown id, a bad list file)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(self.problems[0] if self.problems else "no mutant could be chosen")


class BaselineError(MutationError):
    """The suite cannot be scored: it fails, or does not reach the copy, even unmutated."""
