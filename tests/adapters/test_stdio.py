"""The stdio transport against harness processes that misbehave on purpose."""

from __future__ import annotations

import os
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters import BadJson, Crashed, ImplementationError, SpecError, TimedOut, Unreachable
from adapters import connect as open_spec
from adapters.stdio import MAX_LINE_BYTES, StdioConnection
from tests.adapters.conftest import MISBEHAVING, stdio_spec

HELLO = {"cmd": "hello", "protocol": "rttool-adapter/1"}
MiB = 1024 * 1024


@pytest.fixture
def opened() -> Iterator[list[StdioConnection]]:
    """Connections to close after the test, whatever it asserted."""
    connections: list[StdioConnection] = []
    yield connections
    for connection in connections:
        connection.close()


def harness(
    opened: list[StdioConnection], mode: str, *args: str, timeout: float = 20, **options: int
) -> StdioConnection:
    """A connection to ``misbehaving.py MODE ARGS`` (closed by the fixture)."""
    command = stdio_spec(str(MISBEHAVING), mode, *args).removeprefix("stdio:")
    connection = StdioConnection(f"stdio:misbehaving {mode}", command, timeout=timeout, **options)
    opened.append(connection)
    return connection


def gone(pid: int) -> bool:
    """Whether ``pid`` is no longer a running process (gone, or a zombie nobody reaps)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def test_one_process_serves_every_request(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "good")
    replies = [connection.request({**HELLO, "i": i}) for i in range(3)]
    assert [reply["n"] for reply in replies] == [1, 2, 3]
    assert len({reply["pid"] for reply in replies}) == 1
    assert replies[2]["echo"] == {**HELLO, "i": 2}
    assert connection.starts == 1


def test_requests_are_ascii_lines(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "good")
    reply = connection.request({"cmd": "step", "text": "naïve\nline\u2028two"})
    assert reply["echo"] == {"cmd": "step", "text": "naïve\nline\u2028two"}


def test_blank_lines_are_ignored(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "blank")
    assert connection.request(HELLO)["n"] == 1
    assert connection.request(HELLO)["n"] == 2


def test_garbage_is_bad_json_quoted_escaped_and_restarts(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "garbage")
    with pytest.raises(BadJson) as caught:
        connection.request(HELLO)
    text = str(caught.value)
    assert "not JSON" in text
    assert "\\x1b[31mnot json" in text  # the control character is shown escaped
    assert "\x1b" not in text
    assert caught.value.details["start"].startswith("Traceback? no:")
    assert caught.value.__cause__ is not None
    with pytest.raises(BadJson):
        connection.request(HELLO)
    assert connection.starts == 2  # a stream out of step is never reused


@pytest.mark.parametrize(("mode", "said"), [("array", "got=list"), ("nan", "NaN is not JSON")])
def test_non_objects_and_non_json_constants_are_bad_json(
    opened: list[StdioConnection], mode: str, said: str
) -> None:
    with pytest.raises(BadJson) as caught:
        harness(opened, mode).request(HELLO)
    assert said in str(caught.value)


def test_exit_at_once_is_crashed_with_its_stderr(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "exit")
    with pytest.raises(Crashed) as caught:
        connection.request(HELLO)
    err = caught.value
    assert err.details["exit_code"] == 3
    assert "cannot open config file 'harness.toml'" in str(err)
    assert "cannot open config file" in err.stderr
    assert err.kind == "crashed"


def test_killed_by_a_signal_names_the_signal(opened: list[StdioConnection]) -> None:
    with pytest.raises(Crashed) as caught:
        harness(opened, "killed").request(HELLO)
    assert caught.value.details["signal"] == "SIGKILL"


def test_crash_on_second_request_then_restart(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "crash-second")
    first = connection.request(HELLO)
    with pytest.raises(Crashed) as caught:
        connection.request(HELLO)
    assert caught.value.details["exit_code"] == 7
    assert "failure on request 2" in str(caught.value)
    third = connection.request(HELLO)
    assert third["n"] == 1  # a fresh process
    assert third["pid"] != first["pid"]
    assert connection.starts == 2


def test_hang_times_out_then_next_request_restarts(
    opened: list[StdioConnection], tmp_path: Path
) -> None:
    connection = harness(opened, "hang-once", str(tmp_path / "hung-once"), timeout=30)
    with pytest.raises(TimedOut) as caught:
        connection.request(HELLO, timeout=1)
    assert caught.value.details["timeout"] == 1
    assert connection.pid is None  # the hung process was ended
    # The process that hangs is the first to get as far as reading a request; on a slow
    # machine that may not have been the first one started, so allow more timeouts.
    timeouts = 1
    while True:
        try:
            reply = connection.request(HELLO, timeout=30)
        except TimedOut:
            timeouts += 1
            assert timeouts < 5
            continue
        break
    assert reply["n"] == 1
    assert connection.starts == timeouts + 1


def test_a_process_that_stops_reading_cannot_block_a_write(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "deaf")
    with pytest.raises(TimedOut):
        connection.request({**HELLO, "pad": "x" * (4 * MiB)}, timeout=1)


def test_reply_before_the_request_is_read_is_refused(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "early")
    with pytest.raises(ImplementationError, match="before reading the whole request"):
        connection.request({**HELLO, "pad": "x" * MiB})


def test_huge_line_is_refused_at_the_default_limit_in_bounded_memory(
    opened: list[StdioConnection],
) -> None:
    connection = harness(opened, "huge", str(50 * MiB))
    tracemalloc.start()
    try:
        with pytest.raises(ImplementationError) as caught:
            connection.request(HELLO)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert type(caught.value) is ImplementationError
    assert "reply too large" in str(caught.value)
    assert caught.value.details["limit"] == MAX_LINE_BYTES
    assert peak < MAX_LINE_BYTES + 4 * MiB  # never the whole 50 MB line
    assert connection.pid is None


def test_memory_is_bounded_by_the_limit_not_the_line(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "huge", str(50 * MiB), max_line_bytes=MiB)
    tracemalloc.start()
    try:
        with pytest.raises(ImplementationError, match="reply too large") as caught:
            connection.request(HELLO)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert caught.value.details["limit"] == MiB
    assert peak < 4 * MiB


def test_chatty_stderr_never_blocks(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "chatty")  # about 1 MB of stderr per request
    assert [connection.request(HELLO)["n"] for _ in range(3)] == [1, 2, 3]


def test_stderr_tail_is_bounded_and_keeps_the_newest(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "chatty-exit", stderr_tail_bytes=4096)
    with pytest.raises(Crashed) as caught:
        connection.request(HELLO)
    tail = caught.value.stderr
    assert tail.endswith("last words before exit\n")
    assert "debug line 0 " not in tail
    assert len(tail) <= 4096
    assert "last words before exit" in str(caught.value)


def test_a_line_nobody_asked_for_is_reported_then_restarted(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "stray")
    assert connection.request(HELLO)["n"] == 1
    with pytest.raises(ImplementationError, match="nobody asked for") as caught:
        connection.request(HELLO)
    assert caught.value.details["start"] == '{"unasked": true}'
    assert connection.request(HELLO)["n"] == 1
    assert connection.starts == 2


def test_a_process_that_exited_between_requests_is_restarted(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "exit-after-answer")
    first = connection.request(HELLO)
    # Wait for the exit without reaping it: the connection owns the process.
    os.waitid(os.P_PID, first["pid"], os.WEXITED | os.WNOWAIT)
    second = connection.request(HELLO)
    assert second["pid"] != first["pid"]
    assert connection.starts == 2


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ending_a_wrapper_ends_its_whole_group(
    opened: list[StdioConnection], tmp_path: Path
) -> None:
    pid_file = tmp_path / "grandchild.pid"
    connection = harness(opened, "wrapper", str(pid_file))
    # Until the grandchild got far enough to say who it is: a busy machine starts the
    # two processes slowly, so each try waits twice as long as the last.
    for wait in (2, 4, 8, 16, 32, 64):
        with pytest.raises(TimedOut):
            connection.request(HELLO, timeout=wait)
        if pid_file.exists() and pid_file.read_text():
            break
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 30  # SIGKILL is sent; the kernel finishes it in its time
    while not gone(grandchild) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gone(grandchild)


def test_close_says_bye_and_reaps(opened: list[StdioConnection]) -> None:
    connection = harness(opened, "good")
    pid = connection.request(HELLO)["pid"]
    connection.close()
    assert connection.pid is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # already reaped: no zombie left behind
    connection.close()  # closing twice is harmless


@pytest.mark.slow
def test_close_ends_a_process_that_ignores_end_of_input_and_sigterm(
    opened: list[StdioConnection],
) -> None:
    connection = harness(opened, "stubborn")
    pid = connection.request(HELLO)["pid"]
    connection.close()  # bye, end of input, SIGTERM: all ignored; SIGKILL is not
    assert connection.pid is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_unknown_command_is_unreachable(opened: list[StdioConnection], tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-harness")
    connection = StdioConnection(f"stdio:{missing}", missing, timeout=5)
    opened.append(connection)
    with pytest.raises(Unreachable) as caught:
        connection.request(HELLO)
    assert caught.value.details["command"] == missing


@pytest.mark.parametrize("spec", ["stdio:", "stdio:   ", "stdio:python 'unbalanced"])
def test_bad_stdio_specs(spec: str) -> None:
    with pytest.raises(SpecError):
        open_spec(spec)


def test_spec_runs_without_a_shell(opened: list[StdioConnection], tmp_path: Path) -> None:
    marker = tmp_path / "shell-ran"
    connection = StdioConnection(
        "stdio:x", f"{sys.executable} {MISBEHAVING} good ; touch {marker}", timeout=10
    )
    opened.append(connection)
    assert ";" in connection.argv
    assert connection.request(HELLO)["n"] == 1
    assert not marker.exists()
