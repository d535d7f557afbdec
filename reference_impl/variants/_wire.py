"""Variants of how a turn's state is put on the wire, and when a turn resumes by itself."""

from __future__ import annotations

from reference_impl.behaviour import Behaviour, Components
from reference_impl.variants._model import Variant
from reference_impl.wire import Wire

__all__ = ["VARIANTS"]

_WORDS = {
    "running": "in_progress",
    "resuming": "reconnecting",
    "paused": "awaiting_input",
    "stopped": "halted",
    "completed": "done",
    "failed": "errored",
}


class _WordsOfItsOwn(Wire):
    """Names every state in words of its own, and declares what they mean."""

    def status_word(self, status: str, *, continue_offered: bool) -> str:
        return _WORDS.get(status, status)

    def turn_states(self) -> dict[str, list[str]] | None:
        return {state: [word] for state, word in _WORDS.items()}


class _StoppedReportedFailed(Wire):
    """A turn that stopped and waits for Continue is reported ``failed`` (declared
    failed), with ``continueOffered`` true: the rules know it by Continue, not by a word."""

    def status_word(self, status: str, *, continue_offered: bool) -> str:
        return "failed" if status == "stopped" else status


class _OnlyTimeLimitsResume(Behaviour):
    """Only a time limit continues a turn by itself; a gateway timeout or a transport error
    ends the turn with Continue available, as any error does."""

    def resumes_on_its_own(self) -> frozenset[str]:
        return frozenset({"time_limit"})


VARIANTS: tuple[Variant, ...] = (
    Variant(
        "status-words-of-its-own",
        "turn-states",
        ("DR-5#c2", "DR-5#c5", "DR-6#c3", "RT-TOOL-7#c1"),
        "every turn status is a word of the runtime's own, declared in the handshake",
        lambda: Components(wire=_WordsOfItsOwn()),
    ),
    Variant(
        "stopped-turn-reported-failed",
        "stopped-with-continue",
        ("DR-5#c5", "DR-6#c3"),
        "a turn that waits for Continue reports status failed, with continueOffered true",
        lambda: Components(wire=_StoppedReportedFailed()),
    ),
    Variant(
        "gateway-timeout-waits-for-continue",
        "resumable-causes",
        ("DR-2#c1", "DR-5#c1"),
        "a gateway timeout or transport error ends the turn with Continue available "
        "instead of resuming by itself (only a time limit does)",
        lambda: Components(behaviour=_OnlyTimeLimitsResume()),
    ),
)
