"""``rttool replay`` blames as the standing does.

A replay used to call the invariant's judge on the trace and print every clause it is
bound to: an invariant about collected artifacts "still failed" against a runtime that
collects none (the standing: not applicable), a finding seen where a channel the
invariant observes through is broken failed its own clause (the standing: blocked), and
a finding that names the clauses it breaks failed them all.  It now runs the example as
the invariant's hunt case, through the engine's judge, and charges it clause by clause.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from adapters import Driver, connect
from adapters.codec import to_json
from adapters.handshake import Handshake
from adapters.scenario import Scenario, StartTurn
from adapters.trace import Trace
from conformance.engine import judge_example, load_suite
from conformance.toolkit import artifact, call, calls, output, say, scenario, tool
from conformance.toolkit.machinery import CANARY_PREFIX, Invariant
from tests.conformance._support import REFERENCE, ROOT, rttool

SUITE = load_suite()
AGGREGATION = next(one for one in SUITE.invariants if one.name == "aggregation")
AGNO = f"{REFERENCE}?shape=artifacts-on-the-turn-result-only"
OMITS = f"{REFERENCE}?mutant=turn-result-omits-artifacts"

MADE = scenario(
    "replayed",
    tools=[
        tool("emit", output({"ok": True}, artifact("note", {"canary": f"{CANARY_PREFIX}0-0-1."})))
    ],
    model=[calls(call("emit", {}, "c1")), say("done")],
    steps=[StartTurn("t1")],
)


def _played(spec: str) -> tuple[Handshake, Trace]:
    driver = Driver(connect(spec))
    try:
        trace = driver.run(MADE)
        assert isinstance(trace, Trace)
        return driver.handshake(), trace
    finally:
        driver.close()


def _verdicts(one: Invariant, handshake: Handshake, trace: Trace) -> dict[str, str]:
    return {
        v.clause: v.outcome.skip_kind or v.outcome.outcome
        for v in judge_example(one, MADE, trace, handshake, SUITE.situations)
    }


def test_a_finding_fails_where_the_standing_fails_it() -> None:
    handshake, trace = _played(OMITS)
    assert AGGREGATION.judge(MADE, trace, handshake) is not None
    assert _verdicts(AGGREGATION, handshake, trace) == {"RT-TOOL-4#c2": "failed"}


def test_a_runtime_that_collects_nothing_is_not_held_to_a_collecting_invariant() -> None:
    handshake, trace = _played(OMITS)
    declared = dataclasses.replace(handshake, collects_artifacts=False)
    assert _verdicts(AGGREGATION, declared, trace) == {"RT-TOOL-4#c2": "not-applicable"}


def test_a_finding_where_a_channel_is_broken_is_blocked() -> None:
    handshake, trace = _played(AGNO)
    assert AGGREGATION.judge(MADE, trace, handshake) is not None
    (verdict,) = judge_example(AGGREGATION, MADE, trace, handshake, SUITE.situations)
    assert verdict.outcome.skip_kind == "untested"
    assert "blocked by RT-TOOL-4 ¶1" in verdict.outcome.message


def _saved(tmp_path: Path, made: Scenario) -> Path:
    saved = tmp_path / "counterexample.json"
    saved.write_text(
        json.dumps({"invariant": "aggregation", "scenario": to_json(made)}), encoding="utf-8"
    )
    return saved


def test_replay_prints_the_standings_blame(tmp_path: Path) -> None:
    saved = _saved(tmp_path, MADE)
    blocked = rttool("replay", str(saved), "--impl", AGNO, cwd=ROOT)
    assert blocked.returncode == 0, blocked.stderr
    assert "still fails" not in blocked.stdout
    assert "not judged: aggregation (RT-TOOL-4#c2): untested: blocked by RT-TOOL-4 ¶1" in (
        blocked.stdout
    )
    assert "passes now" not in blocked.stdout
    failing = rttool("replay", str(saved), "--impl", OMITS, cwd=ROOT)
    assert failing.returncode == 1
    assert "still fails: aggregation (RT-TOOL-4#c2): " in failing.stdout
