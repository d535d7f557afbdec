"""rttool's benchmarks: ``python -m bench [NAME ...]`` (all of them when none is named).

Benchmarks print figures and say whether each target was met; they never fail a build
(and no test asserts on time).
"""
