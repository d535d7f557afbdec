"""RT-TOOL-7: a pause does not destroy artifacts, and does not deliver them twice.

Evidence is the wire after every step (what a caller could see) and, with
``held_observation``, what is held against each turn.  What the clauses quantify over, and
how the checks vary it:

* ¶1 (held durably against the producing turn, never on the wire while held): a pause on
  a question and on a gate; a restart while paused; several artifacts from two calls and
  two passes; two conversations paused at once, each answered in turn.
* ¶2 (the next write-back prepends them to what the resumed run collected, on its
  assistant message): the resumed run collecting one, none or several of its own; what
  two pauses held; a resume by approval.
* ¶3 (taking is destructive; a resume that pauses again holds everything): pausing two
  and three times, pausing again having collected nothing, a restart while paused a
  second time, and an answer sent again after the turn completed; the held list after
  delivery, after one pause, two, and a failed write-back.
* ¶4 (a failed write-back puts them back): failing once and twice, with what two pauses
  held, and a restart before the retry.  The retry may answer again or choose Continue
  (failed-write-back).
* ¶5 (the held list is bounded; the newest are dropped, with a warning): overflowing in
  one pause, across two pauses, and by several.

Left unjudged, because the text allows either reading: whether an answer to a completed
turn is refused or ignored (unrequired-refusals); what the warning for a held drop names
(drop-warnings).  Left to the hunt, because its combination mutants need them: the
resumed run's own artifacts after a restart, or after a failed write-back, and two turns
of one conversation both holding.  An implementation that collects nothing (RT-TOOL-5 ¶1)
is not held to this rule.

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, the situations the clauses name (and why the others
name none) in ``situations.py``.
"""
