"""RT-TOOL-9: a tool call executes at most once per run.

The rule's run goes on through pauses (its own example is a run reached again after an
approval): every protocol run of one turn is one run here (docs/interpretations.md,
guard-scope).  What the clauses quantify over, and how the checks vary it:

* ¶1 (a recorded call is never invoked again): the repeat comes a second and a third
  time, in the same stretch of work, after the run paused on a question and was answered,
  and after a restart during that pause; the first execution succeeded or failed
  recoverably; identifiers of unusual shapes.
* ¶2 (the repeat is skipped and its stored result re-emitted and counted): a stored
  success and a stored failure, the repeat alone or beside a new call (a stored failure
  beside a new success too), before and after a pause.
* ¶3 and ¶4 (a batch paused midway is re-issued; only what returned was recorded): the
  gated call last, in the middle, after a restart, and a batch with two gated calls and
  a call between them that fails recoverably before the second pause.
* ¶5 (a call without an identifier always runs): two and three passes, twice in one
  batch, after a pause, an identifier given as ``null``; a numeric identifier, sent once
  (it runs whether it counts as an identifier or as none).

Left unjudged, because the text allows either reading (docs/interpretations.md): a call
id repeated inside one batch (same-batch-repeats), a repeat of a call that named an
unwired tool or was declined, an id reused in a later turn (guard-scope).

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, the situations the clauses name (which a passing case
must reach for a clause to conform) in ``situations.py``.
"""
