"""Small modules to mutate, so that the machinery's tests need not enumerate the runtime."""

from __future__ import annotations

LAZY = '''\
from __future__ import annotations


def bound(items: list[int] | None, limit: int = 3) -> int:
    """Count at most ``limit`` items."""
    count = 0
    for item in items or []:
        if item > 0 and count < limit:
            count += 1
    return count


class Box:
    size: int | None = None

    def grow(self, by: int) -> int:
        total = 0
        total = total + by
        total = total + by
        return total
'''

EAGER = """\
def bound(items: list[int] | None, limit: int = 3) -> int:
    return len(items or []) if limit else 0
"""

HANDLER = """\
from __future__ import annotations


def parse(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return -1
"""
