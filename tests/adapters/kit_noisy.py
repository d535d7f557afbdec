"""A harness on the kit whose runtime prints to standard output while it works.

Run as ``python kit_noisy.py``: the kit's stdio loop must keep the noise off the
protocol's channel.
"""

import os
import sys

from adapters.kit import KitHarness, Session, StepRecord, handshake, main
from adapters.scenario import Scenario, Step


class NoisySession(Session):
    def step(self, index: int, step: Step) -> StepRecord:
        print("a runtime that prints")  # through sys.stdout
        os.write(1, b"and one that writes to file descriptor 1\n")
        return StepRecord(index, step.op)


class NoisyHarness(KitHarness):
    def describe(self) -> dict[str, object]:
        return handshake("noisy", "1")

    def open(self, scenario: Scenario) -> Session:
        return NoisySession(scenario)


if __name__ == "__main__":
    sys.exit(main(NoisyHarness))
