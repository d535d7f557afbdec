"""An observer that turns what the runtime reports into the protocol's run records."""

from __future__ import annotations

import copy
import math
import threading
from collections.abc import Mapping, Sequence

from adapters.scenario import UNENCODABLE

__all__ = ["Recorder"]


def _reportable(value: object) -> object:
    """A JSON-safe copy: a value JSON cannot encode (a scenario's unencodable payload)
    is reported as the protocol's marker, not as itself."""
    if isinstance(value, float) and not math.isfinite(value):
        return dict(UNENCODABLE)
    if isinstance(value, Mapping):
        return {str(key): _reportable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_reportable(item) for item in value]
    return value


class Recorder:
    """Collects run records and warnings for the step being executed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.runs: dict[str, dict[str, object]] = {}
        self.order: list[str] = []
        self.warnings: list[dict[str, object]] = []
        self._run_turn: dict[str, str] = {}

    def take(self) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
        """Hand over and forget the runs and warnings recorded since the last take."""
        with self._lock:
            runs = [self.runs[run_id] for run_id in self.order]
            warnings = self.warnings
            self.runs, self.order, self.warnings = {}, [], []
            return runs, warnings

    def _run(self, run_id: str) -> dict[str, object]:
        return self.runs[run_id]

    # -- the Observer protocol ---------------------------------------------------------

    def run_started(self, run_id: str, turn_id: str, cause: str) -> None:
        """A run began."""
        with self._lock:
            self._run_turn[run_id] = turn_id
            self.runs[run_id] = {
                "id": run_id,
                "turn": turn_id,
                "cause": cause,
                "end": "crashed",
                "model_inputs": [],
                "passes": [],
                "side_effects": [],
            }
            self.order.append(run_id)

    def model_input(self, run_id: str, messages: Sequence[Mapping[str, object]]) -> None:
        """The model was called."""
        with self._lock:
            inputs = self._run(run_id)["model_inputs"]
            assert isinstance(inputs, list)
            # the runtime builds every model input afresh: a shallow copy is a snapshot
            inputs.append({"messages": [dict(message) for message in messages]})

    def resumed(self, run_id: str, nudge: str, note: Mapping[str, object] | None) -> None:
        """A resumed run was prompted."""
        with self._lock:
            resume: dict[str, object] = {"nudge": nudge}
            if note is not None:
                resume["note"] = copy.deepcopy(dict(note))
            self._run(run_id)["resume"] = resume

    def prior_turn_note(self, run_id: str, note: Mapping[str, object]) -> None:
        """A new turn was told about the unfinished one."""
        with self._lock:
            self._run(run_id)["prior_turn_note"] = copy.deepcopy(dict(note))

    def pass_done(self, run_id: str, record: Mapping[str, object]) -> None:
        """A tool pass finished."""
        with self._lock:
            passes = self._run(run_id)["passes"]
            assert isinstance(passes, list)
            passes.append(_reportable(record))

    def side_effect(self, run_id: str, effect: Mapping[str, object]) -> None:
        """A tool body ran."""
        with self._lock:
            run = self.runs.get(run_id)
            if run is not None:
                effects = run["side_effects"]
                assert isinstance(effects, list)
                effects.append(_reportable(effect))

    def warning(self, warning: Mapping[str, object]) -> None:
        """The runtime warned."""
        with self._lock:
            self.warnings.append(dict(warning))

    def run_ended(self, run_id: str, end: str, interruption: Mapping[str, object] | None) -> None:
        """A run ended."""
        with self._lock:
            run = self._run(run_id)
            run["end"] = end
            if interruption is not None:
                run["interruption"] = dict(interruption)
