"""Which mutants a run takes: all of them, a seeded sample, or a listed few (for example
the survivors of the last run, to re-measure after strengthening a check)."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from adapters.files import read_bytes
from mutation._catalogue import ID_PATTERN, Mutant
from mutation._errors import SelectionError

__all__ = ["Selection", "read_id_list", "select"]

_MAX_LIST_BYTES = 2_000_000


@dataclass(frozen=True)
class Selection:
    """The mutants to run, and the listed or enumerated ones left out as equivalent."""

    chosen: list[Mutant]
    equivalent: int
    population: int


def read_id_list(path: Path) -> list[tuple[int, str]]:
    """(line, id) of every id in a list file: the first word of each line, ``#`` comments
    and blank lines ignored (``survivors.txt`` of a run is such a file)."""
    try:
        data = read_bytes(path, limit=_MAX_LIST_BYTES)
    except OSError as err:
        raise SelectionError([f"{path}: cannot be read: {err.strerror or err}"]) from err
    text = data.decode("utf-8", errors="replace")
    found, problems = [], []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        ident = line.split(None, 1)[0]
        if ID_PATTERN.fullmatch(ident):
            found.append((number, ident))
        else:
            problems.append(f"{path}:{number}: not a mutant id: {ident[:120]!r}")
    if problems:
        raise SelectionError(problems)
    return found


def select(
    mutants: Sequence[Mutant],
    equivalent: Collection[str],
    *,
    listed: Sequence[tuple[int, str]] | None = None,
    listed_from: str = "",
    sample: int | None = None,
    seed: int = 0,
) -> Selection:
    """Choose the mutants to run, in the order to run them; equivalents are never run.

    ``listed`` names mutants by id (an unknown id is an error naming its line). The
    non-equivalent mutants are shuffled with ``random.Random(seed)`` (from id order, so
    that the order does not depend on enumeration order), and ``sample`` keeps the first
    that many: samples of one seed are nested, and any prefix of a full run, say one
    that was interrupted, is a uniform random sample too.
    """
    by_id = {mutant.id: mutant for mutant in mutants}
    if listed is not None:
        unknown = [
            f"{listed_from}:{line}: no mutant has the id {ident} (the code changed?)"
            for line, ident in listed
            if ident not in by_id
        ]
        if unknown:
            raise SelectionError(unknown)
        pool = [by_id[ident] for ident in dict.fromkeys(ident for _, ident in listed)]
    else:
        pool = list(mutants)
    candidates = sorted(
        (mutant for mutant in pool if mutant.id not in equivalent), key=lambda m: m.id
    )
    skipped = len(pool) - len(candidates)
    random.Random(seed).shuffle(candidates)
    if sample is not None:
        candidates = candidates[:sample]
    return Selection(candidates, skipped, len(pool))
