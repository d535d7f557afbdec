"""Parse HTML the way a browser tokenizes it and report what would be live markup."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Scan:
    """Elements (tag, attributes) in document order and the text content."""

    elements: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)

    def tags(self, name: str) -> list[dict[str, str]]:
        return [attrs for tag, attrs in self.elements if tag == name]

    def handlers(self) -> list[tuple[str, str]]:
        """Every event-handler attribute (``onerror``, ``onload``...) on any element."""
        return [(tag, key) for tag, attrs in self.elements for key in attrs if key.startswith("on")]

    def attribute_names(self) -> set[str]:
        return {key for _, attrs in self.elements for key in attrs}

    def joined_text(self) -> str:
        return "".join(self.text)


class _Scanner(HTMLParser):
    def __init__(self, scan: Scan) -> None:
        super().__init__(convert_charrefs=True)
        self.scan = scan
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.scan.elements.append((tag, {key: value or "" for key, value in attrs}))
        self._in_script = tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if not self._in_script:
            self.scan.text.append(data)


def scan_html(page: str) -> Scan:
    """Scan ``page``."""
    scan = Scan()
    scanner = _Scanner(scan)
    scanner.feed(page)
    scanner.close()
    return scan
