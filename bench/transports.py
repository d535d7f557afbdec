"""The same batch of scenarios through the three transports against the reference runtime.

Reports scenarios per second for each, and the ratios HTTP / in-process and stdio /
in-process (lower is better; the target is at most 1.5 each).  The batch is drawn once
from the hunt's strategies with a fixed seed, so every transport runs the same scenarios.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from adapters import Driver, connect
from adapters.scenario import Scenario

__all__ = ["main"]


def _batch(size: int) -> list[Scenario]:
    from hypothesis import HealthCheck, Phase, given, settings

    from conformance.hunt.strategies import scenarios

    drawn: list[Scenario] = []
    handshake = Driver(connect("python:reference_impl.harness:create")).handshake()

    @settings(
        max_examples=size,
        database=None,
        derandomize=True,
        deadline=None,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )
    @given(scenarios(handshake))
    def keep(scenario: Scenario) -> None:
        drawn.append(scenario)

    keep()
    return drawn[:size]


def _rate(driver: Driver, batch: list[Scenario]) -> float:
    driver.handshake()
    driver.run(batch[0])  # warm up (imports, first connection)
    started = time.perf_counter()
    for scenario in batch:
        driver.run(scenario)
    return len(batch) / (time.perf_counter() - started)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print figures."""
    parser = argparse.ArgumentParser(prog="python -m bench transports")
    parser.add_argument("--scenarios", type=int, default=1000)
    args = parser.parse_args(argv)
    from reference_impl.server.process import spawn_server

    batch = _batch(args.scenarios)
    print(f"Transports: {len(batch)} generated scenarios against the reference runtime")
    rates: dict[str, float] = {}
    with (
        tempfile.TemporaryDirectory() as folder,
        spawn_server(Path(folder) / "server.db", log_dir=Path(folder)) as server,
    ):
        specs = {
            "in-process": "python:reference_impl.harness:create",
            "stdio": f"stdio:{sys.executable} -m reference_impl.harness",
            "http": server.url,
        }
        for name, spec in specs.items():
            driver = Driver(connect(spec, timeout=60), timeout=60)
            try:
                rates[name] = _rate(driver, batch)
            finally:
                driver.close()
            print(f"  {name:<11} {rates[name]:7.1f} scenarios/s")
    for name in ("http", "stdio"):
        ratio = rates["in-process"] / rates[name]
        verdict = "ok" if ratio <= 1.5 else "MISS"
        print(f"  {name} / in-process: {ratio:.2f}x the time   [{verdict}: at most 1.5x]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
