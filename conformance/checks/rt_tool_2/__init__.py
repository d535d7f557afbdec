"""RT-TOOL-2: a tool node emits artifacts on a reserved key that never reaches the model.

What the clauses quantify over, and how the checks vary it:

* ¶1 (the output may carry a list of ``{type, payload}`` maps): several types, the same
  entry twice, falsy payload values, non-ASCII types and escaped payloads, payloads that
  nest ``type``, ``payload`` and ``artifacts`` keys of their own, the key beside many
  others.
* ¶2 (a system channel, exempt from port exposure): the tool's ``artifacts`` port
  exposed and not exposed; the entries reach the tool result and the turn's messages.
* ¶3 (a string ``type`` and a map ``payload`` are kept, anything else dropped without
  failing the call): entries that are not maps, every wrong ``type`` (absent, number,
  null, boolean, list, map), every wrong ``payload`` (absent, string, list, null, 0,
  false), well-formed entries with keys of their own, nothing but malformed entries, a
  reserved key that is not a list.
* ¶4 (the reserved key always leaves ``data`` and never reaches the model): valid
  entries, nothing valid, an empty list, a value that is not a list, the reserved key
  alone, a failed call.
* ¶5 (a failed or declined call carries no artifacts): a tool's own failure, a failure
  after the same tool succeeded in the batch, in a later pass, after an answer; a
  declined call, beside an approved one, after a restart.

Left unjudged, because the text allows either reading (docs/interpretations.md): whether
a kept entry keeps keys of its own on the tool result (kept-entry-keys); what ``success``
a declined call's result says (declined-result); an entry with an empty ``type``, which
RT-TOOL-6 ¶5 refuses at collection (empty-type, judged by RT-TOOL-6's checks); a reserved
key holding a single map instead of a list.

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``.
"""
