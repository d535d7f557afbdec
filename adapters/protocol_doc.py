"""The protocol reference, ``docs/protocol.md``, made from the published JSON Schemas.

The page is hand-written prose around generated blocks.  A block opens with a marker that
names a schema file and the definitions to render there, in order (``root`` is the
file's top-level object), and closes with the end marker::

    <!-- generated from trace.json: root step_record run -->
    ...
    <!-- end of generated part -->

:func:`regenerate` replaces what each block holds by the sections of its definitions
(:mod:`adapters._doc_render`) and keeps everything else as it is.  Every definition of
every schema is rendered exactly once on the page, so a definition added to a schema
cannot be left out of it.  Rewrite the page after changing a schema::

    python -m adapters.protocol_doc            # rewrites docs/protocol.md
    python -m adapters.protocol_doc --check    # exit status 1 when it is out of date
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from adapters._doc_render import ROOT, render_definition
from adapters._schemas import SCHEMA_FILES, schema
from adapters.errors import RttoolError
from adapters.files import write_file

__all__ = ["DEFAULT_PAGE", "END", "ProtocolDocError", "main", "regenerate"]

#: Where the page lives, relative to a checkout's root.
DEFAULT_PAGE = Path("docs") / "protocol.md"
#: The line that closes a generated block.
END = "<!-- end of generated part -->"
_BEGIN = re.compile(r"^<!-- generated from (?P<file>[a-z]+)\.json: (?P<names>[a-z_ ]+) -->$")


class ProtocolDocError(RttoolError):
    """The page's markers do not fit the schemas (a name unknown, missed or repeated)."""


def _definition(schema_name: str, name: str) -> Mapping[str, object]:
    document = schema(schema_name)
    if name == ROOT:
        return document
    definitions = document.get("$defs", {})
    assert isinstance(definitions, Mapping)
    found = definitions.get(name)
    if not isinstance(found, Mapping):
        raise ProtocolDocError(
            "a generated block names a definition the schema does not have",
            schema=f"{schema_name}.json",
            definition=name,
        )
    return found


def _every_definition() -> set[tuple[str, str]]:
    """Every definition the page must render: each file's definitions, and the root of
    each file whose top level is an object of its own."""
    out: set[tuple[str, str]] = set()
    for schema_name in SCHEMA_FILES:
        document = schema(schema_name)
        definitions = document.get("$defs", {})
        assert isinstance(definitions, Mapping)
        out |= {(schema_name, name) for name in definitions}
        if "properties" in document:
            out.add((schema_name, ROOT))
    return out


def _block(schema_name: str, names: Sequence[str]) -> list[str]:
    sections = [
        render_definition(schema_name, name, _definition(schema_name, name)) for name in names
    ]
    return "\n".join(sections).rstrip("\n").split("\n")


def regenerate(page: str) -> str:
    """``page`` with every generated block rendered afresh from the schemas."""
    lines = page.split("\n")
    out: list[str] = []
    rendered: list[tuple[str, str]] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        out.append(line)
        index += 1
        opened = _BEGIN.match(line)
        if opened is None:
            continue
        schema_name, names = opened["file"], opened["names"].split()
        if schema_name not in SCHEMA_FILES:
            raise ProtocolDocError("a generated block names an unknown schema", line=line)
        try:
            end = lines.index(END, index)
        except ValueError as err:
            raise ProtocolDocError("a generated block is never closed", line=line) from err
        out += ["", *_block(schema_name, names), "", END]
        rendered += [(schema_name, name) for name in names]
        index = end + 1
    _check_coverage(rendered)
    return "\n".join(out)


def _check_coverage(rendered: list[tuple[str, str]]) -> None:
    repeated = sorted({item for item in rendered if rendered.count(item) > 1})
    missing = sorted(_every_definition() - set(rendered))
    if repeated or missing:
        raise ProtocolDocError(
            "the page must render every schema definition exactly once",
            missing=", ".join(f"{file}.json#{name}" for file, name in missing) or "none",
            repeated=", ".join(f"{file}.json#{name}" for file, name in repeated) or "none",
        )


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite the page (or, with ``--check``, say whether it is up to date)."""
    parser = argparse.ArgumentParser(
        prog="python -m adapters.protocol_doc",
        description="Regenerate the protocol reference from adapters/schemas/*.json.",
    )
    parser.add_argument("page", nargs="?", type=Path, default=DEFAULT_PAGE)
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args(argv)
    page: Path = args.page
    try:
        current = page.read_text("utf-8")
        wanted = regenerate(current)
    except OSError as err:
        print(f"{page}: cannot read it ({err.strerror or err})", file=sys.stderr)
        return 2
    except ProtocolDocError as err:
        print(f"{page}: {err}", file=sys.stderr)
        return 2
    if wanted == current:
        return 0
    if args.check:
        print(f"{page} is out of date: run python -m adapters.protocol_doc", file=sys.stderr)
        return 1
    write_file(page.parent, page.name, wanted.encode("utf-8"))
    print(f"{page} rewritten from the schemas")
    return 0


if __name__ == "__main__":
    sys.exit(main())
