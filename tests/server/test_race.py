"""Two clients acting on the same paused turn at once: exactly one resume happens."""

from __future__ import annotations

import threading
from collections.abc import Callable

import anyio
import httpx
import pytest

from reference_impl import records
from reference_impl.runtime import Runtime
from tests.server._client import act, check_turn, error_of, new_conversation, read, start, urls

pytestmark = pytest.mark.anyio

ROUNDS = 10


def _meet_first(monkeypatch: pytest.MonkeyPatch, runtime: Runtime, *names: str) -> None:
    """Make both requests enter the runtime before either claims the turn, so that the
    claim itself is what decides the race."""
    barrier = threading.Barrier(2, timeout=120)
    for name in names:
        original: Callable[..., None] = getattr(runtime, name)

        def meet(*args: object, _original: Callable[..., None] = original, **kw: object) -> None:
            barrier.wait()
            _original(*args, **kw)

        monkeypatch.setattr(runtime, name, meet)


async def _at_once(
    client: httpx.AsyncClient,
    conversation: str,
    turn: object,
    first: tuple[str, object],
    second: tuple[str, object],
) -> list[httpx.Response]:
    responses: list[httpx.Response] = []

    async def send(action: str, body: object) -> None:
        responses.append(await act(client, conversation, turn, action, body))

    async with anyio.create_task_group() as group:
        group.start_soon(send, *first)
        group.start_soon(send, *second)
    return sorted(responses, key=lambda r: r.status_code)


async def test_two_answers_at_once_resume_the_turn_once(
    client: httpx.AsyncClient, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    _meet_first(monkeypatch, runtime, "answer")
    for round_ in range(ROUNDS):
        conversation = await new_conversation(client)
        turn = str((await start(client, conversation, f"note r{round_}; ask"))["id"])
        value = f"answer {round_}"
        body = {"value": value}
        ok, refused = await _at_once(client, conversation, turn, ("answer", body), ("answer", body))
        assert ok.status_code == 200
        error_of(refused, 409, "not_paused")
        check_turn(ok.json())
        runs = records.list_runs(runtime.store.read(), turn)
        assert [run.cause for run in runs] == ["start", "answer"]
        view = await read(client, conversation, turn)
        answers = [m for m in view["messages"] if m["role"] == "user" and m["content"] == value]
        assert len(answers) == 1
        assert view["status"] == "completed"
        assert len(urls(view)) == 1  # the held artifact, delivered once


async def test_approve_and_decline_at_once_decide_once(
    client: httpx.AsyncClient, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    _meet_first(monkeypatch, runtime, "approve", "decline")
    for _ in range(ROUNDS):
        conversation = await new_conversation(client)
        turn = str((await start(client, conversation, "email a@example.com hi"))["id"])
        ok, refused = await _at_once(
            client, conversation, turn, ("approve", None), ("decline", {"reason": "no"})
        )
        assert ok.status_code == 200
        error_of(refused, 409, "not_paused")
        runs = records.list_runs(runtime.store.read(), turn)
        assert len(runs) == 2 and runs[1].cause in ("approve", "decline")
        sent = runs[1].cause == "approve"
        final = ok.json()["messages"][-1]["content"]
        assert final == (
            "Done. Sent the email to a@example.com."
            if sent
            else "Done. Not done: declined: the operator declined this call (no)"
        )
