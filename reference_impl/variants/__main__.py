"""``python -m reference_impl.variants --list [--format text|json]``: print the catalogue,
a line per legal variant (its name, the reading it takes, what it does) or the JSON list
``[{"name", "reading", "clauses", "description"}]``."""

from __future__ import annotations

from reference_impl._catalogue import catalogue_main
from reference_impl.variants import catalogue

if __name__ == "__main__":
    raise SystemExit(
        catalogue_main(
            "python -m reference_impl.variants",
            "The catalogue of legal variants of the reference runtime.",
            catalogue,
        )
    )
