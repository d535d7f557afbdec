"""A turn's state, judged by what the handshake declares its wire's status words to mean.

The rules speak of a turn that is paused, resuming, stopped with Continue available or
completed; a wire names those states in words of its own.  The checks never compare a
status word with a word of the suite's: they ask which state the implementation declared
the word to mean (``turn_states`` in the handshake; the guide's words by default), and a
stopped turn is recognised by ``continueOffered``, whatever its word.
"""

from __future__ import annotations

from adapters.handshake import Handshake
from adapters.trace import TurnWire
from conformance.toolkit._shown import show

__all__ = ["describe", "in_state", "state_of", "stopped_with_continue"]

#: States in which a turn is not waiting for Continue, whatever ``continueOffered`` says.
_NOT_STOPPED = frozenset({"running", "resuming", "paused", "completed"})


def state_of(handshake: Handshake, wire: TurnWire | None) -> str | None:
    """The state the turn's status word is declared to mean (``None``: no turn, or a word
    the handshake does not declare)."""
    return None if wire is None else handshake.turn_states.state(wire.status)


def in_state(handshake: Handshake, wire: TurnWire | None, *states: str) -> bool:
    """Whether the turn is in one of ``states``."""
    return state_of(handshake, wire) in states


def stopped_with_continue(handshake: Handshake, wire: TurnWire | None) -> bool:
    """Whether the turn has stopped and waits with Continue available (DR-5 ¶5, DR-6):
    Continue is offered, and its word means neither a live nor a finished turn."""
    return (
        wire is not None
        and wire.continueOffered is True
        and state_of(handshake, wire) not in _NOT_STOPPED
    )


def describe(handshake: Handshake, wire: TurnWire | None) -> str:
    """What a failure message says about a turn's state: ``status "failed" (declared
    failed), continueOffered true``, or ``absent from the wire``."""
    if wire is None:
        return "absent from the wire"
    state = state_of(handshake, wire)
    meaning = f"declared {state}" if state else "a word the handshake declares for no state"
    return f"status {show(wire.status)} ({meaning}), continueOffered {show(wire.continueOffered)}"
