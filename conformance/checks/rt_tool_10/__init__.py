"""RT-TOOL-10: a tool-calling pass reports whether it did any work.

Every pass of a scenario is judged, against the calls its batch sent and those the turn
already recorded.  What the clauses quantify over, and how the checks vary it:

* ¶1 (``executed_any`` a boolean; ``executed`` the complement of ``skipped``): a repeat
  before and after a new call; every kind of first-time result (success, failure, an
  unwired tool, arguments that fail the schema); after an answer; unusual identifiers.
* ¶2 (first-time handling is work, a repeat is not): a batch of only an unwired call
  (whose result is the recoverable failure, ``success`` false, the model re-plans on), a
  declined call, invalid arguments, a failing tool, a retry refused on resume; an
  all-repeat pass a second and a third time, after an answer, of a stored failure, of two
  calls.
* ¶3 (an empty batch reports false): first, after a pass that did work, after an answer.
* ¶4 (a call without an identifier is in neither list and sets ``executed_any``; a
  malformed call is in neither and leaves it false): no identifier, ``null``, beside a
  repeat, sent again, after an answer; calls that are not maps, blank names (spaces,
  tabs, newlines), names that are maps, lists, absent or ``null``, beside a repeat; a
  numeric name, a scalar, reaches the guard (beside a call naming an unwired tool by a
  string, so that a runtime dropping every unwired call, ¶2's gap, is told from one
  dropping the number as malformed).  A run that fails in the pass fails the clause.
* ¶5 (``executed_any`` exposed by default, ``executed`` not): in every pass, and with the
  author's choices made for other ports.

Left unjudged, because the text allows either reading (docs/interpretations.md): the
order of ``executed`` and ``skipped`` (executed-order); whether a boolean name is a
scalar, whether a name of non-breaking or other Unicode spaces is blank, whether a numeric
or empty-string call id is an identifier (malformed-calls): the checks never send those.
Whether a result reused from the journal on resume is work done for the first time is
not judged either.  A batch of only malformed calls that leaves no pass behind (a tool
step that never runs for a reply without calls, as for ¶3's empty batch) is untested:
nothing shows where the calls were dropped or what ``executed_any`` was left at; a pass
that answers them is judged.

Each clause judges its own words of a pass: ¶1 that ``executed_any`` is a boolean and
which list each identified call is on; ¶2 and ¶3 what ``executed_any`` is; ¶4 which calls
the lists may name at all, which are answered, and what a call without an identifier or a
malformed one leaves ``executed_any`` at.  The checks observe through RT-TOOL-10 ¶1's
ports (a pass without them blocks the other clauses' judgement of them), the guard of
RT-TOOL-9 ¶1 (a repeat that ran again is no repeat), ¶2's answer to an unwired call (one
dropped, or failing the run, leaves no pass to judge the lists of), and ¶2's pass of
nothing but repeats reporting no work.

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, the situations the clauses name (which a passing case
must reach for a clause to conform) in ``situations.py``.
"""
