"""One scenario, run step by step against a reference runtime on its own database."""

from __future__ import annotations

import threading

from adapters import scenario as sc
from reference_impl.artifacts import Bounds
from reference_impl.behaviour import Components
from reference_impl.errors import Refusal
from reference_impl.harness._database import Template
from reference_impl.harness._recorder import Recorder
from reference_impl.harness._scripted import ScriptedModel, ScriptedWorld
from reference_impl.journal import LedgerEvent
from reference_impl.runtime import RunFailed, Runtime
from reference_impl.seams import ProcessKilled, Seams, waiting_together
from reference_impl.workflow import ToolSpec, Workflow

__all__ = ["ScenarioSession"]


class ScenarioSession:
    """Executes a scenario's steps on a fresh runtime over a database of its own;
    restarts the runtime on that database on demand."""

    def __init__(
        self,
        scenario: sc.Scenario,
        components: Components,
        template: Template,
    ) -> None:
        self.scenario = scenario
        self._components = components
        # A copy of an empty, migrated database: no DDL per scenario.
        self._database = template.copy()
        self.recorder = Recorder()
        self.seams = Seams()
        self.model = ScriptedModel(scenario.model)
        self.world = ScriptedWorld(scenario.tools, self.recorder.side_effect)
        try:
            self.runtime = self._boot()
        except BaseException:
            self._database.close()
            raise
        self.conversations: dict[str, str] = {}
        self.turns: dict[str, str] = {}
        self.turn_conversation: dict[str, str] = {}
        self._next = 0

    def _boot(self) -> Runtime:
        return Runtime(
            self._database.location,
            model=self.model,
            world=self.world,
            observer=self.recorder,
            seams=self.seams,
            components=self._components,
        )

    def workflow(self) -> Workflow:
        """The workflow the scenario describes (bounds over the runtime's defaults)."""
        defaults = self._components.collector_class.default_bounds
        given = self.scenario.bounds or sc.Bounds()
        bounds = Bounds(
            payload_bytes=given.payload_bytes or defaults.payload_bytes,
            run_artifacts=given.run_artifacts or defaults.run_artifacts,
            run_bytes=given.run_bytes or defaults.run_bytes,
            held_artifacts=given.held_artifacts or defaults.held_artifacts,
        )
        expose = self.scenario.node.expose if self.scenario.node is not None else None
        tools = tuple(
            ToolSpec(t.name, t.read_only, t.input_schema, t.gate, t.expose_artifacts_port)
            for t in self.scenario.tools
        )
        return Workflow(
            tools=tools, expose=dict(expose) if isinstance(expose, dict) else {}, bounds=bounds
        )

    def close(self) -> None:
        """Release the runtime and free its database."""
        self.runtime.close()
        self._database.close()

    # -- steps -------------------------------------------------------------------------

    def step(self, index: int) -> dict[str, object]:
        """Execute step ``index`` (steps run in order) and report it."""
        if index != self._next or index >= len(self.scenario.steps):
            raise ValueError(f"expected step {self._next}, got {index}")
        self._next += 1
        step = self.scenario.steps[index]
        outcome, error, extra = "ok", None, {}
        try:
            extra = self._do(step)
        except Refusal as refusal:
            outcome, error = "refused", {"code": refusal.code, "message": refusal.message}
        except RunFailed as failure:
            outcome, error = "failed", {"code": failure.code, "message": str(failure)}
        except ProcessKilled:
            outcome, error = "crashed", {"code": "crashed", "message": "the process died"}
            self.restart()
        runs, warnings = self.recorder.take()
        record: dict[str, object] = {
            "index": index,
            "op": step.op,
            "outcome": outcome,
            "runs": [self._run_record(run) for run in runs],
            "warnings": [
                {k: v for k, v in w.items() if v is not None or k == "message"} for w in warnings
            ],
            "wire": self._wire(),
            "held": self._held(),
            "open_collections": self.runtime.open_collections(),
            "ids": {"conversations": dict(self.conversations), "turns": dict(self.turns)},
            **extra,
        }
        if error is not None:
            record["error"] = error
        return record

    def _do(self, step: sc.Step) -> dict[str, object]:
        rt = self.runtime
        match step:
            case sc.StartTurn():
                if step.turn in self.turns:
                    raise Refusal(
                        "label_in_use", "a turn label names one turn", status=409, turn=step.turn
                    )
                conversation = self.conversations.get(step.conversation)
                if conversation is None:
                    conversation = rt.create_conversation(self.workflow())
                    self.conversations[step.conversation] = conversation
                self.turn_conversation[step.turn] = step.conversation
                try:
                    rt.start_turn(conversation, step.message, step.entry_point)
                finally:  # label the new turn even when its run crashed the process
                    self._label_new_turn(step.turn, conversation)
            case sc.Poll():
                conversation = self.conversations.get(step.conversation)
                if conversation is None:
                    raise Refusal("unknown_conversation", "no such conversation", status=404)
                return {"poll": rt.poll(conversation, limit=step.limit or 50)}
            case sc.Answer():
                rt.answer(self._turn(step.turn), step.value)
            case sc.Approve():
                rt.approve(self._turn(step.turn))
            case sc.Decline():
                rt.decline(self._turn(step.turn), step.reason)
            case sc.Continue():
                rt.continue_turn(self._turn(step.turn))
            case sc.Stop():
                rt.stop(self._turn(step.turn))
            case sc.Wait():
                self._wait(step.clients, step.rounds)
            case sc.Restart():
                self.restart()
            case sc.FailWriteBack():
                self.seams.fail_write_backs(step.count)
            case sc.Interrupt():
                self.seams.arm(step.point, step.cause, step.tool, step.occurrence)
            case sc.FailLedgerRead():
                self.seams.fail_ledger_reads(step.count)
            case sc.EmitLateArtifact():
                rt.emit_late(self._turn(step.turn), step.target, step.artifact, step.tool_call_id)
            case sc.ClassifyLedger():
                events = [_event(raw) for raw in step.events]
                return {"journal": rt.classify(events).to_json()}
        return {}

    def _label_new_turn(self, label: str, conversation: str) -> None:
        known = set(self.turns.values())
        for turn_id in self.runtime.turns(conversation):
            if turn_id not in known:
                self.turns[label] = turn_id

    def _wait(self, clients: int, rounds: int | None) -> None:
        if clients <= 1:
            self.runtime.settle(rounds)
            return
        errors: list[BaseException] = []

        def settle() -> None:
            try:
                with waiting_together(clients):
                    self.runtime.settle(rounds)
            except BaseException as err:  # reported after the join
                errors.append(err)

        threads = [threading.Thread(target=settle) for _ in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]

    def restart(self) -> None:
        """Drop the runtime (as a dead process would) and boot a new one on the same file."""
        self.runtime.close()
        self.runtime = self._boot()

    def _turn(self, label: str) -> str:
        turn_id = self.turns.get(label)
        if turn_id is None:
            raise Refusal("unknown_turn", "no such turn", status=404, turn=label)
        return turn_id

    # -- reporting ---------------------------------------------------------------------

    def _labels(self) -> tuple[dict[str, str], dict[str, str]]:
        turn_labels = {turn_id: label for label, turn_id in self.turns.items()}
        return turn_labels, {label: self.turn_conversation[label] for label in self.turns}

    def _run_record(self, run: dict[str, object]) -> dict[str, object]:
        turn_labels, conversation_of = self._labels()
        label = turn_labels.get(str(run["turn"]), str(run["turn"]))
        return {**run, "turn": label, "conversation": conversation_of.get(label, "main")}

    def _wire(self) -> dict[str, dict[str, object]]:
        wire: dict[str, dict[str, object]] = {}
        for label, turn_id in self.turns.items():
            conversation = self.turn_conversation[label]
            wire.setdefault(conversation, {})[label] = self.runtime.turn_view(turn_id)
        return wire

    def _held(self) -> dict[str, object]:
        return {label: self.runtime.held(turn_id) for label, turn_id in self.turns.items()}

    def ledger(self) -> list[dict[str, object]]:
        """Every turn's ledger, labelled."""
        return [
            {"turn": label, **event.to_json()}
            for label, turn_id in self.turns.items()
            for event in self.runtime.ledger(turn_id)
        ]


def _event(raw: object) -> LedgerEvent:
    if not isinstance(raw, dict):
        return LedgerEvent("invalid")
    tool = raw.get("tool")
    return LedgerEvent(
        str(raw.get("event")),
        tool if isinstance(tool, str) else None,
        raw.get("input"),
        raw.get("result"),
    )
