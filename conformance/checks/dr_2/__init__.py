"""DR-2: a resumed run is told what its turn already did.

Every expectation reads what the resumed run's model was given (its first model input),
never the harness's own ``resume.note``.  What the clauses quantify over, and how the
checks vary it:

* ¶1 (after a soft timeout, a gateway timeout or a resumable transport error, the note
  right after the nudge): each of the three causes, a second cut in the same turn, a
  resume after a restart.
* ¶2 (each completed call, with a short result): a string, a map and a failed call's
  result; non-ASCII input and result; an empty result; a result of 40 UTF-8 bytes, the
  most the suite holds a note to showing whole; calls completed in two earlier chunks.
* ¶3 (each interrupted call): cut after its body ran and before it did; interrupted two
  chunks ago; one cut in each of two chunks, both named; a nested, non-ASCII input.
* ¶4 (an empty journal appends nothing): a turn with no tool activity, cut once and
  twice, and resumed after a restart.
* ¶5 (a failed ledger read never blocks the recovery): one failed read, a failed read
  at each of two resumes, and a failed read as the answer to a question carries a paused
  resumed chunk on; each after a control played without the failed read, since the
  clause speaks of "a recovery that would otherwise succeed" (untested where the control
  does not recover either).

The cases of ¶1-¶4 and the examples wait for a turn cut by its time limit to continue on
its own, and declare DR-5 ¶1's channel (``CONTINUES_ON_ITS_OWN``): where the trace shows
the turn did not, they are blocked by DR-5 ¶1.

Accepted either way (docs/interpretations.md): the note in the nudge's message after it,
or in the message right after it (right-after-the-nudge); a call named by its tool and
the values of its input, as text or as JSON, escaped or not; a short result shown whole
or, beyond 40 bytes, in any shortened form (short-result); a gateway timeout or transport
error resumed by itself or by Continue (resumable-causes).  Left unjudged: how the note
says an outcome is unknown (its wording is the runtime's), how often an identical call
completed twice is named, and calls of earlier turns (the note is the turn's journal).

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, and the situations the clauses name (or why a clause
names none) in ``situations.py``.
"""
