"""Against a real uvicorn server on a free loopback port, in a child process."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from adapters import scenario as sc
from adapters._turn_api import TurnApiReader
from adapters.driver import Driver
from adapters.http import TOKEN_ENV, HttpConnection
from adapters.trace import Trace
from reference_impl.server.process import spawn_server
from tests.server._client import PLAY3_KEYS, check_turn

pytestmark = pytest.mark.slow

LINK = {"type": "link", "payload": {"url": "https://example.com/held"}}
SCENARIO = sc.Scenario(
    id="held-over-a-real-server",
    tools=(sc.Tool("make", returns=(sc.Return(output={"ok": True, "artifacts": [LINK]}),)),),
    model=(sc.Reply(tool_calls=(sc.call("make", {}, "c1"),)), sc.Reply(question="Which?")),
    steps=(sc.StartTurn("t1"), sc.Restart(), sc.Answer("t1", "that one")),
)


def test_the_api_over_real_http_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "runtime.db"
    with spawn_server(db, log_dir=tmp_path) as server, httpx.Client(base_url=server.url) as http:
        assert server.url.startswith("http://127.0.0.1:")
        conversation = http.post("/api/conversations").json()["id"]
        paused = http.post(
            f"/api/conversations/{conversation}/turns", json={"message": "note real; ask"}
        ).json()
        assert paused["status"] == "paused"
        turn = f"/api/conversations/{conversation}/turns/{paused['id']}"
        done = http.post(f"{turn}/answer", json={"value": "ok"})
        assert done.status_code == 200
        check_turn(done.json())
        assert [a["payload"]["url"] for a in done.json()["toolArtifacts"]] == [
            "https://example.com/notes/1"
        ]
        refused = http.post(f"{turn}/answer", json={"value": "again"})
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "not_paused"
        assert http.get("/api/openapi.json").json()["openapi"] == "3.1.0"
    assert server.process.returncode == 0  # Ctrl-C is a clean shutdown
    with spawn_server(db, log_dir=tmp_path) as again, httpx.Client(base_url=again.url) as http:
        assert http.get(turn).json() == done.json()
        poll = http.get(f"/api/conversations/{conversation}/messages").json()
        assert list(poll) == PLAY3_KEYS and poll["sessionStatus"] == "completed"


def test_the_suite_driver_reads_the_wire_from_the_turn_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = "real-server-token"
    monkeypatch.setenv(TOKEN_ENV, token)
    reads: list[str] = []
    original = TurnApiReader._read

    def counted(self: TurnApiReader, conversation_id: str, turn_id: str) -> object:
        reads.append(self._turn.format(conversation=conversation_id, turn=turn_id))
        return original(self, conversation_id, turn_id)

    monkeypatch.setattr(TurnApiReader, "_read", counted)
    with spawn_server(
        tmp_path / "runtime.db", log_dir=tmp_path, args=("--log-level", "warning", "--token", token)
    ) as server:
        assert httpx.post(f"{server.url}/rttool", json={"cmd": "bye"}).status_code == 401
        driver = Driver(HttpConnection(f"{server.url}/rttool", timeout=30.0))
        try:
            assert driver.handshake().capabilities.turn_api is True
            trace = driver.run(SCENARIO)
        finally:
            driver.close()
    assert isinstance(trace, Trace)
    final = trace.steps[-1]
    assert final.outcome == "ok"
    wire = final.wire["main"]["t1"]
    assert wire.status == "completed"
    assert [a["payload"] for a in wire.toolArtifacts] == [LINK["payload"]]
    assert len(reads) == len(SCENARIO.steps)  # every step's wire came from the turn API
    assert all("/rttool/sessions/" in url for url in reads)
