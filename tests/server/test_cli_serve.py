"""``rttool serve-reference``: re-executes the server, never imports the reference runtime."""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from conformance.cli import main
from conformance.cli._serve import configure, server_command

# A terminal's foreground job gets Ctrl-C as Python's KeyboardInterrupt; a test run
# started in the background (or by a runner that ignores SIGINT) would hand the command
# an ignored SIGINT, and the Ctrl-C case would wait for ever.  Restore the default.
RTTOOL = (
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from conformance.cli import main; sys.exit(main(sys.argv[1:]))"
)


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    configure(parser)
    return parser.parse_args(argv)


def test_the_child_gets_the_options_given_and_never_the_token() -> None:
    command = server_command(_args("--port", "0", "--db", "x.db", "--token", "t0k"))
    assert command == [sys.executable, "-m", "reference_impl.server", "--port", "0", "--db", "x.db"]
    assert server_command(_args()) == [sys.executable, "-m", "reference_impl.server"]
    full = server_command(_args("--host", "::1", "--log-level", "debug"))
    assert full[3:] == ["--host", "::1", "--log-level", "debug"]


def test_the_command_does_not_import_the_reference_runtime() -> None:
    probe = (
        "import sys; from conformance.cli import build_parser; build_parser(); "
        "import conformance.cli._serve; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'reference_impl'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


def test_the_exit_code_passes_through(capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["serve-reference", "--host", "0.0.0.0", "--port", "0"]) == 2
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a bearer token is required" in err[0]


def _states(tmp_path: Path) -> str:
    """What each process of the test is doing (its state and its signal masks)."""
    said = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and str(tmp_path) in (entry / "cmdline").read_text():
                fields = dict(
                    line.split(":\t", 1) for line in (entry / "status").read_text().splitlines()
                )
                said.append(
                    f"pid {entry.name} ppid {fields.get('PPid')} {fields.get('State')} "
                    f"blocked {fields.get('SigBlk')} ignored {fields.get('SigIgn')} "
                    f"pending {fields.get('SigPnd')}/{fields.get('ShdPnd')}"
                )
        except (OSError, ValueError):
            continue
    return "; ".join(said)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("signum", "group", "status"),
    [(signal.SIGINT, True, 0), (signal.SIGTERM, False, 128 + signal.SIGTERM)],
    ids=["ctrl-c-from-a-terminal", "sigterm-to-the-command"],
)
def test_a_signal_ends_the_server_cleanly(
    tmp_path: Path, signum: signal.Signals, group: bool, status: int
) -> None:
    log = tmp_path / "serve.log"
    command = [
        sys.executable,
        "-c",
        RTTOOL,
        "serve-reference",
        "--port",
        "0",
        "--db",
        str(tmp_path / "rt.db"),
    ]
    with log.open("wb") as sink:
        # Its own process group, so that a Ctrl-C can reach the whole group, as a
        # terminal's would.
        process = subprocess.Popen(
            command, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 120  # generous: a busy machine starts slowly
        while not (found := re.search(r"listening on (\S+) ", log.read_text())):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        url = found.group(1)
        assert httpx.post(f"{url}/api/conversations", timeout=120).status_code == 201
        if group:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        try:
            code = process.wait(120)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running after the signal: {_states(tmp_path)}\n{log.read_text()}")
        assert code == status, log.read_text()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    output = log.read_text()
    assert "Application shutdown complete" in output and "Traceback" not in output
    with pytest.raises(httpx.ConnectError):  # the server went with the command
        httpx.post(f"{url}/api/conversations")
