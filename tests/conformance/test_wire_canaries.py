"""The per-wire canary memos say exactly what a fresh search of the wire says."""

from __future__ import annotations

import pytest

from adapters.trace import TurnWire
from conformance.toolkit import canaries_in, message_canaries, wire_canaries

_LINK = {"type": "link", "payload": {"canary": "cn-0-0-0."}}
_WIRES = [
    TurnWire(status="completed", continueOffered=False, messages=(), toolArtifacts=None),
    TurnWire(
        status="completed",
        continueOffered=False,
        messages=(
            {"role": "assistant", "content": "see cn-1-2-3. and cn-1-2-4."},
            {"role": "tool", "artifacts": [_LINK], "metadata": {"note": "cn-2-0-0."}},
        ),
        toolArtifacts=[_LINK, {"type": "note", "payload": {"canary": "cn-3-1-0."}}],
    ),
    TurnWire(
        status="paused",
        continueOffered=True,
        messages=({"role": "user", "content": "no canary: cn-x-1."},),
        toolArtifacts=[{"type": "link", "payload": {"canary": "cn-5-5-5."}}],
    ),
]


@pytest.mark.parametrize("wire", _WIRES)
def test_the_memos_agree_with_a_search_of_the_wire(wire: TurnWire) -> None:
    assert wire_canaries(wire) == tuple(canaries_in([wire.messages, wire.toolArtifacts]))
    assert message_canaries(wire) == tuple(canaries_in(wire.messages))


def test_asked_again_the_memos_answer_the_same() -> None:
    wire = _WIRES[1]
    first = (wire_canaries(wire), message_canaries(wire))
    assert first == (wire_canaries(wire), message_canaries(wire))
    assert first[0] == (
        "cn-1-2-3.",
        "cn-1-2-4.",
        "cn-0-0-0.",
        "cn-2-0-0.",
        "cn-0-0-0.",
        "cn-3-1-0.",
    )
    assert first[1] == ("cn-1-2-3.", "cn-1-2-4.", "cn-0-0-0.", "cn-2-0-0.")
