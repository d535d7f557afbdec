"""``python -m reference_impl.shapes --list [--format text|json]``: print the catalogue, a
line per runtime shape (its name, its kind and clauses, what it does) or the JSON list
``[{"name", "kind", "clauses", "frameworks", "summary", "reason"}]``."""

from __future__ import annotations

from reference_impl._catalogue import catalogue_main
from reference_impl.shapes import catalogue

if __name__ == "__main__":
    raise SystemExit(
        catalogue_main(
            "python -m reference_impl.shapes",
            "The catalogue of runtime shapes: the reference runtime, behaving as real "
            "frameworks do.",
            catalogue,
        )
    )
