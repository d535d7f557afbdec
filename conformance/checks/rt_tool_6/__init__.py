"""RT-TOOL-6: artifacts are bounded once, at the point they are collected.

"512 KB", "2 MB" and "once JSON-encoded" are not defined by the rule (docs/interpretations.md,
payload-size): what every reading must keep is sized by its largest encoding (spaced,
non-ASCII and ``/`` escaped) and stays within 512,000 and 2,000,000 bytes; what every
reading must drop exceeds the bound in its smallest (compact UTF-8).  What the clauses
quantify over, and how the checks vary it:

* ¶1 (nothing downstream re-checks what one run collected): the run's count bound and its
  byte bound, scaled down and the implementation's own default; two and three runs of
  one turn, each filled to its bound, delivered together by the last one.
* ¶2 (the floors): one payload at 512,000 bytes, in ASCII and mixed with two-, three- and
  four-byte characters; 50 artifacts; 2,000,000 bytes across four payloads.
* ¶3 (a drop warns, naming the tool, the run, the type and the call; the run goes on; no
  placeholder): every bound crossed (payload, payload by one UTF-8 byte of non-ASCII text,
  count, aggregate) and a payload that does not encode; two drops in one batch; a drop in
  a resumed run; an odd count bound; empty payloads exactly at a payload bound filling an
  aggregate bound to the byte, and to one byte short (a bound the scenario sets is the
  one enforced).
* ¶4 (a drop is per artifact): the later artifact in the same call, a later call, a later
  pass; after an aggregate drop, two drops, a payload drop; filling exactly what remains.
* ¶5 (an empty ``type`` is refused): beside a neighbour, alone, twice, before a pause, and
  at the count bound (a refused artifact takes no share of it).
* ¶6 (payload values are plain text): markup and template syntax, nested values and keys,
  escapes and unusual Unicode, numbers and special numbers in strings, a long value.

Left unjudged, because the text allows either reading: whether a payload between the
bound's smallest and largest encodings is kept; whether the empty type reaches the tool
result and the ``tool_artifacts`` port before collection refuses it, and whether that
refusal warns (empty-type); whether a warning names things in its fields or its text
(drop-warnings).  An implementation that collects nothing (RT-TOOL-5 ¶1) is not held to
this rule.

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, the situations the clauses name (and why the others
name none) in ``situations.py``.
"""
