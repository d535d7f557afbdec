"""The bearer token: required on /api and /rttool when set; required off loopback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from reference_impl.runtime import Runtime
from reference_impl.server import create_app
from reference_impl.server.__main__ import is_loopback
from tests.server._client import error_of

pytestmark = pytest.mark.anyio

TOKEN = "tok-\u00e9-123"  # a non-ASCII token is compared as UTF-8 bytes


def _client(runtime: Runtime, token: str | None) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=create_app(runtime, token=token))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


def _bearer(token: str) -> dict[str, bytes]:
    return {"Authorization": f"Bearer {token}".encode()}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/conversations"),
        ("GET", "/api/openapi.json"),
        ("POST", "/rttool"),
        ("GET", "/api/conversations/x/messages"),
        ("GET", "/api/no-such-route"),
        ("GET", "/rttool/sessions/s1/api/conversations/c/messages"),
        ("GET", "/api"),
    ],
)
async def test_every_protected_request_needs_the_token(
    runtime: Runtime, method: str, path: str
) -> None:
    async with _client(runtime, TOKEN) as client:
        for headers in (
            {},
            _bearer("wrong"),
            _bearer(TOKEN[:-1]),
            {"Authorization": "Basic x"},
            {"Authorization": "Bearer"},
        ):
            response = await client.request(method, path, headers=headers)
            error_of(response, 401, "unauthorized")
            assert response.headers["www-authenticate"] == "Bearer"
        allowed = await client.request(method, path, headers=_bearer(TOKEN), json={})
        assert allowed.status_code != 401


async def test_the_right_token_is_accepted_whatever_the_scheme_case(runtime: Runtime) -> None:
    async with _client(runtime, "abc") as client:
        for scheme in ("Bearer", "bearer", "BEARER"):
            response = await client.post(
                "/api/conversations", headers={"Authorization": f"{scheme} abc"}
            )
            assert response.status_code == 201


async def test_without_a_token_nothing_is_required(runtime: Runtime) -> None:
    async with _client(runtime, None) as client:
        assert (await client.post("/api/conversations")).status_code == 201


async def test_paths_outside_the_api_are_not_guarded_but_not_served(runtime: Runtime) -> None:
    async with _client(runtime, "abc") as client:
        error_of(await client.get("/"), 404, "not_found")
        error_of(await client.get("/apix"), 404, "not_found")


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.0.2.1", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.1"])
def test_a_non_loopback_host_without_a_token_refuses_to_start(host: str) -> None:
    env = {"PATH": "", "PYTHONPATH": ""}
    done = subprocess.run(
        [sys.executable, "-m", "reference_impl.server", "--host", host, "--port", "0"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "a bearer token is required" in lines[0]
    assert f"host={host}" in lines[0] and "Traceback" not in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--port", "99999"], "port=99999 is not a TCP port"),
        (["--db", "{missing}"], "cannot open database="),
    ],
)
def test_start_problems_are_one_line_and_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    given = [arg.format(missing=tmp_path / "no-such-dir" / "x.db") for arg in args]
    done = subprocess.run(
        [sys.executable, "-m", "reference_impl.server", "--port", "0", *given],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "Traceback" not in done.stderr
