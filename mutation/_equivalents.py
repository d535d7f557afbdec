"""The committed list of equivalent mutants: mutants that cannot change anything a
runtime's user or the suite can observe.

One entry a line: the mutant's stable id, then, after white space, a one-line reason::

    # blank lines and lines starting with '#' are ignored
    wire.py:<module>:NumberReplacer:0a1b2c3d  a cache size: no output depends on it

Equivalents are never run and never counted in the score. An entry whose id matches no
mutant of the current source is *stale*: the code it was about has changed, so the
triage must be done again.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from mutation._catalogue import ID_PATTERN
from mutation._errors import EquivalentsError

__all__ = ["MAX_REASON_CHARS", "Equivalent", "load_equivalents", "parse_equivalents", "stale"]

#: a reason is one short line
MAX_REASON_CHARS = 200
# Far more than a triage of every mutant of the runtime would take.
_MAX_FILE_BYTES = 2_000_000


@dataclass(frozen=True)
class Equivalent:
    """One entry: the mutant's id, why it is equivalent, and where it is written."""

    mutant_id: str
    reason: str
    line: int


def load_equivalents(path: Path) -> list[Equivalent]:
    """Read and check ``path``; a missing file means no equivalents."""
    if not path.exists():
        return []
    try:
        data = path.read_bytes()[: _MAX_FILE_BYTES + 1]
    except OSError as err:
        raise EquivalentsError([f"{path}: cannot be read: {err.strerror or err}"]) from err
    if len(data) > _MAX_FILE_BYTES:
        raise EquivalentsError([f"{path}: larger than {_MAX_FILE_BYTES} bytes"])
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
        ident, *rest = line.split(None, 1)
        reason = rest[0].strip() if rest else ""
        if not ID_PATTERN.fullmatch(ident):
            problems.append(
                f"{where}: not a mutant id: {ident[:120]!r} "
                "(expected module.py:Scope:Operator:digest, as python -m mutation --list prints)"
            )
            continue
        if not reason:
            problems.append(f"{where}: {ident}: no reason after the id")
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
        entries.append(Equivalent(ident, reason, number))
    if problems:
        raise EquivalentsError(problems)
    return entries


def stale(entries: Sequence[Equivalent], known: Collection[str]) -> list[Equivalent]:
    """The entries whose id matches no mutant of the current source."""
    return [entry for entry in entries if entry.mutant_id not in known]
