"""``python -m harnesses.langgraph [--http HOST:PORT]``: the LangGraph harness, served."""

import sys

from adapters.kit import main
from harnesses.langgraph import LangGraphHarness

sys.exit(main(LangGraphHarness))
