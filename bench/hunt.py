"""The property-based hunt: scenarios per second against the reference runtime
(in-process and over HTTP), and, for each combination mutant, the median number of
examples and seconds until the first failure over ten seeds.  Targets: at least 200
scenarios/s in-process; every combination mutant found in under 5 s median."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from adapters import Driver, connect
from conformance.hunt import INVARIANTS, Budget, hunt

__all__ = ["main"]

REFERENCE = "python:reference_impl.harness:create"


def _combination_mutants() -> list[str]:
    listed = subprocess.run(
        [sys.executable, "-m", "reference_impl.mutants", "--list", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return [m["name"] for m in json.loads(listed.stdout) if m.get("hunt")]


def _throughput(spec: str, seconds: float) -> float:
    """Generated scenarios per second: generation, the run and every invariant included
    (a correct runtime: nothing is shrunk)."""
    driver = Driver(connect(spec, timeout=60), timeout=60)
    try:
        outcome = hunt(
            driver, driver.handshake(), INVARIANTS, Budget(examples=1, seconds=seconds, seed=1)
        )
    finally:
        driver.close()
    return outcome.examples / outcome.elapsed_s


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print figures."""
    parser = argparse.ArgumentParser(prog="python -m bench hunt")
    parser.add_argument("--seconds", type=float, default=20.0, help="throughput budget")
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args(argv)
    from reference_impl.server.process import spawn_server

    print("Hunt throughput against the reference runtime (generation, run, invariants):")
    in_process = _throughput(REFERENCE, args.seconds)
    with (
        tempfile.TemporaryDirectory() as folder,
        spawn_server(Path(folder) / "server.db", log_dir=Path(folder)) as server,
    ):
        over_http = _throughput(server.url, args.seconds)
    verdict = "ok" if in_process >= 200 else "MISS"
    print(f"  in-process {in_process:6.1f} scenarios/s   [{verdict}: at least 200]")
    print(f"  HTTP       {over_http:6.1f} scenarios/s")
    print(f"Combination mutants, first failure over {args.seeds} seeds (before shrinking):")
    for name in _combination_mutants():
        driver = Driver(connect(f"{REFERENCE}?mutant={name}"))
        firsts = []
        try:
            for seed in range(args.seeds):
                # The default budget, stopped at the first finding (before shrinking).
                outcome = hunt(
                    driver,
                    driver.handshake(),
                    INVARIANTS,
                    Budget(seed=seed * 101, shrink_seconds=0.1),
                    enough=lambda found: bool(found.findings),
                )
                firsts.append(outcome.first_failure or (outcome.examples, outcome.elapsed_s))
        finally:
            driver.close()
        examples = statistics.median(first[0] for first in firsts)
        seconds = statistics.median(first[1] for first in firsts)
        verdict = "ok" if seconds < 5 else "MISS"
        print(
            f"  {name:<36} median {examples:6.1f} examples, {seconds:5.2f} s   "
            f"[{verdict}: under 5 s]"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
