"""RT-TOOL-3: artifacts leave a tool call on their own port, apart from the model's prose.

What the clauses quantify over, and how the checks vary it:

* ¶1 (every call's artifacts on ``tool_artifacts``, exactly ``{type, payload,
  tool_call_id}``, built key by key): several calls in one batch (one with an identifier
  of unusual characters), two calls of one tool, a tool that forges a ``tool_call_id``
  (a made-up one, or its sibling's), entries with keys of their own and payloads that
  nest ``type``, ``payload`` and ``tool_call_id``, a call in a later pass.
* ¶2 (the port is not exposed by default): no exposure choice at all, another port
  exposed, every pass of a turn that paused and resumed.
* ¶3 (the prose comes from ``data`` alone): one call, several, two calls of one tool, a
  failed call whose node emitted an artifact, a repeat's re-emitted prose, the model's
  input after a pause, an artifact whose ``type`` is what would leak; and, whatever the
  prose's format, the prose of a call is the same with and without its artifacts.
* ¶4 (delivery does not depend on exposure): the port exposed, explicitly not exposed,
  several calls, artifacts held through a pause, each against no choice at all.

Left unjudged, because the text allows either reading (docs/interpretations.md): the
format of the prose (prose-format: only that it comes from ``data`` alone is judged);
the order of the port's entries across calls; what an identifier-less call's entries are
paired with; whether a repeat surfaces its stored artifacts again.

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``.
"""
