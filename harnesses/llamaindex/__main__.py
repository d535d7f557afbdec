"""``python -m harnesses.llamaindex [--http HOST:PORT]``: the LlamaIndex harness, served."""

import sys

from adapters.kit import main
from harnesses.llamaindex import LlamaIndexHarness

sys.exit(main(LlamaIndexHarness))
