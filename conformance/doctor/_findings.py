"""What the doctor found: one line per finding, each saying what, where and how to fix it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from adapters.errors import ImplementationError
from adapters.handshake import Handshake
from conformance.toolkit.machinery import citation

__all__ = ["ARGS_HINT", "Diagnosis", "Finding", "Probe", "fix_for"]

#: Why ``"args": []`` is not malformed: the suite's vectors take it from the specification.
ARGS_HINT = (
    'the specification\'s examples send "args": [], an empty PHP array, which Python and '
    "JavaScript read as an empty list; the suite means it, like {}, as no arguments: "
    "accept an empty list and run the tool with no arguments"
)

_FIXES = {
    "unreachable": "start the harness, or correct the spec (a stdio: command runs from the "
    "current directory; an http: harness must already be listening)",
    "timeout": "answer every request with exactly one reply within the timeout (over stdio: "
    "one line on stdout, flushed); raise --timeout if the runtime is slow to start",
    "crashed": "the harness process exited: run its command by hand and read its standard "
    "error (its last line is shown)",
    "bad-json": "write exactly one JSON object per reply, and nothing else, on stdout; logs "
    "belong on standard error",
    "schema": "make the reply match the published schema at that pointer "
    "(adapters/schemas/messages.json; trace.json for step records)",
    "protocol": 'answer hello with "protocol": "rttool-adapter/1"',
    "implementation": "answer error only to a request the harness cannot handle at all (an "
    "action the runtime refuses is a step record with outcome refused); fix the harness bug "
    "the message names",
}


#: A step record that names another step than the one asked for.
_ECHO_FIX = (
    "answer each step request with the record of that very step: its index and op exactly "
    "as the request sent them"
)


def fix_for(err: ImplementationError) -> str:
    """How to fix what ``err`` says went wrong, by its kind."""
    if err.kind == "schema" and "does not echo its request" in str(err):
        return _ECHO_FIX
    return _FIXES.get(err.kind, _FIXES["implementation"])


@dataclass(frozen=True)
class Finding:
    """A ``problem`` keeps the harness from being ready to run; a ``gap`` is a runtime
    that is ready but will not conform (``clause`` names the clause it will fail: an
    honest handshake is never a problem for declaring it); a ``note`` is advice."""

    level: Literal["problem", "gap", "note"]
    what: str
    where: str
    fix: str
    #: how many more places showed the same (say, every probe of a harness that never
    #: reports an observation it offers): listed once, counted
    repeats: int = 0
    #: a gap's clause, the one the run will fail
    clause: str | None = None

    def line(self) -> str:
        """``problem at hello /capabilities/restartt: ...; fix: ...``, or for a gap
        ``gap at ... (will fail DR-5 ¶1): ...; to conform: ...``."""
        again = f" (and {self.repeats} more like it)" if self.repeats else ""
        if self.level == "gap":
            fails = f" (will fail {citation(self.clause)})" if self.clause else ""
            return f"gap at {self.where}{again}{fails}: {self.what}; to conform: {self.fix}"
        return f"{self.level} at {self.where}{again}: {self.what}; fix: {self.fix}"


@dataclass(frozen=True)
class Probe:
    """One scenario the doctor sent, why, and whether its answer was sound."""

    scenario: str
    reason: str
    steps: int
    sound: bool


@dataclass
class Diagnosis:
    """Everything the doctor learnt about one harness."""

    spec: str
    handshake: Handshake | None = None
    findings: list[Finding] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    #: the harness could not be driven at all (no usable handshake)
    undrivable: bool = False

    @property
    def problems(self) -> list[Finding]:
        """The findings that keep the harness from being ready."""
        return [finding for finding in self.findings if finding.level == "problem"]

    @property
    def exit_code(self) -> int:
        """3 when it cannot be driven, 1 when problems were found, else 0."""
        if self.undrivable:
            return 3
        return 1 if self.problems else 0

    def seen(self, what: str) -> bool:
        """Whether a finding already says ``what``."""
        return any(known.what == _short(what) for known in self.findings)

    def problem(self, what: str, where: str, fix: str) -> None:
        """Record a problem."""
        self._add(Finding("problem", _short(what), where, fix))

    def gap(self, what: str, where: str, clause: str, fix: str) -> None:
        """Record what the runtime does that ``clause`` forbids: the harness is ready to
        run (the exit code stays 0), and the run will fail that clause."""
        self._add(Finding("gap", _short(what), where, fix, clause=clause))

    def note(self, what: str, where: str, fix: str) -> None:
        """Record a note."""
        self._add(Finding("note", _short(what), where, fix))

    def _add(self, finding: Finding) -> None:
        for index, known in enumerate(self.findings):
            if (known.level, known.what, known.fix) == (finding.level, finding.what, finding.fix):
                self.findings[index] = replace(known, repeats=known.repeats + 1)
                return
        self.findings.append(finding)


def _short(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
