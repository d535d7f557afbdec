"""What a mutation run leaves in its output directory, and the lines it prints.

``results.json`` holds everything (the score, timing, every outcome, survivors with their
diffs, stale triage entries). The *gaps* are the survivors not triaged as conforming
variants: ``survivors.md`` lists them grouped by module and function, each with its
diff, and ``survivors.txt`` lists their ids, one a line, so that ``--only`` can run them
again.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

from adapters.files import write_file
from mutation._catalogue import Mutant, apply_mutant
from mutation._equivalents import Equivalent
from mutation._execute import Outcome, Status
from mutation._score import Score, Timing

__all__ = ["FORMAT", "RunRecord", "diff_of", "progress_line", "summary_lines", "write_outputs"]

#: the version of results.json's layout
FORMAT = "rttool-mutation/1"


@dataclass(frozen=True)
class RunRecord:
    """Everything one run measured, ready to be written."""

    tool: str
    package: str
    enumerated: int
    equivalents: int  # unobservable: never run
    mode: str  # "all", "sample", "listed", or "rescored" (outcomes kept by an earlier run)
    sample: int | None
    seed: int | None
    listed_from: str | None
    outcomes: Sequence[Outcome]
    score: Score
    timing: Timing
    stale: Sequence[Equivalent]
    interrupted: bool
    conforming: frozenset[str] = frozenset()  # ids triaged as conforming variants
    population: int | None = None  # for "rescored": how many mutants are not unobservable
    hunt: str = "off"  # the hunt of each suite run: "off", or "seed S, N examples"


def diff_of(mutant: Mutant, source: str, package: str) -> str:
    """The unified diff (two lines of context) that ``mutant`` makes to its module."""
    path = f"{package}/{mutant.module}"
    lines = difflib.unified_diff(
        source.splitlines(),
        apply_mutant(mutant, source).splitlines(),
        fromfile=f"a/{path}",
        tofile=f"b/{path}",
        n=2,
        lineterm="",
    )
    return "\n".join(lines)


def write_outputs(
    out: Path, record: RunRecord, mutants: Mapping[str, Mutant], sources: Mapping[str, str]
) -> None:
    """Write ``results.json``, ``survivors.md`` and ``survivors.txt`` into ``out``."""
    survivors = [
        o
        for o in record.outcomes
        if o.status is Status.SURVIVED and o.mutant_id not in record.conforming
    ]
    diffs = {
        o.mutant_id: diff_of(
            mutants[o.mutant_id], sources[mutants[o.mutant_id].module], record.package
        )
        for o in survivors
    }
    ratio = record.score.ratio
    interval = record.score.interval() if _estimated(record) else None
    data = {
        "format": FORMAT,
        "tool": record.tool,
        "package": record.package,
        "enumerated": record.enumerated,
        "equivalents": record.equivalents,
        "selection": {
            "mode": record.mode,
            "sample": record.sample,
            "seed": record.seed,
            "listed_from": record.listed_from,
        },
        "interrupted": record.interrupted,
        "hunt": record.hunt,
        "score": {
            "run": record.score.run,
            "detected": record.score.detected,
            "killed": record.score.killed,
            "crashed": record.score.crashed,
            "timeout": record.score.timeout,
            "survived": record.score.survived,
            "invalid": record.score.invalid,
            "ratio": round(ratio, 4) if ratio is not None else None,
            "conforming": record.score.conforming,
            "conforming_killed": record.score.conforming_killed,
            "hunt_only": record.score.hunt_only,
            "rule_ratio": _rounded(record.score.rule_ratio),
            "interval95": [round(v, 4) for v in interval] if interval else None,
        },
        "timing": {
            "total_s": record.timing.total_s,
            "baseline_s": record.timing.baseline_s,
            "median_s": record.timing.median_s,
            "max_s": record.timing.max_s,
            "jobs": record.timing.jobs,
        },
        "stale_equivalents": [{"id": e.mutant_id, "line": e.line} for e in record.stale],
        "outcomes": [
            _outcome_json(
                o, mutants[o.mutant_id], diffs.get(o.mutant_id), o.mutant_id in record.conforming
            )
            for o in record.outcomes
        ],
    }
    write_file(out, "results.json", (json.dumps(data, indent=1) + "\n").encode("utf-8"))
    ordered = sorted(survivors, key=lambda o: _place(mutants[o.mutant_id]))
    listed = "".join(f"{o.mutant_id}\n" for o in ordered)
    write_file(out, "survivors.txt", listed.encode("utf-8"))
    page = _survivors_markdown(record, [mutants[o.mutant_id] for o in ordered], diffs)
    write_file(out, "survivors.md", page.encode("utf-8"))


def progress_line(
    done: int, total: int, outcome: Outcome, killed: int, survived: int, left_s: float | None
) -> str:
    """The line ``make mutation`` prints as a mutant finishes: how far the run is, the
    mutant's status and time, the killed and surviving so far, and an estimate of the
    time left (``left_s``, from the pace so far; none before a pace is known)."""
    left = "" if left_s is None else f"; about {_duration(left_s)} left"
    return (
        f"[{done:>5}/{total}] {outcome.status.value:<8} {outcome.seconds:6.1f} s  "
        f"{outcome.mutant_id}  ({killed} killed, {survived} survived so far{left})"
    )


def summary_lines(record: RunRecord, out: Path) -> list[str]:
    """The lines printed at the end of a run."""
    s, t = record.score, record.timing
    lines = [
        f"mutation: {record.enumerated} mutants of {record.package} ({record.tool}), "
        f"{record.equivalents} unobservable (not run); "
        + (f"{s.run} scored" if record.mode == "rescored" else f"{s.run} run with {t.jobs} jobs")
        + (" (interrupted)" if record.interrupted else "")
    ]
    if s.ratio is None:
        lines.append("mutation: no mutant was run")
    else:
        lines.append(
            f"mutation: score {_percent(s.ratio)} ({s.detected} of {s.run} killed: "
            f"{s.killed} by failing cases, {s.crashed} crashed, {s.timeout} timed out; "
            f"{s.survived} survived)"
        )
        if record.hunt != "off":
            lines.append(
                f"mutation: the hunt ran in each suite run ({record.hunt}); it alone killed "
                f"{s.hunt_only} of the {s.killed} mutants killed by failing cases"
            )
        if s.conforming and s.rule_ratio is not None:
            lines.append(
                f"mutation: over the mutants that break a rule ({s.conforming} run mutants "
                f"triaged as conforming variants left out): {_percent(s.rule_ratio)}"
            )
        if s.conforming_killed:
            lines.append(
                f"mutation: warning: {s.conforming_killed} mutants triaged as conforming were "
                "killed: the triage or a check is wrong (see results.json)"
            )
        if s.invalid:
            lines.append(
                f"mutation: {s.invalid} more mutants do not compile and are left out of the score"
            )
        interval = s.interval()
        if record.mode == "rescored" and interval and _partial(record):
            lines.append(
                f"mutation: rescored from the {s.run} scored outcomes kept; if they are what "
                f"a cut-short run finished (a random sample), 95% interval "
                f"{_percent(interval[0])} to {_percent(interval[1])}"
            )
        elif _estimated(record) and interval:
            lines.append(
                f"mutation: estimate from a random sample of {s.run} (seed {record.seed}), "
                f"95% interval {_percent(interval[0])} to {_percent(interval[1])}"
            )
        if record.mode == "listed":
            lines.append(f"mutation: the score is over the mutants listed in {record.listed_from}")
    median = f"{t.median_s:.1f} s" if t.median_s is not None else "-"
    if record.mode == "rescored":
        lines.append(f"mutation: nothing was run; the kept outcomes took a median {median} each")
    else:
        lines.append(
            f"mutation: time {_duration(t.total_s)} in all, baseline {t.baseline_s:.1f} s, "
            f"median {median} per mutant"
        )
    for entry in record.stale:
        lines.append(
            f"mutation: stale equivalent: line {entry.line}: {entry.mutant_id} "
            "matches no mutant any more; triage it again or remove it"
        )
    lines.append(f"mutation: results in {out} (results.json, survivors.md, survivors.txt)")
    return lines


def _partial(record: RunRecord) -> bool:
    scored = record.score.run + record.score.invalid
    return record.population is not None and scored < record.population


def _estimated(record: RunRecord) -> bool:
    """Whether the score is an estimate: a sample, or a full run cut short (which ran in
    a seeded random order, so what finished is a random sample too)."""
    if record.mode == "rescored":
        return _partial(record)
    return record.mode == "sample" or (record.mode == "all" and record.interrupted)


def _outcome_json(
    outcome: Outcome, mutant: Mutant, diff: str | None, conforming: bool
) -> dict[str, object]:
    entry: dict[str, object] = {
        "id": outcome.mutant_id,
        "module": mutant.module,
        "scope": mutant.scope,
        "operator": mutant.operator,
        "line": mutant.line,
        "code": mutant.code,
        "status": outcome.status.value,
        "exit_code": outcome.exit_code,
        "seconds": outcome.seconds,
        "detail": outcome.detail,
        "hunt_only": outcome.hunt_only,
    }
    if conforming:
        entry["triage"] = "conforming"
    if diff is not None:
        entry["diff"] = diff
    return entry


def _place(mutant: Mutant) -> tuple[str, int, str]:
    return mutant.module, mutant.line, mutant.id


def _survivors_markdown(
    record: RunRecord, survivors: Sequence[Mutant], diffs: Mapping[str, str]
) -> str:
    s = record.score
    head = [
        "# Surviving mutants",
        "",
        f"{s.survived} of {s.run} mutants run survived"
        + (f" (score {_percent(s.ratio)})" if s.ratio is not None else "")
        + f"; selection: {record.mode}. Listed here are the gaps: the survivors not triaged"
        + f" as conforming variants ({s.conforming - s.conforming_killed} of the survivors"
        + " are).",
        "",
    ]
    body: list[str] = []
    for module, in_module in groupby(survivors, key=lambda m: m.module):
        body += [f"## {record.package}/{module}", ""]
        for scope, in_scope in groupby(in_module, key=lambda m: m.scope):
            body += [f"### `{scope}`", ""]
            for mutant in in_scope:
                diff = diffs[mutant.id]
                fence = "`" * max(3, _longest_backtick_run(diff) + 1)
                body += [
                    f"- `{mutant.id}` (line {mutant.line}, {mutant.operator_short})",
                    "",
                    f"{fence}diff",
                    diff,
                    fence,
                    "",
                ]
    return "\n".join(head + body)


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0)


def _rounded(value: float | None) -> float | None:
    return round(value, 4) if value is not None else None


def _percent(ratio: float) -> str:
    return f"{100 * ratio:.1f}%"


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}h{minutes:02d}m{rest:02d}s"
    return f"{minutes}m{rest:02d}s" if minutes else f"{seconds:.1f} s"
