"""RT-TOOL-1: a tool result carries artifacts alongside its data, never inside it.

What the clauses quantify over, and how the checks vary it:

* ¶1 (a tool result is ``{success, data, error}``): every kind of result the
  tool-invoking node receives (a success, a recoverable failure, a call naming a tool
  that is not wired, arguments that fail the tool's schema, a declined gated call, a
  repeat's re-emitted result), and ``data`` of every JSON type: a map with keys in an
  unusual order, null, false, 0, "", [], {}, a string, a number, nested lists.
* ¶2 (``artifacts`` only once one was attached): a plain result, an empty reserved list,
  a reserved key holding nothing valid or not holding a list, falsy ``data``, a map
  nested in ``data`` holding an ``artifacts`` key of its own (only the top-level key is
  reserved); one, several and duplicated artifacts attached.
* ¶3 (attached additively, never folded into ``data``): one and several artifacts,
  several calls in one batch, non-ASCII and escaped values, ``data`` keys sorting before
  and after ``artifacts``, a nested ``artifacts`` key in ``data`` (it stays in ``data``
  and is not attached).

Left unjudged, because the text allows either reading (docs/interpretations.md): the
order of a result's keys (key-order); whether a repeat's re-emitted result carries the
artifacts its first execution attached (re-emitted-artifacts); what ``success`` says for
a result other than a tool's own success or failure (a declined call: declined-result);
``data`` of a failed call; the ``data`` of a node output that held nothing but the
reserved key.

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``.
"""
