"""rttool: the conformance suite for the RT-TOOL rules and the durable-resume rules.

The suite reads rules as data (``rules/``), drives any implementation through the
adapter protocol (``adapters``), and publishes each implementation's standing.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
