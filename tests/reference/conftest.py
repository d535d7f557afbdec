"""Fixtures for the reference runtime's own tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from reference_impl.artifacts import Bounds
from reference_impl.behaviour import Components
from reference_impl.workflow import ToolSpec
from tests.reference._support import Rig

MakeRig = Callable[..., Rig]


@pytest.fixture
def make_rig(tmp_path: Path) -> Iterator[MakeRig]:
    """Build rigs (each on its own database file under ``tmp_path``); closed afterwards."""
    rigs: list[Rig] = []

    def make(
        *tools: ToolSpec,
        components: Components | None = None,
        expose: Mapping[str, bool] | None = None,
        bounds: Bounds | None = None,
    ) -> Rig:
        rig = Rig(
            tmp_path / f"rig{len(rigs)}",
            tools,
            components=components,
            expose=expose,
            bounds=bounds,
        )
        rigs.append(rig)
        return rig

    yield make
    for rig in rigs:
        rig.close()
