"""The checks of RT-TOOL-5, 6, 7 and 10: payload sizes under every reading, what a
warning names, and every kind of message read where it fires (against a mutant, or a
trace changed by hand)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from adapters.capabilities import missing_capability, needed_capabilities
from adapters.driver import Unsupported
from adapters.handshake import Capabilities, Handshake
from adapters.scenario import Scenario
from adapters.trace import Trace, WarningRecord
from conformance.checks.rt_tool_6._kept import PAYLOAD_FLOOR, _floor
from conformance.checks.rt_tool_6._sizes import (
    largest_size,
    over_by_one_utf8_byte,
    over_payload,
    sized_payload,
    smallest_size,
)
from conformance.checks.rt_tool_6._warning_names import names
from conformance.engine import Case, judge, load_suite
from conformance.toolkit.machinery import ScenarioRunner
from tests.conformance._support import failures_of, mutant_driver, reference_driver

REPO = Path(__file__).resolve().parents[2]
CASES = {
    one.id: Case.of(one)
    for one in (check for package in load_suite().packages for check in package.checks)
}


@pytest.mark.parametrize("unit", ["x", "é", "调", "😀", "/"])
def test_a_sized_payload_is_exact_in_its_largest_encoding(unit: str) -> None:
    payload = sized_payload(400, "t", unit=unit)
    assert largest_size(payload) == 400
    assert smallest_size(payload) <= 400


def test_what_must_be_dropped_is_over_in_every_encoding() -> None:
    over = over_payload(400, "o")
    assert smallest_size(over) == 500 and largest_size(over) > 500
    close = over_by_one_utf8_byte(400, "o")
    text = json.dumps(close, ensure_ascii=False, separators=(",", ":"))
    assert smallest_size(close) == 401 and len(text) < 400


def test_the_floors_fit_every_reading_and_are_over_a_bound_just_below_them() -> None:
    (ascii_one,) = _floor("payload")
    (mixed,) = _floor("payload-non-ascii")
    for entry in (ascii_one, mixed):
        assert largest_size(entry["payload"]) == PAYLOAD_FLOOR
        assert smallest_size(entry["payload"]) > 500_000
    aggregate = _floor("aggregate")
    assert sum(largest_size(e["payload"]) for e in aggregate) == 2_000_000
    assert sum(smallest_size(e["payload"]) for e in aggregate) > 1_950_000
    assert len(_floor("count")) == 50


def test_a_warning_names_in_its_field_before_its_message() -> None:
    fielded = WarningRecord("c", "tool=other", tool="make")
    assert names(fielded, "tool", "make")
    assert not names(WarningRecord("c", "made by make", tool="other"), "tool", "make")
    assert names(WarningRecord("c", "dropped: tool make, run r-1"), "run", "r-1")
    assert not names(WarningRecord("c", "dropped"), "run", "r-1")


class WarningsRewritten:
    """The reference runtime, with every warning's fields rewritten by ``change``."""

    def __init__(self, **change: object) -> None:
        self.change = change

    def handshake(self) -> Handshake:
        return reference_driver().handshake()

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        trace = reference_driver().run(scenario)
        if isinstance(trace, Unsupported):
            return trace
        steps = tuple(
            dataclasses.replace(
                step, warnings=tuple(dataclasses.replace(w, **self.change) for w in step.warnings)
            )
            for step in trace.steps
        )
        return dataclasses.replace(trace, steps=steps)


def _failures(check_id: str, runner: ScenarioRunner) -> list[tuple[str, str | None]]:
    return [(f.message, f.pointer) for f in failures_of(CASES[check_id], runner)]


DROP = "RT-TOOL-6#c3/drop-warns-and-leaves-no-placeholder[two-calls-in-one-batch]"


def test_a_warning_that_names_tool_and_run_only_in_its_message_is_accepted() -> None:
    assert _failures(DROP, WarningsRewritten(tool=None, run=None)) == []


def test_a_warning_field_naming_another_run_is_reported_with_its_pointer() -> None:
    found = _failures(DROP, WarningsRewritten(run="some-other-run"))
    assert len(found) == 2
    message, pointer = found[0]
    assert 'does not name the run "' in message and '"some-other-run"' in message
    assert message.endswith("RT-TOOL-6 ¶3") and pointer == "/steps/0/warnings/0"


#: (case, mutant, what its first message must say): one per check function, each read
#: where it fires.
FIRES = [
    (
        "RT-TOOL-5#c1/collection-stance-is-truthful[paused-run]",
        "collection-stance-misdeclared",
        "yet the run's artifact was delivered, at /messages/2/toolArtifacts/0",
    ),
    (
        "RT-TOOL-5#c2/unopened-run-drops-arrivals[two-arrivals]",
        "unopened-run-collection-reaches-back",
        "arrived before its run opened collection shows after step 3 (answer) on turn t1",
    ),
    (
        "RT-TOOL-5#c3/drain-does-not-end-collection[after-an-empty-pass]",
        "drain-ends-collection",
        "the artifact of pass 2 was delivered 0 times in the messages' toolArtifacts",
    ),
    (
        "RT-TOOL-5#c4/late-arrival-after-release-dropped[gate]",
        "collection-never-released",
        'ended "paused" in step 0, and its collection is still open after steps [0, 1, 2]',
    ),
    (
        "RT-TOOL-5#c5/collection-independent-of-entry-point[resumed-run]",
        "api-runs-collect-nothing",
        'launched from "api", the turn delivered [] in its messages\' toolArtifacts',
    ),
    (
        "RT-TOOL-6#c1/nothing-downstream-rechecks[bytes]",
        "delivered-list-rechecked-against-scenario-bounds",
        "2 runs each collected within the run bound of 600 bytes (4 artifacts in all)",
    ),
    (
        "RT-TOOL-6#c2/floors-accepted[payload-non-ascii]",
        "payload-bound-below-floor",
        'floor "payload-non-ascii": 1 artifact(s), 512000 bytes of payload in the largest encoding',
    ),
    (
        "RT-TOOL-6#c3/drop-warns-and-leaves-no-placeholder[payload-bound-by-one-utf8-byte]",
        "payload-measured-in-characters",
        'the "oversize" artifact of call call_one, one byte over the payload bound',
    ),
    (
        "RT-TOOL-6#c3/drop-warns-and-leaves-no-placeholder[count-bound]",
        "drop-without-warning",
        'the "one-too-many" artifact of call call_one was dropped with no warning naming its type',
    ),
    (
        "RT-TOOL-6#c4/drop-is-per-artifact[fills-what-remains]",
        "first-drop-closes-run-budget",
        "fit the 300 bytes left of the run's budget, in every encoding",
    ),
    (
        "RT-TOOL-6#c5/empty-type-refused[at-the-count-bound]",
        "empty-type-collected",
        "after step 0 an artifact with an empty type was delivered, at /messages/1/toolArtifacts/0",
    ),
    (
        "RT-TOOL-6#c6/payload-is-plain-text[numbers-in-strings]",
        "numeric-payload-strings-coerced",
        'the delivered payload\'s value at /numbers/0 is 1, the tool produced "1"',
    ),
    (
        "RT-TOOL-7#c1/held-durably-off-the-wire[two-conversations]",
        "held-shown-on-wire",
        "after step 0 (start_turn) turn t1 is paused and its wire already shows a held artifact",
    ),
    (
        "RT-TOOL-7#c2/held-prepended-on-resumed-message[several-of-each]",
        "held-appended-after-collected",
        "expected the 2 held artifact(s) followed by the resumed run's 2 own",
    ),
    (
        "RT-TOOL-7#c3/pausing-again-holds-everything[pauses-twice]",
        "held-discarded-on-pause",
        "after the last step, the artifact held at pause 1 was delivered 0 times",
    ),
    (
        "RT-TOOL-7#c3/taking-is-destructive[after-a-failed-write-back]",
        "held-copied-not-taken",
        "after step 3 (answer), once the write-back delivered them, turn t1 still holds",
    ),
    (
        "RT-TOOL-7#c4/failed-write-back-puts-back[held-over-two-pauses]",
        "held-lost-on-failed-write-back",
        "after the write-back failed at step 3, turn t1 holds [], without 2 of the 2 artifact(s)",
    ),
    (
        "RT-TOOL-7#c5/held-list-bounded-newest-dropped[across-two-pauses]",
        "held-drop-without-warning",
        "the held list overflowed at pause 2 (step 1), and no warning was raised",
    ),
    (
        "RT-TOOL-10#c1/executed-complements-skipped[every-kind-of-result]",
        "executed-lists-skipped-calls",
        'the pass reports executed ["call_f", "call_u", "call_i", "call_a"]',
    ),
    (
        "RT-TOOL-10#c2/first-time-handling-is-work[refused-retry-on-resume]",
        "work-means-a-success",
        "the pass reports executed_any false, expected true; RT-TOOL-10 ¶2",
    ),
    (
        "RT-TOOL-10#c2/all-repeat-pass-is-idle[of-two-calls]",
        "repeats-counted-as-work",
        "the pass reports executed_any true, expected false; RT-TOOL-10 ¶2: a pass of nothing",
    ),
    (
        "RT-TOOL-10#c3/empty-batch-reports-false[after-a-pass-that-worked]",
        "empty-batch-reports-work",
        "the pass reports executed_any true, expected false; RT-TOOL-10 ¶3",
    ),
    (
        "RT-TOOL-10#c4/call-without-id-is-work-on-neither-list[beside-a-repeat]",
        "call-without-id-given-fresh-id",
        'the pass lists ["auto-',
    ),
    (
        "RT-TOOL-10#c4/malformed-call-dropped-before-the-guard[blank-name]",
        "whitespace-name-reaches-the-guard",
        'the pass reports results for calls ["m2", "m3"], dropped before the guard',
    ),
    (
        "RT-TOOL-10#c5/default-exposure[other-ports-chosen]",
        "executed-port-exposed-by-default",
        "the pass reports executed exposed true; RT-TOOL-10 ¶5",
    ),
]


@pytest.mark.parametrize(("check_id", "mutant", "says"), FIRES, ids=[c for c, _, _ in FIRES])
def test_each_message_says_what_was_observed_where(check_id: str, mutant: str, says: str) -> None:
    driver = mutant_driver(mutant)
    try:
        found = _failures(check_id, driver)
    finally:
        driver.close()
    assert found, f"{check_id} passed against {mutant}"
    message, pointer = found[0]
    assert says in message
    assert "\n" not in message and "RT-TOOL-" in message
    assert pointer is not None and pointer.startswith("/steps")


def test_every_reading_a_check_names_is_an_entry_of_the_interpretations() -> None:
    anchors = set(
        re.findall(
            r'^<a id="([a-z0-9-]+)"></a>$',
            (REPO / "docs" / "interpretations.md").read_text("utf-8"),
            re.M,
        )
    )
    named = {
        reading
        for path in (REPO / "conformance").rglob("*.py")
        for reading in re.findall(r'reading="([a-z0-9-]+)"', path.read_text("utf-8"))
    }
    assert named and named <= anchors, sorted(named - anchors)


class Plain:
    """The reference runtime behind a harness that offers no optional capability (one
    entry point, no gates, restarts, bounds, observations or interruptions)."""

    def handshake(self) -> Handshake:
        offered = reference_driver().handshake()
        return dataclasses.replace(offered, capabilities=Capabilities())

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        missing = missing_capability(Capabilities(), needed_capabilities(scenario))
        if missing is not None:
            return Unsupported(missing)
        return reference_driver().run(scenario)


def test_a_harness_offering_nothing_optional_leaves_untested_only_what_needs_more() -> None:
    """Every case that plays a question, a repeat or a plain batch runs without any optional
    capability: a scenario asks for one only where its variant uses it."""
    runner = Plain()
    untested = []
    for case in CASES.values():
        if case.rules[0] not in ("RT-TOOL-5", "RT-TOOL-6", "RT-TOOL-7", "RT-TOOL-10"):
            continue
        judged = judge(case, runner)
        assert judged.verdict in ("passed", "untested"), f"{case.id}: {judged.message}"
        if judged.verdict == "untested":
            untested.append(case.id)
    needs_more = re.compile(
        r"RT-TOOL-5#c[245]/|RT-TOOL-7#c4/|taking-is-destructive|RT-TOOL-6#c1/[^[]*\[(count|bytes"
        r"|three-runs)\]|\[(arrival-after-release|unencodable-payload|at-the-count-bound|gate"
        r"|aggregate-bound-filled-exactly|aggregate-bound-by-one-byte|restart-[a-z-]+"
        r"|resumed-by-an-approval|declined-call|refused-retry-on-resume|other-ports-chosen)\]"
    )
    assert untested, "a harness offering nothing optional left nothing untested"
    assert [case for case in untested if not needs_more.search(case)] == []
    assert not any(case.startswith("RT-TOOL-10#c1") for case in untested)
