"""Which scenarios the doctor sends: a few small ones the suite itself would send.

The scenarios come from the catalog, listed for the harness's own handshake
(:func:`conformance.catalog.build_catalog`): the smallest scenario of all, the smallest
whose call sends ``"args": []``, then for every capability the handshake offers the
smallest scenario that needs or observes it (a check's or a vector's where one does, a
hunt sample's otherwise).  The listing is widened only as far as needed: a harness that
offers little is probed without anything else being run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from adapters.codec import to_json
from adapters.driver import Driver, Unsupported
from adapters.errors import BrokenOffer, ImplementationError, TimedOut
from adapters.handshake import Handshake
from adapters.scenario import Scenario
from conformance.catalog import Entry
from conformance.doctor._findings import ARGS_HINT, Diagnosis, Probe, fix_for
from conformance.doctor._traces import check_trace, empty_list_calls

__all__ = ["Chosen", "choose", "send"]


@dataclass
class Chosen:
    """A scenario and why the doctor sends it (every reason it was picked for)."""

    scenario: Scenario
    reasons: list[str]

    @property
    def reason(self) -> str:
        """The reasons, as one phrase."""
        return "; ".join(self.reasons)


#: Exercised by every scenario when offered: the driver reads each step's wire from it.
_EVERYWHERE = ("turn_api",)
#: Hunt scenarios drawn to find a probe for what no check's scenario needs.
HUNT_SAMPLES = 20


def _listings(handshake: Handshake) -> Iterator[list[Entry]]:
    """Ever wider listings for ``handshake``, cheapest first: what each case sends first
    (nothing runs); then every scenario, the bundled reference runtime answering the
    listing's scenarios so that those a check sends later are found; then hunt samples.
    The harness itself is not contacted."""
    from conformance.catalog import build_catalog

    yield list(build_catalog(first_only=True, samples=0, handshake=handshake).entries)
    yield list(build_catalog(samples=0, handshake=handshake).entries)
    yield list(build_catalog(samples=HUNT_SAMPLES, handshake=handshake).entries)


def choose(handshake: Handshake) -> tuple[list[Chosen], list[str]]:
    """The probes for ``handshake`` (the smallest scenario for each reason, each scenario
    once), and the offered capabilities no listed scenario exercises."""
    from conformance.report import capability_names

    reasons = ["the smallest scenario", 'a call with "args": []']
    reasons += [
        f"offers {name}"
        for name in capability_names(handshake.capabilities)
        if name not in _EVERYWHERE
    ]
    found: dict[str, Entry] = {}
    for listing in _listings(handshake):
        sendable = [entry for entry in listing if entry.missing is None]
        sizes = {entry.id: len(json.dumps(to_json(entry.scenario))) for entry in sendable}
        # Checks' and vectors' scenarios before hunt samples; the smallest first.
        sendable.sort(key=lambda entry: (entry.kind == "hunt-sample", sizes[entry.id]))
        for reason in reasons:
            if reason not in found:
                match = next((e for e in sendable if _serves(e, reason)), None)
                if match is not None:
                    found[reason] = match
        if len(found) == len(reasons):
            break
    # Keyed by case, not scenario id: the variants of a parameterised check share their
    # scenario's id, and the smallest of them need not need what a larger one does.
    chosen: dict[str, Chosen] = {}
    for reason in reasons:
        if reason in found:
            entry = found[reason]
            chosen.setdefault(entry.id, Chosen(entry.scenario, [])).reasons.append(reason)
    unexercised = [r.removeprefix("offers ") for r in reasons if r not in found]
    return list(chosen.values()), unexercised


def _serves(entry: Entry, reason: str) -> bool:
    if reason == "the smallest scenario":
        return True
    if reason.startswith("offers "):
        return reason.removeprefix("offers ") in (*entry.needs, *entry.observes)
    return bool(empty_list_calls(entry.scenario))


def send(driver: Driver, handshake: Handshake, probe: Chosen, diagnosis: Diagnosis) -> bool:
    """Run one probe and judge its answer; returns whether more probes are worth sending
    (not after a timeout or a crash, which would only repeat)."""
    scenario = probe.scenario
    where = f"scenario {scenario.id}"
    args_probe = bool(empty_list_calls(scenario))
    try:
        answer = driver.run(scenario)
    except BrokenOffer as err:
        capability = str(err.details.get("capability"))
        diagnosis.problem(
            f"start answered unsupported ({capability}), which the handshake offers",
            f"{where} start",
            f"honour {capability}, or leave it out of the handshake: the suite "
            "then never sends a scenario that needs it",
        )
        diagnosis.probes.append(Probe(scenario.id, probe.reason, 0, True))
        return True
    except ImplementationError as err:
        pointer = f" {err.pointer}" if hasattr(err, "pointer") else ""
        fix = fix_for(err)
        # The hint about "args": [] only where this probe alone failed so: an error every
        # probe meets is one problem, said once.
        if args_probe and not diagnosis.seen(str(err)):
            fix += f'; if it is a call\'s "args": [] the harness cannot read: {ARGS_HINT}'
        diagnosis.problem(str(err), f"{where}{pointer}", fix)
        diagnosis.probes.append(Probe(scenario.id, probe.reason, 0, False))
        return not isinstance(err, TimedOut) and err.kind != "crashed"
    if isinstance(answer, Unsupported):
        diagnosis.note(
            f"the harness declined the scenario at start ({answer.capability}: "
            f"{answer.message[:200]}): the checks that send such scenarios will be untested",
            f"{where} start",
            "nothing, if the runtime cannot do it; say unsupported only for what it cannot",
        )
        diagnosis.probes.append(Probe(scenario.id, probe.reason, 0, True))
        return True
    problems = check_trace(scenario, answer, handshake, diagnosis)
    diagnosis.probes.append(Probe(scenario.id, probe.reason, len(answer.steps), problems == 0))
    return True
