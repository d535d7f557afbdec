"""Values from a trace as the timeline shows them: escaped, on one line, and cut.

Everything a trace holds came from an implementation: each value is shown as JSON (the
implementation's own key order), escaped by the one HTML escaper of the reports, and
cut at a bound with a visible marker that says how much was left out.
"""

from __future__ import annotations

import json

from conformance._escape import html_text

__all__ = ["LONG_CHARS", "VALUE_CHARS", "code", "json_text", "plain"]

#: Characters of one value shown where values sit side by side (a call's arguments).
VALUE_CHARS = 160
#: Characters of one value shown where it stands alone (a held list, a compared value).
LONG_CHARS = 600
# A value is serialised only up to this many characters before it is cut: a huge value
# costs no more than a small one.
_SERIALISED = 64 * 1024


def json_text(value: object) -> str:
    """``value`` as one line of JSON (non-JSON leaves shown as text)."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        text = str(value)
    return text[: _SERIALISED + 1]


def _cut(text: str, limit: int) -> str:
    """``text`` escaped for element content (never an attribute: its quotes stay), cut to
    ``limit`` characters with a marker saying how many more."""
    flat = " ".join(text.split()) if "\n" in text or "\r" in text else text
    if len(flat) <= limit:
        return html_text(flat, quote=False)
    more = len(flat) - limit
    counted = f"{more:,}" if len(flat) <= _SERIALISED else f"over {more:,}"
    shown = html_text(flat[:limit], quote=False)
    return shown + f'<span class="cut">… ({counted} more characters)</span>'


def code(value: object, limit: int = VALUE_CHARS) -> str:
    """``value`` as escaped JSON in a ``<code>`` element, cut to ``limit`` characters."""
    return f"<code>{_cut(json_text(value), limit)}</code>"


def plain(text: str, limit: int = VALUE_CHARS) -> str:
    """``text`` (a label, a message) escaped, on one line, cut to ``limit`` characters."""
    return _cut(text, limit)
