"""The one write primitive refuses a target that exists and is not a regular file.

Renaming a fresh file over a FIFO, a socket, a device node or a link to one replaces
that node with a regular file (run as root, ``--trace /dev/full`` once replaced the
machine's own device); writing into it blocks, or feeds a stream someone else reads.
``adapters.files.write_file`` and ``append_text`` refuse each with one line naming the
file, and every command that writes a file the user named says that line and exits 2,
leaving the target as it was.  A link to a regular file, or to nothing, is still
replaced (not followed), as a link planted in a report directory is.
"""

from __future__ import annotations

import json
import os
import socket
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from adapters.files import NotWritable, append_text, writable, write_file
from conformance.cli import main
from conformance.report import to_json
from tests.conformance._support import rttool
from tests.report.sample import sample_report

UPSTREAM = Path(__file__).resolve().parents[1] / "fixtures" / "upstream" / "flowdrop-spec"


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _socket(path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as bound:
        bound.bind(str(path))


def _directory(path: Path) -> None:
    path.mkdir()


def _link_to_null(path: Path) -> None:
    path.symlink_to("/dev/null")


def _link_to_fifo(path: Path) -> None:
    os.mkfifo(path.with_name("elsewhere.fifo"))
    path.symlink_to(path.with_name("elsewhere.fifo"))


def _link_to_directory(path: Path) -> None:
    path.with_name("elsewhere").mkdir()
    path.symlink_to(path.with_name("elsewhere"), target_is_directory=True)


def _link_to_an_open_file(path: Path) -> None:
    """What ``/dev/stdout`` is: a link to a process's open file (a regular one here)."""
    opened = path.with_name("stdout.log")
    opened.write_text("the process's own output\n", encoding="utf-8")
    handle = os.open(opened, os.O_RDONLY)
    path.symlink_to(f"/proc/{os.getpid()}/fd/{handle}")


def _device(path: Path) -> None:
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # what /dev/null is
    except PermissionError:
        pytest.skip("making a device node needs root")


#: Each kind of target that is not a regular file, made at a path.
PLANTS: dict[str, Callable[[Path], None]] = {
    "fifo": _fifo,
    "socket": _socket,
    "directory": _directory,
    "device": _device,
    "link-to-device": _link_to_null,
    "link-to-fifo": _link_to_fifo,
    "link-to-directory": _link_to_directory,
    "link-to-an-open-file": _link_to_an_open_file,
}


def _fingerprint(path: Path) -> tuple[int, str]:
    """What the node at ``path`` is (its type, and where a link points)."""
    mode = os.lstat(path).st_mode
    return stat.S_IFMT(mode), os.readlink(path) if stat.S_ISLNK(mode) else ""


@contextmanager
def _planted(kind: str, path: Path) -> Iterator[tuple[int, str]]:
    if kind == "link-to-an-open-file" and not Path(f"/proc/{os.getpid()}/fd").is_dir():
        pytest.skip("no /proc on this system")
    PLANTS[kind](path)
    before = _fingerprint(path)
    yield before
    assert _fingerprint(path) == before, f"the {kind} at the target was replaced"
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("kind", sorted(PLANTS))
def test_write_file_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "out.json"
    with _planted(kind, target), pytest.raises(NotWritable) as refused:
        write_file(tmp_path, "out.json", b"{}\n")
    said = str(refused.value)
    assert "\n" not in said and str(target) in said and "not a regular file" in said
    assert isinstance(refused.value, OSError)  # every caller reports it as a write failure


@pytest.mark.parametrize("kind", sorted(PLANTS))
def test_append_text_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "summary.md"
    with _planted(kind, target):
        # A reader on a FIFO: appending to one would not block, it would write into it.
        fifo = target.with_name("elsewhere.fifo") if kind == "link-to-fifo" else target
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK) if "fifo" in kind else None
        try:
            with pytest.raises(OSError, match=r"summary\.md|Too many levels"):
                append_text(target, "line")
            if reader is not None:
                assert os.read(reader, 100) == b""
        finally:
            if reader is not None:
                os.close(reader)


@pytest.mark.parametrize(
    "make", [lambda p: p.symlink_to(p.with_name("gone")), lambda p: p.write_bytes(b"old")]
)
def test_a_regular_file_or_a_dangling_link_is_written(
    tmp_path: Path, make: Callable[[Path], None]
) -> None:
    target = tmp_path / "out.json"
    make(target)
    writable(target)
    write_file(tmp_path, "out.json", b"new")
    assert target.read_bytes() == b"new" and not target.is_symlink()
    assert not (tmp_path / "gone").exists()  # a dangling link is replaced, not followed


def _counterexample(folder: Path) -> Path:
    scenario = {"id": "s", "tools": [], "model": [{"text": "hi"}]}
    scenario["steps"] = [{"op": "start_turn", "turn": "t1"}]
    path = folder / "counterexample.json"
    path.write_text(json.dumps({"invariant": "no-double-delivery", "scenario": scenario}))
    return path


@pytest.mark.parametrize("kind", sorted(PLANTS))
def test_replay_refuses_a_trace_target_that_is_not_a_regular_file(
    tmp_path: Path, kind: str
) -> None:
    counterexample = _counterexample(tmp_path)
    target = tmp_path / "trace.json"
    with _planted(kind, target):
        done = rttool("replay", str(counterexample), "--trace", str(target), cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""  # refused before the scenario ran
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rttool: error: cannot write the file")
    assert "not a regular file" in lines[0]


@pytest.mark.parametrize(
    ("outputs", "said"),
    [
        (["--trace", "counterexample.json"], "--trace names the scenario file itself"),
        (["--html", "./counterexample.json"], "--html names the scenario file itself"),
        (["--trace", "same.out", "--html", "same.out"], "--trace and --html name one file"),
    ],
)
def test_replay_never_writes_over_what_it_reads(
    tmp_path: Path, outputs: list[str], said: str
) -> None:
    counterexample = _counterexample(tmp_path)
    kept = counterexample.read_bytes()
    done = rttool("replay", "counterexample.json", *outputs, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
    assert counterexample.read_bytes() == kept
    assert not (tmp_path / "same.out").exists()


def _standing(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "standing.json"
    path.write_text(to_json(sample_report()), encoding="utf-8")
    return path


def _expectations(out: Path) -> list[str]:
    standing = str(_standing(out.parent / "report"))
    return ["expectations", "update", "--standing", standing, "--out", str(out)]


def _render(out: Path) -> list[str]:
    standing = str(_standing(out.parent.parent / "report"))
    return ["report", "render", standing, "--format", "json", "--out", str(out.parent)]


def _matrix(out: Path) -> list[str]:
    report = out.parent.parent / "reports" / "sample"
    _standing(report)
    return ["report", "matrix", str(report), "--out", str(out.parent)]


def _import(out: Path) -> list[str]:
    return ["rules", "import", str(UPSTREAM), "--out", str(out.parent)]


def _dump(out: Path) -> list[str]:
    return ["scenarios", "dump", str(out.parent), "--only", "RT-TOOL-1", "--hunt-samples", "0"]


#: command -> (the argument list given the target, the target's name in its folder)
COMMANDS: dict[str, tuple[Callable[[Path], list[str]], str]] = {
    "expectations-update": (_expectations, "expected.yml"),
    "report-render": (_render, "standing.json"),
    "report-matrix": (_matrix, "README.md"),
    "rules-import": (_import, "RT-TOOL-1.md"),
    "scenarios-dump": (_dump, "index.json"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("kind", ["fifo", "link-to-device"])
def test_every_command_refuses_a_target_that_is_not_a_regular_file(
    tmp_path: Path, command: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments, name = COMMANDS[command]
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / name
    argv = arguments(target)
    with _planted(kind, target):
        code = main(argv)
    said = capsys.readouterr().err.strip().splitlines()
    assert code == 2, said
    assert said and "not a regular file" in said[-1] and str(target) in said[-1]
