"""How deep untrusted JSON and YAML may nest: the one limit for everything rttool reads.

Everything that reaches rttool from an implementation (harness replies over every
transport, turn-API bodies) or from a file (rule pages, expectations files,
``standing.json``, replay files), and every body the reference server is sent, may nest
arrays and objects (YAML sequences and mappings) at most :data:`MAX_DEPTH` deep.  A
value nested deeper is refused with :class:`TooDeep`, which names the JSON pointer of
the first container past the limit.  Nothing deeper is ever handed to code that
recurses, so no recursion limit is reached downstream (writing evidence, validating
schemas, judging traces).

:func:`loads` parses JSON text under the limit, refusing what JSON cannot carry
(``NaN``, ``Infinity``, numbers too large to be finite) and, on request, an object that
gives a key twice.  :func:`check_depth` holds a value already in memory (an in-process
harness's reply) to the same limit.  :func:`yaml_document` loads YAML safely under
the limit.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Iterable, Iterator
from typing import Any, cast

from adapters._locate import json_pointer, locate
from adapters.errors import RttoolError

__all__ = [
    "MAX_DEPTH",
    "MAX_EXPANDED",
    "DuplicateKey",
    "TooDeep",
    "TooManyValues",
    "check_depth",
    "json_pointer",
    "loads",
    "yaml_document",
]

#: Arrays and objects (sequences and mappings) may nest at most this deep; the outermost
#: one is at depth 1.  A trace's own frame takes about ten levels.
MAX_DEPTH = 128
#: The most values (each mapping, sequence and scalar, counted as often as aliases
#: repeat it) a YAML document may expand to.
MAX_EXPANDED = 100_000

#: A pointer longer than this is shortened in messages (keys can be long, paths deep).
_POINTER_CHARS = 200


class TooDeep(RttoolError):
    """A value nests arrays and objects deeper than :data:`MAX_DEPTH`.

    ``pointer`` is the JSON pointer of the first container past the limit.
    """

    def __init__(self, pointer: str, **details: object) -> None:
        self.pointer = _cut(pointer or "/")
        self.complaint = f"nested deeper than the limit of {MAX_DEPTH}"
        super().__init__(self.complaint, pointer=self.pointer, **details)


class TooManyValues(TooDeep):
    """A YAML document whose aliases expand it past :data:`MAX_EXPANDED` values (a
    "billion laughs": a few hundred bytes naming one list nine times, nine levels deep).
    Loading shares the aliased values and is cheap; whatever walks the value is not.
    A limit of the document's shape, as depth is: it is refused where depth is.
    """

    def __init__(self, pointer: str, **details: object) -> None:
        super().__init__(pointer, **details)
        self.complaint = f"expands through its aliases past the limit of {MAX_EXPANDED} values"
        self.args = (self.complaint,)


class DuplicateKey(RttoolError):
    """An object gives the same key twice; ``pointer`` names the second one."""

    def __init__(self, pointer: str, key: str, **details: object) -> None:
        self.pointer = _cut(pointer or "/")
        self.key = key[:100]
        self.complaint = f"key {self.key!r} given twice in one object"
        super().__init__(self.complaint, pointer=self.pointer, **details)


def _cut(pointer: str) -> str:
    """A pointer short enough for one line: a long one keeps its start and its end."""
    if len(pointer) <= _POINTER_CHARS:
        return pointer
    levels = pointer.count("/")
    return f"{pointer[:100]}…{pointer[-60:]} ({levels} levels)"


_NESTED = (dict, list, tuple)


def check_depth(value: object) -> None:
    """Raise :class:`TooDeep` when ``value`` (dicts, lists and tuples, as JSON parses or
    a Python harness builds them) nests deeper than :data:`MAX_DEPTH`.

    Measures level by level, without recursion, so its cost is one test per value; only
    a value found too deep is walked again, in document order, for the pointer to the
    first place the limit is crossed.  A value that contains itself is refused the same
    way.
    """
    level: list[object] = [value] if isinstance(value, _NESTED) else []
    depth = 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            raise TooDeep(_first_too_deep(value))
        below: list[object] = []
        for container in level:
            items: Iterable[object] = (
                container.values()
                if isinstance(container, dict)
                else cast(Iterable[object], container)
            )
            below += [item for item in items if isinstance(item, _NESTED)]
        level = below


def _children(value: object) -> Iterator[tuple[object, object]]:
    if isinstance(value, dict):
        return iter(value.items())
    assert isinstance(value, list | tuple)
    return enumerate(value)


def _first_too_deep(value: object) -> str:
    """The pointer of the first container past the limit, in document order."""
    path: list[object] = []
    stack = [_children(value)]
    while stack:
        for key, child in stack[-1]:
            if isinstance(child, _NESTED):
                if len(stack) >= MAX_DEPTH:
                    return json_pointer([*path, key])
                path.append(key)
                stack.append(_children(child))
                break
        else:
            stack.pop()
            if path:
                path.pop()
    return "/"


class _Duplicate(Exception):
    """Raised inside the parser: an object gave a key twice (located afterwards)."""


def _unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
    made = dict(pairs)
    if len(made) != len(pairs):
        raise _Duplicate
    return made


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"number {text[:40]} is too large to be finite")
    return number


def loads(data: str | bytes, *, unique_keys: bool = False) -> object:
    """Parse JSON ``data`` and hold it to :data:`MAX_DEPTH`.

    Raises ``ValueError`` (``json.JSONDecodeError`` for broken syntax, a plain
    ``ValueError`` for ``NaN``, ``Infinity``, a number too large to be finite or
    bytes that are not UTF-8), :class:`TooDeep`, or, with ``unique_keys``,
    :class:`DuplicateKey`.
    """
    try:
        value = json.loads(
            data,
            parse_constant=_no_constant,
            parse_float=_finite,
            object_pairs_hook=_unique if unique_keys else None,
        )
    except RecursionError:
        # The parser gave up far below anything useful: find where our limit was crossed.
        found = locate(_text(data), deeper_than=MAX_DEPTH)
        raise TooDeep(found[0] if found else "/") from None
    except _Duplicate:
        found = locate(_text(data), duplicates=True)
        raise DuplicateKey(*(found or ("/", ""))) from None
    check_depth(value)
    return value


def _text(data: str | bytes) -> str:
    return data if isinstance(data, str) else data.decode("utf-8", errors="replace")


def yaml_document(text: str) -> tuple[Any, object]:
    """Load the one YAML document in ``text`` safely under the nesting limit: its node
    tree (``None`` for an empty document; it gives every line) and its value, built
    from that tree (the text is read once).

    Raises ``yaml.YAMLError`` for what is not YAML (or what the safe loader refuses)
    and :class:`TooDeep` (with ``line``) for a mapping or sequence past the limit,
    directly or through an alias.
    """
    loader = _loader()(text)
    try:
        node = loader.get_single_node()
        return node, (None if node is None else loader.construct_document(node))
    finally:
        loader.dispose()


@functools.cache
def _loader() -> type[Any]:
    """The safe loader, counting depth where nodes are composed (built on first use, so
    importing this module does not import PyYAML)."""
    import yaml

    return _depth_loader(yaml.SafeLoader)


def _depth_loader(base: type[Any]) -> type[Any]:
    import yaml

    class _Loader(base):  # type: ignore[misc]
        """Composes nodes while counting how deep each one sits."""

        def __init__(self, stream: str | bytes) -> None:
            super().__init__(stream)
            self._path: list[object] = []  # the key or index of every open collection
            self._heights: dict[int, int] = {}  # id(node) -> nesting height
            self._sizes: dict[int, int] = {}  # id(node) -> values it expands to
            self._aliased = False  # a document without aliases is bounded by its size

        def compose_node(self, parent: Any, index: Any) -> Any:
            key = index.value if isinstance(index, yaml.ScalarNode) else index
            if self.check_event(yaml.AliasEvent):
                alias: Any = super().compose_node(parent, index)
                self._aliased = True
                if len(self._path) + self._heights.get(id(alias), 0) > MAX_DEPTH:
                    self._refuse([*self._path, key], alias)
                return alias
            opens = self.check_event(yaml.SequenceStartEvent, yaml.MappingStartEvent)
            if not opens:
                return super().compose_node(parent, index)
            if len(self._path) >= MAX_DEPTH:
                untyped: Any = self
                self._refuse([*self._path, key], untyped.peek_event())
            self._path.append(key)
            try:
                node: Any = super().compose_node(parent, index)
            finally:
                self._path.pop()
            items = node.value
            if isinstance(node, yaml.MappingNode):
                items = itertools.chain.from_iterable(node.value)
            items = list(items)
            self._heights[id(node)] = 1 + max(
                (self._heights.get(id(item), 0) for item in items), default=0
            )
            # An alias is the very node it names: its whole expansion counts again.
            size = 1 + sum(self._sizes.get(id(item), 1) for item in items)
            if size > MAX_EXPANDED and self._aliased:
                raise TooManyValues(
                    json_pointer([*self._path, key][1:]), line=node.start_mark.line + 1
                )
            self._sizes[id(node)] = size
            return node

        def _refuse(self, path: list[object], where: Any) -> None:
            mark = getattr(where, "start_mark", None)
            line = mark.line + 1 if mark is not None else 0
            raise TooDeep(json_pointer(path[1:]), line=line)

    return _Loader
