"""Who was checked, by which suite, and how the run was made."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from types import MappingProxyType

from adapters.handshake import Capabilities, Handshake, TurnStates
from conformance.report._model import CheckResult
from conformance.report._values import LEVELS, Level, bad, choice, normalise_strings, seconds

__all__ = [
    "IMPLEMENTATION_LIMITS",
    "HuntSummary",
    "ImplementationInfo",
    "RunInfo",
    "ShardHunt",
    "ShardInfo",
    "ShardOptions",
    "SuiteInfo",
    "capability_names",
]

#: The longest name, version, homepage and spec a report carries (in characters): the
#: harness chooses them, and every report repeats them, some once per check.  Longer
#: ones are cut (ending in "…"); ``standing.json`` refuses longer ones.
IMPLEMENTATION_LIMITS = MappingProxyType(
    {"name": 100, "version": 100, "homepage": 2000, "spec": 1000}
)


def _capped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def capability_names(capabilities: Capabilities) -> tuple[str, ...]:
    """What a harness offers, named as ``adapters.capabilities`` names needs: ``restart``
    for a flag that is on, ``interrupt_points:before_tool`` for each listed value."""
    names: list[str] = []
    for item in fields(capabilities):
        value = getattr(capabilities, item.name)
        if value is True:
            names.append(item.name)
        elif isinstance(value, tuple):
            names += [f"{item.name}:{entry}" for entry in value]
    return tuple(names)


@dataclass(frozen=True, kw_only=True)
class ImplementationInfo:
    """The implementation under test, as its harness introduced itself.

    ``spec`` is how it was named to rttool (``reference``, ``http://...``);
    ``capabilities`` names what its harness offers (``restart``,
    ``interrupt_points:before_tool``); ``turn_states`` the status words it declared for
    a state of a turn where they are not the protocol's own (``paused: waiting,
    on_hold``), since the checks judge a turn by the state its word is declared to mean.
    """

    name: str
    version: str
    homepage: str | None = None
    spec: str = ""
    profiles: tuple[str, ...] = ()
    capabilities: tuple[str, ...] = ()
    turn_states: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        normalise_strings(self)
        if not self.name:
            raise bad("an implementation needs a name", field="name")
        for field_name, limit in IMPLEMENTATION_LIMITS.items():
            value = getattr(self, field_name)
            if isinstance(value, str) and len(value) > limit:
                object.__setattr__(self, field_name, _capped(value, limit))

    @classmethod
    def from_handshake(cls, handshake: Handshake, *, spec: str) -> ImplementationInfo:
        """The implementation as its harness's ``handshake`` describes it."""
        implementation = handshake.implementation
        return cls(
            name=implementation.name,
            version=implementation.version,
            homepage=implementation.homepage,
            spec=spec,
            profiles=tuple(handshake.profiles),
            capabilities=capability_names(handshake.capabilities),
            turn_states=declared_turn_states(handshake.turn_states),
        )


def declared_turn_states(declared: TurnStates) -> tuple[str, ...]:
    """Each state whose words differ from the protocol's (``state: word, word``)."""
    default = TurnStates()
    return tuple(
        f"{state}: {', '.join(getattr(declared, state))}"
        for state in ("running", "resuming", "paused", "stopped", "completed", "failed")
        if getattr(declared, state) != getattr(default, state)
    )


@dataclass(frozen=True, kw_only=True)
class SuiteInfo:
    """The suite that produced the report."""

    name: str = "rttool"
    version: str

    def __post_init__(self) -> None:
        normalise_strings(self)


@dataclass(frozen=True, kw_only=True)
class ShardHunt:
    """One hunt invariant as a shard judged it on one of its clauses, kept whatever rules
    the shard owns: the merge sums every shard's figures for it and joins the situations
    each shard's share of the examples reached.  ``clause`` is the clause (its check id
    is ``clause::name``); a shard lists the invariant once per clause it is bound to."""

    clause: str
    check: CheckResult

    def __post_init__(self) -> None:
        normalise_strings(self)
        if self.check.kind != "hunt":
            raise bad("a shard lists only hunt checks", check=self.check.name)


@dataclass(frozen=True, kw_only=True)
class ShardOptions:
    """The options of a split run that decide a shard's share and its verdicts, beyond
    those every standing records (``only``, the seed, the gated levels): every shard of
    one run was given the same, and the merge recomputes each shard's share from them.

    ``levels`` are the rule levels the run selected (empty: every level); ``hunt`` says
    whether the hunt ran; ``examples`` and ``hunt_seconds`` are its floor and budget as
    given (``None``: the default); ``timeout`` the per-request timeout; ``exitfirst``
    whether the run stopped at its first failing case.
    """

    levels: tuple[Level, ...] = ()
    hunt: bool = True
    examples: int | None = None
    hunt_seconds: float | None = None
    timeout: float = 30.0
    exitfirst: bool = False

    def __post_init__(self) -> None:
        normalise_strings(self)
        for level in self.levels:
            choice(level, LEVELS, "levels")
        examples = self.examples
        if examples is not None and (
            isinstance(examples, bool) or not isinstance(examples, int) or examples < 1
        ):
            raise bad("examples is an integer >= 1 or None", examples=examples)
        if self.hunt_seconds is not None:
            seconds(self.hunt_seconds, "hunt_seconds")
        seconds(self.timeout, "timeout")


@dataclass(frozen=True, kw_only=True)
class ShardInfo:
    """Which part of a split run this standing is (``rttool run --shard K/N``).

    ``index`` is K (from 1) of ``count`` shards; ``corpus`` identifies the rule corpus the
    split was made over and ``build`` the suite's own code that made it (a digest of its
    files: two commits sharing a version number differ here); ``options`` are the run's
    options its share depends on; ``rules`` are the rules this shard ran and reports,
    ``left`` the selected rules it left to the other shards; ``hunt`` is its share of the
    hunt, every invariant it judged (the hunt is split by examples, not by rules).
    """

    index: int
    count: int
    corpus: str
    build: str = ""
    options: ShardOptions = field(default_factory=ShardOptions)
    rules: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    hunt: tuple[ShardHunt, ...] = ()

    def __post_init__(self) -> None:
        normalise_strings(self)
        for name in ("index", "count"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise bad(f"shard {name} is an integer >= 1", field=name, value=value)
        if self.index > self.count:
            raise bad("a shard index is at most the shard count", index=self.index)
        if set(self.rules) & set(self.left):
            raise bad("a shard both ran and left a rule")


@dataclass(frozen=True, kw_only=True)
class RunInfo:
    """How the run was made.

    ``levels`` are the levels the run gated; ``spec`` names the specification edition
    the rules were taken from; ``only`` holds ``--only`` filters (empty: every rule);
    ``mutant`` names the mutant the implementation was run as, if any.  A reproducible
    report (:func:`conformance.report.reproducible`) records no ``started_at`` and no
    ``duration_s`` (``None``), so that it is the same from run to run.
    """

    started_at: str | None
    duration_s: float | None = 0.0
    seed: int | None = None
    levels: tuple[Level, ...] = LEVELS
    ci: bool = False
    spec: str = ""
    only: tuple[str, ...] = ()
    mutant: str | None = None
    #: set when the run was one shard of a split run
    shard: ShardInfo | None = None

    def __post_init__(self) -> None:
        normalise_strings(self)
        try:
            if self.started_at is not None:
                datetime.fromisoformat(self.started_at)
        except ValueError as err:
            raise bad(
                "started_at is not an ISO 8601 timestamp", started_at=self.started_at
            ) from err
        if self.duration_s is not None:
            seconds(self.duration_s, "duration_s")
        seed = self.seed
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise bad("seed is an integer or None", seed=self.seed)
        for level in self.levels:
            choice(level, LEVELS, "levels")
        if len(set(self.levels)) != len(self.levels):
            raise bad("levels repeat", levels=",".join(self.levels))

    @property
    def started(self) -> datetime | None:
        """``started_at`` as a datetime (naive timestamps are read as UTC), if recorded."""
        if self.started_at is None:
            return None
        moment = datetime.fromisoformat(self.started_at)
        return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, kw_only=True)
class HuntSummary:
    """What the property-based hunt did: its budget, what it tried, what it found
    (``elapsed_s`` and ``shrinks`` are ``None`` in a reproducible report)."""

    budget_s: float
    elapsed_s: float | None
    #: examples generated and judged (never the steps of shrinking a finding)
    examples: int
    counterexamples: int
    #: examples run while shrinking findings, counted apart from ``examples`` (a cost
    #: of the search, like its time: it may differ by a run or two from run to run)
    shrinks: int | None = 0
    #: examples saved by earlier runs (or other shards) that were replayed first, where
    #: the run had an example database (``None``: it had none, as a reproducible run)
    replayed: int | None = None

    def __post_init__(self) -> None:
        seconds(self.budget_s, "budget_s")
        if self.elapsed_s is not None:
            seconds(self.elapsed_s, "elapsed_s")
        for name in ("examples", "counterexamples", "shrinks", "replayed"):
            value = getattr(self, name)
            if name in ("shrinks", "replayed") and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise bad(f"{name} is an integer >= 0", field=name, value=value)
