"""RT-TOOL-5: artifact collection is opened and released per run.

Clauses 2-5 bind only "where it does" collect: an implementation whose handshake says it
collects nothing is not-applicable to them, and clause 1 checks that stance.  A
collected artifact is seen where the run delivers it (the messages' ``toolArtifacts``,
RT-TOOL-4) and, with ``held_observation``, in what a paused turn holds; "dropped" means it
reaches neither (docs/interpretations.md, late-arrivals).  What the clauses quantify over,
and how the checks vary it:

* ¶1 (collecting at all is optional; whichever the handshake says, the runtime does): a
  run that returns, and a run that pauses and is resumed.
* ¶2 (nothing is retained for a run whose collection was never opened): the run opened
  by an answer and by an approval; two early arrivals; an early arrival under the call id
  of a call the run then makes.
* ¶3 (draining does not end collection, only release does): a second and a third pass;
  after a pass that collected nothing; after a pass of two calls; an arrival after
  release (dropped).
* ¶4 (every way out releases): returning, pausing on a question and on a gate, failing,
  cut by a time limit, and the resumed run returning; after every step, no ended run's
  collection is open, and nothing arriving after the end is kept.
* ¶5 (entry points): one run, and a run resumed after a pause, from every entry point the
  harness offers.

Left unjudged, because the text allows either reading (late-arrivals): whether a late
arrival is warned about; what the ``tool_artifacts`` port shows of it; run ids that
``open_collections`` lists besides the runs that ended.

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, the situations the clauses name (and why the others
name none) in ``situations.py``.
"""
