"""The blame gate: every clause a mutant or a gap shape fails beyond its own is either
gone or recorded as a consequence the rule text states.

The full self-test runs every mutant of the reference runtime and every gap shape
against the whole suite and reads which clauses its standing fails.  A failure beyond
the clauses the mutant (or shape) claims to break is misplaced blame, unless the rule
text itself says that breaking one clause breaks the other: then it is recorded in
``conformance/consequences.yaml`` with the words of the rule that say so, quoted.  The
gate fails on a failure not recorded and on a quotation the rules do not contain.  A
record whose failure did not happen is named, a line each, for removal, but fails
nothing: a record only ever excuses a failure, and a failure that depends on how an
implementation's random identifiers sort may come in one run and not the next.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from adapters.errors import SuiteError
from conformance.rules import Corpus, collapse_whitespace

__all__ = [
    "CONSEQUENCES_FILE",
    "BeyondOwn",
    "BlameVerdict",
    "Consequence",
    "judge_blame",
    "load_consequences",
]

#: Where the recorded consequences are kept.
CONSEQUENCES_FILE = Path(__file__).with_name("consequences.yaml")
_MAX_BYTES = 1_000_000


@dataclass(frozen=True)
class BeyondOwn:
    """A clause ``clause`` that the standing of ``subject`` (a mutant or a gap shape)
    fails beyond the clauses it claims, with the message of its first failing case."""

    subject: str
    clause: str
    message: str = ""


@dataclass(frozen=True)
class Consequence:
    """A recorded consequence: breaking ``subject``'s clauses breaks ``clause`` too, as
    ``words`` (quoted from the rule text) say."""

    subject: str
    clause: str
    words: str


@dataclass(frozen=True)
class BlameVerdict:
    """What the gate found: failures beyond their subject's own that no consequence
    records, records whose failure did not happen, and records whose words the rule
    text does not contain."""

    unrecorded: tuple[BeyondOwn, ...]
    stale: tuple[Consequence, ...]
    unquoted: tuple[Consequence, ...]
    recorded: int

    @property
    def clean(self) -> bool:
        """Every failure beyond its subject's own is a consequence the text states (a
        stale record is said, not failed)."""
        return not (self.unrecorded or self.unquoted)

    def lines(self) -> list[str]:
        """One line per finding, for the terminal."""
        said = [
            f"blame: {one.subject} fails {one.clause} beyond its own, recorded nowhere "
            f"(conformance/consequences.yaml): {one.message[:200]}"
            for one in self.unrecorded
        ]
        said += [
            f"blame: note: {one.subject} did not fail {one.clause} in this run: its record "
            "may go (conformance/consequences.yaml)"
            for one in self.stale
        ]
        said += [
            f"blame: the words recorded for {one.subject} on {one.clause} are not the rule "
            f"text's: {one.words[:120]!r}"
            for one in self.unquoted
        ]
        return said


def load_consequences(path: Path = CONSEQUENCES_FILE) -> tuple[Consequence, ...]:
    """The recorded consequences: a YAML map of subject -> clause id -> the words quoted.
    Raises :class:`SuiteError` naming the file and the entry that is not one."""
    import yaml

    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return ()
    if len(raw) > _MAX_BYTES:
        raise SuiteError("the consequences file is too large", file=str(path))
    loaded = yaml.safe_load(raw.decode("utf-8")) or {}
    if not isinstance(loaded, Mapping):
        raise SuiteError("the consequences file is not a map of subjects", file=str(path))
    found: list[Consequence] = []
    for subject, clauses in loaded.items():
        if not isinstance(subject, str) or not isinstance(clauses, Mapping):
            raise SuiteError("a subject's entry is not a map of clauses", subject=str(subject))
        for clause, words in clauses.items():
            if not isinstance(clause, str) or not isinstance(words, str) or not words.strip():
                raise SuiteError(
                    "a consequence needs a clause id and the words quoted",
                    subject=subject,
                    clause=str(clause),
                )
            found.append(Consequence(subject, clause, words))
    return tuple(found)


def judge_blame(
    beyond: Iterable[BeyondOwn], consequences: Iterable[Consequence], corpus: Corpus
) -> BlameVerdict:
    """Hold the failures beyond their subjects' own to the recorded consequences."""
    happened = {(one.subject, one.clause): one for one in beyond}
    records = {(one.subject, one.clause): one for one in consequences}
    text = collapse_whitespace(" ".join(clause.text for clause in corpus.clauses))
    return BlameVerdict(
        unrecorded=tuple(one for key, one in happened.items() if key not in records),
        stale=tuple(one for key, one in records.items() if key not in happened),
        unquoted=tuple(
            one for one in records.values() if collapse_whitespace(one.words) not in text
        ),
        recorded=sum(1 for key in happened if key in records),
    )
