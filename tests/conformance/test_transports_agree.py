"""The same scenarios give the same traces through all three transports against the
reference runtime: in-process, stdio, and HTTP (where the wire is read from the
server's own turn API)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from adapters import Driver, connect
from adapters.codec import to_json
from adapters.scenario import Scenario
from adapters.trace import Trace
from conformance.hunt.strategies import scenarios
from reference_impl.server.process import spawn_server
from tests.conformance._support import REFERENCE, reference_driver

pytestmark = pytest.mark.slow

_ID = re.compile(r"[0-9a-f]{32}")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?")


def normalized(trace: Trace) -> object:
    """The trace with every implementation-made id and timestamp replaced, in order of
    first appearance, so that two runs of one scenario can be compared."""
    names: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        return names.setdefault(match.group(0), f"<id{len(names)}>")

    def walk(value: object) -> object:
        if isinstance(value, str):
            return _TIME.sub("<time>", _ID.sub(rename, value))
        if isinstance(value, dict):
            return {walk(k): walk(v) for k, v in value.items() if k != "ids"}
        if isinstance(value, list):
            return [walk(item) for item in value]
        return value

    return walk(json.loads(json.dumps(to_json(trace))))


@pytest.fixture(scope="module")
def drivers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Driver]]:
    folder = tmp_path_factory.mktemp("server")
    with spawn_server(folder / "server.db", log_dir=folder) as server:
        made = {
            "in-process": Driver(connect(REFERENCE)),
            "stdio": Driver(connect(f"stdio:{sys.executable} -m reference_impl.harness")),
            "http": Driver(connect(server.url)),
        }
        try:
            yield made
        finally:
            for driver in made.values():
                driver.close()


def _fixed() -> list[Scenario]:
    """Every scenario the checks send, as the scenario catalog finds them: each check run
    and judged against the in-process reference runtime."""
    from conformance.catalog import build_catalog

    catalog = build_catalog(samples=0)
    return [entry.scenario for entry in catalog.entries if entry.kind == "check"]


def test_handshakes_agree_but_for_the_turn_api(drivers: dict[str, Driver]) -> None:
    shakes = {name: to_json(d.handshake()) for name, d in drivers.items()}
    assert shakes["http"]["capabilities"].pop("turn_api") is True  # type: ignore[index]
    for shake in shakes.values():
        shake["capabilities"].pop("turn_api", None)  # type: ignore[union-attr]
    assert shakes["in-process"] == shakes["stdio"] == shakes["http"]


def test_every_check_scenario_gives_the_same_trace(
    drivers: dict[str, Driver], tmp_path: Path
) -> None:
    differing = []
    for scenario in _fixed():
        traces = {name: normalized(d.run(scenario)) for name, d in drivers.items()}
        if not traces["in-process"] == traces["stdio"] == traces["http"]:
            differing.append(scenario.id)
    assert not differing, f"traces differ between transports for {differing}"


@settings(
    max_examples=40,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    phases=(Phase.generate,),
)
@given(scenarios(reference_driver().handshake()))
def test_generated_scenarios_give_the_same_trace(
    drivers: dict[str, Driver],  # type: ignore[no-untyped-def]
    scenario: Scenario,
) -> None:
    traces = {name: normalized(d.run(scenario)) for name, d in drivers.items()}
    assert traces["in-process"] == traces["stdio"] == traces["http"]
