"""One write path: every file the product writes goes through ``adapters.files``.

The scan reads every module of the product and fails on any call that opens a file for
writing anywhere but ``adapters/files.py``: ``open(..., "w"|"a"|"x"|"+")`` (the builtin
or a path's ``.open``), ``.write_text``, ``.write_bytes``, ``os.open`` with a flag that
writes or creates, ``shutil`` copies and moves, and ``tempfile``'s files.  Opening
``os.devnull`` writes no file and is not counted.  The exemptions below are the only
places that may, each with its reason.

Beside the scan, the commands whose writers once followed a link planted at their
temporary name (``NAME.partial``) are run against such a link.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.report import to_json, write_reports
from tests.report.sample import sample_report

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("adapters", "bench", "conformance", "harnesses", "mutation", "reference_impl")
PRIMITIVE = "adapters/files.py"

#: (module, the call as written) -> why it may open a file for writing itself.
EXEMPT = {
    ("reference_impl/server/process.py", "tempfile.mkstemp"): (
        "the server child's log: a fresh file of a random name, made only so that its "
        "descriptor can be handed to the child, which writes it"
    ),
    ("reference_impl/server/process.py", "log.open"): (
        "the same log, opened once to pass its descriptor to the child process"
    ),
    ("conformance/cli/mutant_server.py", "os.open"): (
        "a forked mutant run's standard error: the descriptor the fork's stderr is moved "
        "onto, in the mutant's own workspace, which the driver made and deletes"
    ),
    ("mutation/_execute.py", "log.open"): (
        "a mutant's child process writes its standard error through this descriptor, in "
        "the mutant's own workspace, which the driver made and deletes"
    ),
}

#: What ``os.open`` may be given without writing (anything else, a variable included, may).
_READ_ONLY = {"os", "getattr", "O_RDONLY", "O_NONBLOCK", "O_CLOEXEC", "O_NOFOLLOW", "O_DIRECTORY"}
_SHUTIL = {"copy", "copy2", "copyfile", "copytree", "move", "copyfileobj"}
_TEMPFILE = {"mkstemp", "NamedTemporaryFile", "TemporaryFile", "SpooledTemporaryFile"}


def _mode(call: ast.Call, position: int) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "mode":
            return keyword.value
    return call.args[position] if len(call.args) > position else None


def _writes(mode: ast.expr | None, *, default_writes: bool = False) -> bool:
    if mode is None:
        return default_writes
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        return any(letter in mode.value for letter in "wax+")
    return True  # a mode computed at run time may write: it must be in the primitive


def _is_devnull(node: ast.expr | None) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "devnull"
        and isinstance(node.value, ast.Name)
        and node.value.id == "os"
    )


def _names(node: ast.AST) -> set[str]:
    return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)} | {
        n.id for n in ast.walk(node) if isinstance(n, ast.Name)
    }


def _offence(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name) and func.id == "open":
        first = call.args[0] if call.args else None
        return not _is_devnull(first) and _writes(_mode(call, 1))
    if not isinstance(func, ast.Attribute):
        return False
    owner = func.value.id if isinstance(func.value, ast.Name) else None
    if func.attr in ("write_text", "write_bytes"):
        return True
    if func.attr == "open" and owner == "os":
        flags = call.args[1] if len(call.args) > 1 else None
        first = call.args[0] if call.args else None
        return not _is_devnull(first) and not (flags and _names(flags) <= _READ_ONLY)
    if func.attr == "open":
        # ``path.open(mode)``: only a constant mode is known to be a file's; the harness
        # kit's ``open(scenario)`` and its kind take no mode string.
        mode = _mode(call, 0)
        return isinstance(mode, ast.Constant) and _writes(mode)
    if owner == "shutil" and func.attr in _SHUTIL:
        return True
    return owner == "tempfile" and func.attr in _TEMPFILE


def _written_as(call: ast.Call) -> str:
    func = call.func
    assert isinstance(func, ast.Attribute | ast.Name)
    if isinstance(func, ast.Name):
        return func.id
    owner = ast.unparse(func.value)
    return f"{owner}.{func.attr}"


def _offences(relative: str, source: str) -> list[tuple[str, int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _offence(node):
            found.append((relative, node.lineno, _written_as(node)))
    return found


def _product_offences() -> list[tuple[str, int, str]]:
    found = []
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative != PRIMITIVE:
                found += _offences(relative, path.read_text(encoding="utf-8"))
    return found


def test_no_module_but_the_primitive_opens_a_file_for_writing() -> None:
    offences = [
        f"{path}:{line}: {call}"
        for path, line, call in _product_offences()
        if (path, call) not in EXEMPT
    ]
    assert not offences, "write through adapters.files:\n" + "\n".join(offences)


def test_every_exemption_is_still_needed() -> None:
    used = {(path, call) for path, _, call in _product_offences()}
    assert set(EXEMPT) <= used, f"stale exemptions: {sorted(set(EXEMPT) - used)}"


@pytest.mark.parametrize(
    ("source", "offends"),
    [
        ("open(p, 'w')", True),
        ("open(p, mode='ab')", True),
        ("open(p, 'x')", True),
        ("open(p, 'r+')", True),
        ("open(p, m)", True),
        ("open(p)", False),
        ("open(p, 'rb')", False),
        ("open(os.devnull, 'wb')", False),
        ("path.open('a', encoding='utf-8')", True),
        ("path.open()", False),
        ("harness.open(scenario)", False),
        ("path.write_text('x')", True),
        ("(root / 'f').write_bytes(b'x')", True),
        ("os.open(p, os.O_WRONLY | os.O_CREAT)", True),
        ("os.open(p, os.O_RDONLY)", False),
        ("os.open(p, os.O_RDONLY | getattr(os, 'O_NONBLOCK', 0))", False),
        ("os.open(p, flags, 0o666)", True),
        ("os.open(os.devnull, os.O_WRONLY)", False),
        ("shutil.copytree(a, b)", True),
        ("shutil.copyfile(a, b)", True),
        ("shutil.rmtree(a)", False),
        ("tempfile.mkstemp(dir=d)", True),
        ("tempfile.mkdtemp()", False),
    ],
)
def test_the_scan_sees_every_way_of_writing(source: str, offends: bool) -> None:
    """The scan itself, on each form it must see (and on forms that write nothing)."""
    assert bool(_offences("m.py", source)) is offends


def _planted(folder: Path, name: str, outside: Path, content: str = "untouched\n") -> Path:
    """A link at ``folder/name`` to a file outside that must stay as it is."""
    folder.mkdir(parents=True, exist_ok=True)
    victim = outside / "precious.txt"
    victim.parent.mkdir(parents=True, exist_ok=True)
    victim.write_text(content, encoding="utf-8")
    (folder / name).symlink_to(victim)
    return victim


def test_scenario_dump_never_follows_a_link_at_a_temporary_name(tmp_path: Path) -> None:
    out = tmp_path / "dump"
    victim = _planted(out, "index.json.partial", tmp_path / "outside")
    assert main(["scenarios", "dump", str(out), "--only", "RT-TOOL-1", "--hunt-samples", "0"]) == 0
    assert victim.read_text(encoding="utf-8") == "untouched\n"
    assert json.loads((out / "index.json").read_text("utf-8"))["format"] == "rttool-scenarios/1"


def test_scenario_dump_never_follows_a_link_at_a_scenario_file(tmp_path: Path) -> None:
    out = tmp_path / "dump"
    victim = _planted(out, "index.json", tmp_path / "outside")
    assert main(["scenarios", "dump", str(out), "--only", "RT-TOOL-1", "--hunt-samples", "0"]) == 0
    assert victim.read_text(encoding="utf-8") == "untouched\n"
    assert not (out / "index.json").is_symlink()


@pytest.mark.parametrize("name", ["README.md.partial", "index.html.partial", "index.html"])
def test_the_matrix_never_follows_a_link_it_finds(tmp_path: Path, name: str) -> None:
    report = tmp_path / "reports" / "sample"
    write_reports(sample_report(), report, ("json",))
    out = tmp_path / "site"
    victim = _planted(out, name, tmp_path / "outside")
    assert main(["report", "matrix", str(report), "--out", str(out)]) == 0
    assert victim.read_text(encoding="utf-8") == "untouched\n"
    assert (out / "README.md").read_text("utf-8").startswith("# ")


def test_expectations_update_never_follows_a_link_at_its_output(tmp_path: Path) -> None:
    report = tmp_path / "report"
    report.mkdir()
    (report / "standing.json").write_text(to_json(sample_report()), "utf-8")
    kept = "expectations: []\n"
    victim = _planted(tmp_path / "ci", "expected.yml", tmp_path / "outside", kept)
    out = tmp_path / "ci" / "expected.yml"
    standing = str(report / "standing.json")
    assert main(["expectations", "update", "--standing", standing, "--out", str(out)]) == 0
    assert victim.read_text(encoding="utf-8") == kept
    assert not out.is_symlink() and "expectations" in out.read_text("utf-8")
