"""A seeded hunt shrinks the same way in every process: the strategies' labels, by which
hypothesis orders some shrink passes, do not depend on where objects live in memory, and
``rttool`` fixes string hashing for the commands whose hunts are seeded."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conformance import cli
from conformance.reproducible import needs_fixed_hashing

#: A seeded search over the hunt's own scenarios, failing on a property of the scenario
#: alone (no runtime), so that everything it prints comes from hypothesis and the
#: strategies: every scenario it tried, shrinking included.
_SEARCH = """
import hashlib, json
from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from adapters import Driver, connect
from adapters._codec import to_json
from conformance.hunt.strategies import scenarios
driver = Driver(connect("python:reference_impl.harness:create"))
tried = []
@seed(3)
@settings(max_examples=150, database=None, deadline=None, verbosity=Verbosity.quiet,
          suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
          phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink))
@given(scenarios(driver.handshake()))
def search(scenario):
    tried.append(json.dumps(to_json(scenario), sort_keys=True))
    calls = sum(len(reply.tool_calls or ()) for reply in scenario.model)
    assert not (len(scenario.steps) >= 4 and calls >= 3)
try:
    search()
except AssertionError:
    pass
print(len(tried), hashlib.sha256("\\n".join(tried).encode()).hexdigest())
"""


@pytest.mark.slow
def test_a_seeded_search_shrinks_alike_in_two_processes() -> None:
    """Two processes (their objects at other addresses) try the very same scenarios,
    shrinking included; before the labels were fixed, four runs in four gave four
    different sequences."""
    environ = {**os.environ, "PYTHONHASHSEED": "0"}
    found = [
        subprocess.run(
            [sys.executable, "-c", _SEARCH], env=environ, capture_output=True, text=True, check=True
        ).stdout.split()
        for _ in range(2)
    ]
    assert found[0] == found[1]
    assert int(found[0][0]) > 20  # it generated, failed and shrank


@pytest.mark.parametrize(
    ("command", "environ", "restarts"),
    [
        ("selftest", {}, True),
        ("run", {"CI": "true"}, True),
        ("run", {"CI": "1"}, True),
        ("run", {}, False),  # a run outside CI spends a time budget: it is not reproducible
        ("run", {"CI": "true", "PYTHONHASHSEED": "7"}, False),  # fixed already
        ("selftest", {"PYTHONHASHSEED": "0"}, False),
        ("report", {"CI": "true"}, False),
    ],
)
def test_which_commands_start_again_with_hashing_fixed(
    command: str, environ: dict[str, str], restarts: bool
) -> None:
    assert needs_fixed_hashing(command, environ) is restarts


class _Restarted(Exception):
    pass


def test_the_command_starts_again_as_itself_with_hashing_fixed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The console script's process becomes ``python -m conformance.cli`` with the same
    arguments and ``PYTHONHASHSEED=0``; a caller that passes its own arguments (a test,
    a program embedding rttool) is never replaced."""
    started: list[tuple[str, list[str], dict[str, str]]] = []

    def execve(path: str, argv: list[str], env: dict[str, str]) -> None:
        started.append((path, argv, env))
        raise _Restarted

    monkeypatch.setattr(os, "execve", execve)
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    monkeypatch.setattr(sys, "argv", ["rttool", "run", "--no-hunt", "--only", "RT-TOOL-1"])
    with pytest.raises(_Restarted):
        cli.main()
    path, argv, env = started[0]
    assert path == sys.executable
    assert argv == [
        sys.executable,
        "-m",
        "conformance.cli",
        "run",
        "--no-hunt",
        "--only",
        "RT-TOOL-1",
    ]
    assert env["PYTHONHASHSEED"] == "0" and env["CI"] == "true"
    with pytest.raises(SystemExit):  # given its arguments, main parses them and runs here
        cli.main(["run", "--help"])
    assert len(started) == 1
