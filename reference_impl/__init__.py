"""The bundled reference runtime: a small, real FlowDrop-style agent runtime.

It meets every RT-TOOL rule and every durable-resume rule, stores everything in SQLite,
serves an HTTP turn API (``rttool serve-reference``), and speaks the adapter protocol
through :mod:`reference_impl.harness`.  It never imports the suite.
"""

__all__ = ["__version__"]
__version__ = "0.1.0"
