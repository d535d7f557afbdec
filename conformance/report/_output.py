"""What a renderer returns: files to write and evidence to copy, never written by it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conformance.report._drawn import DrawnEvidence
    from conformance.report._model import Evidence

__all__ = ["CopiedFile", "OutputFile", "RenderOptions", "Rendered"]


@dataclass(frozen=True, kw_only=True)
class OutputFile:
    """One file to write, at ``path`` relative to the output directory."""

    path: str
    content: bytes


@dataclass(frozen=True, kw_only=True)
class CopiedFile:
    """An evidence file (relative to the report directory) to copy to ``target``."""

    source: str
    target: str


@dataclass(frozen=True, kw_only=True)
class Rendered:
    """One format's output."""

    files: tuple[OutputFile, ...]
    copies: tuple[CopiedFile, ...] = ()


@dataclass(frozen=True, kw_only=True)
class RenderOptions:
    """What a renderer may know about the world without looking at it.

    ``link_prefix`` leads from the output directory to the report directory that
    evidence paths are relative to (empty when they are the same);
    ``existing_evidence`` lists the evidence paths that are files there; ``drawn`` is the
    evidence of failing and erring checks the writer read for the timelines of
    ``report.html`` (none: no timelines).
    """

    link_prefix: str = ""
    existing_evidence: frozenset[str] = frozenset()
    drawn: Mapping[Evidence, DrawnEvidence] = field(
        default_factory=lambda: MappingProxyType({}), compare=False
    )
