"""The rules' code: one package per rule, everything that judges the rule in one place.

Each package, named after its rule (``rt_tool_7`` for RT-TOOL-7, ``dr_3`` for DR-3),
holds:

* ``__init__.py``: the rule's overview: what its clauses quantify over, how the checks
  vary it, and what is left unjudged because the text allows either reading;
* ``checks.py``: its hand-written checks (functions decorated with
  :func:`conformance.toolkit.check`), and ``CHECKS``, every check of the package (those
  its private modules hold too) in the order they run and are reported;
* ``vectors.py``: how its examples run as test vectors (``BINDINGS``) and the stage of
  each of its verdicts (``STAGES``);
* ``invariants.py``: what the property-based hunt holds every generated trace to for
  it (``INVARIANTS``);
* private modules for what belongs to that rule only: the scenario tables its checks
  play (``_argument_cases.py``), checks of some of its clauses (``_held.py``), its
  oracles (``_reconcile.py``).

An invariant or a binding covering clauses of several rules lives with the rule of its
first clause, as a check's id does.  Helpers several rules use live in the toolkit
(:mod:`conformance.toolkit`), never in a rule package, and no rule package imports
another's.

:data:`conformance.engine.RULE_PACKAGES` fixes the order the rule packages are gathered
in, by the engine's one loader (``conformance/engine/_packages.py``): checks rule by rule,
each in the order of its package's ``CHECKS``; vectors in corpus order; invariants by the
rank each declares.  Reports list cases in that order.
"""
