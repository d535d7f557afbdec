"""Credentials nowhere: every form a secret takes on the command line or in the
environment is planted, and every output of the runs is searched for it: standard
output and standard error, every file of the report directories (standing.json,
STANDING.md, report.html, junit.xml, earl.jsonld, the evidence and its error.json), and
every key the shared Redis holds.

The forms: a URL's user part (``redis://:PASSWORD@``), ``?password=`` (which redis-py
takes), any query value of ``--impl`` (an HTTP harness's ``?session=``, an in-process
harness's options), ``token=``, a credential flag of a harness command, and an
environment token the shell expanded into a command line (``stdio:harness $TOKEN``)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conformance._redact import redacted
from tests.conformance._support import harness_env, rttool
from tests.shard._redis import _free_port, redis_server

#: Each planted secret, by the form it takes; none may be found anywhere.
SECRETS = {
    "redis-userinfo": "redisuserinfo5f1c",
    "redis-password-query": "redisquerypw77ad",
    "impl-token": "impltokena3b9",
    "impl-any-query": "implregionc4d2",
    "http-any-query": "httpsessione8f0",
    "http-token": "httptoken61aa",
    "flag": "flagapikey91b3",
    "environment": "envtoken2d7eff",
}
#: The variable the environment token is in (its name says it is one).
TOKEN_VARIABLE = "RTTOOL_HARNESS_TOKEN"
MUTANT = "repeats-counted-as-work"


def _impl(**options: str) -> str:
    query = "&".join(f"{name}={value}" for name, value in options.items())
    return f"python:tests.conformance.credentialed:create?{query}"


def test_each_form_is_redacted() -> None:
    """The one redaction, on each form alone (the runs below plant them together)."""
    environ = {TOKEN_VARIABLE: SECRETS["environment"], "HOME": "/home/ann"}
    for text in (
        f"redis://:{SECRETS['redis-userinfo']}@cache:6379/0",
        f"redis://ann:p@ss{SECRETS['redis-userinfo']}@cache:6379/0",
        f"redis://:pa/ss{SECRETS['redis-userinfo']}@cache:6379/0",
        f"redis://cache:6379/0?password={SECRETS['redis-password-query']}",
        f"http://h:1/?session={SECRETS['http-any-query']}&token={SECRETS['http-token']}",
        f"error: url='http://h:1/x?s={SECRETS['http-any-query']}' request=handshake",
        _impl(token=SECRETS["impl-token"], region=SECRETS["impl-any-query"]),
        f"stdio:./harness --api-key {SECRETS['flag']} {SECRETS['environment']}",
        f"Authorization: Bearer {SECRETS['impl-token']}",
        f"stdio:./harness --header 'Authorization: Basic {SECRETS['flag']}'",
        f"stdio:./harness -H Authorization:\\ Bearer\\ {SECRETS['impl-token']}",
        f"stdio:./harness Bearer\\ {SECRETS['impl-token']} --auth {SECRETS['flag']}",
    ):
        shown = redacted(text, environ)
        assert not [s for s in SECRETS.values() if s in shown], shown
    # What rttool names itself stays: the reference's mutant, and the rest of a URL.
    assert redacted(_impl(mutant=MUTANT, token="x")).endswith(f"?mutant={MUTANT}&token=***")
    assert redacted("redis://cache:6379/0?db=2") == "redis://cache:6379/0?db=***"
    assert redacted("see /home/ann", environ) == "see /home/ann"  # HOME is no token


@pytest.mark.parametrize(
    "name",
    ["PGPASS", "PGPASSWORD", "GITHUB_PAT", "NPM_CONFIG__AUTH", "SESSION_COOKIE", "GPG_PASSPHRASE"],
)
def test_every_credential_name_in_the_environment_is_looked_for(name: str) -> None:
    """A variable named as credentials are, beyond ``*_TOKEN`` and ``*_KEY``: its value
    expanded bare into a command line is hidden too."""
    environ = {name: "s3cr3t-value-81", "PWD": "/home/ann/work", "PATH": "/usr/bin"}
    shown = redacted("stdio:./harness s3cr3t-value-81 in /home/ann/work", environ)
    assert shown == "stdio:./harness *** in /home/ann/work"


def _found(text: bytes, where: str) -> list[str]:
    return [f"{form} in {where}" for form, secret in SECRETS.items() if secret.encode() in text]


def _searched(runs: list[subprocess.CompletedProcess[str]], folders: list[Path]) -> list[str]:
    found: list[str] = []
    for done in runs:
        said = " ".join(map(str, done.args[-12:]))[:80]
        found += _found(done.stdout.encode(), f"stdout of {said}")
        found += _found(done.stderr.encode(), f"stderr of {said}")
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                found += _found(path.read_bytes(), str(path.relative_to(folder.parent)))
    return found


@pytest.mark.slow
def test_no_credential_is_printed_written_or_used_as_a_key(tmp_path: Path) -> None:
    env = {**harness_env(), TOKEN_VARIABLE: SECRETS["environment"]}
    secret_impl = {"token": SECRETS["impl-token"], "region": SECRETS["impl-any-query"]}
    hunt = ("--examples", "25", "--hunt-seconds", "3")
    runs: list[subprocess.CompletedProcess[str]] = []
    with redis_server(tmp_path, password=SECRETS["redis-userinfo"]) as server:
        # A shared Redis reached with a password, a mutant found: keys and evidence.
        runs.append(
            rttool(
                *("run", "--impl", _impl(**secret_impl, mutant=MUTANT), "--only", "RT-TOOL-10"),
                *(*hunt, "--example-db", server.url, "--report-dir", "found"),
                cwd=tmp_path,
                env=env,
            )
        )
        keys = server.keys()
    assert runs[-1].returncode == 1, runs[-1].stderr
    assert keys and all(key.startswith(b"hypothesis-example:rttool:") for key in keys)
    named = [
        key for key in keys for word in (b"credentialed", b"reference", b"mutant") if word in key
    ]
    assert not named, named  # nothing of --impl, nor the implementation's name
    found = [f"{form} in a Redis key" for key in keys for form in _found(key, "")]
    # The same Redis gone, its URL with a user part and ?password=, and a harness that
    # errors: the store's warning, and an error.json holding the spec.
    gone = f"redis://ann:{SECRETS['redis-userinfo']}@127.0.0.1:{_free_port()}/0"
    gone += f"?password={SECRETS['redis-password-query']}"
    runs.append(
        rttool(
            *("run", "--impl", _impl(**secret_impl, refuse="1"), "--only", "DR-1"),
            *(*hunt, "--example-db", gone, "--report-dir", "errored"),
            cwd=tmp_path,
            env=env,
        )
    )
    assert runs[-1].returncode == 1, runs[-1].stderr
    assert list((tmp_path / "errored").rglob("error.json"))
    warnings = json.loads((tmp_path / "errored" / "standing.json").read_text("utf-8"))["warnings"]
    assert any("went away" in warning for warning in warnings)
    # Harnesses that cannot be driven: their specs go into every message and junit.xml.
    unreachable = (
        f"stdio:/nonexistent/rttool-harness --api-key {SECRETS['flag']} {SECRETS['environment']}",
        f"http://127.0.0.1:{_free_port()}/?session={SECRETS['http-any-query']}"
        f"&token={SECRETS['http-token']}",
    )
    for number, spec in enumerate(unreachable):
        out = f"undrivable-{number}"
        runs.append(rttool("run", "--impl", spec, "--report-dir", out, cwd=tmp_path, env=env))
        assert runs[-1].returncode == 3, runs[-1].stderr
        runs.append(rttool("doctor", "--impl", spec, cwd=tmp_path, env=env))
    folders = [tmp_path / name for name in ("found", "errored", "undrivable-0", "undrivable-1")]
    assert (tmp_path / "errored" / "report.html").is_file()
    found += _searched(runs, folders)
    assert not found, "\n".join(found)
