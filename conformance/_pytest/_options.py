"""Every ``--rttool-*`` option, resolved once into :class:`RunOptions`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from adapters.errors import SpecError
from conformance.reproducible import ci_requested

__all__ = ["REFERENCE_SPEC", "RunOptions", "resolve_spec"]

#: How the suite names the bundled reference runtime: an adapter spec, not an import.
REFERENCE_SPEC = "python:reference_impl.harness:create"


def resolve_spec(impl: str, mutant: str | None, variant: str | None = None) -> str:
    """The adapter spec for ``--impl`` (``reference`` is the bundled runtime; ``mutant``
    and ``variant`` name one of its mutants or legal variants)."""
    if impl == "reference":
        if mutant is not None and variant is not None:
            raise SpecError("--mutant and --variant cannot be used together", impl=impl)
        if mutant is not None:
            return f"{REFERENCE_SPEC}?mutant={mutant}"
        return REFERENCE_SPEC if variant is None else f"{REFERENCE_SPEC}?variant={variant}"
    if mutant is not None or variant is not None:
        raise SpecError("--mutant or --variant applies only to the reference runtime", impl=impl)
    if not impl.startswith(("python:", "http://", "https://", "stdio:")):
        raise SpecError(
            "unknown implementation spec; use reference, python:MODULE:ATTR, "
            "http://HOST:PORT or stdio:COMMAND",
            spec=impl,
        )
    return impl


@dataclass(frozen=True)
class RunOptions:
    """A run's options, as resolved from the command line and the environment."""

    impl: str
    spec: str
    mutant: str | None
    only: tuple[str, ...]
    levels: tuple[str, ...]
    report_dir: Path | None
    timeout: float
    examples: int | None
    hunt_seconds: float | None
    seed: int | None
    hunt: bool
    ci: bool
    quiet: bool = False
    gate: tuple[str, ...] = ()
    #: ``(K, N)``: this run is shard K (from 1) of N
    shard: tuple[int, int] | None = None
    #: the hunt's shared example database (``--example-db``)
    example_db: str | None = None
    #: rules, clauses or case ids whose cases run first, in this order (``--first``)
    first: tuple[str, ...] = ()
    #: the session stops at its first failing case (``--exitfirst``): the cases it did
    #: not run are untested, never errors
    exitfirst: bool = False
    #: hold every failure's pointer to the trace it names (the self-test does: a message
    #: that points at nothing would send a vendor looking in the wrong place)
    strict_pointers: bool = False

    @classmethod
    def quiet_reference(
        cls, *, mutant: str | None = None, variant: str | None = None, timeout: float = 30.0
    ) -> RunOptions:
        """Options for driving the reference runtime (or one of its mutants or legal
        variants) outside a pytest session: no report, no hunt, no output."""
        return cls(
            impl="reference",
            spec=resolve_spec("reference", mutant, variant),
            mutant=mutant,
            only=(),
            levels=(),
            report_dir=None,
            timeout=timeout,
            examples=None,
            hunt_seconds=None,
            seed=None,
            hunt=False,
            ci=False,
            quiet=True,
            strict_pointers=True,
        )

    @classmethod
    def from_config(cls, config: pytest.Config) -> RunOptions:
        """Read the options of ``config``."""
        impl = str(config.getoption("rttool_impl"))
        mutant = config.getoption("rttool_mutant")
        report_dir = config.getoption("rttool_report_dir")
        return cls(
            impl=impl,
            spec=resolve_spec(impl, mutant, config.getoption("rttool_variant")),
            mutant=mutant,
            only=tuple(config.getoption("rttool_only")),
            levels=tuple(config.getoption("rttool_level")),
            report_dir=Path(report_dir).resolve() if report_dir else None,
            timeout=float(config.getoption("rttool_timeout")),
            examples=config.getoption("rttool_examples"),
            hunt_seconds=config.getoption("rttool_hunt_seconds"),
            seed=config.getoption("rttool_seed"),
            hunt=not config.getoption("rttool_no_hunt"),
            ci=ci_requested(os.environ),
            quiet=bool(config.getoption("rttool_quiet")),
            gate=tuple(config.getoption("rttool_gate")),
            shard=config.getoption("rttool_shard"),
            example_db=config.getoption("rttool_example_db"),
            first=tuple(config.getoption("rttool_first")),
            exitfirst=(config.getoption("maxfail", default=0) or 0) == 1,
        )
