"""Harnesses rttool ships for real agent runtimes, each a small package of its own.

Each harness is built on the harness kit (:mod:`adapters.kit`), plays the scenario
through the framework's own seams (its chat-model or model-function interface, its tool
execution, its pause and resume), and reports what the framework really did.  Their
dependencies are pinned extras of the project: ``pip install -e '.[langgraph]'`` and
``pip install -e '.[pydantic-ai]'``.  Like the reference runtime, harnesses never
import the suite (``conformance``).
"""
