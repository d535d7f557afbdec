"""What ``make test`` costs, stage by stage: wall time, CPU time (user and system, of
every process the stage started) and the machine's load before and after.

The machine is shared, so wall time alone says little: CPU time is what the stage
itself spent, and the ratio of the two shows how much it waited (for the other core,
for other work, for the disk).  Target: ``make test`` in under 10 minutes on two idle
cores, under 20 beside another suite run.
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["STAGES", "Stage", "chosen_stages", "main"]

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PYTEST = [sys.executable, "-m", "pytest", "-q", "-n", "2"]


@dataclass(frozen=True)
class Stage:
    """A stage of ``make test``: its ``commands``, one after another, and a command run
    ``beside`` them, at the same time (as the Makefile runs mypy beside the slow tier)."""

    commands: tuple[tuple[str, ...], ...]
    beside: tuple[str, ...] | None = None


#: ``make test``'s stages, as the Makefile runs them.
STAGES: dict[str, Stage] = {
    "lint": Stage(
        (
            (str(BIN / "ruff"), "check", "."),
            (str(BIN / "ruff"), "format", "--check", "."),
            (sys.executable, "-m", "conformance.cli", "rules", "lint"),
        )
    ),
    "unit": Stage(((*PYTEST, "-m", "not slow"),)),
    "slow-and-typecheck": Stage(
        ((*PYTEST, "-m", "slow", "--dist", "loadgroup"),), beside=(sys.executable, "-m", "mypy")
    ),
    "selftest": Stage(((sys.executable, "-m", "conformance.cli", "selftest"),)),
}


@dataclass(frozen=True)
class Cost:
    """One stage: seconds of wall time and of CPU, load averages, exit code."""

    stage: str
    wall: float
    cpu: float
    load_before: float
    load_after: float
    code: int


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def measure(stage: str) -> Cost:
    """Run ``stage``'s commands one after another (all of them, as make would stop at the
    first failing one only to save time), and its command beside them."""
    # Compiled bytecode is cached as under make, which unexports the variable.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    chosen = STAGES[stage]
    before = os.getloadavg()[0]
    cpu, started, code = _cpu(), time.perf_counter(), 0
    beside = (
        subprocess.Popen(
            chosen.beside, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        if chosen.beside is not None
        else None
    )
    for command in chosen.commands:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, check=False)
        code = code or done.returncode
    if beside is not None:
        waited = beside.wait()
        code = code or waited
    return Cost(
        stage, time.perf_counter() - started, _cpu() - cpu, before, os.getloadavg()[0], code
    )


def chosen_stages(argv: Sequence[str] | None) -> list[str]:
    """The stages named on the command line, in order; every stage when none is."""
    parser = argparse.ArgumentParser(prog="python -m bench loop")
    # The stages are checked here, not by argparse's choices: on Python 3.11 a "*"
    # positional given nothing is checked against its choices as one empty list.
    parser.add_argument("stages", nargs="*", metavar="STAGE", help=", ".join(STAGES))
    args = parser.parse_args(argv)
    unknown = [stage for stage in args.stages if stage not in STAGES]
    if unknown:
        parser.error(f"no such stage: {', '.join(unknown)} (choose from {', '.join(STAGES)})")
    return list(args.stages) or list(STAGES)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print figures."""
    stages = chosen_stages(argv)
    today = datetime.date.today().isoformat()
    print(f"make test, stage by stage ({today}; {os.cpu_count()} cores):")
    print(f"  {'stage':<18} {'wall':>8} {'cpu':>8} {'cpu/wall':>9}  load before/after  exit")
    costs = [measure(stage) for stage in stages]
    for cost in costs:
        print(
            f"  {cost.stage:<18} {cost.wall:7.1f}s {cost.cpu:7.1f}s {cost.cpu / cost.wall:8.2f}x"
            f"  {cost.load_before:5.2f} / {cost.load_after:5.2f}      {cost.code}"
        )
    wall, cpu = sum(c.wall for c in costs), sum(c.cpu for c in costs)
    verdict = "ok" if wall <= 600 else "MISS"
    print(f"  {'total':<18} {wall:7.1f}s {cpu:7.1f}s   [{verdict}: within 10 minutes idle]")
    return 0 if all(cost.code == 0 for cost in costs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
