"""Rendering every format and writing the results: the only I/O of the report layer.

Renderers are pure functions of the model (and of :class:`RenderOptions`, which the
writer fills in by looking at the evidence directory).  Files are written atomically;
evidence is copied only from inside the evidence root.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType

from adapters.errors import RttoolError
from conformance.report._allure import render_allure
from conformance.report._badge import render_badges
from conformance.report._earl import render_earl
from conformance.report._errors import ReportWriteError
from conformance.report._escape import safe_relative_path
from conformance.report._html import render_html
from conformance.report._json_format import render_json
from conformance.report._junit import render_junit
from conformance.report._markdown import render_markdown
from conformance.report._output import Rendered, RenderOptions
from conformance.report._standing import StandingReport

__all__ = ["ALL_FORMATS", "RENDERERS", "render", "write_reports"]

Renderer = Callable[[StandingReport, RenderOptions], Rendered]

#: format name -> renderer; the names ``rttool report render --format`` accepts.
RENDERERS: Mapping[str, Renderer] = MappingProxyType(
    {
        "json": render_json,
        "markdown": render_markdown,
        "junit": render_junit,
        "allure": render_allure,
        "html": render_html,
        "badge": render_badges,
        "earl": render_earl,
    }
)
ALL_FORMATS: tuple[str, ...] = tuple(RENDERERS)

# Files an earlier rendering may have left in allure-results/: removed before writing so
# results of two runs never mix.  Nothing else in that directory is touched.
_ALLURE_OWN = ("-result.json", "-container.json", "categories.json", "environment.properties")


def render(report: StandingReport, fmt: str, options: RenderOptions | None = None) -> Rendered:
    """Render ``report`` in the format named ``fmt`` (see :data:`RENDERERS`)."""
    try:
        renderer = RENDERERS[fmt]
    except KeyError:
        raise RttoolError(
            "unknown report format", format=fmt, known=",".join(ALL_FORMATS)
        ) from None
    return renderer(report, options or RenderOptions())


def _inside(root: Path, relative: str) -> Path | None:
    if not safe_relative_path(relative):
        return None
    resolved = (root / relative).resolve()
    return resolved if resolved.is_relative_to(root.resolve()) and resolved.is_file() else None


def _link_prefix(directory: Path, evidence_root: Path) -> str:
    try:
        relative = os.path.relpath(evidence_root.resolve(), directory.resolve())
    except ValueError:  # different drives: links cannot be relative
        return ""
    return "" if relative == "." else Path(relative).as_posix()


def _write(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(content)
    os.replace(partial, path)


def _clear_allure(directory: Path) -> None:
    results = directory / "allure-results"
    if results.is_dir():
        for item in results.iterdir():
            if item.is_file() and (item.name.endswith(_ALLURE_OWN) or "-attachment." in item.name):
                item.unlink()


def write_reports(
    report: StandingReport,
    directory: Path,
    formats: Iterable[str] = ALL_FORMATS,
    *,
    evidence_root: Path | None = None,
) -> tuple[Path, ...]:
    """Write ``report`` into ``directory`` in every one of ``formats``.

    Evidence paths are relative to ``evidence_root`` (default: ``directory``).  Returns
    the files written, in order.
    """
    formats = tuple(dict.fromkeys(formats))
    for fmt in formats:
        if fmt not in RENDERERS:
            raise RttoolError("unknown report format", format=fmt, known=",".join(ALL_FORMATS))
    root = evidence_root if evidence_root is not None else directory
    existing = frozenset(path for path in report.evidence_paths() if _inside(root, path))
    options = RenderOptions(link_prefix=_link_prefix(directory, root), existing_evidence=existing)
    written: list[Path] = []
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for fmt in formats:
            rendered = RENDERERS[fmt](report, options)
            if fmt == "allure":
                _clear_allure(directory)
            for item in rendered.files:
                _write(directory / item.path, item.content)
                written.append(directory / item.path)
            for copy in rendered.copies:
                source = _inside(root, copy.source)
                if source is not None:
                    target = directory / copy.target
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(source, target)
                    written.append(target)
    except OSError as err:
        raise ReportWriteError(
            "cannot write report",
            path=str(err.filename or directory),
            complaint=err.strerror or str(err),
        ) from err
    return tuple(written)
