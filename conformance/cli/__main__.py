"""``python -m conformance.cli``: the same as the ``rttool`` command."""

from conformance.cli import console

raise SystemExit(console())
