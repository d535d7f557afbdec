"""The property-based hunt: scenarios per second against the reference runtime
(in-process and over HTTP), with the CPU time each takes, and, for each combination
mutant, the median number of examples and seconds until the first failure over ten
seeds.  Targets: at least 200 scenarios/s in-process; every combination mutant found
in under 5 s median.

It also runs one seeded search twice, against the runtime and then answered from the
replies the runtime gave: the second rate is the hunt's own ceiling, what no runtime
however fast could exceed with this search and these invariants.

``--against REV`` measures this tree's in-process throughput and that of git revision
``REV`` alternately in one run, so that both meet the same load, and prints the ratio,
with the size of the scenarios each tree's generator drew (two generators that draw
scenarios of different sizes are not compared like for like).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from adapters import Driver, Harness, ImplementationError, Message, connect
from adapters.inprocess import InProcessConnection, load_harness
from conformance.engine import load_suite
from conformance.hunt import Budget, hunt

__all__ = ["ceiling", "main"]

REFERENCE = "python:reference_impl.harness:create"
ROOT = Path(__file__).resolve().parents[1]

#: Run in a fresh interpreter over one source tree (first on the import path): a seeded,
#: counted search against the reference runtime in-process, after a warm-up search, so
#: that two trees generate and judge exactly the same scenarios.  Only names both the
#: tree measured and its predecessors publish are used.
_PROBE = """
import json, sys, time
from adapters import Driver
from adapters.inprocess import InProcessConnection, load_harness
from conformance.hunt import Budget, hunt
try:
    from conformance.engine import load_suite
    INVARIANTS = load_suite().invariants
except ImportError:  # a tree from before the engine
    from conformance.hunt import INVARIANTS
class Counting:
    def __init__(self, inner):
        self.inner, self.scenarios, self.steps, self.calls = inner, 0, 0, 0
    def request(self, message):
        if message.get("cmd") == "start":
            scenario = message["scenario"]
            self.scenarios += 1
            self.steps += len(scenario.get("steps", ()))
            self.calls += sum(len(r.get("tool_calls") or ()) for r in scenario.get("model", ()))
        return self.inner.request(message)
examples = int(sys.argv[1])
harness = Counting(load_harness("reference_impl.harness:create"))
driver = Driver(InProcessConnection("python:bench", harness), timeout=60)
handshake = driver.handshake()
warm = Budget(examples=25, seconds=1e6, seed=99, derandomize=True, limit=25)
hunt(driver, handshake, INVARIANTS, warm)
harness.scenarios = harness.steps = harness.calls = 0
budget = Budget(examples=examples, seconds=1e6, seed=1, derandomize=True, limit=examples)
wall, cpu = time.perf_counter(), time.process_time()
outcome = hunt(driver, handshake, INVARIANTS, budget)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
count = max(1, harness.scenarios)
print(json.dumps({"examples": outcome.examples, "wall": wall, "cpu": cpu,
                  "steps": harness.steps / count, "calls": harness.calls / count}))
"""


class _Recording:
    """A harness that answers as ``inner`` does, keeps a copy of every request and reply,
    and tallies the scenarios it is asked to start (their steps and the tool calls their
    model makes)."""

    def __init__(self, inner: Harness) -> None:
        self.inner = inner
        self.exchanges: list[tuple[Message, Message]] = []
        self.scenarios = self.steps = self.calls = 0

    def request(self, message: Message) -> Message:
        if message.get("cmd") == "start":
            self.scenarios += 1
            scenario = message.get("scenario")
            assert isinstance(scenario, dict)
            self.steps += len(scenario.get("steps", ()))
            self.calls += sum(len(r.get("tool_calls") or ()) for r in scenario.get("model", ()))
        reply = self.inner.request(message)
        if message.get("cmd") != "bye":  # closing is answered by the replay itself
            self.exchanges.append((json.loads(json.dumps(message)), json.loads(json.dumps(reply))))
        return reply


class _Replaying:
    """A harness that answers with the replies a :class:`_Recording` kept, in order, as
    long as it is asked exactly what was asked then: the same seeded search asks the same
    questions, so it is answered as it was, at no cost.  ``diverged`` says where it was
    not (it is then answered with an error, which ends the search)."""

    def __init__(self, exchanges: list[tuple[Message, Message]]) -> None:
        self.exchanges = iter(exchanges)
        self.diverged: str | None = None

    def request(self, message: Message) -> Message:
        if message.get("cmd") == "bye":
            return {}
        asked, reply = next(self.exchanges, (None, None))
        if reply is None or asked != message:
            self.diverged = self.diverged or (
                f"the replayed search asked {str(message.get('cmd'))[:20]!r} where the recorded "
                f"one asked {'nothing more' if asked is None else repr(asked.get('cmd'))}"
            )
            return {"error": {"message": "not the recorded search"}}
        return reply

    def left(self) -> bool:
        """Whether the recorded search asked more than the replayed one."""
        return next(self.exchanges, None) is not None


def _seeded(harness: Harness, examples: int) -> tuple[float, float]:
    """One seeded, counted search of ``examples`` examples (after a warm-up search) over
    ``harness`` in-process: scenarios/s and CPU milliseconds per scenario."""
    driver = Driver(InProcessConnection("python:bench", harness), timeout=60)
    try:
        handshake = driver.handshake()
        warm = Budget(examples=25, seconds=1e6, seed=99, derandomize=True, limit=25)
        hunt(driver, handshake, load_suite().invariants, warm)
        if isinstance(harness, _Recording):
            harness.scenarios = harness.steps = harness.calls = 0  # the measured search's
        budget = Budget(examples=examples, seconds=1e6, seed=1, derandomize=True, limit=examples)
        wall, cpu = time.perf_counter(), time.process_time()
        outcome = hunt(driver, handshake, load_suite().invariants, budget)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        driver.close()
    return outcome.examples / wall, cpu / outcome.examples * 1000


def ceiling(examples: int) -> None:
    """The same seeded search three times: against the reference runtime (timed), again
    with every request and reply kept (not timed), then answered from what was kept
    (timed).  The last costs only the hunt's own work (drawing scenarios, the JSON round
    trip, decoding, every invariant): no runtime, however fast, lets this search run
    faster."""
    live, live_cpu = _seeded(load_harness(REFERENCE.removeprefix("python:")), examples)
    recording = _Recording(load_harness(REFERENCE.removeprefix("python:")))
    _seeded(recording, examples)
    replaying = _Replaying(recording.exchanges)
    try:
        replayed, replayed_cpu = _seeded(replaying, examples)
    except ImplementationError:
        if replaying.diverged is None:
            raise
        raise SystemExit(f"bench hunt: {replaying.diverged}") from None
    if replaying.diverged is None and replaying.left():
        replaying.diverged = "the replayed search asked less than the recorded one"
    if replaying.diverged is not None:
        raise SystemExit(f"bench hunt: {replaying.diverged}")
    print(
        f"  in-process, the runtime's answers replayed: {replayed:6.1f} scenarios/s, "
        f"{replayed_cpu:5.2f} ms CPU per scenario (answered by the runtime: {live:.1f} "
        f"scenarios/s, {live_cpu:.2f} ms; {examples} seeded examples, every request the "
        "same as the recorded one)"
    )
    count = max(1, recording.scenarios)
    print(
        f"  the hunt's own share of the CPU: {replayed_cpu / live_cpu:.0%}; scenarios of "
        f"{recording.steps / count:.2f} steps and {recording.calls / count:.2f} tool calls "
        "on average"
    )


def _combination_mutants() -> list[str]:
    listed = subprocess.run(
        [sys.executable, "-m", "reference_impl.mutants", "--list", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return [m["name"] for m in json.loads(listed.stdout) if m.get("hunt")]


def _throughput(spec: str, seconds: float) -> tuple[float, float]:
    """Generated scenarios per second, and CPU milliseconds per scenario: generation, the
    run and every invariant included (a correct runtime: nothing is shrunk)."""
    driver = Driver(connect(spec, timeout=60), timeout=60)
    try:
        cpu = time.process_time()
        outcome = hunt(
            driver,
            driver.handshake(),
            load_suite().invariants,
            Budget(examples=1, seconds=seconds, seed=1),
        )
        cpu = time.process_time() - cpu
    finally:
        driver.close()
    return outcome.examples / outcome.elapsed_s, cpu / outcome.examples * 1000


def _probe(tree: Path, examples: int) -> tuple[float, float, float, float]:
    """Scenarios per second, CPU milliseconds per scenario, and the mean steps and tool
    calls of a scenario, of ``tree``'s code (its own generator: the shapes say whether
    the two trees drew scenarios of the same size)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-P", "-c", _PROBE, str(examples)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tree,
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return (
        found["examples"] / found["wall"],
        found["cpu"] / found["examples"] * 1000,
        found["steps"],
        found["calls"],
    )


def _against(revision: str, rounds: int, examples: int) -> None:
    """This tree and ``revision``, measured alternately (``rounds`` each), medians."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision],
        capture_output=True,
        check=True,
    ).stdout
    with tempfile.TemporaryDirectory(prefix="rttool-bench-") as folder:
        before = Path(folder)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(before, filter="data")
        figures: dict[str, list[tuple[float, float, float, float]]] = {
            revision: [],
            "this tree": [],
        }
        trees = {revision: before, "this tree": ROOT}
        for number in range(rounds):
            order = list(trees) if number % 2 == 0 else list(reversed(trees))
            for label in order:
                figures[label].append(_probe(trees[label], examples))
    print(
        f"In-process throughput, {revision} and this tree alternately, {rounds} rounds of "
        f"{examples} seeded examples each (medians):"
    )
    medians = {}
    for label, measured in figures.items():
        rate = statistics.median(m[0] for m in measured)
        cpu = statistics.median(m[1] for m in measured)
        medians[label] = (rate, cpu)
        print(
            f"  {label:<12} {rate:6.1f} scenarios/s   {cpu:5.2f} ms CPU per scenario   "
            f"{measured[0][2]:.2f} steps, {measured[0][3]:.2f} tool calls a scenario"
        )
    (rate_before, cpu_before), (rate_after, cpu_after) = medians[revision], medians["this tree"]
    print(
        f"  ratio        {rate_after / rate_before:6.2f}x scenarios/s   "
        f"{cpu_before / cpu_after:5.2f}x less CPU per scenario"
    )
    print(f"  load average {os.getloadavg()[0]:.2f} (1 min) at the end")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print figures."""
    parser = argparse.ArgumentParser(prog="python -m bench hunt")
    parser.add_argument("--seconds", type=float, default=20.0, help="throughput budget")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument(
        "--against",
        metavar="REV",
        help="compare this tree's in-process throughput with git revision REV's, "
        "measured alternately in one run (nothing else is measured)",
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds of --against")
    parser.add_argument(
        "--examples",
        type=int,
        default=300,
        help="seeded examples per round of --against, and of the replayed-runtime ceiling",
    )
    args = parser.parse_args(argv)
    if args.against:
        _against(args.against, args.rounds, args.examples)
        return 0
    from reference_impl.server.process import spawn_server

    print("Hunt throughput against the reference runtime (generation, run, invariants):")
    in_process, cpu = _throughput(REFERENCE, args.seconds)
    with (
        tempfile.TemporaryDirectory() as folder,
        spawn_server(Path(folder) / "server.db", log_dir=Path(folder)) as server,
    ):
        over_http, _ = _throughput(server.url, args.seconds)
    verdict = "ok" if in_process >= 200 else "MISS"
    print(
        f"  in-process {in_process:6.1f} scenarios/s, {cpu:5.2f} ms CPU per scenario   "
        f"[{verdict}: at least 200]"
    )
    print(f"  HTTP       {over_http:6.1f} scenarios/s")
    ceiling(args.examples)
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
                    load_suite().invariants,
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
