"""DR-5: a turn cut off by its time limit continues on its own, at most three times.

What the clauses quantify over, and how the checks vary it:

* ¶1 (a time limit continues the turn on its own, in the same turn, with the thread's
  tool calls and results and the journal note): cut after a tool returned, in a model
  call, twice in a row, after a restart, in a later turn of the conversation, after a
  call without an identifier (its result is in the thread all the same; untested where
  the run ends before any armed time limit cuts it, as a runtime that fails the run on
  such a call does).
* ¶2 (while it waits the turn reports resuming, and stopping it works): after the first
  cut, after the third, after a restart.
* ¶3 (at most three automatic continuations): four and six cuts; cuts by every cause the
  handshake says resumes on its own; a Continue in between, which does not reset the
  count; a second turn, which has its own three; cuts after an answered question (the
  answer's run is no automatic continuation).  These cases bear on ¶1 too: a turn that
  continues on its own more than three times breaks ¶3, one that stops continuing
  before its three are used (an answer's run counted among them) breaks ¶1's "it
  continues on its own", and each failure is charged to the clause it breaks.
* ¶4 (the count survives a reload and two clients cannot double it): a restart after the
  first continuation and after each; two clients at the first and at the last
  continuation.
* ¶5 (after the third continuation, or an error, a stop, a cancellation, a credential or a
  rate-limit failure, the turn ends with Continue available): each cause the handshake
  offers, in a model call and after a tool returned; a fourth time limit; a failed
  write-back in a run that did not start at a pause (the turn's first run, a Continue's);
  a run that fails on an error of its own, a tool result JSON cannot encode (untested
  where the runtime carries on instead).

A case that reaches what it observes through waits bounded by ``rounds`` (¶2 after the
third cut, ¶4's reloads and its clients at the last continuation) first counts the
automatic continuations made by each of them: where a wait continued less than asked,
the state was never reached, and the case is untested.  ¶2's cases wait for a turn to
continue on its own, and declare the channel of ¶1 (``CONTINUES_ON_ITS_OWN``): where the
turn did not, they are blocked by ¶1.

The thread and the note are read from the continuation's model input.  Accepted either way
(docs/interpretations.md): whatever status words the wire uses (turn-states), a stopped
turn known by ``continueOffered`` (stopped-with-continue), a gateway timeout that waits for
Continue (resumable-causes).  Decided, as the only reading ¶5 leaves (docs/rules.md): a
Stop on a resuming turn works when it is accepted, no automatic continuation follows it,
and the turn then waits with Continue available, as ¶5 has it after a stop.

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, and the situations the clauses name (or why a clause
names none) in ``situations.py``.
"""
