"""Read a session's turns from the implementation's own turn API.

Used when a harness's ``start`` reply advertises ``turn_api``: the wire snapshot of each
step then comes from the implementation's real wire, not from the harness's report.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

import httpx

from adapters._schemas import check_inbound
from adapters.errors import BadJson, ImplementationError, TimedOut, Unreachable

__all__ = ["TurnApiReader"]


class TurnApiReader:
    """Reads ``GET turn`` for every turn a step record names in its ``ids``.

    One reader serves every session of a driver: its HTTP client (and the TLS set-up that
    building one costs) is made once.
    """

    def __init__(self, *, timeout: float, spec: str) -> None:
        self._spec = spec
        self._turn = ""
        self._headers: dict[str, str] = {}
        self._client = httpx.Client(timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)))

    def session(self, turn_api: Mapping[str, object]) -> TurnApiReader:
        """Point the reader at a session's turn API (from its ``start`` reply)."""
        self._turn = str(turn_api["turn"])
        token = turn_api.get("token")
        self._headers = {"Authorization": f"Bearer {token}"} if isinstance(token, str) else {}
        return self

    def replace_wire(self, record: Mapping[str, object]) -> dict[str, object]:
        """``record`` with its ``wire`` read from the turn API."""
        ids = record.get("ids")
        if not isinstance(ids, Mapping):
            raise ImplementationError(
                "a session with a turn API must report ids on every step",
                impl=self._spec,
                index=record.get("index"),
            )
        conversations = ids.get("conversations") or {}
        turns = ids.get("turns") or {}
        assert isinstance(conversations, Mapping) and isinstance(turns, Mapping)
        old_wire = record.get("wire")
        wire: dict[str, dict[str, object]] = {}
        for conversation_label, turn_map in (
            (old_wire or {}).items() if isinstance(old_wire, Mapping) else ()
        ):
            wire[conversation_label] = {}
            for turn_label in turn_map if isinstance(turn_map, Mapping) else ():
                conversation_id = conversations.get(conversation_label)
                turn_id = turns.get(turn_label)
                if not isinstance(conversation_id, str) or not isinstance(turn_id, str):
                    raise ImplementationError(
                        "step record ids do not name a wire turn", impl=self._spec, turn=turn_label
                    )
                wire[conversation_label][turn_label] = self._read(conversation_id, turn_id)
        return {**record, "wire": wire}

    def _read(self, conversation_id: str, turn_id: str) -> object:
        try:
            url = self._turn.format(
                conversation=quote(conversation_id, safe=""), turn=quote(turn_id, safe="")
            )
        except (IndexError, KeyError, ValueError) as err:
            raise ImplementationError(
                "the turn API's URL template does not format",
                impl=self._spec,
                template=self._turn[:200],
                error=f"{type(err).__name__}: {err}",
            ) from err
        try:
            response = self._client.get(url, headers=self._headers)
        except httpx.TimeoutException as err:
            raise TimedOut("turn API did not answer in time", impl=self._spec, url=url) from err
        except httpx.HTTPError as err:
            raise Unreachable(
                "turn API unreachable", impl=self._spec, url=url, reason=str(err)[:200]
            ) from err
        if response.status_code != 200:
            raise ImplementationError(
                "turn API refused a turn read",
                impl=self._spec,
                url=url,
                status=response.status_code,
            )
        try:
            body = response.json()
        except ValueError as err:
            raise BadJson(
                "turn API answered something that is not JSON", impl=self._spec, url=url
            ) from err
        check_inbound(
            "trace#/$defs/turn_wire", body, implementation=self._spec, request=f"GET {url}"
        )
        return body

    def close(self) -> None:
        """Close the HTTP client."""
        self._client.close()
