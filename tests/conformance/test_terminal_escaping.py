"""Every string that came from a file or an implementation reaches the terminal with its
control characters shown, never sent: replay's invariant names, scenario ids and
messages, and the suite's lines under ``rttool run`` and plain pytest."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conformance._support import harness_env, rttool
from tests.conformance.hostile import CONTROL

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

# C0 controls but tab and newline, DEL, and the C1 controls (0x9b is a one-byte CSI).
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _clean(*texts: str) -> None:
    for text in texts:
        found = RAW.search(text)
        assert found is None, f"raw control character {found.group()!r} in {text!r}"


def _scenario(name: str) -> dict[str, object]:
    return {
        "id": name,
        "tools": [],
        "model": [{"text": "hi"}],
        "steps": [{"op": "start_turn", "turn": "t" + CONTROL[:20]}],
    }


@pytest.mark.parametrize(
    "content",
    [
        {"invariant": CONTROL, "scenario": _scenario("x")},
        {"invariant": "no-double-delivery", "scenario": _scenario(CONTROL)},
        {"invariant": "no-double-delivery", "scenario": {**_scenario("x"), CONTROL: 1}},
        _scenario(CONTROL),
    ],
    ids=["invariant", "scenario-id", "unknown-key", "bare-scenario"],
)
def test_replay_shows_control_characters(content: dict[str, object], tmp_path: Path) -> None:
    path = tmp_path / "counterexample.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    done = rttool("replay", str(path), cwd=tmp_path)
    assert done.returncode in (0, 1, 2), done.stderr
    assert "Traceback" not in done.stderr
    _clean(done.stdout, done.stderr)
    assert done.stdout.strip() or done.stderr.strip()


MODES = ["control", "control-value", "control-unsupported"]


@pytest.mark.parametrize("mode", MODES)
def test_a_run_shows_control_characters(mode: str, tmp_path: Path) -> None:
    done = rttool(
        "run",
        "--impl",
        f"python:tests.conformance.hostile:create?mode={mode}",
        "--only",
        "RT-TOOL-1#c1",
        "--no-hunt",
        "--report-dir",
        str(tmp_path / "out"),
        cwd=tmp_path,
        env=harness_env(),
    )
    assert done.returncode in (0, 1), done.stderr
    _clean(done.stdout, done.stderr)


@pytest.mark.parametrize("mode", MODES)
def test_plain_pytest_shows_control_characters(mode: str, pytester: pytest.Pytester) -> None:
    result = pytester.runpytest(
        "--rttool-impl",
        f"python:tests.conformance.hostile:create?mode={mode}",
        "--rttool-only",
        "RT-TOOL-1#c1",
        "--rttool-no-hunt",
        "-rA",
        "-p",
        "no:cacheprovider",
    )
    assert result.ret in (0, 1)
    _clean(result.stdout.str(), result.stderr.str())
    assert "2J" in result.stdout.str()  # the message is there, shown


@pytest.mark.parametrize("char", ["\u202e", "\u202d", "\u2066", "\u2069", "\u200f", "\u061c"])
def test_bidirectional_controls_are_shown_never_obeyed(char: str) -> None:
    """An RLO (U+202E) or another bidi control would silently reorder what follows it on a
    terminal or in a report; every escaping function shows it as ``\\uNNNN``."""
    from conformance._escape import markdown, printable, xml_text

    name = f"tool{char}exe.txt"
    shown = f"tool\\u{ord(char):04x}exe.txt"
    assert printable(name) == shown
    assert xml_text(name) == shown
    assert markdown(name) == shown.replace("\\", "\\\\")


def test_a_lone_surrogate_is_shown_as_a_replacement_never_written_raw() -> None:
    """A JSON ``\\ud800`` (legal in a handshake's name) decodes to a lone surrogate, which
    no encoder writes: a terminal line holding it would fail to be written at all."""
    from conformance._escape import printable

    shown = printable("a\ud800b\udfffc")
    assert shown == "a\ufffdb\ufffdc"
    shown.encode("utf-8")  # writable
