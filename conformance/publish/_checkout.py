"""A checkout of this repository: the folder whose ``reports/`` the standings go to."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from adapters.errors import RttoolError

__all__ = ["Checkout", "NotACheckout"]


class NotACheckout(RttoolError):
    """The folder given is not a checkout of this repository (it has no ``reports/``)."""


@dataclass(frozen=True)
class Checkout:
    """The root of a checkout of this repository.

    Publishing writes into the checkout, never into an installed copy of the package:
    the root is the folder ``make`` runs in (or ``rttool publish --root``), not a path
    derived from where this module lies.
    """

    root: Path

    @classmethod
    def at(cls, root: Path) -> Checkout:
        """The checkout at ``root``; :class:`NotACheckout` when it has no ``reports/``."""
        if not (root / "reports").is_dir():
            raise NotACheckout(
                "not a checkout of rttool: run it from the repository's root, or pass --root",
                root=str(root),
                missing="reports/",
            )
        return cls(root.resolve())

    @property
    def reports(self) -> Path:
        """``reports/``: one folder per published standing, and their matrix."""
        return self.root / "reports"

    @property
    def adapter_guide(self) -> Path:
        """``docs/writing-an-adapter.md``, whose toy harness is published too."""
        return self.root / "docs" / "writing-an-adapter.md"
