"""Fixtures for the HTTP API tests: a runtime on a fresh file, the app, an ASGI client."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from reference_impl.runtime import Runtime
from reference_impl.seams import Seams
from reference_impl.server import build_runtime, create_app
from tests.server._client import BASE


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def seams() -> Seams:
    return Seams()


@pytest.fixture
def runtime(tmp_path: Path, seams: Seams) -> Iterator[Runtime]:
    runtime = build_runtime(tmp_path / "runtime.db", seams=seams)
    yield runtime
    runtime.close()


@pytest.fixture
def app(runtime: Runtime) -> Starlette:
    return create_app(runtime)


@pytest.fixture
async def client(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as client:
        yield client
