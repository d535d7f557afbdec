"""The scenario catalog: every case's scenarios, found by running it, never restated."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import replace

import pytest

from adapters.capabilities import needed_capabilities
from adapters.codec import to_json
from adapters.driver import Unsupported
from adapters.handshake import Capabilities, Handshake
from adapters.scenario import Scenario, StartTurn
from adapters.trace import Trace
from conformance.catalog import Catalog, Entry, build_catalog, file_names
from conformance.catalog._recording import record_case
from conformance.engine import Case, Suite, load_suite
from conformance.rules import load_corpus
from conformance.toolkit import CheckContext

INVARIANTS = load_suite().invariants


@functools.cache
def full() -> Catalog:
    return build_catalog(samples=3)


@functools.cache
def first() -> Catalog:
    return build_catalog(first_only=True, samples=0)


def _json(scenario: Scenario) -> str:
    return json.dumps(to_json(scenario), sort_keys=True)


def test_every_check_and_vector_is_listed_with_what_it_sends() -> None:
    corpus = load_corpus()
    cases = Suite.over(corpus).cases()
    assert [case.id for case in full().cases] == [case.id for case in cases]
    for case in full().cases:
        assert case.ended == "complete", case  # the reference runtime passes every check
        listed = [e for e in full().entries if e.case == case.id]
        assert len(listed) == case.scenarios >= 1
        assert all(e.clauses == case.clauses and e.kind == case.kind for e in listed)


def test_a_later_scenario_waits_on_the_one_before_it() -> None:
    entries = [e for e in full().entries if e.kind != "hunt-sample"]
    later = [e for e in entries if e.after is not None]
    assert later, "some check sends a second scenario only after judging the first"
    for index, entry in enumerate(entries):
        previous = entries[index - 1] if index else None
        if previous is not None and previous.case == entry.case:
            assert entry.after == previous.id
        else:
            assert entry.after is None


def test_first_only_runs_nothing_and_lists_each_cases_first_scenario() -> None:
    firsts = {e.case: _json(e.scenario) for e in full().entries if e.after is None}
    listed = {e.case: _json(e.scenario) for e in first().entries}
    assert listed == {case: text for case, text in firsts.items() if case != "HUNT"}
    assert {case.ended for case in first().cases} == {"first-only"}


def test_needs_are_derived_from_each_scenario() -> None:
    for entry in full().entries:
        assert entry.needs == tuple(needed_capabilities(entry.scenario))
        assert entry.missing is None  # the reference runtime's handshake offers them all
    assert any(entry.observes for entry in full().entries)


def test_hunt_samples_are_marked_and_drawn_the_same_way_every_time() -> None:
    samples = [e for e in full().entries if e.kind == "hunt-sample"]
    assert [e.scenario.id for e in samples] == [
        "hunt-sample-01",
        "hunt-sample-02",
        "hunt-sample-03",
    ]
    again = build_catalog(only=["RT-TOOL-7#c1"], samples=3)
    assert [_json(e.scenario) for e in again.entries if e.kind == "hunt-sample"] == [
        _json(e.scenario) for e in samples
    ]
    other = build_catalog(only=["RT-TOOL-7#c1"], samples=3, seed=1)
    assert [_json(e.scenario) for e in other.entries if e.kind == "hunt-sample"] != [
        _json(e.scenario) for e in samples
    ]
    clauses = {clause for invariant in INVARIANTS for clause in invariant.clauses}
    assert set(samples[0].clauses) == clauses


def test_only_keeps_the_scenarios_serving_the_rule() -> None:
    catalog = build_catalog(only=["RT-TOOL-3#c2"], samples=2)
    assert catalog.entries
    # no hunt invariant judges RT-TOOL-3 ¶2 (the port's default exposure)
    assert all(e.kind != "hunt-sample" for e in catalog.entries)
    assert all("RT-TOOL-3" in e.rules for e in catalog.entries)


def test_a_narrower_handshake_is_sent_less() -> None:
    reference = full().handshake
    narrow = replace(
        reference,
        profiles=("runtime",),
        capabilities=Capabilities(entry_points=("chat",)),
        durable_resume=None,
    )
    catalog = build_catalog(first_only=True, samples=0, handshake=narrow)
    dr = [case for case in catalog.cases if case.id.startswith("DR-")]
    assert dr and all(not case.applicable and case.scenarios == 0 for case in dr)
    assert not any(e.case.startswith("DR-") for e in catalog.entries)
    gated = [e for e in catalog.entries if "gates" in e.needs]
    assert gated and all(e.missing == "gates" for e in gated)


HANDSHAKE = Handshake(
    protocol="rttool-adapter/1",
    implementation=full().handshake.implementation,
    profiles=("runtime",),
    capabilities=Capabilities(held_observation=True),
    limits=full().handshake.limits,
)


def _scenario(name: str) -> Scenario:
    return Scenario(id=name, steps=(StartTurn("t1"),))


def _probe(run: Callable[[CheckContext], None]) -> Case:
    return Case("RT-TOOL-1#c1/probe", "probe", "check", ("RT-TOOL-1#c1",), "a probe", run)


class _Answers:
    def handshake(self) -> Handshake:
        return HANDSHAKE

    def run(self, scenario: Scenario) -> Trace | Unsupported:
        return Trace(scenario=scenario.id, steps=())


def test_a_recording_follows_a_check_as_far_as_it_goes() -> None:
    def check(ctx: CheckContext) -> None:
        ctx.require("held_observation")
        ctx.run(_scenario("one"))
        ctx.run(_scenario("two"))
        ctx.fail("judged the second")

    recording = record_case(_probe(check), HANDSHAKE, _Answers())
    assert [s.id for s in recording.sent] == ["one", "two"]
    assert recording.observes == ["held_observation"]
    assert recording.ended.startswith("failed")
    first_only = record_case(_probe(check), HANDSHAKE, None)
    assert [s.id for s in first_only.sent] == ["one"] and first_only.ended == "first-only"


def test_a_check_that_breaks_is_listed_up_to_where_it_broke() -> None:
    def check(ctx: CheckContext) -> None:
        ctx.run(_scenario("one"))
        raise KeyError("boom")

    recording = record_case(_probe(check), HANDSHAKE, _Answers())
    assert [s.id for s in recording.sent] == ["one"]
    assert recording.ended.startswith("stopped: KeyError")


def test_a_check_whose_expectation_fails_is_listed_as_failed() -> None:
    def check(ctx: CheckContext) -> None:
        ctx.run(_scenario("one"))
        ctx.expect(False, "judged the first")

    recording = record_case(_probe(check), HANDSHAKE, _Answers())
    assert recording.ended == "failed against the reference runtime: judged the first"


@pytest.mark.parametrize(
    "ids",
    [
        ["A#c1/x/y", "A#c1/x/y?", "a#c1/x/y"],
        ["../../etc/passwd", "..", "/abs/path", "C:\\win", "\x1b[31m", ""],
    ],
)
def test_file_names_are_safe_and_unique(ids: list[str]) -> None:
    entries = [
        Entry(id=i, case="c", kind="check", clauses=(), scenario=_scenario("s")) for i in ids
    ]
    names = list(file_names(entries).values())
    assert len({name.lower() for name in names}) == len(names)
    for name in names:
        assert name.endswith(".json") and not name.startswith(".")
        assert all(char.isalnum() or char in "._-" for char in name)
