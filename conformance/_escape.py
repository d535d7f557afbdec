"""Escaping shared by the report renderers, the matrix and every terminal line.

Every string in a report or a terminal line may have come from an implementation, so
none of it is ever trusted as markup, as a link, or as a path.  A link is made only to an
``http(s)`` URL or to an evidence path that stays inside the report directory.
"""

from __future__ import annotations

import html
import re
from urllib.parse import quote, urlsplit

__all__ = [
    "BIDI_CONTROLS",
    "code_spans",
    "evidence_href",
    "html_text",
    "http_url",
    "markdown",
    "printable",
    "safe_relative_path",
    "xml_text",
]

#: The bidirectional controls (ALM, LRM, RLM, the embeddings and overrides, the isolates):
#: invisible, they reorder what follows them, so a name can read as another (U+202E).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# Characters XML 1.0 cannot carry at all, even escaped (and the bidirectional controls,
# which it can carry but a reader must see).
_XML_ILLEGAL = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff{BIDI_CONTROLS}]")
# Lone surrogates too (a JSON ``\ud800`` decodes to one): no encoder can write them, so
# a terminal line holding one would fail to be written at all.
_CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{BIDI_CONTROLS}\ud800-\udfff]")
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")
# Markdown punctuation that can start inline syntax anywhere in a line: escapes, code
# spans, emphasis, links and images (via the brackets), table cells, strikethrough and
# maths.  Parentheses and '!' only matter next to a bracket, which is escaped.
_MD_PUNCTUATION = re.compile(r"([\\`*_\[\]|~$])")
# What could open a block (heading, list, quote, thematic break) at the start of a line.
_MD_LEADING = re.compile(r"^([#+\-=]|[0-9]+(?=[.)]))")


def _hex(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if _BIDI.match(match.group()) else "\ufffd"


def xml_text(text: str) -> str:
    """``text`` with characters XML cannot hold shown as ``\\xNN``."""
    return _XML_ILLEGAL.sub(_hex, text)


def html_text(text: str, *, quote: bool = True) -> str:
    """``text`` safe in HTML and SVG element content and in quoted attribute values
    alike: markup characters and quotes as entities, what XML cannot hold as ``\\xNN``,
    and lone surrogates (which no UTF-8 page can carry) as ``\\udNNN`` escapes.  With
    ``quote`` false the quotes stay as they are: safe in element content only (where
    JSON's many quotes would otherwise cost six characters each)."""
    shown = html.escape(xml_text(text), quote=quote)
    return shown.encode("utf-8", errors="backslashreplace").decode("utf-8")


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def code_spans(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into ``(part, is_code)`` pieces at its single-backtick code spans (the
    backticks dropped), for a renderer to escape each piece and mark the code."""
    parts = _CODE_SPAN.split(text)
    return [(part, index % 2 == 1) for index, part in enumerate(parts)]


def printable(text: str) -> str:
    """``text`` safe for a terminal: control characters shown as ``\\xNN``, and the
    bidirectional controls as ``\\uNNNN``."""
    return _CONTROL.sub(_hex, text)


def markdown(text: str, *, line_start: bool = False) -> str:
    """``text`` as inert Markdown: shown as written, never as markup.

    HTML-significant characters become entities (so no tag, comment or entity can
    form) and inline Markdown punctuation is backslash-escaped (so no emphasis, code
    span, link, image or table cell boundary can form).  Line breaks become spaces.
    With ``line_start`` the text may begin a line, so block markers are escaped too.
    """
    text = " ".join(xml_text(text).splitlines())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_PUNCTUATION.sub(r"\\\1", text)
    if line_start:
        text = _MD_LEADING.sub(
            lambda match: (
                "\\" + match.group() if not match.group().isdigit() else match.group() + "\\"
            ),
            text,
        )
    return text


def http_url(text: str | None) -> str | None:
    """``text`` if it is an absolute ``http``/``https`` URL safe to link to, else ``None``."""
    if not text or _CONTROL.search(text) or any(char.isspace() for char in text):
        return None
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    # Percent-encode quotes, parentheses, angle brackets and backticks so the URL can
    # sit in an HTML attribute or a Markdown link destination as it is.
    return quote(text, safe="/:?#[]@!$&*+,;=%-._~")


def safe_relative_path(path: str | None) -> bool:
    """Whether ``path`` is a plain relative path that stays inside its directory.

    Refused: empty, absolute, drive or scheme (any ``:``), backslashes, control
    characters, and ``.``/``..``/empty segments.
    """
    if not path or path.startswith("/") or ":" in path or "\\" in path:
        return False
    if _CONTROL.search(path):
        return False
    return all(segment not in ("", ".", "..") for segment in path.split("/"))


def evidence_href(path: str | None, prefix: str = "") -> str | None:
    """A relative URL for an evidence ``path`` (``None`` if the path is not safe).

    ``prefix`` leads from the rendered file's directory to the report directory.
    """
    if path is None or not safe_relative_path(path):
        return None
    target = f"{prefix.rstrip('/')}/{path}" if prefix and prefix != "." else path
    # Everything but letters, digits, '/' and '-._~' is percent-encoded, so the result
    # has no quote, bracket, parenthesis, space or scheme.
    return quote(target, safe="/")
