"""The checks of RT-TOOL-1 to RT-TOOL-4 and RT-TOOL-8 say what they observed, where, and
what the clause requires, when they fire against a mutant that breaks their clause."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from conformance.engine import Case, Suite
from conformance.rules import load_corpus
from conformance.toolkit import (
    same_json,
    shown_key,
)
from conformance.toolkit.machinery import Failure
from tests.conformance._support import failures_of, mutant_driver

CASES = {case.id: case for case in Suite.over(load_corpus()).checks}


@dataclass(frozen=True)
class Fires:
    """Case ``case`` fails against ``mutant``; its failures, in order, contain ``said``
    (one fragment per failure, most specific first) and the first is observed at a
    pointer starting with ``at``."""

    case: str
    mutant: str
    said: tuple[str, ...]
    at: str
    reading: str | None = None


FIRING = (
    Fires(
        "RT-TOOL-1#c1/result-is-success-data-error[falsy-data]",
        "falsy-data-reported-as-null",
        ("has data null, the tool produced false; RT-TOOL-1 ¶1",),
        "/steps/0/runs/0/passes/0/results/1/result/data",
    ),
    Fires(
        "RT-TOOL-1#c1/result-is-success-data-error[recoverable-failure]",
        "failed-result-without-data",
        ('has keys ["success", "error"], without ["data"]; RT-TOOL-1 ¶1',),
        "/steps/0/runs/0/passes/0/results/0/result",
        "key-order",
    ),
    Fires(
        "RT-TOOL-1#c2/artifacts-key-only-when-attached[one-attached]",
        "single-artifact-not-in-a-list",
        ("attached 1 artifact, and its result's `artifacts` is {", "not a list of them"),
        "/steps/0/runs/0/passes/0/results/0/result/artifacts",
    ),
    Fires(
        "RT-TOOL-1#c3/artifacts-never-folded-into-data[nested-artifacts-key-in-data]",
        "nested-artifacts-key-lifted",
        ('has data {"report": {}}', "only the top-level key is reserved"),
        "/steps/0/runs/0/passes/0/results/0/result/data",
    ),
    Fires(
        "RT-TOOL-2#c2/channel-survives-unexposed-port[port-not-exposed]",
        "artifacts-channel-filtered-by-exposure",
        ("(its `artifacts` is absent)", "carried by no message's toolArtifacts"),
        "/steps/0/runs/0/passes/0/results/0/result",
    ),
    Fires(
        "RT-TOOL-2#c3/malformed-entries-dropped-alone[nothing-but-malformed]",
        "malformed-entry-fails-call",
        ("but its result has success false; RT-TOOL-2 ¶3",),
        "/steps/0/runs/0/passes/0/results/0/result/success",
    ),
    Fires(
        "RT-TOOL-2#c5/declined-call-carries-no-artifacts[declined]",
        "declined-call-runs-anyway",
        (
            "the declined call c_declined's result carries artifacts",
            "surfaced on tool_artifacts, at /steps/1/runs/0/passes/0/ports/tool_artifacts/0",
            "was delivered, at /steps/1/wire/main/t1/messages/",
        ),
        "/steps/1/runs/0/passes/0/results/0/result/artifacts",
    ),
    Fires(
        "RT-TOOL-3#c1/port-entries-built-key-by-key[later-pass]",
        "port-entries-paired-with-the-runs-first-call",
        ('has tool_call_id "c1", which is not the identifier of any call of the pass',),
        "/steps/0/runs/0/passes/1/ports/tool_artifacts/0/tool_call_id",
    ),
    Fires(
        "RT-TOOL-3#c3/prose-unchanged-by-artifacts",
        "prose-counts-attachments",
        ('"First made. (2 attached)"',),
        "/steps/0/runs/0/passes/0/tool_messages",
        "prose-format",
    ),
    Fires(
        "RT-TOOL-3#c4/delivery-does-not-depend-on-exposure[explicitly-not-exposed]",
        "artifacts-withheld-once-exposure-is-chosen",
        ("with tool_artifacts explicitly not exposed, the turn's messages deliver []",),
        "/steps/0/wire/main/t1",
    ),
    Fires(
        "RT-TOOL-4#c1/persisted-on-last-assistant-message[cut-by-time-limit]",
        "cut-run-artifacts-discarded",
        ("collected by the run of step 1, is carried by no message of turn t1",),
        "/steps/2/wire/main/t1",
        "cut-is-not-a-pause",
    ),
    Fires(
        "RT-TOOL-4#c1/persisted-on-last-assistant-message[later-run-of-the-turn]",
        "artifacts-on-first-assistant-message",
        ("the last assistant message that run wrote is /steps/1/wire/main/t1/messages/",),
        "/steps/1/wire/main/t1/messages/1",
    ),
    Fires(
        "RT-TOOL-4#c3/top-level-field-not-metadata[message-poll]",
        "artifacts-under-metadata",
        ("metadata carries the artifact, at /steps/1/poll/data/",),
        "/steps/1/poll/data/",
    ),
    Fires(
        "RT-TOOL-8#c3/otherwise-passed-through[special-numbers]",
        "non-json-accepted-as-json",
        ('sent as "[NaN]" and the result reports the arguments as [null], expected "[NaN]"',),
        "/steps/0/runs/0/passes/0/results/0/arguments/a",
    ),
    Fires(
        "RT-TOOL-8#c4/decoded-up-to-the-declared-bound",
        "entities-decoded-once",
        ("the handshake declares 1", "a value escaped 2 times resolves fully"),
        "/steps/0/runs/0/side_effects/0/input/d2",
    ),
    Fires(
        "RT-TOOL-8#c5/keys-and-plain-text-untouched[plain-text]",
        "plain-text-whitespace-trimmed",
        ('was sent as "  padded  " and the tool body received "padded"',),
        "/steps/0/runs/0/side_effects/0/input/padded",
    ),
)


def _failures(case: Case, mutant: str) -> list[Failure]:
    driver = mutant_driver(mutant)
    try:
        return failures_of(case, driver)
    finally:
        driver.close()


@pytest.mark.parametrize("fires", FIRING, ids=[f"{f.case}~{f.mutant}" for f in FIRING])
def test_a_failure_says_what_was_observed_where(fires: Fires) -> None:
    failures = _failures(CASES[fires.case], fires.mutant)
    assert failures, f"{fires.case} passed against {fires.mutant}"
    messages = [failure.message for failure in failures]
    position = 0
    for fragment in fires.said:
        found = [i for i, message in enumerate(messages) if i >= position and fragment in message]
        assert found, f"no failure from #{position} on says {fragment!r}: {messages}"
        position = found[0]
    first = failures[0]
    assert first.pointer is not None and first.pointer.startswith(fires.at), first.pointer
    assert first.scenario is not None
    assert fires.reading is None or first.reading == fires.reading
    for failure in failures:  # the clause a failure is about is named
        assert "RT-TOOL-" in failure.message, failure.message


def test_json_values_compare_as_json() -> None:
    assert same_json({"a": [1, False]}, {"a": [1.0, False]})
    assert not same_json(0, False)
    assert not same_json([], {})
    assert not same_json({"a": 1}, {"a": 1, "b": None})
    assert same_json({"z": 1, "a": 2}, {"a": 2, "z": 1})


def test_an_absent_key_is_shown_as_absent_never_as_null() -> None:
    assert shown_key({"a": None}, "a") == "null"
    assert shown_key({}, "a") == "absent"
    assert shown_key(["not", "a", "map"], "a") == "absent"
