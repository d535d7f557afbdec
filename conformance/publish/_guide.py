"""The toy harness of ``docs/writing-an-adapter.md``, taken from the guide itself.

The guide publishes a complete harness in one ``python`` code block that starts with
:data:`MARKER`; the standing published for it in ``reports/toy/`` is made from exactly
that block, written to a file as a vendor would save it, so the guide cannot drift
from what was run.
"""

from __future__ import annotations

from pathlib import Path

from adapters.errors import RttoolError

__all__ = ["GUIDE_HARNESS_FILE", "MARKER", "GuideHarnessMissing", "guide_harness_source"]

#: The first line of the guide's harness code block.
MARKER = "# toy_harness.py:"
#: The file name the guide tells a reader to save the harness as.
GUIDE_HARNESS_FILE = "toy_harness.py"


class GuideHarnessMissing(RttoolError):
    """The guide does not hold exactly one harness block (or cannot be read)."""


def guide_harness_source(guide: Path) -> str:
    """The guide's harness: the one ``python`` code block that starts with the marker."""
    from markdown_it import MarkdownIt

    try:
        text = guide.read_text("utf-8")
    except OSError as err:
        raise GuideHarnessMissing(
            "cannot read the adapter guide", file=str(guide), reason=err.strerror or str(err)
        ) from err
    blocks = [
        token.content
        for token in MarkdownIt().parse(text)
        if token.type == "fence"
        and token.info.strip() == "python"
        and token.content.startswith(MARKER)
    ]
    if len(blocks) != 1:
        raise GuideHarnessMissing(
            "expected one harness block in the adapter guide",
            file=str(guide),
            marker=MARKER,
            found=len(blocks),
        )
    return blocks[0]
