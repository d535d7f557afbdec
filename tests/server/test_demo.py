"""The demo model reads the thread deterministically; the demo world keeps its notes."""

from __future__ import annotations

from pathlib import Path

from reference_impl.durable import NUDGE
from reference_impl.server.demo import HELP, QUESTION, DemoModel, DemoWorld, note_url

SYSTEM = {"role": "system", "content": "You are a helpful agent."}


def _user(text: str) -> dict[str, object]:
    return {"role": "user", "content": text}


def _calls(name: str, number: int) -> dict[str, object]:
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"name": name, "args": {}, "tool_call_id": f"call-{number}"}],
    }


def _tool(text: str, number: int) -> dict[str, object]:
    return {"role": "tool", "tool_call_id": f"call-{number}", "content": text}


def test_each_command_is_one_step_in_order() -> None:
    model = DemoModel()
    thread: list[dict[str, object]] = [SYSTEM, _user("Note milk; lookup milk; EMAIL a@b.c hi x")]
    first = model.reply(thread)
    assert first.tool_calls == (
        {"name": "create_note", "args": {"text": "milk"}, "tool_call_id": "call-1"},
    )
    thread += [_calls("create_note", 1), _tool("Created note 1.", 1)]
    assert model.reply(thread).tool_calls == (
        {"name": "lookup", "args": {"query": "milk"}, "tool_call_id": "call-2"},
    )
    thread += [_calls("lookup", 2), _tool('Found note 1: "milk".', 2)]
    assert model.reply(thread).tool_calls == (
        {"name": "send_email", "args": {"to": "a@b.c", "body": "hi x"}, "tool_call_id": "call-3"},
    )
    thread += [_calls("send_email", 3), _tool("Error: declined: no", 3)]
    assert model.reply(thread).text == (
        'Done. Created note 1. Found note 1: "milk". Not done: declined: no'
    )


def test_a_question_its_answer_and_a_resume_prompt() -> None:
    model = DemoModel()
    thread: list[dict[str, object]] = [SYSTEM, _user("ask")]
    assert model.reply(thread).question == QUESTION
    thread += [{"role": "assistant", "content": QUESTION}, _user("note this")]
    # "note this" answers the question: it is not read as a new script.
    assert model.reply(thread).text == 'Done. You added: "note this".'
    thread.append(_user(NUDGE + "\n\nJournal of this turn's earlier attempts:"))
    assert model.reply(thread).text == 'Done. You added: "note this".'


def test_a_question_stopped_then_continued_has_no_answer() -> None:
    thread = [
        SYSTEM,
        _user("note a; ask"),
        _calls("create_note", 1),
        _tool("Created note 1.", 1),
        {"role": "assistant", "content": QUESTION},
        _user(NUDGE),
    ]
    assert DemoModel().reply(thread).text == "Done. Created note 1."


def test_anything_else_is_answered_with_text() -> None:
    model = DemoModel()
    assert model.reply([SYSTEM, _user("hello there")]).text == f'You said "hello there". {HELP}'
    assert model.reply([SYSTEM, _user(" ; ")]).text == HELP
    assert model.reply([SYSTEM]).text == HELP
    assert model.reply([SYSTEM, _user("note")]).text == f'You said "note". {HELP}'
    later = [SYSTEM, _user("note a; dance"), _calls("create_note", 1), _tool("Created note 1.", 1)]
    assert model.reply(later).text == f'Done. Created note 1. I do not know "dance". {HELP}'


def test_the_world_numbers_notes_across_instances(tmp_path: Path) -> None:
    db = tmp_path / "world.db"
    first = DemoWorld(db).invoke("create_note", {"text": "a"}, "c1", turn_id="t", run_id="r")
    assert first.output == {
        "result": "Created note 1.",
        "artifacts": [{"type": "link", "payload": {"url": note_url(1)}}],
    }
    world = DemoWorld(db)  # a restart: numbering goes on
    second = world.invoke("create_note", {"text": "Buy MILK"}, "c2", turn_id="t", run_id="r")
    assert second.output["result"] == "Created note 2."  # type: ignore[index]
    found = world.invoke("lookup", {"query": "milk"}, None, turn_id="t", run_id="r")
    assert found.output == {"result": 'Found note 2: "Buy MILK".'}
    unknown = world.invoke("nope", {}, None, turn_id="t", run_id="r")
    assert unknown.error == "the demo has no tool named 'nope'"
