"""``standing.json`` as a renderer, like every other format."""

from __future__ import annotations

from conformance.report._encode import to_json
from conformance.report._output import OutputFile, Rendered, RenderOptions
from conformance.report._standing import StandingReport

__all__ = ["render_json"]


def render_json(report: StandingReport, options: RenderOptions) -> Rendered:
    """``standing.json`` (schema-checked by :func:`to_json`)."""
    del options
    return Rendered(
        files=(OutputFile(path="standing.json", content=to_json(report).encode("utf-8")),)
    )
