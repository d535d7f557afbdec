"""``python -m harnesses.pydanticai [--http HOST:PORT]``: the PydanticAI harness, served."""

import sys

from adapters.kit import main
from harnesses.pydanticai import PydanticAiHarness

sys.exit(main(PydanticAiHarness))
