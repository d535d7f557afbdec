"""RT-TOOL-8: a model's tool arguments are normalized against the tool's own schema.

The reconciled arguments are what the tool body received when it ran (its side effect
records its input), else the tool result's reported ``arguments`` (the body does not run
when the reconciled arguments fail the tool's schema: a string passed through for an
``array`` parameter does).  What the clauses quantify over, and how the checks vary it:

* ¶1 (reconciled before invocation): the first call, the second call of a batch, a call
  in a later pass, a gated call once approved, a call after an answer.
* ¶2 (decoded where all three conditions hold): ``array`` and ``object`` parameters,
  empty and nested values, whitespace, JSON escapes and non-ASCII text, numbers in every
  notation, union types naming ``array`` or ``object`` with ``null`` or ``integer``, keys
  in an unusual order, a value of 100 KB; a parameter another tool of the batch,
  called first, declares ``string`` under the same name (what a tool declares is its own).
* ¶3 (otherwise passed through unmodified): a parameter declared ``string``, every
  mismatched shape (a map, a list, a string, a number, a boolean, null), text that is
  not JSON (truncated, single-quoted, trailing garbage, empty), the special numbers JSON
  has no notation for (``NaN``, ``Infinity``), a list and a map sent as themselves, JSON
  text nested past rttool's nesting limit (what it becomes is not judged: decoded, no
  harness can report it, and the case is untested), parameters the schema does not
  declare or declares without a type; a ``string`` parameter another tool of the batch,
  called first, declares ``array`` under the same name.  A call that gets no result because its run
  failed fails the clause its case judges: reconciling never fails a run.
* ¶4 (every string leaf decoded until stable): a doubly escaped value, named, decimal and
  hexadecimal references (astral characters among them), leaves nested in maps and lists
  twenty levels deep and inside a decoded JSON array, non-ASCII text around references,
  and values escaped at and around the number of passes the handshake declares
  (``limits.normalize_passes``).
* ¶5 (keys never modified; text without references unchanged): keys holding
  references, in nested maps and in maps inside lists, keys in an unusual order; text
  with a bare ampersand, ``&;``, ``&#;``, unknown names, whitespace, control characters,
  50 KB of text; numbers, booleans and null.

Accepted either way, because the text allows both (docs/interpretations.md): which
repair comes first (repair-order: an escaped JSON text may stay a string or be decoded),
references without a semicolon (references-without-semicolon), the number of passes
beyond the declared bound (decoding-pass-bound), a parameter whose union type names
``string`` beside ``array`` (union-with-string), a number too large for a double
(out-of-range-numbers).  Left unjudged: schemas that declare a type through ``anyOf``,
``oneOf`` or ``$ref``, and strings nested below the top-level parameters, which ¶2 does
not call arguments.

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, the situations the clauses name (which a passing case
must reach for a clause to conform) in ``situations.py``.
"""
