"""The handshake, checked with hints: every schema problem at once, then what it claims.

The driver stops at the first problem of a handshake; a vendor fixing one wants all of
them, each with its JSON pointer and a way out ("unknown capability restartt; did you
mean restart?").
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from jsonschema.exceptions import ValidationError

from adapters.codec import validator
from adapters.handshake import PROTOCOL, Handshake
from conformance.doctor._findings import Diagnosis

__all__ = ["check_claims", "check_hello"]

_MAX_LISTED = 20
_HANDSHAKE_DOCS = "the handshake section of docs/writing-an-adapter.md"


def _pointer(error: ValidationError) -> str:
    path = "".join(
        "/" + str(part).replace("~", "~0").replace("/", "~1") for part in error.absolute_path
    )
    return path or "/"


def _suggest(value: object, known: list[str]) -> str:
    close = difflib.get_close_matches(str(value), known, n=1)
    return f"; did you mean {close[0]}?" if close else ""


def _hint(error: ValidationError) -> tuple[str, str, str]:
    """(what, fix, the key it is about) for one schema error of the handshake."""
    schema_node: Any = error.schema
    instance: Any = error.instance
    if error.validator == "additionalProperties" and isinstance(instance, Mapping):
        known = sorted(schema_node.get("properties", {}))
        extra = [str(key) for key in instance if key not in known][:1]
        if not extra:
            return error.message, f"see {_HANDSHAKE_DOCS}", ""
        path = list(error.absolute_path)
        place = "capability" if path and path[-1] == "capabilities" else "field"
        return (
            f"unknown {place} {extra[0]!r}",
            f"remove it{_suggest(extra[0], known)} (known: {', '.join(known)})",
            extra[0],
        )
    if error.validator == "enum":
        known = [str(item) for item in schema_node.get("enum", [])]
        return (
            f"{instance!r} is not one of the protocol's values",
            f"use one of {', '.join(known)}{_suggest(instance, known)}",
            "",
        )
    if error.validator == "required":
        missing = re.match(r"'(.+)' is a required property", error.message)
        return error.message, f"add it: see {_HANDSHAKE_DOCS}", missing[1] if missing else ""
    if error.validator == "type":
        return error.message, f"give it the type {schema_node.get('type')}", ""
    return error.message, f"see {_HANDSHAKE_DOCS}", ""


def check_hello(reply: Mapping[str, object], diagnosis: Diagnosis) -> bool:
    """Hold the raw ``hello`` reply to the protocol; record every problem with a hint.
    Returns whether the handshake can be used (else the harness cannot be driven)."""
    if "error" in reply and len(reply) == 1:
        error = reply["error"]
        message = error.get("message") if isinstance(error, Mapping) else error
        diagnosis.problem(
            f"the harness answered hello with an error: {str(message)[:300]}",
            "hello",
            "answer hello with the handshake: see " + _HANDSHAKE_DOCS,
        )
        return False
    spoken = reply.get("protocol")
    if isinstance(spoken, str) and spoken != PROTOCOL:
        diagnosis.problem(
            f"the harness speaks {spoken!r}, this suite {PROTOCOL!r}",
            "hello /protocol",
            f'answer hello with "protocol": "{PROTOCOL}"',
        )
        return False
    errors = sorted(
        validator("messages#/$defs/handshake").iter_errors(reply),
        key=lambda error: [str(part) for part in error.absolute_path],
    )
    for error in errors[:_MAX_LISTED]:
        what, fix, key = _hint(error)
        pointer = _pointer(error).rstrip("/")
        if key:  # point at the key itself: the unknown one, or where the missing one goes
            pointer += "/" + key.replace("~", "~0").replace("/", "~1")
        diagnosis.problem(what, f"hello {pointer or '/'}", fix)
    if len(errors) > _MAX_LISTED:
        diagnosis.problem(
            f"{len(errors) - _MAX_LISTED} more schema problems", "hello", "fix those above first"
        )
    return not errors


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _known_profiles() -> list[str]:
    from conformance.rules import load_corpus

    return sorted({profile for rule in load_corpus().rules for profile in rule.profiles})


def check_claims(handshake: Handshake, diagnosis: Diagnosis) -> None:
    """What a valid handshake claims that would make a run say less than it could."""
    known = _known_profiles()
    if not handshake.profiles:
        diagnosis.problem(
            "no profile is claimed: every rule would be reported not applicable",
            "hello /profiles",
            f"claim the profiles the runtime implements ({', '.join(known)})",
        )
    unknown = [(i, p) for i, p in enumerate(handshake.profiles) if p not in known]
    if unknown:
        # One finding for them all: a line per profile (and a suggestion for each) would
        # make a long list of them slow to check and unreadable to fix.
        index, first = unknown[0]
        named = ", ".join(repr(profile[:60]) for _, profile in unknown[:3])
        more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
        diagnosis.problem(
            f"{_count(len(unknown), 'profile')} rttool does not know ({named}{more}): no rule "
            "is checked under them",
            f"hello /profiles/{index}",
            f"use one of {', '.join(known)}{_suggest(first, known)}",
        )
    if not handshake.capabilities.entry_points:
        diagnosis.problem(
            "no entry point is offered: every scenario starts a turn from one, so none can be sent",
            "hello /capabilities/entry_points",
            'offer at least "chat"',
        )
    if "durable-resume" in handshake.profiles and handshake.durable_resume is None:
        diagnosis.note(
            "durable-resume is claimed without a durable_resume nudge: the checks that read "
            "the resume prompt will be untested",
            "hello /durable_resume",
            'declare {"nudge": "<the exact text a resumed run is prompted with>"}',
        )
    if not handshake.collects_artifacts:
        diagnosis.note(
            "collects_artifacts is false: RT-TOOL-5 ¶2-5 will be reported not applicable",
            "hello /collects_artifacts",
            "leave it out (true) if the runtime does collect tool artifacts",
        )
    if handshake.durable_resume is not None:
        _check_resumable(handshake.durable_resume.resumes_on_its_own, diagnosis)


#: The causes after which DR-5 ¶5 says a turn ends with Continue available.
_ENDING_CAUSES = ("error", "stop", "cancel", "credential", "rate_limit")


def _check_resumable(causes: tuple[str, ...], diagnosis: Diagnosis) -> None:
    """The declared resumable causes, as the DR-5 checks will treat them."""
    where = "hello /durable_resume/resumes_on_its_own"
    if "time_limit" not in causes:
        # An honest declaration: the runtime is ready to run, and will fail DR-5 ¶1.
        diagnosis.gap(
            "resumes_on_its_own leaves out time_limit: DR-5 ¶1 says a turn cut by its time "
            "limit continues on its own"
            + (
                ", and with no cause listed DR-5 ¶3's every-cause case is untested"
                if not causes
                else ""
            ),
            where,
            "DR-5#c1",
            "continue a turn cut by its time limit on its own, and declare time_limit",
        )
    ending = [cause for cause in causes if cause in _ENDING_CAUSES]
    if ending:
        diagnosis.gap(
            f"resumes_on_its_own lists {', '.join(ending)}: DR-5 ¶5 says a turn ends with "
            "Continue available after an error, a stop, a cancellation, or a credential or "
            "rate-limit failure, so the declaration fails DR-5 ¶5",
            where,
            "DR-5#c5",
            "end the turn with Continue available after those causes, and list only the "
            "causes after which the turn continues by itself",
        )
