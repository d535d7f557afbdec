"""``python -m harnesses.adk [--http HOST:PORT]``: the ADK harness, served."""

import sys

from adapters.kit import main
from harnesses.adk import AdkHarness

sys.exit(main(AdkHarness))
