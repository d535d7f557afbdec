"""DR-1: the tool-call journal classifies a turn's calls from the durable ledger.

The turns and ledgers each variant plays are in :mod:`conformance.checks.dr_1._scenarios`.

What the clauses quantify over, and how the checks vary it:

* ¶1 (every call of a turn gets a ``tool_start`` before it runs and a ``tool_done`` with
  its name, input and result once it returned): one call, and a batch of four (a
  read-only call among writes, two identical calls, a nested input with non-ASCII text);
  a call that failed recoverably; calls made in the chunk a time limit resumed, and after
  a restart during a pause; a call cut before its body ran (its start, no body, no done).
* ¶2 (reading the journal records nothing): a call answered from the journal, a retry of
  an interrupted write refused, two resumed chunks reading the journal in turn; the same
  ledger classified twice.
* ¶3, ¶4, ¶5 (completed, interrupted, oldest-open pairing per tool, ``clear``), through
  the journal probe: interleaved tools, identical calls, failed and falsy results, nested
  non-ASCII inputs; three open starts of one tool, a done of another tool between; a
  ``clear`` before a new start, before a lone done, with two tools open, after a
  completed call, naming the open call's tool or another tool; a done and a start that
  name no tool between a start and its done.
  Across the runs of one turn (``_pairing``): a start cut before its done, then the same
  tool called with other input by the resumed run, played until the two runs'
  identifiers have sorted both ways; every play must pair the same way (a journal
  comparing them pairs one way in one order and the other way in the other).

Accepted either way (docs/interpretations.md): a ledger with ``clear`` events anywhere
(when-clear-is-recorded), the journal's lists in any order (journal-order), a done that
closes its own call's start or the oldest start of its tool left open by an earlier run
(pairing-across-runs: ¶4 word for word gives the second), and a
``tool_start`` that names no tool listed as an interrupted call or left out
(nameless-start: ¶3 read literally makes it one, and nothing in the text forbids it).  Left
unjudged: what a tool_start's input is for a call whose arguments were repaired (the
suite's tools take any arguments), and whether a call that never ran (unknown tool,
invalid arguments) is recorded at all.

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, and the situations the clauses name (or why a clause
names none) in ``situations.py``.
"""
