"""Badges: a flat shields-style ``badge.svg`` and a shields.io endpoint ``badge.json``.

The count is rules conforming / rules applicable for one family.  ``badge.svg`` and
``badge.json`` are always the RT-TOOL family (``n/a`` if the report has none); every
other family ``F`` in the report gets ``badge-F.svg`` and ``badge-F.json`` (for the
durable-resume rules: ``badge-DR.svg``).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from types import MappingProxyType

from conformance._escape import xml_text
from conformance.report._output import OutputFile, Rendered, RenderOptions
from conformance.report._standing import FamilyTally, StandingReport

__all__ = ["MAIN_FAMILY", "badge_color", "badge_json", "badge_svg", "render_badges"]

MAIN_FAMILY = "RT-TOOL"

# shields.io's named colours and the hex values its flat style draws them with.
_COLOURS = MappingProxyType(
    {
        "brightgreen": "#4c1",
        "green": "#97ca00",
        "yellowgreen": "#a4a61d",
        "yellow": "#dfb317",
        "orange": "#fe7d37",
        "red": "#e05d44",
        "lightgrey": "#9f9f9f",
    }
)
# Approximate advance widths of Verdana at 11px, the face shields badges are drawn in.
_NARROW = frozenset("fijlrtI!.,:;'|/()[] -")
_WIDE = frozenset("mwMW@%")


def badge_color(tally: FamilyTally) -> str:
    """The shields colour name for a tally: green when everything applicable conforms."""
    ratio = tally.ratio
    if ratio is None:
        return "lightgrey"
    for threshold, colour in (
        (1.0, "brightgreen"),
        (0.9, "green"),
        (0.75, "yellowgreen"),
        (0.5, "yellow"),
        (0.25, "orange"),
    ):
        if ratio >= threshold:
            return colour
    return "red"


def _text_width(text: str) -> int:
    width = 0.0
    for char in text:
        width += 4.0 if char in _NARROW else 10.0 if char in _WIDE else 7.0
    return round(width)


def badge_json(tally: FamilyTally) -> bytes:
    """The shields.io endpoint JSON for ``tally``."""
    data = {
        "schemaVersion": 1,
        "label": tally.family,
        "message": tally.message,
        "color": badge_color(tally),
    }
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _add(parent: ET.Element, tag: str, **attributes: str) -> ET.Element:
    return ET.SubElement(parent, tag, attributes)


def badge_svg(tally: FamilyTally) -> bytes:
    """A flat badge ``FAMILY | conforming/applicable`` for ``tally``."""
    label, message = xml_text(tally.family), xml_text(tally.message)
    left, right = _text_width(label) + 10, _text_width(message) + 10
    total = left + right
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(total),
            "height": "20",
            "role": "img",
            "aria-label": f"{label}: {message}",
        },
    )
    _add(svg, "title").text = f"{label}: {message}"
    # Ids carry the family so that two badges inlined in one page do not share them.
    key = re.sub(r"[^A-Za-z0-9_-]", "_", tally.family)
    gradient = _add(svg, "linearGradient", id=f"shine-{key}", x2="0", y2="100%")
    _add(gradient, "stop", offset="0", **{"stop-color": "#bbb", "stop-opacity": ".1"})
    _add(gradient, "stop", offset="1", **{"stop-opacity": ".1"})
    clip = _add(svg, "clipPath", id=f"round-{key}")
    _add(clip, "rect", width=str(total), height="20", rx="3", fill="#fff")
    shapes = _add(svg, "g", **{"clip-path": f"url(#round-{key})"})
    _add(shapes, "rect", width=str(left), height="20", fill="#555")
    _add(
        shapes,
        "rect",
        x=str(left),
        width=str(right),
        height="20",
        fill=_COLOURS[badge_color(tally)],
    )
    _add(shapes, "rect", width=str(total), height="20", fill=f"url(#shine-{key})")
    texts = _add(
        svg,
        "g",
        fill="#fff",
        **{
            "text-anchor": "middle",
            "font-size": "11",
            "font-family": "Verdana,Geneva,DejaVu Sans,sans-serif",
        },
    )
    for centre, text in ((left / 2, label), (left + right / 2, message)):
        shadow = _add(
            texts, "text", x=f"{centre:g}", y="15", fill="#010101", **{"fill-opacity": ".3"}
        )
        shadow.text = text
        _add(texts, "text", x=f"{centre:g}", y="14").text = text
    body: bytes = ET.tostring(svg, encoding="unicode").encode("utf-8")
    return body + b"\n"


def _file_stem(family: str) -> str:
    return "badge" if family == MAIN_FAMILY else "badge-" + re.sub(r"[^A-Za-z0-9_-]", "_", family)


def render_badges(report: StandingReport, options: RenderOptions) -> Rendered:
    """``badge.svg``/``badge.json`` for RT-TOOL and ``badge-F.*`` for every other family."""
    del options
    families = [MAIN_FAMILY, *(family for family in report.families if family != MAIN_FAMILY)]
    files: list[OutputFile] = []
    taken: set[str] = set()
    for family in families:
        tally = report.tally(family)
        stem = _file_stem(family)
        while stem in taken:  # two family names that sanitise alike
            stem += "_"
        taken.add(stem)
        files.append(OutputFile(path=f"{stem}.svg", content=badge_svg(tally)))
        files.append(OutputFile(path=f"{stem}.json", content=badge_json(tally)))
    return Rendered(files=tuple(files))
