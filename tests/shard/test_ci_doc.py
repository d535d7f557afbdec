"""Every ``rttool`` command of ``docs/ci.md`` parses against the real command line, and
the split-run workflow there is complete: a shard matrix, a Redis service, and a last
job that merges, gates and publishes."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from conformance.cli import build_parser

DOC = Path(__file__).resolve().parents[2] / "docs" / "ci.md"
#: what a CI system puts in place of its expressions and variables, for parsing only
VALUES = {
    "matrix.shard": "2",
    "CI_NODE_INDEX": "2",
    "CI_NODE_TOTAL": "4",
    "EXAMPLE_DB": "redis://localhost:6379/0",
    "RTTOOL_EXAMPLE_DB:-$EXAMPLE_DB": "redis://localhost:6379/0",
}


def _blocks(text: str) -> list[str]:
    return re.findall(r"```(?:yaml|sh|bash)\n(.*?)```", text, flags=re.DOTALL)


def _commands(block: str) -> list[str]:
    """The ``rttool`` command lines of a block, folded YAML scalars (``>``) joined."""
    lines = block.replace("\\\n", " ").splitlines()  # shell line continuations
    found: list[str] = []
    for index, line in enumerate(lines):
        stripped = re.sub(r"^\s*(?:- )?(?:run: )?", "", line).strip()
        if stripped in (">", "|", "run: >", "run: |"):
            indent = len(line) - len(line.lstrip())
            body = []
            for follow in lines[index + 1 :]:
                if follow.strip() and len(follow) - len(follow.lstrip()) <= indent:
                    break
                body.append(follow.strip())
            stripped = " ".join(body) if stripped.endswith(">") else ""
        if stripped.startswith("rttool "):
            found.append(stripped)
    return found


def _substituted(command: str) -> list[str]:
    """The command's words, its CI expressions given values; the synopsis's optional
    parts (``[--level L]...``) are taken as written, without their brackets."""
    command = re.sub(r"\[([^\]|]*)\](?:\.\.\.)?", r"\1", command)
    command = re.sub(r"\[[^\]]*\|[^\]]*\]", "", command)  # a choice: the default
    command = re.split(r"\s(?:\|\||&&|;)\s?", command)[0]
    command = re.sub(r"\$\{\{\s*([^}]+?)\s*\}\}", lambda m: VALUES[m.group(1)], command)
    command = re.sub(r"\$\{([^}]+)\}", lambda m: VALUES[m.group(1)], command)
    command = re.sub(r"\$([A-Z_]+)", lambda m: VALUES[m.group(1)], command)
    return shlex.split(command)


COMMANDS = [command for block in _blocks(DOC.read_text("utf-8")) for command in _commands(block)]


def test_the_page_has_the_split_run_commands() -> None:
    joined = "\n".join(COMMANDS)
    for wanted in ("--shard", "--example-db", "report merge", "report gate", "--hunt-seconds"):
        assert wanted in joined, wanted


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_parses_against_the_real_command_line(command: str) -> None:
    argv = _substituted(command)
    assert argv[0] == "rttool"
    parsed = build_parser().parse_args(argv[1:])  # a bad flag exits with code 2
    assert parsed.handler is not None


def test_the_github_workflow_has_a_shard_matrix_a_redis_service_and_a_merge_job() -> None:
    text = DOC.read_text("utf-8")
    workflow = next(block for block in _blocks(text) if "rttool-nightly.yml" in block)
    assert re.search(r"shard: \[1, 2, 3, 4\]", workflow)
    assert "services:" in workflow and "image: redis:7" in workflow
    merge = workflow.partition("\n  merge:\n")[2]
    assert "needs: shard" in merge
    for step in ("rttool report merge", "rttool report gate", "upload-artifact", "git push"):
        assert step in merge, step
    gitlab = next(block for block in _blocks(text) if "parallel: 4" in block)
    assert "rttool report merge" in gitlab and "redis:7" in gitlab
