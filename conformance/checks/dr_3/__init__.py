"""DR-3: a resumed chunk does not repeat a completed write.

Every turn here is cut by its time limit after its first calls returned, and continues
on its own: the cases observe through DR-5 ¶1's channel (``CONTINUES_ON_ITS_OWN``), and
where a trace shows the turn did not continue, they are blocked by DR-5 ¶1.  The checks
count the bodies that run (``side_effects``, by call id) and read what the model is given
back; the turns each variant plays are in :mod:`conformance.checks.dr_3._scenarios`.
What the clauses quantify over, and how the checks vary it:

* ¶1 (one snapshot of the prior chunks of the same turn): a write made twice in the
  resumed chunk, in two passes and in one batch; a write completed in an earlier turn;
  a write completed two chunks before the resumed one, which the snapshot must hold (a
  snapshot of the last cut chunk only breaks ¶1's "the prior chunks"; ¶2 acts on "a
  completed entry of that snapshot").
* ¶2 (a re-dispatched completed write is not run; its journaled result comes back with a
  note): a string, a map and a failed result; non-ASCII arguments; after a restart;
  after the resumed chunk paused for the operator and was answered, once and twice.
* ¶3 (read-only tools never blocked): a repeated read, a read beside a blocked write, a
  read that was interrupted, a read two chunks later.
* ¶4 (matched by tool name and a signature of the input, not by position): another
  position beside a fresh call; keys in another order, at the top and nested; non-ASCII
  text and escapes; a difference past the 300th byte; a number against the same digits
  as a string; the same input to another tool.
* ¶5 (each completed entry consumed once): two repeats in two passes and in one batch;
  two completions and three repeats; a repeat answered before a pause in the resumed
  chunk (a question answered, a gate approved) and the identical call after it
  (``_claims_across_a_pause``: both are in the same turn, whether or not the pause ends
  the chunk).
* ¶6 (nothing changes for a run never interrupted): identical writes in two turns, after
  a pause, after a restart during a pause.

Accepted either way (docs/interpretations.md): the journaled result rendered in any form
that carries it, with a note beside it (reused-result).  Left unjudged: a write repeated
in a later chunk after an earlier chunk already answered it from the journal (whether a
completion consumed in one chunk stays consumed in the next, the text does not say), and
a write that completed inside the resumed chunk, re-dispatched after a pause in it
(whether a pause ends a chunk, the text does not say; a write completed before the cut is
in a prior chunk either way, and is judged, and so is a completion claimed before the
pause: ¶5 speaks of "two identical fresh calls in the same turn").

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, and the situations the clauses name (or why a clause
names none) in ``situations.py``.
"""
