"""A seeded hunt shrinks the same way in every process: the strategies' labels, by which
hypothesis orders some shrink passes, do not depend on where objects live in memory, and
``rttool`` fixes string hashing for the commands whose hunts are seeded."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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
    failed = "passed"
except AssertionError:
    failed = "failed"
print(failed, len(tried), hashlib.sha256("\\n".join(tried).encode()).hexdigest())
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
    assert found[0][0] == "failed"  # so it shrank, and what it tried while shrinking is compared


@pytest.mark.parametrize(
    ("command", "environ", "restarts"),
    [
        ("selftest", {}, True),
        ("run", {"CI": "true"}, True),
        ("run", {"CI": "1"}, True),
        ("run", {}, False),  # a run outside CI spends a time budget: it is not reproducible
        ("run", {"CI": "true", "PYTHONHASHSEED": "7"}, False),  # fixed already
        ("selftest", {"PYTHONHASHSEED": "0"}, False),
        ("selftest", {"PYTHONHASHSEED": "random"}, True),  # salted per process all the same
        ("run", {"CI": "true", "PYTHONHASHSEED": ""}, True),
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
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The console script's process becomes the very command line that started it (its
    interpreter options, script and arguments) with ``PYTHONHASHSEED=0``; a caller that
    passes its own arguments (a test, a program embedding rttool) is never replaced."""
    script = tmp_path / "rttool"
    script.write_text("", encoding="utf-8")  # a program a new process can read again
    from conformance.cli import _run

    started: list[tuple[str, list[str], dict[str, str]]] = []

    def execve(path: str, argv: list[str], env: dict[str, str]) -> None:
        started.append((path, argv, env))
        raise _Restarted

    ran: list[str] = []
    monkeypatch.setattr(os, "execve", execve)
    monkeypatch.setattr(_run, "run", lambda args: ran.append(args.command) or 0)
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    command = ["run", "--no-hunt", "--only", "RT-TOOL-1"]
    monkeypatch.setattr(sys, "argv", [str(script), *command])
    monkeypatch.setattr(sys, "orig_argv", [sys.executable, "-P", str(script), *command])
    with pytest.raises(_Restarted):
        cli.console()
    path, argv, env = started[0]
    assert path == sys.executable
    assert argv == [sys.executable, "-P", str(script), *command]
    assert env["PYTHONHASHSEED"] == "0" and env["CI"] == "true"
    assert cli.main(command) == 0  # given its arguments, main runs the command here
    assert ran == ["run"] and len(started) == 1


def _unstable_labels(source: str) -> list[int]:
    """Lines drawing a value whose label would hash an address: ``st.none()``,
    ``st.just`` of anything but text, ``st.sampled_from`` of a literal holding ``None``."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name, args = node.func.attr, node.args
        literal = args[0] if args else None
        if (
            name == "none"
            or (
                name == "just"
                and not (isinstance(literal, ast.Constant) and isinstance(literal.value, str))
            )
            or (
                name == "sampled_from"
                and isinstance(literal, ast.Tuple | ast.List)
                and any(isinstance(e, ast.Constant) and e.value is None for e in literal.elts)
            )
        ):
            found.append(node.lineno)
    return found


def test_the_hunt_strategies_draw_values_through_stable_labels() -> None:
    """A value that is not text reaches the hunt through ``fixed`` or ``one_of_values``
    (``conformance/hunt/_stable.py``), never through a strategy labelled by its hash."""
    from pathlib import Path

    import conformance.hunt

    folder = Path(conformance.hunt.__file__).parent
    offences = [
        f"{path.name}:{line}"
        for path in sorted(folder.glob("*.py"))
        if path.name != "_stable.py"
        for line in _unstable_labels(path.read_text(encoding="utf-8"))
    ]
    assert offences == []
    assert _unstable_labels("st.none()\nst.just(Poll())\nst.sampled_from((None, 1))\n") == [1, 2, 3]
    assert _unstable_labels('st.just("t1")\nst.sampled_from(("a", "b"))\n') == []


def test_where_a_process_cannot_be_replaced_the_command_runs_as_a_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without an exec in place (Windows), the command line runs as a child with hashing
    fixed, and its exit code is the command's."""
    import subprocess

    from conformance.reproducible import restart_with_fixed_hashing

    called: list[tuple[list[str], dict[str, str]]] = []

    def call(argv: list[str], env: dict[str, str]) -> int:
        called.append((argv, env))
        return 3

    monkeypatch.setattr(os, "name", "nt")
    monkeypatch.setattr(subprocess, "call", call)
    monkeypatch.setattr(sys, "orig_argv", ["python", "-P", "-m", "conformance.cli", "selftest"])
    with pytest.raises(SystemExit) as ended:
        restart_with_fixed_hashing()
    assert ended.value.code == 3
    argv, env = called[0]
    assert argv == [sys.executable, "-P", "-m", "conformance.cli", "selftest"]
    assert env["PYTHONHASHSEED"] == "0"
