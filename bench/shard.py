"""A run split into shards on this machine, and a long hunt shared through Redis.

* the wall time of a reproducible ``rttool run`` against the reference runtime split in
  1, 2 and 4 shards, the shards started together, their standings merged (as ratios to
  the unsplit run: on two cores, more than two shards only share the cores);
* the examples per second of a hunt of ``--hunt-seconds`` across two shards sharing one
  Redis (``--example-db``), against one unsplit hunt of the same length.

Needs ``redis-server`` on the PATH (or at Debian's path) for the second figure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

__all__ = ["main"]


def _rttool(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "conformance.cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )


def _wait(runs: list[subprocess.Popen[str]]) -> None:
    for run in runs:
        _, err = run.communicate()
        if run.returncode not in (0, 1):
            raise SystemExit(f"a run failed with {run.returncode}: {err.strip()[-300:]}")


def split_run(count: int, examples: int, folder: Path) -> float:
    """Seconds from starting ``count`` shards together to their merged standing."""
    common = ["run", "-q", "--reproducible", "--examples", str(examples)]
    started = time.perf_counter()
    if count == 1:
        _wait([_rttool(*common, "--report-dir", str(folder / "whole"), env={"CI": "true"})])
        return time.perf_counter() - started
    shards = [folder / f"{count}-{index}" for index in range(1, count + 1)]
    _wait(
        [
            _rttool(*common, "--shard", f"{i}/{count}", "--report-dir", str(s), env={"CI": "true"})
            for i, s in enumerate(shards, start=1)
        ]
    )
    merged = folder / f"{count}-merged"
    _wait([_rttool("report", "merge", *map(str, shards), "--out", str(merged))])
    seconds = time.perf_counter() - started
    same = (merged / "standing.json").read_bytes() == (
        folder / "whole" / "standing.json"
    ).read_bytes()
    print(f"    {count} shards merged {'equal' if same else 'DIFFER FROM'} the unsplit standing")
    return seconds


def _redis(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(binary).exists():
        raise SystemExit("redis-server is not installed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    argv = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(folder)]
    server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    return server, f"redis://127.0.0.1:{port}/0"


def _hunt_rate(folders: list[Path]) -> tuple[int, float]:
    """Examples judged in all, and the longest hunt's elapsed seconds."""
    hunts = [json.loads((f / "standing.json").read_text("utf-8"))["hunt"] for f in folders]
    return sum(h["examples"] for h in hunts), max(h["elapsed_s"] for h in hunts)


def shared_hunt(seconds: float, folder: Path) -> tuple[float, float, int]:
    """Examples/s of one unsplit hunt and of two shards sharing Redis, and how many saved
    examples the shards replayed (saved examples are counterexamples: each run's count of
    them is printed, since the reference runtime is expected to have none)."""
    server, url = _redis(folder)
    try:
        common = ["run", "-q", "--hunt-seconds", str(seconds), "--example-db", url]
        alone = folder / "alone"
        _wait([_rttool(*common, "--report-dir", str(alone))])
        shards = [folder / f"hunt-{index}" for index in (1, 2)]
        _wait(
            [
                _rttool(*common, "--shard", f"{i}/2", "--report-dir", str(s))
                for i, s in enumerate(shards, start=1)
            ]
        )
    finally:
        server.terminate()
        server.wait()
    for name, report in (("unsplit", alone), *((f"shard {i}", s) for i, s in enumerate(shards, 1))):
        hunt = json.loads((report / "standing.json").read_text("utf-8"))["hunt"]
        print(f"    {name}: {hunt['examples']} examples, {hunt['counterexamples']} counterexamples")
    one, one_s = _hunt_rate([alone])
    two, two_s = _hunt_rate(shards)
    replayed = sum(
        int(json.loads((s / "standing.json").read_text("utf-8"))["hunt"].get("replayed", 0))
        for s in shards
    )
    return one / one_s, two / two_s, replayed


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print figures."""
    parser = argparse.ArgumentParser(prog="python -m bench shard")
    parser.add_argument("--examples", type=int, default=150)
    parser.add_argument("--hunt-seconds", type=float, default=60.0)
    args = parser.parse_args(argv)
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f} (1 min) at the start"
    )
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        print(f"A reproducible run ({args.examples} hunt examples) split in shards run together:")
        times = {count: split_run(count, args.examples, folder) for count in (1, 2, 4)}
        for count, seconds in times.items():
            print(f"  {count} shard(s): {seconds:6.1f} s   ratio {seconds / times[1]:.2f}")
        print(f"A {args.hunt_seconds:.0f} s hunt, unsplit and across 2 shards sharing Redis:")
        alone, shared, replayed = shared_hunt(args.hunt_seconds, folder)
        print(f"  unsplit:  {alone:7.1f} examples/s")
        print(
            f"  2 shards: {shared:7.1f} examples/s   ratio {shared / alone:.2f}   "
            f"({replayed} saved examples replayed)"
        )
    print(f"load {os.getloadavg()[0]:.1f} (1 min) at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
