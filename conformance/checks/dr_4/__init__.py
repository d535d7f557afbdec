"""DR-4: an interrupted write is not blindly retried.

A write is interrupted by a cut after its body ran (its side effect landed, its result
was never recorded), before its body ran, or by the process dying after it.  What the
clauses quantify over, and how the checks vary it:

* ¶1 (the hard-block covers completed calls only): the three interruptions above, and a
  retry two chunks after the cut; the identical retry is never answered as if the call
  had completed (it runs, or it is refused, never handed a successful result unrun).
* ¶2 (an identical retry is refused when the resumed run's history shows the
  interruption, and only then): the retry in the next chunk, two chunks later, after a
  crash and Continue; two identical retries in one batch; a retry with other arguments
  beside an identical one; the interrupted call declared behind a repeat and a call
  without an identifier in its batch; a retry in the chunk after one that refused the
  interrupted call sent again under its own identifier (the refusal answered, or only
  recorded when its batch was cut): the history still declares the interrupted call, so
  the refusal holds; a retry in a chunk whose ledger read failed (the history still
  shows the interruption, so the refusal holds); a retry in a new turn, whose run
  resumes nothing; a retry of a write of a batch cut before it started, which runs
  (untested where the resumed run's journal note lists it interrupted: a runtime may
  journal a batch's starts before running it).
  Written otherwise (``_spellings``): the retry's keys in another order, nested too; the
  interrupted call under an identifier an earlier turn of the conversation used and
  answered (``call_0``, as providers number ids per response), untested where an
  RT-TOOL-9 guard spanning the conversation keeps that call from running at all.
  Across a pause (``_refusal_across_a_pause``): the resumed run refuses the identical
  retry, then pauses on a question or a gate; the identical retry sent once the operator
  answers is refused too (the run the answer starts resumes the same interrupted turn,
  whether or not the pause ends the chunk), the ledger read failing as it carries on or
  not.

Accepted either way (docs/interpretations.md#history-shows-the-interruption): how the
history shows an interrupted call (a placeholder result, the declared call left without
one, a message of its own).  The suite takes the history to show it when the model input
that produced the retry mentions the interrupted call before the resume prompt (its call
id, or its tool name with its input), and then expects the retry not to run.  Where the
history does not mention it, the refusal is not judged.  A retry that repeats a call
completed in an earlier chunk as well as the interrupted one may be refused, or answered
with the journaled result as DR-3 ¶2 words it (``_history.journal_answers``).

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, and the situations the clauses name (or why a clause
names none) in ``situations.py``.
"""
