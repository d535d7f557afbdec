"""Which rules' cases reach each line of the runtime: recorded once, on the unmutated
runtime, so that a mutant of a line only some rules' cases run is judged by those
rules' cases alone.

A line's reach is the set of rules of the cases that ran it.  The hunt is one search
for every invariant, run by whichever of its cases comes first, and the same search
whatever rules are chosen: a line it runs is reached by the rules of every invariant.
A line run anywhere else counts as reached by every rule (``*``): outside any case (the
handshake, start-up), or in a module or class body (imports, decorators, defaults:
whatever is bound once for the whole run).
A line never run is left out; a mutant of it is judged by the whole suite.

Beside it (``order.json``), the cases that ran each line, in the order they first did
(hunt cases left out, at most :data:`ORDER_CASES` a line): a mutant's run tries them
first, so that a run that stops at its first failing case stops early.  The map is
only as good as the runtime is deterministic: a line that one run reaches and another
does not (an order decided by random identifiers) may be missed.
"""

from __future__ import annotations

import inspect
import json
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

__all__ = ["EVERY_RULE", "ORDER_CASES", "ORDER_FILE", "recording"]

#: the reach of a line that every rule's cases may depend on
EVERY_RULE = "*"
#: the cases kept a line in the order map: a line this many cases run is run by most,
#: and the first of them fails as soon as any would
ORDER_CASES = 50
#: the order map's name, beside the reach map
ORDER_FILE = "order.json"

_Tracer = Callable[[FrameType, str, Any], Any]


class _Recorder:
    """What the tracer has seen: the rules and the case running now, and for each line
    (file, number) the rules whose cases ran it and the first cases that did."""

    def __init__(self) -> None:
        self.rules: tuple[str, ...] = (EVERY_RULE,)
        self.case: str | None = None
        self.reach: dict[tuple[str, int], set[str]] = {}
        self.order: dict[tuple[str, int], dict[str, None]] = {}

    def note(self, frame: FrameType) -> None:
        body = not frame.f_code.co_flags & inspect.CO_NEWLOCALS  # a module or class body
        where = (frame.f_code.co_filename, frame.f_lineno)
        self.reach.setdefault(where, set()).update((EVERY_RULE,) if body else self.rules)
        if self.case is not None:
            ran = self.order.setdefault(where, {})
            if len(ran) < ORDER_CASES:
                ran[self.case] = None

    def write(self, root: str, into: Path) -> None:
        """The reach map to ``into``, the order map beside it."""
        rules = {
            where: [EVERY_RULE] if EVERY_RULE in found else sorted(found)
            for where, found in self.reach.items()
        }
        _write(rules, root, into)
        cases = {where: list(found) for where, found in self.order.items()}
        _write(cases, root, into.with_name(ORDER_FILE))


@contextmanager
def recording(package: Path, into: Path) -> Iterator[None]:
    """Within the block, record which rules' cases run each line of the Python files
    under ``package``; write the map to ``into`` (``{"module.py": {"line": [rules]}}``),
    and which cases ran it beside it (:data:`ORDER_FILE`)."""
    from conformance.engine import Session, load_suite, rules_of

    invariants = load_suite().invariants
    hunted = rules_of(clause for invariant in invariants for clause in invariant.clauses)
    root = str(package.resolve()) + "/"
    seen = _Recorder()

    def local(frame: FrameType, event: str, arg: object) -> _Tracer:
        if event == "line":
            seen.note(frame)
        return local

    def calls(frame: FrameType, event: str, arg: object) -> _Tracer | None:
        if event == "call" and frame.f_code.co_filename.startswith(root):
            seen.note(frame)
            return local
        return None

    original = Session.execute

    def execute(self: Session, case: Any) -> Any:
        seen.rules = hunted if case.kind == "hunt" else tuple(case.rules)
        seen.case = None if case.kind == "hunt" else case.id
        try:
            return original(self, case)
        finally:
            seen.rules, seen.case = (EVERY_RULE,), None

    Session.execute = execute  # type: ignore[method-assign]
    threading.settrace(calls)
    sys.settrace(calls)
    try:
        yield
    finally:
        sys.settrace(None)
        threading.settrace(None)
        Session.execute = original  # type: ignore[method-assign]
        seen.write(root, into)


def _write(found: dict[tuple[str, int], list[str]], root: str, into: Path) -> None:
    by_module: dict[str, dict[str, list[str]]] = {}
    for (filename, line), names in found.items():
        by_module.setdefault(filename[len(root) :], {})[str(line)] = names
    from adapters.files import write_file

    write_file(into.parent, into.name, json.dumps(by_module, sort_keys=True).encode("utf-8"))
