"""Which rules' cases can reach a mutant: read from the map the unmutated run recorded
(``conformance/cli/_mutant_reach.py`` says how), so that a mutant of a line only some
rules' cases run is judged by those rules' cases alone (``rttool run --only RULE``).

Anything not known for sure falls back to the whole suite: a module or line the map does
not hold, a line the hunt or the start-up runs (``*``), a map that cannot be read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from mutation._catalogue import Mutant

__all__ = ["Order", "Reach", "cases_reaching", "load_order", "load_reach", "rules_reaching"]

#: module name -> line (as text) -> the rules whose cases run it
Reach = Mapping[str, Mapping[str, tuple[str, ...]]]
#: module name -> line (as text) -> the first cases (ids) that ran it, in the order they did
Order = Mapping[str, Mapping[str, tuple[str, ...]]]
# A case id is a clause or an example, a slash, a name and perhaps a bracketed variant;
# a few hundred characters at most.
_CASE = re.compile(r"^[A-Z][A-Z0-9-]*#[ce][0-9]+/[^\x00-\x1f]{1,300}$")

_RULE = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*$")
_EVERY_RULE = "*"
# The map of a few thousand lines is a few hundred KB; anything far larger is not one.
_MAX_CHARS = 20_000_000


def load_reach(path: Path) -> Reach:
    """The map at ``path``; empty (the whole suite for every mutant) when it is missing
    or malformed. Entries that are not a rule id or ``*`` make their line unknown."""
    try:
        data = json.loads(path.read_text(encoding="utf-8")[:_MAX_CHARS])
    except (OSError, ValueError):
        return {}
    reach: dict[str, dict[str, tuple[str, ...]]] = {}
    for module, lines in data.items() if isinstance(data, dict) else ():
        if not isinstance(lines, dict):
            continue
        known = {
            str(line): tuple(rules)
            for line, rules in lines.items()
            if isinstance(rules, list)
            and rules
            and all(isinstance(r, str) and (r == _EVERY_RULE or _RULE.match(r)) for r in rules)
        }
        reach[str(module)] = known
    return reach


def rules_reaching(reach: Reach, mutant: Mutant) -> tuple[str, ...]:
    """The rules whose cases run the mutant's line, or ``()`` for the whole suite."""
    rules = reach.get(mutant.module, {}).get(str(mutant.line), ())
    return () if _EVERY_RULE in rules else rules


def load_order(path: Path) -> Order:
    """The order map at ``path``; empty (the suite's own order for every mutant) when it
    is missing or malformed.  Entries that are not case ids are left out."""
    try:
        data = json.loads(path.read_text(encoding="utf-8")[:_MAX_CHARS])
    except (OSError, ValueError):
        return {}
    order: dict[str, dict[str, tuple[str, ...]]] = {}
    for module, lines in data.items() if isinstance(data, dict) else ():
        if isinstance(lines, dict):
            order[str(module)] = {
                str(line): tuple(c for c in cases if isinstance(c, str) and _CASE.match(c))
                for line, cases in lines.items()
                if isinstance(cases, list)
            }
    return order


def cases_reaching(order: Order, mutant: Mutant) -> tuple[str, ...]:
    """The cases that ran the mutant's line in the unmutated run (the first of them), to
    be tried first; ``()`` when the map does not know the line."""
    return order.get(mutant.module, {}).get(str(mutant.line), ())
