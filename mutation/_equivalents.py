"""The committed triage of surviving mutants that no check can, or may, kill.

One entry a line: the mutant's stable id, its kind, and a one-line reason::

    # blank lines and lines starting with '#' are ignored
    wire.py:<module>:NumberReplacer:0a1b2c3d  unobservable  a cache size: no output depends on it

Two kinds:

``unobservable``
    An equivalent mutant: nothing a runtime's user or the suite can observe changes.
    It is never run and never counted in the score.
``conforming``
    The mutant changes what can be observed, but only within what the rules allow (a
    bound raised above its floor, say), so a check that killed it would be wrong. It
    is still run: it counts in the score like any mutant, and a second figure leaves
    it out; a run that kills one says so, since then the triage or a check is wrong.

An entry whose id matches no mutant of the current source is *stale*: the code it was
about has changed, so the triage must be done again.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from adapters.files import read_bytes
from mutation._catalogue import ID_PATTERN
from mutation._errors import EquivalentsError

__all__ = [
    "CONFORMING",
    "KINDS",
    "MAX_REASON_CHARS",
    "UNOBSERVABLE",
    "Equivalent",
    "load_equivalents",
    "parse_equivalents",
    "stale",
]

UNOBSERVABLE = "unobservable"
CONFORMING = "conforming"
#: the kinds an entry may have
KINDS = (UNOBSERVABLE, CONFORMING)

#: a reason is one short line
MAX_REASON_CHARS = 200
# Far more than a triage of every mutant of the runtime would take.
_MAX_FILE_BYTES = 2_000_000


@dataclass(frozen=True)
class Equivalent:
    """One entry: the mutant's id, its kind, why, and where it is written."""

    mutant_id: str
    kind: str
    reason: str
    line: int


def load_equivalents(path: Path) -> list[Equivalent]:
    """Read and check ``path``; a missing file means no equivalents."""
    if not path.exists():
        return []
    try:
        data = read_bytes(path, limit=_MAX_FILE_BYTES)
    except OSError as err:
        raise EquivalentsError([f"{path}: cannot be read: {err.strerror or err}"]) from err
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise EquivalentsError([f"{path}: not UTF-8 (byte {err.start})"]) from err
    return parse_equivalents(text, str(path))


def parse_equivalents(text: str, source: str) -> list[Equivalent]:
    """Every entry of ``text``; raises :class:`EquivalentsError` listing every problem,
    each as ``source:line: what is wrong``."""
    entries: list[Equivalent] = []
    problems: list[str] = []
    first_line: dict[str, int] = {}
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source}:{number}"
        ident, kind, reason = [*line.split(None, 2), "", ""][:3]
        if not ID_PATTERN.fullmatch(ident):
            problems.append(
                f"{where}: not a mutant id: {ident[:120]!r} "
                "(expected module.py:Scope:Operator:digest, as python -m mutation --list prints)"
            )
            continue
        if kind not in KINDS:
            problems.append(
                f"{where}: {ident}: the kind is {kind[:40]!r}, not one of {', '.join(KINDS)}"
                if kind
                else f"{where}: {ident}: no kind after the id ({', '.join(KINDS)})"
            )
            continue
        reason = reason.strip()
        if not reason:
            problems.append(f"{where}: {ident}: no reason after the kind")
            continue
        if not reason.isprintable():
            problems.append(f"{where}: {ident}: the reason has a control character")
            continue
        if len(reason) > MAX_REASON_CHARS:
            problems.append(
                f"{where}: {ident}: the reason is {len(reason)} characters, "
                f"more than {MAX_REASON_CHARS}"
            )
            continue
        if ident in first_line:
            problems.append(f"{where}: {ident}: already listed on line {first_line[ident]}")
            continue
        first_line[ident] = number
        entries.append(Equivalent(ident, kind, reason, number))
    if problems:
        raise EquivalentsError(problems)
    return entries


def stale(entries: Sequence[Equivalent], known: Collection[str]) -> list[Equivalent]:
    """The entries whose id matches no mutant of the current source."""
    return [entry for entry in entries if entry.mutant_id not in known]
