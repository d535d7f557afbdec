"""``rttool doctor``: ready harnesses pass; each broken one is told what, where and how."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest

from conformance.cli import main
from conformance.doctor import ARGS_HINT
from tests.adapters.conftest import MISBEHAVING, TOY_STDIO, stdio_spec
from tests.adapters.toy import write_toy


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_toy(tmp_path_factory.mktemp("toy"))


def bent(toy: Path, bend: str) -> str:
    return "python:tests.doctor.bent:create?" + urlencode({"source": str(toy), "bend": bend})


def _doctor(spec: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, list[str]]:
    code = main(["doctor", "--impl", spec, *extra])
    captured = capsys.readouterr()
    assert "Traceback (most recent call last)" not in captured.out + captured.err
    return code, captured.out.splitlines()


def _problems(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("rttool doctor: problem at ")]


def test_the_reference_runtime_is_ready(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = _doctor("reference", capsys)
    assert code == 0, lines
    assert _problems(lines) == []
    assert lines[-1] == "rttool doctor: ready: rttool run --impl reference"
    probes = [line for line in lines if line.startswith("  ok ")]
    for reason in ('"args": []', "offers restart", "offers gates", "offers held_observation"):
        assert any(reason in line for line in probes), reason


def test_the_guides_toy_harness_is_ready(toy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = _doctor(stdio_spec(str(toy)), capsys)
    assert code == 0, lines
    assert any("offers entry_points:chat" in line for line in lines)
    assert lines[-1].startswith("rttool doctor: ready: rttool run --impl ")


@pytest.mark.parametrize(
    ("bend", "where", "words"),
    [
        (
            "args-drop",
            "scenario vector-resent-idle /model/0/tool_calls/0/args",
            "reported no result",
        ),
        ("args-error", "scenario vector-resent-idle", "AttributeError"),
        ("claims-held", "/steps/0/held (and ", "offers held_observation, but step 0"),
        ("off-by-one", "rt1-c1-shape /index (and 1 more like it)", "does not echo"),
        ("runtime-ids", "/steps/0/runs/0/turn", "never started"),
        ("gates-unsupported", " start", "unsupported (gates), which the handshake offers"),
    ],
)
def test_a_bent_harness_is_told_what_where_and_how(
    toy: Path, bend: str, where: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = _doctor(bent(toy, bend), capsys)
    assert code == 1, lines
    problems = _problems(lines)
    assert len(problems) == 1, problems
    assert where in problems[0] and words in problems[0] and "; fix: " in problems[0]
    if bend.startswith("args"):
        assert ARGS_HINT in problems[0]
    assert lines[-1] == "rttool doctor: 1 problem: fix them, then run rttool doctor again"


def test_a_status_word_no_declared_state_owns_is_noted_once(
    toy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The checks judge a turn by the state its word is declared to mean: a word of the
    harness's own, declared under no state, is said once, with where and how to fix it."""
    code, lines = _doctor(bent(toy, "own-status-word"), capsys)
    assert code == 0 and _problems(lines) == [], lines
    notes = [line for line in lines if "which turn_states gives no state" in line]
    assert len(notes) == 1, notes
    assert "'done'" in notes[0] and "/status" in notes[0] and "turn_states" in notes[0]
    plain = _doctor(stdio_spec(str(toy)), capsys)[1]
    assert not any("turn_states gives no state" in line for line in plain)


def test_a_handshake_with_typos_gets_every_problem_with_a_suggestion(
    toy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = _doctor(bent(toy, "typos"), capsys)
    assert code == 3
    problems = _problems(lines)
    assert len(problems) == 2
    assert "hello /capabilities/restartt: unknown capability" in problems[0]
    assert "did you mean restart?" in problems[0]
    assert "hello /capabilities/interrupt_points/0" in problems[1]
    assert "did you mean before_tool_body?" in problems[1]


def test_another_protocol_version_cannot_be_driven(
    toy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The guide's toy, bent, served over stdio by the transport tests' own server.
    spec = stdio_spec(str(TOY_STDIO), f"source={toy}", "protocol=rttool-adapter/2")
    code, lines = _doctor(spec, capsys)
    assert code == 3
    assert _problems(lines) == [
        "rttool doctor: problem at hello /protocol: the harness speaks 'rttool-adapter/2', "
        "this suite 'rttool-adapter/1'; fix: answer hello with \"protocol\": "
        '"rttool-adapter/1"'
    ]


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("exit", "exited before answering"),
        ("garbage", "not JSON"),
        ("good", "hello /protocol: 'protocol' is a required property"),
        ("deaf", "did not answer in time"),
    ],
)
def test_a_harness_that_cannot_be_driven_exits_3(
    mode: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = stdio_spec(str(MISBEHAVING), mode)
    code, lines = _doctor(spec, capsys, "--timeout", "1")
    assert code == 3
    assert any(words in line for line in _problems(lines)), lines
    assert lines[-1] == "rttool doctor: the harness cannot be driven: fix the problems above first"
    assert all("\x1b" not in line for line in lines)  # the garbage's escape codes are shown


def test_a_harness_that_answers_some_requests_then_dies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Answers hello properly, then exits: the probes find it, and stop there.
    script = tmp_path / "dies.py"
    script.write_text(
        "import json, sys\n"
        "line = sys.stdin.readline()\n"
        "print(json.dumps({'protocol': 'rttool-adapter/1', 'profiles': ['runtime'],\n"
        "    'implementation': {'name': 'dies', 'version': '1'},\n"
        "    'capabilities': {}, 'limits': {}}), flush=True)\n"
        "sys.stdin.readline()\n"
        "sys.stderr.write('segfault-ish\\n')\n"
        "sys.exit(9)\n",
        "utf-8",
    )
    code, lines = _doctor("stdio:" + sys.executable + " " + str(script), capsys)
    assert code == 1
    problems = _problems(lines)
    assert len(problems) == 1 and "exited before answering" in problems[0]
    assert any("the remaining probes were not sent" in line for line in lines)


def test_the_args_probe_takes_only_calls_with_a_plain_identifier() -> None:
    """A call whose identifier is a number is RT-TOOL-9 ¶5's case, not a probe of how
    "args": [] is read: a harness that answers it under another spelling of the number is
    never told it cannot read an empty list."""
    from adapters.scenario import Reply, Scenario, StartTurn
    from conformance.doctor._traces import empty_list_calls

    model = (Reply(tool_calls=({"name": "t", "args": [], "tool_call_id": 7},)),)
    assert empty_list_calls(Scenario(id="n", steps=(StartTurn("t1"),), model=model)) == []
    model = (Reply(tool_calls=({"name": "t", "args": [], "tool_call_id": "c1"},)),)
    found = empty_list_calls(Scenario(id="s", steps=(StartTurn("t1"),), model=model))
    assert found == [("/model/0/tool_calls/0/args", "c1")]


def test_an_honest_handshake_of_a_runtime_that_will_not_conform_is_ready(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A runtime that does not continue a turn cut by its time limit, and says so: ready to
    # run (a CI gate on doctor passes), the gap named with the clause it will fail.
    spec = "python:tests.doctor.honest:create"
    code, lines = _doctor(spec, capsys)
    assert code == 0, lines
    assert _problems(lines) == []
    gaps = [line for line in lines if line.startswith("rttool doctor: gap at ")]
    assert len(gaps) == 1 and "(will fail DR-5 ¶1)" in gaps[0], gaps
    assert lines[-1].startswith("rttool doctor: ready: ") and "will not conform" in lines[-1]
