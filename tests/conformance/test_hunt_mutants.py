"""The hunt against mutants: every invariant is seen failing against a broken runtime,
and a saved counterexample replays."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from adapters._codec import from_json
from adapters.scenario import Scenario
from conformance.hunt import INVARIANTS, Budget, hunt, steps_summary
from tests.conformance._support import mutant_driver, rttool

pytestmark = pytest.mark.slow

#: invariant -> a mutant whose bug it catches
SHOWN_BY = {
    "no-loss": "held-mirror-lost-on-restart",
    "no-double-delivery": "failed-write-back-holds-own-twice",
    "held-off-wire": "held-shown-on-wire",
    "no-metadata-leak": "artifacts-under-metadata",
    "no-prose-leak": "same-name-calls-share-prose",
    "shape-and-pairing": "tool-call-id-from-tool-entry",
    "held-first": "held-appended-after-collected",
    "held-within-bound": "held-bound-off-by-one",
    "isolation": "held-shared-by-conversation",
    "aggregation": "turn-result-omits-artifacts",
    "side-effects": "journal-of-last-chunk-only",
}


def test_every_invariant_has_a_mutant() -> None:
    assert set(SHOWN_BY) == {invariant.name for invariant in INVARIANTS}


@pytest.mark.parametrize("invariant", sorted(SHOWN_BY))
def test_invariant_fails_against_its_mutant(invariant: str) -> None:
    driver = mutant_driver(SHOWN_BY[invariant])
    found: set[str] = set()
    try:
        for seed in range(4):  # a few fixed seeds: the search is deterministic for each
            outcome = hunt(
                driver,
                driver.handshake(),
                INVARIANTS,
                # Bounded by examples, never by time: a busy machine searches as far.
                Budget(examples=300, seed=seed, seconds=math.inf, shrink_seconds=1.0),
            )
            found |= set(outcome.findings)
            if invariant in found:
                break
    finally:
        driver.close()
    assert invariant in found, f"found only {sorted(found)}"


def test_counterexample_is_saved_linked_and_replays(tmp_path: Path) -> None:
    report = tmp_path / "report"
    run = rttool(
        "run",
        "--impl",
        "reference",
        "--mutant",
        "same-name-calls-share-prose",
        "--only",
        "RT-TOOL-3",
        "--report-dir",
        str(report),
        "--seed",
        "1",
        # The search is bounded by its examples, never by how busy the machine is.
        "--hunt-seconds",
        "3600",
        "-q",
        cwd=tmp_path,
        timeout=1800,
    )
    assert run.returncode == 1, run.stderr
    saved = sorted(report.glob("counterexamples/*/counterexample.json"))
    assert saved, list(report.rglob("*"))
    content = json.loads(saved[0].read_text())
    assert content["invariant"] == "no-prose-leak"
    # How far it shrinks in the time shrinking is given depends on the machine; the
    # selftest holds combination mutants to short counterexamples.
    assert content["steps"] == steps_summary(from_json(Scenario, content["scenario"]))
    standing = json.loads((report / "standing.json").read_text())
    links = [
        check["evidence"].get("counterexample")
        for rule in standing["rules"]
        for clause in rule["clauses"]
        for check in clause["checks"]
        if check["name"] == "hunt-no-prose-leak"
    ]
    assert any(link and (report / link).is_file() for link in links)
    again = rttool(
        "replay",
        str(saved[0]),
        "--impl",
        "reference",
        "--mutant",
        "same-name-calls-share-prose",
        cwd=tmp_path,
    )
    assert again.returncode == 1 and "still fails: no-prose-leak" in again.stdout
    fixed = rttool("replay", str(saved[0]), "--impl", "reference", cwd=tmp_path)
    assert fixed.returncode == 0 and "passes now" in fixed.stdout


def test_replay_refuses_a_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"scenario": {"id": "x", "steps": [{"op": "dance"}]}}')
    result = rttool("replay", str(bad), cwd=tmp_path)
    assert result.returncode == 2
    assert "scenario" in result.stderr and "Traceback" not in result.stderr
