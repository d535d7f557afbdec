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
  a call between them that fails recoverably before the second pause, each gated call
  asking something of its own.  The checks assume one decision per approve step: a
  runtime that decides every pending gate at once refuses (or ignores) the second
  approval, and the cases whose expectations rest on it are untested there, the
  assumption named.  What the calls that returned before a pause do when the batch is
  re-issued is the guard's (¶1): the cases observe through it.
* ¶5 (a call without an identifier always runs): two and three passes, twice in one
  batch, after a pause, an identifier given as ``null``; a numeric identifier, sent once
  (it runs whether it counts as an identifier or as none).  What was sent is what
  reached the runtime (a batch the model was never asked for was not sent); a run that
  fails in the pass over such a call, before answering it, is RT-TOOL-10 ¶4's gap.

Left unjudged, because the text allows either reading (docs/interpretations.md): a call
id repeated inside one batch (same-batch-repeats), two gated calls under one identifier
(gated-calls-sharing-an-id: no clause says what one consent covers), a repeat of a call
that named an unwired tool or was declined, an id reused in a later turn (guard-scope).

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, the situations the clauses name (which a passing case
must reach for a clause to conform) in ``situations.py``.
"""
