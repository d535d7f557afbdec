"""The published standings: one :class:`Committed` entry per implementation.

To publish another implementation, add an entry to :data:`COMMITTED` (its position is
its column in the matrix), then run ``rttool publish NAME`` (``make reports`` for all).
"""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from adapters.files import write_file
from conformance.publish._checkout import Checkout
from conformance.publish._guide import GUIDE_HARNESS_FILE, guide_harness_source

__all__ = ["COMMITTED", "Committed", "write_guide_harness"]


@dataclass(frozen=True)
class Committed:
    """One published standing.

    ``impl`` is the ``--impl`` spec, recorded in the report as written (so it names no
    path of the machine that made it); ``prepare`` writes the harness's files into the
    directory the run starts in (the checkout's root when there is none); ``requires``
    names modules the harness imports that an optional extra installs (``install`` says
    how); ``conforms`` says the implementation is expected to meet every rule, so that a
    failing run is an error here.

    ``exact`` says a fresh run makes the committed files byte for byte. A runtime that
    schedules its own work (LangGraph's stream runs ahead of its reader, PydanticAI's
    tool calls run concurrently) can shrink a hunt finding to another counterexample of
    the same invariant from run to run: for it, every verdict and every hand-written
    check's message must match, and the hunt's counterexamples may differ.
    """

    name: str
    impl: str
    prepare: Callable[[Path, Checkout], None] | None = None
    requires: tuple[str, ...] = ()
    install: str = ""
    conforms: bool = False
    exact: bool = True
    #: programs the harness runs as (``node`` for a JavaScript harness), and files of
    #: the checkout its installation makes (its packages), each needed to run it
    programs: tuple[str, ...] = ()
    installed: tuple[str, ...] = ()

    def folder(self, checkout: Checkout) -> Path:
        """``reports/<name>/`` of ``checkout``."""
        return checkout.reports / self.name

    def missing(self, checkout: Checkout | None = None) -> tuple[str, ...]:
        """What the harness needs that is not installed: modules, programs, and (in
        ``checkout``) the files its installation makes."""
        absent = [name for name in self.requires if not _importable(name)]
        absent += [name for name in self.programs if shutil.which(name) is None]
        if checkout is not None:
            absent += [path for path in self.installed if not (checkout.root / path).exists()]
        return tuple(absent)


def _importable(name: str) -> bool:
    """Whether module ``name`` can be imported (a namespace package whose parent is
    missing, such as ``google.adk`` without ``google``, is not)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def write_guide_harness(directory: Path, checkout: Checkout) -> None:
    """Save the adapter guide's toy harness in ``directory``, as a vendor would."""
    source = guide_harness_source(checkout.adapter_guide)
    write_file(directory, GUIDE_HARNESS_FILE, source.encode("utf-8"))


COMMITTED: tuple[Committed, ...] = (
    Committed(name="reference", impl="reference", conforms=True),
    Committed(name="toy", impl="stdio:python toy_harness.py", prepare=write_guide_harness),
    Committed(
        name="langgraph",
        impl="python:harnesses.langgraph:create",
        requires=("langgraph",),
        install="pip install -e '.[langgraph]'",
        exact=False,
    ),
    Committed(
        name="pydantic-ai",
        impl="python:harnesses.pydanticai:create",
        requires=("pydantic_ai",),
        install="pip install -e '.[pydantic-ai]'",
        exact=False,
    ),
    Committed(
        name="adk",
        impl="python:harnesses.adk:create",
        requires=("google.adk",),
        install="pip install -e '.[adk]'",
        exact=False,
    ),
    Committed(
        name="smolagents",
        impl="python:harnesses.smol:create",
        requires=("smolagents",),
        install="pip install -e '.[smolagents]'",
    ),
    Committed(
        name="llamaindex",
        impl="python:harnesses.llamaindex:create",
        requires=("llama_index.core",),
        install="pip install -e '.[llamaindex]'",
        exact=False,
    ),
    Committed(
        name="autogen",
        impl="python:harnesses.autogen:create",
        requires=("autogen_agentchat",),
        install="pip install -e '.[autogen]'",
    ),
    Committed(
        name="openai-agents-js",
        impl="stdio:node harnesses/js/openai-agents/harness.mjs",
        programs=("node",),
        installed=("harnesses/js/openai-agents/node_modules/@openai/agents",),
        install="npm ci --prefix harnesses/js/openai-agents",
        exact=False,
    ),
)
