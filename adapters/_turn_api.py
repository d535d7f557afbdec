"""Read a session's turns from the implementation's own turn API.

Used when a harness's ``start`` reply advertises ``turn_api``: the wire snapshot of each
step then comes from the implementation's real wire, not from the harness's report.
Every read is held to what a harness reply is held to: the request timeout as a deadline
for the whole exchange, the HTTP transport's size cap, the nesting limit, unique keys.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import quote

import httpx

from adapters._deadline import BodyTooLarge, deadline, deadline_client, read_capped
from adapters._schemas import check_inbound
from adapters.errors import (
    BadJson,
    ImplementationError,
    SchemaViolation,
    TimedOut,
    Unreachable,
)
from adapters.http import MAX_REPLY_BYTES
from adapters.limits import DuplicateKey, TooDeep, loads

__all__ = ["TurnApiReader", "fill_template"]

#: A turn body may be at most as large as a harness reply over HTTP.
MAX_BODY_BYTES = MAX_REPLY_BYTES
# A placeholder, or a doubled brace (which stands for one brace).
_FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


def fill_template(template: str, **values: str) -> str:
    """``template`` with each ``{name}`` replaced by ``values[name]`` (``{{`` and ``}}``
    stand for single braces); ``ValueError`` names anything else between braces."""

    def fill(match: re.Match[str]) -> str:
        text = match.group()
        if text in ("{{", "}}"):
            return text[0]
        name = match.group(1)
        if name is None:
            raise ValueError(f"a single {text!r} stands alone (double it to mean itself)")
        if name not in values:
            known = "{conversation} and {turn}"
            raise ValueError(f"unknown placeholder {{{name[:40]}}}; use {known}")
        return values[name]

    return _FIELD.sub(fill, template)


class TurnApiReader:
    """Reads ``GET turn`` for every turn a step record names in its ``ids``.

    One reader serves every session of a driver: its HTTP client (and the TLS set-up that
    building one costs) is made once.
    """

    def __init__(self, *, timeout: float, spec: str) -> None:
        self._spec = spec
        self._timeout = timeout
        self._turn = ""
        self._headers: dict[str, str] = {}
        self._client = deadline_client(timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)))

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

    def _url(self, conversation_id: str, turn_id: str) -> str:
        try:
            return fill_template(
                self._turn,
                conversation=quote(conversation_id, safe=""),
                turn=quote(turn_id, safe=""),
            )
        except ValueError as err:
            raise ImplementationError(
                "the turn API's URL template is malformed",
                impl=self._spec,
                template=self._turn[:200],
                complaint=str(err),
            ) from err

    def _read(self, conversation_id: str, turn_id: str) -> object:
        url = self._url(conversation_id, turn_id)
        where = {"impl": self._spec, "url": url[:300]}
        try:
            with (
                deadline(self._timeout) as at,
                self._client.stream("GET", url, headers=self._headers) as response,
            ):
                if response.status_code != 200:
                    raise ImplementationError(
                        "turn API refused a turn read", **where, status=response.status_code
                    )
                data = read_capped(response, limit=MAX_BODY_BYTES, at=at)
        except BodyTooLarge as err:
            raise ImplementationError(
                "turn API body too large", **where, limit=MAX_BODY_BYTES
            ) from err
        except httpx.TimeoutException as err:
            raise TimedOut(
                "turn API did not answer in time", **where, timeout=self._timeout
            ) from err
        except (httpx.HTTPError, httpx.InvalidURL) as err:
            raise Unreachable("turn API unreachable", **where, reason=str(err)[:200]) from err
        try:
            body = loads(data, unique_keys=True)
        except (TooDeep, DuplicateKey) as err:
            raise SchemaViolation(
                "turn API body breaks the protocol",
                pointer=err.pointer,
                complaint=err.complaint,
                impl=self._spec,
                request=f"GET {url[:300]}",
            ) from err
        except ValueError as err:
            raise BadJson(
                "turn API answered something that is not JSON",
                **where,
                reason=str(err)[:120],
            ) from err
        check_inbound(
            "trace#/$defs/turn_wire", body, implementation=self._spec, request=f"GET {url[:300]}"
        )
        return body

    def close(self) -> None:
        """Close the HTTP client."""
        self._client.close()
