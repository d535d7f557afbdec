"""Mutants of how a re-dispatched write is matched to a completed entry (DR-3 ¶4).

Each matches by a key that is not the call's content address: one step away from the
signature of the tool name and the canonical encoding of the input."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from reference_impl.behaviour import Behaviour, Components
from reference_impl.journal import Journal, Snapshot, signature
from reference_impl.mutants._model import Mutant

__all__ = ["MUTANTS"]

Key = Callable[[str, object], str]


def _unsorted(tool: str, args: object) -> str:
    return tool + "\x00" + json.dumps(args, ensure_ascii=False)


def _top_level_sorted(tool: str, args: object) -> str:
    top = dict(sorted(args.items())) if isinstance(args, Mapping) else args
    return tool + "\x00" + json.dumps(top, ensure_ascii=False)


def _ascii_only(tool: str, args: object) -> str:
    return signature(tool, args).encode("ascii", "ignore").decode("ascii")


def _first_64(tool: str, args: object) -> str:
    return signature(tool, args)[:64]


def _as_text(value: object) -> object:
    if isinstance(value, Mapping):
        return {str(k): _as_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_text(v) for v in value]
    return str(value)


def _values_as_text(tool: str, args: object) -> str:
    return signature(tool, _as_text(args))


def _input_only(tool: str, args: object) -> str:
    return signature("", args)


def _keyed(match: Key) -> Callable[[], Components]:
    """Components whose resumed chunks match completed entries by ``match``."""

    class _KeyedSnapshot(Snapshot):
        def key(self, tool: str, args: object) -> str:
            return match(tool, args)

    class _KeyedBehaviour(Behaviour):
        def snapshot(self, journal: Journal) -> Snapshot:
            return _KeyedSnapshot(journal)

    return lambda: Components(behaviour=_KeyedBehaviour())


MUTANTS = (
    Mutant(
        "signature-depends-on-key-order",
        ("DR-3#c4",),
        "the input's signature keeps its keys in the order the model sent them",
        _keyed(_unsorted),
    ),
    Mutant(
        "signature-sorts-top-level-keys-only",
        ("DR-3#c4",),
        "the input's signature sorts its top-level keys but not those of nested maps",
        _keyed(_top_level_sorted),
    ),
    Mutant(
        "signature-drops-non-ascii",
        ("DR-3#c4",),
        "the input's signature leaves out every non-ASCII character",
        _keyed(_ascii_only),
    ),
    Mutant(
        "signature-cut-to-64-characters",
        ("DR-3#c4",),
        "the call's signature keeps only its first 64 characters",
        _keyed(_first_64),
    ),
    Mutant(
        "signature-of-values-as-text",
        ("DR-3#c4",),
        'the input\'s signature turns every value into text, so 7 and "7" match',
        _keyed(_values_as_text),
    ),
    Mutant(
        "match-ignores-tool-name",
        ("DR-3#c4",),
        "a re-dispatched call matches a completed entry of any tool with the same input",
        _keyed(_input_only),
    ),
)
