"""Legal variants: their catalogue, the readings they stand for, and how they are judged."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from adapters.errors import BadJson
from conformance._variants import parse_variants, read_variants
from reference_impl.harness import create
from reference_impl.variants import catalogue

INTERPRETATIONS = Path(__file__).resolve().parents[2] / "docs" / "interpretations.md"
_ANCHOR = re.compile(r'^<a id="(?P<anchor>[a-z0-9-]+)"></a>$')
_PROVED = re.compile(r"^- \*\*Proved by:\*\*(?P<rest>.*)$")


def _entries() -> dict[str, list[str]]:
    """Every entry of docs/interpretations.md: anchor -> the variants its "Proved by" names
    (the backticked words outside parentheses: a parenthesis says what a variant does)."""
    proved: dict[str, str] = {}
    current: str | None = None
    proving = False
    for line in INTERPRETATIONS.read_text("utf-8").splitlines():
        anchor = _ANCHOR.match(line)
        if anchor:
            current, proving = anchor.group("anchor"), False
            proved[current] = ""
            continue
        started = _PROVED.match(line)
        if started and current is not None:
            proving = True
            proved[current] += started.group("rest")
        elif line.startswith(("- ", "#")) or not line.strip():
            proving = False
        elif proving and current is not None:
            proved[current] += " " + line.strip()
    return {
        anchor: re.findall(r"`([a-z0-9-]+)`", re.sub(r"\([^)]*\)", "", text))
        for anchor, text in proved.items()
    }


def test_every_variant_reading_has_an_entry_that_names_it() -> None:
    entries = _entries()
    for variant in catalogue():
        assert variant.reading in entries, f"{variant.name}: no entry #{variant.reading}"
        assert variant.name in entries[variant.reading], (
            f"entry #{variant.reading} does not name {variant.name} under Proved by"
        )


def test_every_entry_is_proved_by_variants_that_exist() -> None:
    known = {variant.name: variant.reading for variant in catalogue()}
    for anchor, names in _entries().items():
        assert names, f"entry #{anchor} names no legal variant"
        for name in names:
            assert known.get(name) == anchor, f"entry #{anchor} names {name}, whose reading differs"


def test_catalogue_round_trips_and_names_are_unique() -> None:
    listed = read_variants()
    assert [v.name for v in listed] == [v.name for v in catalogue()]
    assert len({v.name for v in listed}) == len(listed)


@pytest.mark.parametrize(
    ("text", "pointer"),
    [
        ("[]", "/"),
        ('[{"name": "Bad", "reading": "r", "clauses": ["DR-1#c1"], "description": ""}]', "/0/name"),
        (
            '[{"name": "a", "reading": "R R", "clauses": ["DR-1#c1"], "description": ""}]',
            "/0/reading",
        ),
        ('[{"name": "a", "reading": "r", "clauses": [], "description": ""}]', "/0/clauses"),
        ('[{"name": "a", "reading": "r", "clauses": ["x"], "description": ""}]', "/0/clauses/0"),
    ],
)
def test_a_malformed_catalogue_is_refused_naming_the_pointer(text: str, pointer: str) -> None:
    with pytest.raises(BadJson) as raised:
        parse_variants(text)
    assert f"pointer={pointer}" in str(raised.value)


def test_a_variant_says_what_it_is_and_declares_what_its_components_decide() -> None:
    words = create(variant="status-words-of-its-own").request({"cmd": "hello"})
    assert str(words["implementation"]["version"]).endswith("+variant.status-words-of-its-own")  # type: ignore[index]
    assert words["turn_states"]["completed"] == ["done"]  # type: ignore[index]
    waits = create(variant="gateway-timeout-waits-for-continue").request({"cmd": "hello"})
    assert waits["durable_resume"]["resumes_on_its_own"] == ["time_limit"]  # type: ignore[index]
    plain = create().request({"cmd": "hello"})
    assert "turn_states" not in plain
    assert "resumes_on_its_own" not in json.dumps(plain)
