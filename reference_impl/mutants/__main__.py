"""``python -m reference_impl.mutants --list [--format text|json]``: print the catalogue,
a line per mutant (its name, the clauses it breaks, what it does wrong) or the JSON list
``[{"name", "breaks", "description", "hunt", "hunted"}]``."""

from __future__ import annotations

from reference_impl._catalogue import catalogue_main
from reference_impl.mutants import catalogue

if __name__ == "__main__":
    raise SystemExit(
        catalogue_main(
            "python -m reference_impl.mutants",
            "The catalogue of deliberately broken variants of the reference runtime.",
            catalogue,
        )
    )
