"""Split a page's YAML front matter off by hand, load it safely, check it against its schema.

The front matter is cut at the ``---`` lines by hand so that every key keeps its
line number; YAML is loaded only with the safe loader, held to the nesting limit of
``adapters.limits`` (a ``!!python/…`` tag, or a value nested too deep, is a finding,
never an object), and the result is validated against the published
schema ``conformance/schemas/rule-front-matter.json`` (JSON Schema 2020-12).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType

import yaml
from jsonschema import Draft202012Validator

from adapters.limits import TooDeep, yaml_document
from conformance.rules._model import Finding

__all__ = ["FrontMatter", "front_matter_schema", "read_front_matter", "schema_findings"]

_TOP_KEY = re.compile(r"^(?P<key>[A-Za-z_][A-Za-z0-9_-]*)\s*:(?:\s|$)")
_MAX_MESSAGE = 240


@dataclass(frozen=True)
class FrontMatter:
    """The loaded front matter of one page.

    ``values`` is the YAML mapping exactly as loaded (``None`` if it did not load);
    ``key_lines`` gives the file line of each top-level key; ``body_line`` is the
    1-based file line where the markdown body starts.
    """

    values: Mapping[str, object] | None
    key_lines: Mapping[str, int]
    start_line: int
    body_line: int
    findings: tuple[Finding, ...] = field(default=())

    def line_of(self, key: str) -> int:
        """The line of top-level ``key``, or of the opening ``---`` if it is absent."""
        return self.key_lines.get(key, self.start_line)


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _MAX_MESSAGE else flat[: _MAX_MESSAGE - 1] + "…"


def read_front_matter(lines: list[str], path: Path) -> FrontMatter:
    """Cut the front matter off ``lines`` (the page, split into lines) and load it."""
    if not lines or lines[0].strip() != "---":
        missing = Finding(path, 1, "front-matter-missing", "page does not start with '---'")
        return FrontMatter(None, MappingProxyType({}), 1, 1, (missing,))
    closing = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if closing is None:
        unclosed = Finding(path, 1, "front-matter-missing", "front matter has no closing '---'")
        return FrontMatter(None, MappingProxyType({}), 1, len(lines) + 1, (unclosed,))
    block = lines[1:closing]
    findings: list[Finding] = []
    key_lines: dict[str, int] = {}
    for offset, text in enumerate(block):
        match = _TOP_KEY.match(text)
        if match is None:
            continue
        key = match["key"]
        if key in key_lines:
            findings.append(
                Finding(path, offset + 2, "front-matter-yaml", f"key {key!r} appears twice")
            )
        else:
            key_lines[key] = offset + 2
    values = _load(block, path, findings)
    return FrontMatter(values, MappingProxyType(key_lines), 1, closing + 2, tuple(findings))


def _load(block: list[str], path: Path, findings: list[Finding]) -> Mapping[str, object] | None:
    try:
        _, loaded = yaml_document("\n".join(block))
    except TooDeep as err:
        line = int(str(err.details.get("line", 0))) + 1
        findings.append(
            Finding(path, line, "front-matter-yaml", _one_line(f"{err.pointer}: {err.complaint}"))
        )
        return None
    except yaml.constructor.ConstructorError as err:
        # An unknown or unsafe tag: safe_load refused to build anything from it.
        line = err.problem_mark.line + 2 if err.problem_mark else 1
        tag = _one_line(str(err.problem or "tag refused"))
        findings.append(
            Finding(path, line, "front-matter-unsafe", f"{tag} (front matter is loaded safely)")
        )
        return None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        problem = getattr(err, "problem", None) or "not valid YAML"
        findings.append(Finding(path, line, "front-matter-yaml", _one_line(str(problem))))
        return None
    if not isinstance(loaded, dict):
        kind = "empty" if loaded is None else f"a {type(loaded).__name__}"
        findings.append(
            Finding(path, 1, "front-matter-schema", f"front matter is {kind}, not a mapping")
        )
        return None
    return MappingProxyType({str(key): value for key, value in loaded.items()})


@cache
def front_matter_schema() -> Mapping[str, object]:
    """The published front-matter schema, ``conformance/schemas/rule-front-matter.json``."""
    text = (
        resources.files("conformance")
        .joinpath("schemas", "rule-front-matter.json")
        .read_text("utf-8")
    )
    loaded: dict[str, object] = json.loads(text)
    return MappingProxyType(loaded)


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(dict(front_matter_schema()))


def schema_findings(front: FrontMatter, path: Path) -> list[Finding]:
    """One ``front-matter-schema`` finding per schema violation, at the offending key."""
    if front.values is None:
        return []
    findings: list[Finding] = []
    properties = front_matter_schema().get("properties")
    known = set(properties) if isinstance(properties, Mapping) else set()
    reported: set[str] = set()
    for error in _validator().iter_errors(dict(front.values)):
        steps = [str(step) for step in error.absolute_path]
        if error.validator == "additionalProperties":
            for key in sorted(set(front.values) - known, key=front.line_of):
                findings.append(
                    Finding(
                        path,
                        front.line_of(key),
                        "front-matter-schema",
                        f"/{key}: key {key!r} is not allowed",
                    )
                )
            continue
        pointer = "/" + "/".join(steps)
        if steps and pointer in reported:
            # A value can break the base rule and a family's narrower one: say it once.
            continue
        reported.add(pointer)
        line = front.line_of(steps[0]) if steps else front.start_line
        findings.append(
            Finding(path, line, "front-matter-schema", _one_line(f"{pointer}: {error.message}"))
        )
    return sorted(set(findings), key=lambda finding: (finding.line, finding.message))
