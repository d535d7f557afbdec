"""A smolagents run on a thread of its own, and the person its questions wait for.

smolagents asks the user with a tool that waits for the answer (``UserInputTool`` reads
the terminal): the run does not end, it stands still inside the tool.  So each
``agent.run`` goes on a thread of its own, and a step of the scenario waits until the run
comes to rest: it asked a question (it stands in ``user_input`` until the ``answer``
step), or it ended.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Asked", "Conversation", "Dismissed", "Ended", "Human", "Rest"]

log = logging.getLogger("harnesses.smol")


@dataclass(frozen=True)
class Asked:
    """The run stands in ``user_input``, waiting for the answer to ``question``."""

    question: str


@dataclass(frozen=True)
class Ended:
    """The run ended: normally (``error`` is ``None``) or with what it raised."""

    error: BaseException | None


Rest = Asked | Ended


class Dismissed(Exception):  # how the tool learns nobody will answer
    """Nobody will answer the question: the scenario is over."""


class Human:
    """The person the agent's questions go to: the scenario's ``answer`` steps."""

    def __init__(self, rests: queue.SimpleQueue[Rest]) -> None:
        self._rests = rests
        self._answers: queue.SimpleQueue[str | None] = queue.SimpleQueue()

    def ask(self, question: str) -> str:
        """Called by the tool, on the agent's thread: wait for the answer."""
        self._rests.put(Asked(question))
        answer = self._answers.get()
        if answer is None:
            raise Dismissed("the scenario ended before the question was answered")
        return answer

    def answer(self, value: str | None) -> None:
        """Give the answer (``None``: nobody will)."""
        self._answers.put(value)


class Conversation:
    """One agent, whose memory is the conversation: each turn is one
    ``agent.run(task, stream=True, reset=False)`` on a thread of its own, handing each
    event to ``on_event`` there; a step waits until the run comes to rest."""

    def __init__(self, build: Callable[[Human], Any], on_event: Callable[[object], None]) -> None:
        self.rests: queue.SimpleQueue[Rest] = queue.SimpleQueue()
        self.human = Human(self.rests)
        self.agent = build(self.human)
        self._on_event = on_event
        self._thread: threading.Thread | None = None
        self.asked: str | None = None  # the question the run stands on

    def start(self, task: str) -> Rest:
        """Start a run of the agent on ``task``; wait until it comes to rest."""
        self._thread = threading.Thread(target=self._work, args=(task,), daemon=True)
        self._thread.start()
        return self._rest()

    def answer(self, value: str) -> Rest:
        """Answer the question the run stands on; wait until it comes to rest again."""
        self.asked = None
        self.human.answer(value)
        return self._rest()

    def close(self) -> None:
        """End a run that stands on a question: smolagents' own ``interrupt``, and the
        tool told nobody will answer."""
        if self.asked is not None and self._thread is not None:
            self.agent.interrupt()
            self.human.answer(None)
            self._thread.join(timeout=10)
            if self._thread.is_alive():
                log.warning("a smolagents run did not end after it was interrupted")
        self.asked = None

    def _rest(self) -> Rest:
        rest = self.rests.get()
        if isinstance(rest, Asked):
            self.asked = rest.question
        return rest

    def _work(self, task: str) -> None:
        ended = Ended(None)
        try:
            for event in self.agent.run(task, stream=True, reset=False):
                self._on_event(event)
        except BaseException as err:  # the run failed: reported as smolagents raised it
            ended = Ended(err)
        finally:
            self.rests.put(ended)  # whatever happened, the step waiting on it goes on
