"""Scenarios run by one reference harness cannot see each other.

Each scenario runs on a database of its own, copied from an empty template and freed at
``finish``; nothing a scenario leaves behind (rows, a runtime, a session still open)
changes what the next one does.  The hunt relies on it: one scenario's state can never
explain another's verdict.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from adapters import Driver, connect
from adapters.codec import to_json
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.hunt.strategies import scenarios
from reference_impl.harness._database import Template
from reference_impl.store import Store

REFERENCE = "python:reference_impl.harness:create"
HANDSHAKE = Driver(connect(REFERENCE)).handshake()
_ID = re.compile(r"\b[0-9a-f]{32}\b")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z")


def _same_shape(trace: Trace | object) -> str:
    """The trace with its random ids numbered by first appearance and its timestamps
    blanked: two runs of one scenario on fresh runtimes give the same text."""
    assert isinstance(trace, Trace), trace
    text = json.dumps(to_json(trace), sort_keys=True)
    numbered: dict[str, str] = {}
    text = _ID.sub(lambda found: numbered.setdefault(found[0], f"id{len(numbered)}"), text)
    return _TIME.sub("T", text)


def _alone(scenario: Scenario) -> str:
    driver = Driver(connect(REFERENCE))
    try:
        return _same_shape(driver.run(scenario))
    finally:
        driver.close()


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenarios(HANDSHAKE), scenarios(HANDSHAKE))
def test_a_scenario_run_after_others_gives_the_trace_it_gives_alone(
    first: Scenario, other: Scenario
) -> None:
    """Run ``other`` to its end, then start it again and leave it half done, and run
    ``first`` meanwhile: ``first`` does exactly what it does on a harness of its own."""
    driver = Driver(connect(REFERENCE))
    try:
        driver.run(other)
        started = driver.connection.request({"cmd": "start", "scenario": to_json(other)})
        session = started["session"]
        for index in range(len(other.steps) // 2):
            driver.connection.request({"cmd": "step", "session": session, "index": index})
        after = _same_shape(driver.run(first))
        driver.connection.request({"cmd": "finish", "session": session})
    finally:
        driver.close()
    assert after == _alone(first)


def test_each_copy_of_the_template_is_a_database_of_its_own() -> None:
    template = Template()
    one, two, three = template.copy(), template.copy(), template.copy()
    try:
        writer = Store(one.location)
        with writer.transaction() as conn:
            conn.execute("INSERT INTO meta (key, value) VALUES ('left', 'by one')")
        writer.close()  # as a runtime dropped by a restart: the rows stay
        assert _meta(one.location) == {"left", "schema_version"}
        assert _meta(two.location) == _meta(three.location) == {"schema_version"}
    finally:
        for database in (one, two, three):
            database.close()


def test_a_closed_database_is_gone() -> None:
    database = Template().copy()
    location = database.location
    database.close()
    if isinstance(location, str):  # in memory: the name now opens an empty database
        conn = sqlite3.connect(location, uri=True)
        try:
            assert conn.execute("SELECT name FROM sqlite_master").fetchall() == []
        finally:
            conn.close()
    else:
        assert not location.parent.exists()


def _meta(location: str | Path) -> set[str]:
    store = Store(location)
    try:
        return {row["key"] for row in store.read().execute("SELECT key FROM meta")}
    finally:
        store.close()
