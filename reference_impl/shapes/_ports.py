"""A tool node that emits fewer ports than the rules name: the pass record without them."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from reference_impl.passes import PassResult

__all__ = ["pass_without"]


def _strip(record: Mapping[str, object], names: tuple[str, ...]) -> dict[str, object]:
    """``record`` with the ports ``names`` gone from ``ports`` and ``exposed``."""
    stripped = dict(record)
    for key in ("ports", "exposed"):
        value = record.get(key)
        if isinstance(value, Mapping):
            stripped[key] = {port: v for port, v in value.items() if port not in names}
    return stripped


def pass_without(names: tuple[str, ...], run: Callable[[], PassResult]) -> PassResult:
    """Run a pass (``run``) and report it without the ports ``names``, also when the run
    is cut off during the pass (the partial pass the cut carries)."""
    try:
        done = run()
    except BaseException as cut:
        partial = getattr(cut, "partial_pass", None)
        if isinstance(partial, Mapping):
            cut.partial_pass = _strip(partial, names)  # type: ignore[attr-defined]
        raise
    return PassResult(
        _strip(done.record, names), done.tool_messages, done.artifacts, done.paused_on
    )
