"""Rendering every format and writing the results: the only I/O of the report layer.

Renderers are pure functions of the model (and of :class:`RenderOptions`, which the
writer fills in by looking at the evidence directory, and for ``report.html`` by reading
the evidence of failing and erring checks once, bounded: ``_drawn``).  Files are written atomically,
through fresh temporary files, and never through a symbolic link (a link where a
directory such as ``allure-results/`` belongs is replaced by a real directory);
evidence is copied only from inside the evidence root.  Of what an earlier rendering
left in ``allure-results/``, only rttool's own results and their attachments are
removed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType

from adapters.errors import RttoolError
from adapters.files import real_directory, write_file
from adapters.limits import TooDeep, loads
from conformance._escape import safe_relative_path
from conformance.report._allure import render_allure
from conformance.report._badge import render_badges
from conformance.report._drawn import draw_evidence
from conformance.report._earl import render_earl
from conformance.report._errors import ReportWriteError
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

_ALLURE = "allure-results"
# A result file larger than this is not one rttool wrote (its messages are bounded).
_ALLURE_RESULT_BYTES = 4 * 1024 * 1024


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


def _rttool_result(path: Path) -> list[str] | None:
    """The attachments of an Allure result rttool wrote (``None``: not rttool's)."""
    if path.is_symlink() or not path.is_file() or path.stat().st_size > _ALLURE_RESULT_BYTES:
        return None
    try:
        data = loads(path.read_bytes())
    except (OSError, ValueError, TooDeep):
        return None
    if not isinstance(data, dict):
        return None
    labels = data.get("labels")
    ours = isinstance(labels, list) and {"name": "framework", "value": "rttool"} in labels
    if not ours:
        return None
    attachments = data.get("attachments")
    sources = [item.get("source") for item in attachments or () if isinstance(item, dict)]
    return [source for source in sources if isinstance(source, str)]


def _clear_allure(directory: Path) -> None:
    """Remove the results an earlier rendering by rttool left (and their attachments),
    so the results of two runs never mix; nothing another tool wrote is touched."""
    results = real_directory(directory, _ALLURE)
    for item in results.iterdir():
        if not item.name.endswith("-result.json"):
            continue
        attachments = _rttool_result(item)
        if attachments is None:
            continue
        for source in attachments:
            attached = results / source
            if "/" not in source and "-attachment." in source and not attached.is_symlink():
                attached.unlink(missing_ok=True)
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
    # The timelines of report.html draw the evidence: read once here, never by a renderer.
    drawn = draw_evidence(report, lambda path: _inside(root, path)) if "html" in formats else {}
    options = RenderOptions(
        link_prefix=_link_prefix(directory, root), existing_evidence=existing, drawn=drawn
    )
    written: list[Path] = []
    try:
        real_directory(directory)  # a file there is "not a directory", not "File exists"
        for fmt in formats:
            rendered = RENDERERS[fmt](report, options)
            if fmt == "allure":
                _clear_allure(directory)
            for item in rendered.files:
                written.append(write_file(directory, item.path, item.content))
            for copy in rendered.copies:
                source = _inside(root, copy.source)
                if source is not None:
                    written.append(write_file(directory, copy.target, source.read_bytes()))
    except OSError as err:
        raise ReportWriteError(
            "cannot write report",
            path=str(err.filename or directory),
            complaint=err.strerror or str(err),
        ) from err
    return tuple(written)
