"""Wall time of a full ``rttool run`` against the reference runtime, in-process, serially
and with two workers (``-n 2``), target within 15 s on two cores; and of one full run (the
hunt included, serially) against each shipped framework harness whose framework is
installed, target within 60 s: what a vendor waits for."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

__all__ = ["main"]


def _run(workers: int, hunt: bool, impl: str = "reference") -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable,
            "-m",
            "conformance.cli",
            "run",
            "--impl",
            impl,
            "--report-dir",
            folder,
            "-q",
            "-n",
            str(workers),
        ]
        if not hunt:
            command.append("--no-hunt")
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        return time.perf_counter() - started, done.returncode


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print figures."""
    parser = argparse.ArgumentParser(prog="python -m bench suite")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print("Full rttool run against the reference runtime (wall time, best of runs):")
    for workers in (1, 2):
        for hunt in (True, False):
            times = []
            for _ in range(args.repeat):
                seconds, code = _run(workers, hunt)
                times.append(seconds)
                if code != 0:
                    print(f"  (exit code {code})")
            best = min(times)
            label = f"-n {workers}, {'with' if hunt else 'without'} the hunt"
            verdict = "ok" if best <= 15 else "MISS"
            print(
                f"  {label:<26} {best:6.2f} s   (runs: "
                f"{', '.join(f'{t:.2f}' for t in times)})   [{verdict}: within 15 s]"
            )
    _frameworks()
    return 0


def _frameworks() -> None:
    """One full run (the hunt included, serially) against each shipped framework harness,
    from the checkout's root as ``rttool publish`` runs it."""
    from conformance.publish import COMMITTED

    print("Full rttool run against each shipped framework harness (wall time, one run):")
    for entry in COMMITTED:
        if entry.name in ("reference", "toy"):
            continue
        absent = entry.missing()
        if absent:
            print(f"  {entry.name:<18} not measured: {', '.join(absent)} not installed")
            continue
        seconds, code = _run(1, True, entry.impl)
        verdict = "ok" if seconds <= 60 else "MISS"
        print(
            f"  {entry.name:<18} {seconds:6.2f} s   (exit code {code})   [{verdict}: within 60 s]"
        )


if __name__ == "__main__":
    raise SystemExit(main())
