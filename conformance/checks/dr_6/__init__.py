"""DR-6: Continue resumes the stopped turn; a new message starts afresh.

What the clauses quantify over, and how the checks vary it:

* ¶1 (Continue resumes the stopped run's own turn, with the note and the hard-block):
  after an error, after a Stop while resuming, after the third automatic continuation,
  after a crash, and Continue after Continue.
* ¶2 (any number of times): five in a row; four, each after the continued run did work
  and stopped again; four with a restart before each.
* ¶3 (offered only for the conversation's newest stop): two and three stops, two
  conversations each with its own stop, after a restart; an older turn stopped after a
  newer one (``_newest_stop``), where the stop made last and the latest stopped turn
  differ.
* ¶4 (a new message starts a new turn whose agent is first told what the unfinished turn
  did): after an error, with an interrupted call, while the turn waited to resume, after a
  restart, with non-ASCII input; in a third and fourth turn; after two unfinished turns
  (the agent is told of the newer, the one the message is sent instead of continuing).
* ¶5 (neither the note nor the hard-block prevents a repeat in the new turn): a completed
  write repeated, a write of a turn superseded while resuming, two repeats.

What the model was told is read from ``model_inputs``, never from ``prior_turn_note``.
Accepted either way (docs/interpretations.md): where the new turn's agent is first told
(first-told: a message before the new user message, or the opening of that message);
whether a Continue chosen on an older stop is refused or carried out
(continue-on-an-older-stop: the text speaks of offering); whether a later turn's new
message withdraws an earlier stop's Continue; whether the newest stop is the one that
happened last or the latest stopped turn (newest-stop).

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, and the situations the clauses name (or why a clause
names none) in ``situations.py``.
"""
