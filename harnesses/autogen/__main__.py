"""``python -m harnesses.autogen [--http HOST:PORT]``: the AutoGen harness, served."""

import sys

from adapters.kit import main
from harnesses.autogen import AutoGenHarness

sys.exit(main(AutoGenHarness))
