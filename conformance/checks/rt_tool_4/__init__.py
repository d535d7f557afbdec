"""RT-TOOL-4: a turn's artifacts are persisted on its message and reported on its result.

What the clauses quantify over, and how the checks vary it:

* ¶1 (what a run collected is persisted on the last assistant message that run wrote,
  once per run): a run writing two and three assistant messages, several calls and
  passes, a later run of the turn (after an answer), a run of a second turn, and a run
  cut by its time limit or by an error (not a pause), the run resuming it completing the
  turn or first pausing on a question.
* ¶2 (the turn's result aggregates every assistant message's artifacts and survives a
  reload): two passes, artifacts held through a pause, two turns of one conversation,
  payloads of every shape (non-ASCII, escapes, nested, falsy, long), each before and
  after a restart; when the harness has a turn API, the suite reads the turn through it.
* ¶3 (a top-level ``toolArtifacts`` field, not message metadata): the turn read, the
  same after a restart, the message poll, payloads whose keys are ``metadata`` and
  ``toolArtifacts``.

Where a run is cut by a time limit or an error, the text allows two readings
(docs/interpretations.md#cut-is-not-a-pause): the run holds what it collected, as for a
pause, and the run that completes the turn delivers it; or, RT-TOOL-4 ¶1 read
literally, the cut run persists it on the last assistant message it wrote.  Both are
accepted.  Left unjudged: the order of the turn result's list (the text says it
aggregates, not in which order); what an implementation that collects no artifacts
persists (RT-TOOL-5 ¶1: these checks are then not applicable).

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``.
"""
