"""What ``rttool selftest`` plans, tells as it goes and finds: immutable values that
the command (``conformance/cli/_selftest.py``) computes and its renderers
(``conformance/cli/_selftest_render.py``) print, each of those two modules importing
this one and neither the other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from conformance._blame import BlameVerdict
    from conformance._shapes import ShapeInfo, ShapeResult
    from conformance._variants import VariantInfo, VariantResult
    from conformance.selftest import MutantInfo, MutantResult

__all__ = [
    "SelftestEvent",
    "SelftestPlan",
    "SelftestResult",
    "ShapesStarting",
    "VariantsStarting",
]


@dataclass(frozen=True)
class SelftestPlan:
    """The catalogues read, and what of them this self-test runs."""

    catalogue: tuple[MutantInfo, ...]
    variants: tuple[VariantInfo, ...]
    only: tuple[str, ...] = ()
    full: bool = False
    shapes: tuple[ShapeInfo, ...] = ()

    @property
    def unknown(self) -> tuple[str, ...]:
        """The names ``--only`` gave that no catalogue has."""
        known = {m.name for m in self.catalogue} | {v.name for v in self.variants}
        known |= {shape.name for shape in self.shapes}
        return tuple(name for name in self.only if name not in known)

    @property
    def chosen_shapes(self) -> tuple[ShapeInfo, ...]:
        """The runtime shapes to run."""
        return tuple(s for s in self.shapes if not self.only or s.name in self.only)

    @property
    def gated(self) -> bool:
        """Whether the blame gate judges this self-test: only a full one over every mutant
        and shape sees every clause failed beyond a mutant's own."""
        return self.full and not self.only

    @property
    def mutants(self) -> tuple[MutantInfo, ...]:
        """The mutants to run."""
        return tuple(m for m in self.catalogue if not self.only or m.name in self.only)

    @property
    def chosen_variants(self) -> tuple[VariantInfo, ...]:
        """The legal variants to run."""
        return tuple(v for v in self.variants if not self.only or v.name in self.only)

    @property
    def width(self) -> int:
        """The width of the name column of the lines about what runs."""
        names = [m.name for m in self.mutants] + [v.name for v in self.chosen_variants]
        names += [shape.name for shape in self.chosen_shapes]
        return max((len(name) for name in names), default=1)


@dataclass(frozen=True)
class VariantsStarting:
    """The mutants are done; ``count`` legal variants run next."""

    count: int


@dataclass(frozen=True)
class ShapesStarting:
    """The variants are done; ``count`` runtime shapes run next."""

    count: int


#: What :func:`execute` tells its ``progress`` of: a mutant judged, the variants about to
#: start, a variant judged, the shapes about to start, a shape judged.
SelftestEvent: TypeAlias = (
    "MutantResult | VariantsStarting | VariantResult | ShapesStarting | ShapeResult"
)


@dataclass(frozen=True)
class SelftestResult:
    """What a self-test found."""

    plan: SelftestPlan
    mutants: tuple[MutantResult, ...]
    variants: tuple[VariantResult, ...]
    #: clauses of the corpus no mutant of the catalogue breaks
    uncovered: tuple[str, ...]
    #: cases no mutant made fail (known only when every mutant ran)
    unproven: tuple[str, ...]
    #: hunt invariants no mutant broke (known only when every mutant ran)
    quiet_invariants: tuple[str, ...]
    seconds: float
    shapes: tuple[ShapeResult, ...] = ()
    #: the blame gate's verdict (a full self-test's only)
    blame: BlameVerdict | None = None

    @property
    def killed(self) -> int:
        """How many mutants some case caught."""
        return sum(1 for result in self.mutants if result.caught)

    @property
    def judged_soundly(self) -> bool:
        """Every mutant caught by its own clauses, every variant conforming, every
        runtime shape judged as the rule text says."""
        return (
            all(result.clean for result in self.mutants)
            and all(variant.conforms for variant in self.variants)
            and all(shape.sound for shape in self.shapes)
        )

    @property
    def exit_code(self) -> int:
        """0 when every mutant, clause, case, invariant and variant is as it must be."""
        unproven = self.uncovered or self.unproven or self.quiet_invariants
        blamed = self.blame is not None and not self.blame.clean
        return 0 if self.judged_soundly and not unproven and not blamed else 1
