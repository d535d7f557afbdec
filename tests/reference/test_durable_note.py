"""DR-2: a resumed run is told what its turn already did (the journal note)."""

from __future__ import annotations

import pytest

from reference_impl.behaviour import Behaviour, Components
from reference_impl.durable import NUDGE, SHORT_RESULT, short_result
from reference_impl.journal import Journal
from reference_impl.workflow import ToolSpec
from tests.reference._support import Record, Rig, call, calls, examples, say
from tests.reference.conftest import MakeRig

JOURNALED, NOTED, EMPTY_JOURNAL, BARE = examples("DR-2")

#: The resume prompt of the worked example, as the reference runtime words it.
EXAMPLE_PROMPT = (
    "Continue from where you left off.\n"
    "\n"
    "Journal of this turn's earlier attempts:\n"
    "Already completed (reuse these results; do not run them again):\n"
    '- send_email {"to": "ana@example.com"} -> sent\n'
    "Interrupted, outcome unknown (verify the current state before assuming success or "
    "failure):\n"
    '- create_ticket {"title": "Printer jam"}'
)


def _rig(make_rig: MakeRig, components: Components | None = None) -> Rig:
    rig = make_rig(ToolSpec("send_email"), ToolSpec("create_ticket"), components=components)
    rig.world.returns("send_email", "sent")
    return rig


def _resumed(rig: Rig) -> Record:
    resumed = [run for run in rig.runs() if "resume" in run]
    assert len(resumed) == 1
    return resumed[0]


def _prompt(run: Record) -> object:
    inputs = run["model_inputs"]
    assert isinstance(inputs, list)
    last = inputs[0]["messages"][-1]
    assert last["role"] == "user"
    return last["content"]


def _short(journal: Journal) -> Record:
    return {
        "completed": [
            {"tool": e.tool, "input": e.input, "result": short_result(e.result)}
            for e in journal.completed
        ],
        "interrupted": [{"tool": e.tool, "input": e.input} for e in journal.interrupted],
    }


def test_example_note_names_completed_and_interrupted_calls(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(
        calls(
            call("send_email", {"to": "ana@example.com"}, "c1"),
            call("create_ticket", {"title": "Printer jam"}, "c2"),
        )
    )
    rig.seams.arm("before_tool_body", "time_limit", "create_ticket")
    turn = rig.start()
    assert rig.status(turn) == "resuming"
    assert _short(rig.runtime.classify(rig.runtime.ledger(turn))) == JOURNALED
    rig.runtime.settle()
    resumed = _resumed(rig)
    assert resumed["resume"] == {"nudge": NUDGE, "note": NOTED}
    assert _prompt(resumed) == EXAMPLE_PROMPT


def test_example_empty_journal_appends_nothing(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.seams.arm("during_model_call", "time_limit")
    turn = rig.start()
    assert rig.runtime.classify(rig.runtime.ledger(turn)).to_json() == EMPTY_JOURNAL
    rig.runtime.settle()
    resumed = _resumed(rig)
    assert resumed["resume"] == {"nudge": NUDGE}  # no note: null
    assert BARE is None
    assert _prompt(resumed) == NUDGE


@pytest.mark.parametrize("cause", ["time_limit", "gateway_timeout", "transport_error"])
def test_note_follows_the_nudge_after_each_resumable_cause(make_rig: MakeRig, cause: str) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("send_email", {"to": "bo"}, "c1")))
    rig.seams.arm("after_tool_done", cause)
    turn = rig.start()
    assert rig.status(turn) == "resuming"
    assert rig.runtime.settle() == 1
    prompt = _prompt(_resumed(rig))
    assert isinstance(prompt, str)
    head, _, note = prompt.partition("\n\n")
    assert head == NUDGE
    assert note.startswith("Journal of this turn's earlier attempts:\n")
    assert '- send_email {"to": "bo"} -> sent' in note


class _WithoutJournal(Behaviour):
    """The same runtime with the journal note taken out: the 'before' of byte-for-byte."""

    def resume_prompt(self, journal: Journal | None) -> str:
        return super().resume_prompt(None)


def test_empty_journal_prompt_is_byte_for_byte_the_one_without_the_note(make_rig: MakeRig) -> None:
    inputs = []
    for components in (None, Components(behaviour=_WithoutJournal())):
        rig = _rig(make_rig, components)
        rig.model.push(say("Let me think."))
        rig.seams.arm("during_model_call", "gateway_timeout", occurrence=2)
        conversation = rig.conversation()
        rig.start("first", conversation)
        rig.start("second", conversation)
        rig.runtime.settle()
        inputs.append(rig.model.inputs)
    assert inputs[0] == inputs[1]
    assert inputs[0][-1][-1] == {"role": "user", "content": NUDGE}


def test_a_short_result_is_the_prose_cut_to_a_bound(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.world.returns("send_email", "x" * 500)
    rig.world.returns("create_ticket", error="no such queue")
    rig.model.push(
        calls(call("send_email", {"to": "ana"}, "c1"), call("create_ticket", {"title": "t"}, "c2"))
    )
    rig.seams.arm("after_tool_done", "time_limit", "create_ticket")
    rig.start()
    rig.runtime.settle()
    note = _resumed(rig)["resume"]["note"]
    long, failed = note["completed"]
    assert long["result"] == "x" * (SHORT_RESULT - 1) + "…"
    assert len(long["result"]) == SHORT_RESULT
    assert failed["result"] == "Error: no such queue"


@pytest.mark.parametrize(
    ("result", "shown"),
    [
        ({"success": True, "data": {"b": 1, "a": "é"}, "error": None}, '{"a": "é", "b": 1}'),
        ({"success": True, "data": "sent", "error": None}, "sent"),
        ({"success": False, "data": None, "error": "down"}, "Error: down"),
        ("raw text", "raw text"),
        ([1, 2], "[1, 2]"),
    ],
)
def test_short_result_shapes(result: object, shown: str) -> None:
    assert short_result(result) == shown


def test_a_failed_ledger_read_never_blocks_the_recovery(make_rig: MakeRig) -> None:
    rig = _rig(make_rig)
    rig.model.push(calls(call("send_email", {"to": "ana"}, "c1")))
    rig.seams.arm("after_tool_done", "time_limit")
    rig.seams.fail_ledger_reads(1)
    turn = rig.start()
    rig.model.push(say("Finished."))
    assert rig.runtime.settle() == 1
    assert rig.status(turn) == "completed"
    resumed = _resumed(rig)
    assert resumed["resume"] == {"nudge": NUDGE}
    assert _prompt(resumed) == NUDGE
