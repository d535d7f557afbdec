"""Machine-made mutants of the reference runtime, scored against the suite.

``python -m mutation`` (``make mutation``) enumerates cosmic-ray's mutations of the
reference runtime's core modules (``reference_impl/*.py``; not its server, harness or
mutant catalogue), runs ``rttool run`` against each one through the adapter protocol in
a child process whose import path puts a mutated copy first, and writes the mutation
score, the surviving mutants with their diffs, and timing. Mutants listed in
``mutation/equivalents.txt`` cannot change anything observable and are left out of the
score. See docs/mutants.md.
"""

__all__: list[str] = []
