"""``python -m harnesses.smol [--http HOST:PORT]``: the smolagents harness, served."""

import sys

from adapters.kit import main
from harnesses.smol import SmolHarness

sys.exit(main(SmolHarness))
