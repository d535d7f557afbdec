"""The demo the HTTP server runs for curl users: three tools and a rule-based model.

Tools (the demo world keeps its notes in a ``demo_notes`` table of the server's own
database file, so that note numbers stay unique across restarts):

* ``create_note`` (a write): ``{"text": ...}`` -> "Created note N." plus one ``link``
  artifact pointing at the note;
* ``lookup`` (read-only): ``{"query": ...}`` -> the notes whose text contains the query;
* ``send_email`` (a write behind a consent gate): ``{"to": ..., "body": ...}``.

The model is deterministic.  A user message is a script of commands separated by
``;``, performed one per model call: ``note TEXT``, ``lookup TEXT``,
``email ADDRESS TEXT`` and ``ask`` (a question; the turn pauses until it is answered).
After the last command the model answers with a short text that sums up the tool
results and answers; a message that starts with anything else is answered with text.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from reference_impl.durable import NUDGE
from reference_impl.workflow import ModelReply, ToolOutcome, ToolSpec, Workflow

__all__ = [
    "HELP",
    "QUESTION",
    "DemoModel",
    "DemoWorld",
    "demo_workflow",
    "note_url",
]

#: The one question the demo model asks (``ask``).
QUESTION = "Anything to add before I finish?"
HELP = (
    'Try "note TEXT", "lookup TEXT", "email ADDRESS TEXT" or "ask"; '
    'join several with ";" (for example "note milk; note bread; ask").'
)
_NOTES_TABLE = """CREATE TABLE IF NOT EXISTS demo_notes (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    text TEXT NOT NULL
)"""
_LOOKUP_LIMIT = 5


def note_url(number: int) -> str:
    """Where the demo says note ``number`` lives."""
    return f"https://example.com/notes/{number}"


def _schema(**properties: str) -> dict[str, object]:
    return {
        "type": "object",
        "properties": {name: {"type": kind} for name, kind in properties.items()},
        "required": sorted(properties),
        "additionalProperties": False,
    }


def demo_workflow() -> Workflow:
    """The workflow a conversation runs when its creator names none."""
    return Workflow(
        tools=(
            ToolSpec("create_note", input_schema=_schema(text="string")),
            ToolSpec("lookup", read_only=True, input_schema=_schema(query="string")),
            ToolSpec("send_email", input_schema=_schema(to="string", body="string"), gate=True),
        )
    )


# -- the model ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Progress:
    """What the model reads off the thread: the turn's script and how far it got."""

    commands: tuple[str, ...]
    done: int
    results: tuple[str, ...]
    answers: tuple[str, ...]


def _is_question(message: Mapping[str, object]) -> bool:
    return (
        message.get("role") == "assistant"
        and not message.get("tool_calls")
        and message.get("content") == QUESTION
    )


def _progress(messages: Sequence[Mapping[str, object]]) -> _Progress | None:
    """The newest user message that is neither an answer nor a resume prompt is the
    turn's script; the assistant's tool calls and questions after it are its steps."""
    start = None
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, str):
            continue
        if content.startswith(NUDGE) or (index > 0 and _is_question(messages[index - 1])):
            continue
        start = index
        break
    if start is None:
        return None
    script = str(messages[start]["content"])
    done, results, answers = 0, [], []
    for index in range(start + 1, len(messages)):
        message = messages[index]
        if message.get("role") == "assistant" and (
            message.get("tool_calls") or _is_question(message)
        ):
            done += 1
        elif message.get("role") == "tool":
            results.append(str(message.get("content", "")))
        elif message.get("role") == "user" and _is_question(messages[index - 1]):
            answer = str(message.get("content", ""))
            if not answer.startswith(NUDGE):  # a stopped question, continued: no answer
                answers.append(answer)
    commands = tuple(part.strip() for part in script.split(";") if part.strip())
    return _Progress(commands, done, tuple(results), tuple(answers))


def _summary(progress: _Progress) -> str:
    parts = []
    for result in progress.results:
        first = result.splitlines()[0] if result else ""
        parts.append(f"Not done: {first[7:]}" if first.startswith("Error: ") else first)
    parts += [f'You added: "{answer}".' for answer in progress.answers]
    return " ".join(["Done.", *parts])


def _call(name: str, args: dict[str, str], number: int) -> ModelReply:
    call = {"name": name, "args": args, "tool_call_id": f"call-{number}"}
    return ModelReply(tool_calls=(call,))


class DemoModel:
    """A deterministic, rule-based stand-in for a language model (stateless, so one
    instance serves every conversation and thread)."""

    def reply(self, messages: Sequence[Mapping[str, object]]) -> ModelReply:
        """The next step of the turn's script, or the closing text."""
        progress = _progress(messages)
        if progress is None or not progress.commands:
            return ModelReply(text=HELP)
        if progress.done >= len(progress.commands):
            return ModelReply(text=_summary(progress))
        command = progress.commands[progress.done]
        word, _, rest = command.partition(" ")
        word, rest = word.lower(), rest.strip()
        number = progress.done + 1
        if word == "note" and rest:
            return _call("create_note", {"text": rest}, number)
        if word == "lookup" and rest:
            return _call("lookup", {"query": rest}, number)
        if word == "email" and rest:
            to, _, body = rest.partition(" ")
            return _call("send_email", {"to": to, "body": body.strip()}, number)
        if word == "ask" and not rest:
            return ModelReply(question=QUESTION)
        if progress.done == 0:
            return ModelReply(text=f'You said "{command}". {HELP}')
        return ModelReply(text=f'{_summary(progress)} I do not know "{command}". {HELP}')


# -- the world --------------------------------------------------------------------------


class DemoWorld:
    """The tool bodies.  Each invocation opens its own connection, so tools of different
    conversations may run at once from different threads."""

    def __init__(self, db_path: str | Path) -> None:
        self._path = str(db_path)
        with closing(self._connect()) as conn:
            conn.execute(_NOTES_TABLE)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self._path, timeout=30.0, isolation_level=None)
        # As durable as the runtime's own commits (WAL, synced at checkpoints), without
        # the cost of a sync on every note.
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=30000")
        return conn

    def invoke(
        self, tool: str, args: object, tool_call_id: str | None, *, turn_id: str, run_id: str
    ) -> ToolOutcome:
        """Run the demo body of ``tool``."""
        given = args if isinstance(args, Mapping) else {}
        if tool == "create_note":
            return self._create_note(str(given.get("text", "")))
        if tool == "lookup":
            return self._lookup(str(given.get("query", "")))
        if tool == "send_email":
            return ToolOutcome(output={"result": f"Sent the email to {given.get('to')}."})
        return ToolOutcome(error=f"the demo has no tool named {tool!r}")

    def _create_note(self, text: str) -> ToolOutcome:
        with closing(self._connect()) as conn:
            cursor = conn.execute("INSERT INTO demo_notes (text) VALUES (?)", (text,))
            number = int(cursor.lastrowid or 0)
        artifact = {"type": "link", "payload": {"url": note_url(number)}}
        return ToolOutcome(output={"result": f"Created note {number}.", "artifacts": [artifact]})

    def _lookup(self, query: str) -> ToolOutcome:
        with closing(self._connect()) as conn:
            rows = conn.execute(
                "SELECT n, text FROM demo_notes WHERE instr(lower(text), lower(?)) > 0"
                " ORDER BY n LIMIT ?",
                (query, _LOOKUP_LIMIT),
            ).fetchall()
        if not rows:
            return ToolOutcome(output={"result": f'No note mentions "{query}".'})
        found = "; ".join(f'note {n}: "{text}"' for n, text in rows)
        return ToolOutcome(output={"result": f"Found {found}."})
