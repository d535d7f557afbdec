"""Every option of a run, declared once: the table both ``rttool run``'s arguments and the
pytest plugin's ``--rttool-*`` options are made from, and :class:`RunOptions`, what they
resolve to.  Kept import-light: the pytest plugin adds its options from it in every
pytest session.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Literal

from conformance._arguments import example_db, positive_float, positive_int, shard, worker_count
from conformance.reproducible import ci_requested

__all__ = [
    "LEVEL_CHOICES",
    "REFERENCE_SPEC",
    "RUN_OPTIONS",
    "Option",
    "RunOptions",
    "add_pytest_options",
    "add_run_arguments",
    "resolve_spec",
]

#: How the suite names the bundled reference runtime: an adapter spec, not an import.
REFERENCE_SPEC = "python:reference_impl.harness:create"
LEVEL_CHOICES = ("core", "extended", "optional")

Kind = Literal["value", "flag", "list"]
#: ``rttool run``'s argument groups, in the order ``--help`` shows them
Group = Literal["implementation", "selection", "hunt", "distributed", "output"]


@dataclass(frozen=True)
class Option:
    """One run option: ``name`` is its field of :class:`RunOptions`; ``cli`` its flags on
    ``rttool run`` (none: the command line does not offer it), ``plugin`` its flag under
    plain pytest (``None``: the plugin does not offer it).  ``kind`` says whether it takes
    a value, is a switch, or may be repeated; ``parse`` turns a value's text into the
    value (and refuses a bad one with a line naming the option)."""

    name: str
    help: str
    group: Group
    cli: tuple[str, ...] = ()
    plugin: str | None = None
    kind: Kind = "value"
    parse: Callable[[str], object] | None = None
    metavar: str | None = None
    choices: tuple[str, ...] | None = None
    #: its value where it is not given (a list option's is empty)
    default: object = None
    #: its value on the command line where it is not given, where that differs
    cli_default: object = None

    @property
    def plugin_dest(self) -> str:
        """The attribute pytest keeps the plugin's value under."""
        return f"rttool_{self.name}"


RUN_OPTIONS: tuple[Option, ...] = (
    Option(
        "impl",
        "the implementation: reference (the bundled runtime), python:MODULE:ATTR, "
        "http://HOST:PORT or stdio:COMMAND",
        "implementation",
        cli=("--impl",),
        plugin="--rttool-impl",
        metavar="SPEC",
        cli_default="reference",
    ),
    Option(
        "mutant",
        "with the reference runtime: run a named mutant of it",
        "implementation",
        cli=("--mutant",),
        plugin="--rttool-mutant",
        metavar="NAME",
    ),
    Option(
        "variant",
        "with the reference runtime: run a named legal variant of it (rttool selftest --list)",
        "implementation",
        cli=("--variant",),
        plugin="--rttool-variant",
        metavar="NAME",
    ),
    Option(
        "report_dir",
        "where the reports and the evidence of failures go (rttool run's default: "
        "reports/<implementation>/)",
        "implementation",
        cli=("--report-dir",),
        plugin="--rttool-report-dir",
        metavar="DIR",
        parse=Path,
    ),
    Option(
        "gate",
        "levels whose failures fail the run (default: the levels the implementation "
        "claims); repeatable",
        "selection",
        cli=("--level",),
        plugin="--rttool-gate",
        kind="list",
        metavar="LEVEL",
        choices=LEVEL_CHOICES,
    ),
    Option(
        "levels",
        "run only the rules of these levels; repeatable",
        "selection",
        plugin="--rttool-level",
        kind="list",
        metavar="LEVEL",
        choices=LEVEL_CHOICES,
    ),
    Option(
        "expectations",
        "YAML file of expected failures",
        "selection",
        cli=("--expectations",),
        metavar="FILE",
        parse=Path,
    ),
    Option(
        "only",
        "run only these rules or clauses; repeatable",
        "selection",
        cli=("--only",),
        plugin="--rttool-only",
        kind="list",
        metavar="RULE[#cN]",
    ),
    Option(
        "first",
        "run the cases of these rules, clauses or case ids first, in the order given; "
        "the rest follow, the hunt last; repeatable",
        "selection",
        cli=("--first",),
        plugin="--rttool-first",
        kind="list",
        metavar="ID",
    ),
    Option(
        "exitfirst",
        "stop at the first failing case: the cases not run are reported untested, so the "
        "standing says only that something fails (what scoring a mutant needs)",
        "selection",
        cli=("-x", "--exitfirst"),
        kind="flag",
    ),
    Option(
        "workers",
        "run in N parallel processes",
        "selection",
        cli=("-n", "--workers"),
        parse=worker_count,
        metavar="N",
        default=1,
    ),
    Option(
        "examples",
        "the least number of examples the hunt generates, a floor and not a ceiling: the "
        "search goes on until its time budget is spent (default 150)",
        "hunt",
        cli=("--examples",),
        plugin="--rttool-examples",
        parse=positive_int,
        metavar="N",
    ),
    Option(
        "hunt_seconds",
        "how long the hunt searches (one search shared by every invariant, spent in full; "
        "an implementation too slow to reach the example floor in time gets up to four "
        "times as long; default 20)",
        "hunt",
        cli=("--hunt-seconds",),
        plugin="--rttool-hunt-seconds",
        parse=positive_float,
        metavar="S",
    ),
    Option(
        "seed",
        "seed for the property-based hunt",
        "hunt",
        cli=("--seed",),
        plugin="--rttool-seed",
        parse=int,
        metavar="N",
    ),
    Option(
        "no_hunt",
        "skip the property-based hunt",
        "hunt",
        cli=("--no-hunt",),
        plugin="--rttool-no-hunt",
        kind="flag",
    ),
    Option(
        "shard",
        "run shard K of N: a share of the rules and of the hunt's examples (its own "
        "seeds); rttool report merge joins the N standings into one",
        "distributed",
        cli=("--shard",),
        plugin="--rttool-shard",
        parse=shard,
        metavar="K/N",
    ),
    Option(
        "example_db",
        "share the hunt's saved examples: dir:PATH, redis://HOST:PORT/DB, or "
        "github-artifact:OWNER/REPO (read-only); each implementation's counterexamples are "
        "replayed first by every run of it, and the hunt is then not reproducible",
        "distributed",
        cli=("--example-db",),
        plugin="--rttool-example-db",
        parse=example_db,
        metavar="URL",
    ),
    Option(
        "timeout",
        "per-request timeout for the implementation (default 30)",
        "output",
        cli=("--timeout",),
        plugin="--rttool-timeout",
        parse=positive_float,
        metavar="S",
        default=30.0,
    ),
    Option(
        "quiet",
        "print only the summary table (under pytest: no line per rule as it finishes)",
        "output",
        cli=("--quiet", "-q"),
        plugin="--rttool-quiet",
        kind="flag",
    ),
    Option(
        "reproducible",
        "write standing.json and STANDING.md without the start time and durations, so "
        "that they change only when a standing does (for reports kept in a repository; "
        "the other formats keep the timings)",
        "output",
        cli=("--reproducible",),
        kind="flag",
    ),
)


def _keywords(option: Option, *, cli: bool) -> dict[str, object]:
    """What ``add_argument`` is given for ``option``."""
    default = option.cli_default if cli and option.cli_default is not None else option.default
    if option.kind == "flag":
        return {"action": "store_true", "default": False, "help": option.help}
    keywords: dict[str, object] = {"metavar": option.metavar, "help": option.help}
    if option.kind == "list":
        keywords |= {"action": "append", "default": []}
    else:
        keywords["default"] = default
    if option.parse is not None:
        keywords["type"] = option.parse
    if option.choices is not None:
        keywords["choices"] = option.choices
    return keywords


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    """``rttool run``'s arguments, in groups, from :data:`RUN_OPTIONS`."""
    groups: dict[str, argparse._ArgumentGroup] = {}
    for option in RUN_OPTIONS:
        if not option.cli:
            continue
        if option.group not in groups:
            groups[option.group] = parser.add_argument_group(option.group)
        keywords = _keywords(option, cli=True)
        groups[option.group].add_argument(*option.cli, dest=option.name, **keywords)  # type: ignore[arg-type]


def add_pytest_options(add: Callable[..., object]) -> None:
    """The plugin's ``--rttool-*`` options, from :data:`RUN_OPTIONS`; ``add`` is the
    ``addoption`` of pytest's option group."""
    for option in RUN_OPTIONS:
        if option.plugin is not None:
            add(option.plugin, dest=option.plugin_dest, **_keywords(option, cli=False))


def resolve_spec(impl: str, mutant: str | None, variant: str | None = None) -> str:
    """The adapter spec for ``--impl`` (``reference`` is the bundled runtime; ``mutant``
    and ``variant`` name one of its mutants or legal variants); raises
    :class:`adapters.errors.SpecError` for one that names nothing."""
    from adapters.errors import SpecError  # here: the option table stays import-light

    if impl == "reference":
        for flag, name in (("mutant", mutant), ("variant", variant)):
            if name is not None and not name.strip():  # an empty name is none of them
                raise SpecError(f"no such {flag}: --{flag} names none", name=name)
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
    """A run's options, as resolved from the command line (or pytest's) and the
    environment; every field but the derived ones is an option of :data:`RUN_OPTIONS`."""

    impl: str = "reference"
    mutant: str | None = None
    variant: str | None = None
    report_dir: Path | None = None
    #: the levels whose failures count against the implementation (empty: those it claims)
    gate: tuple[str, ...] = ()
    #: run only the rules of these levels (empty: all)
    levels: tuple[str, ...] = ()
    expectations: Path | None = None
    only: tuple[str, ...] = ()
    #: rules, clauses or case ids whose cases run first, in this order
    first: tuple[str, ...] = ()
    #: the run stops at its first failing case: the cases it did not run are untested
    exitfirst: bool = False
    workers: int = 1
    examples: int | None = None
    hunt_seconds: float | None = None
    seed: int | None = None
    no_hunt: bool = False
    #: ``(K, N)``: this run is shard K (from 1) of N
    shard: tuple[int, int] | None = None
    #: the hunt's shared example database
    example_db: str | None = None
    timeout: float = 30.0
    quiet: bool = False
    reproducible: bool = False
    # Derived, not options:
    #: the adapter spec ``impl``, ``mutant`` and ``variant`` resolve to
    spec: str = field(default=REFERENCE_SPEC)
    #: run in CI (``CI=true``): the hunt judges a fixed, seeded count of examples
    ci: bool = False
    #: hold every failure's pointer to the trace it names (the self-test does: a message
    #: that points at nothing would send a vendor looking in the wrong place)
    strict_pointers: bool = False

    @property
    def hunt(self) -> bool:
        """Whether the property-based hunt runs."""
        return not self.no_hunt

    @classmethod
    def of(
        cls, values: Mapping[str, object], environ: Mapping[str, str] = os.environ
    ) -> RunOptions:
        """The options ``values`` (option name -> value, as parsed) give, resolved: lists
        become tuples, the report directory absolute, the spec resolved (raises
        :class:`SpecError` for one that names nothing), CI read from ``environ``."""
        known = {one.name for one in fields(cls)}
        given = {name: value for name, value in values.items() if name in known}
        for name, value in given.items():
            if isinstance(value, list):
                given[name] = tuple(value)
        if isinstance(given.get("report_dir"), Path):
            given["report_dir"] = Path(str(given["report_dir"])).resolve()
        made = cls(**given)  # type: ignore[arg-type]
        spec = resolve_spec(made.impl, made.mutant, made.variant)
        from dataclasses import replace

        return replace(made, spec=spec, ci=ci_requested(environ))

    @classmethod
    def from_arguments(cls, args: argparse.Namespace) -> RunOptions:
        """The options of ``rttool run``'s parsed arguments."""
        return cls.of({one.name: getattr(args, one.name) for one in RUN_OPTIONS if one.cli})

    @classmethod
    def quiet_reference(
        cls, *, mutant: str | None = None, variant: str | None = None, timeout: float = 30.0
    ) -> RunOptions:
        """Options for driving the reference runtime (or one of its mutants or legal
        variants) outside a run: no report, no hunt, no output, every pointer held to
        its trace."""
        return cls(
            mutant=mutant,
            variant=variant,
            spec=resolve_spec("reference", mutant, variant),
            timeout=timeout,
            no_hunt=True,
            quiet=True,
            strict_pointers=True,
        )
