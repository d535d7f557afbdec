"""The mutation score: killed mutants over the non-equivalent mutants that were run."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from mutation._execute import Outcome, Status

__all__ = ["Score", "Timing", "score", "timing", "wilson_interval"]

# Two-sided 95 % normal quantile, for the interval of a sampled estimate.
_Z95 = 1.959964


@dataclass(frozen=True)
class Score:
    """Counts by status, and the score over every mutant that was run."""

    killed: int
    crashed: int
    timeout: int
    survived: int
    invalid: int = 0
    conforming: int = 0  # run mutants triaged as conforming variants, whatever became of them
    conforming_killed: int = 0  # of those, the ones the suite killed (a triage or check error)
    hunt_only: int = 0  # killed mutants whose failing cases were all the hunt's

    @property
    def run(self) -> int:
        """Mutants run and scored (equivalents and invalid mutants are never run)."""
        return self.killed + self.crashed + self.timeout + self.survived

    @property
    def detected(self) -> int:
        """Mutants the suite noticed: failing cases, a crash or a hang."""
        return self.killed + self.crashed + self.timeout

    @property
    def ratio(self) -> float | None:
        """``detected / run``; ``None`` when nothing was run."""
        return self.detected / self.run if self.run else None

    @property
    def rule_ratio(self) -> float | None:
        """The ratio over the mutants that break a rule: conforming variants left out."""
        breaking = self.run - self.conforming
        return (self.detected - self.conforming_killed) / breaking if breaking else None

    def interval(self) -> tuple[float, float] | None:
        """The 95 % Wilson interval of the ratio, for a score measured on a sample."""
        return wilson_interval(self.detected, self.run) if self.run else None


@dataclass(frozen=True)
class Timing:
    """Wall seconds: the whole run, the unmutated baseline, and per mutant."""

    total_s: float
    baseline_s: float
    median_s: float | None
    max_s: float | None
    jobs: int


def score(outcomes: Sequence[Outcome], conforming: Collection[str] = ()) -> Score:
    """Count ``outcomes`` by status; ``conforming`` are the ids triaged as conforming."""
    counts = Counter(outcome.status for outcome in outcomes)
    variants = [o for o in outcomes if o.mutant_id in conforming and o.status is not Status.INVALID]
    return Score(
        killed=counts[Status.KILLED],
        crashed=counts[Status.CRASHED],
        timeout=counts[Status.TIMEOUT],
        survived=counts[Status.SURVIVED],
        invalid=counts[Status.INVALID],
        conforming=len(variants),
        conforming_killed=sum(o.status is not Status.SURVIVED for o in variants),
        hunt_only=sum(o.hunt_only for o in outcomes if o.status is Status.KILLED),
    )


def timing(outcomes: Sequence[Outcome], total_s: float, baseline_s: float, jobs: int) -> Timing:
    """Timing figures of a run (invalid mutants, never run, are left out)."""
    seconds = [outcome.seconds for outcome in outcomes if outcome.status is not Status.INVALID]
    return Timing(
        total_s=round(total_s, 1),
        baseline_s=round(baseline_s, 2),
        median_s=round(statistics.median(seconds), 2) if seconds else None,
        max_s=round(max(seconds), 2) if seconds else None,
        jobs=jobs,
    )


def wilson_interval(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes / trials``."""
    if trials <= 0:
        raise ValueError("trials must be positive")
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
