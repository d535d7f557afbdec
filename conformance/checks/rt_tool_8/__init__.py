"""RT-TOOL-8: a model's tool arguments are normalized against the tool's own schema.

The reconciled arguments are what the tool body received when it ran (its side effect
records its input), else the tool result's reported ``arguments`` (the body does not run
when the reconciled arguments fail the tool's schema: a string passed through for an
``array`` parameter does).  What the clauses quantify over, and how the checks vary it:

* ¶1 (reconciled before invocation): the first call, the second call of a batch, a call
  in a later pass, a gated call once approved, a call after an answer.  Which repairs
  reconciling makes is ¶2's and ¶4's word: where the runtime's reconciliation (as its
  result reports it) leaves one undone, the case observes through that repair and is
  blocked by its clause.  ¶1's own are a body handed other arguments than the
  reconciliation its result reports, and arguments not reconciled at all although both
  repairs had work to do.
* ¶2 (decoded where all three conditions hold): ``array`` and ``object`` parameters,
  empty and nested values, whitespace, JSON escapes and non-ASCII text, numbers in every
  notation, union types naming ``array`` or ``object`` with ``null`` or ``integer``
  (decoded or not: either reading is accepted), keys in an unusual order, a value of 100
  KB; a parameter another tool of the batch, called first, declares ``string`` under the
  same name (what a tool declares is its own).
* ¶3 (otherwise passed through unmodified): a parameter declared ``string``, every
  mismatched shape (a map, a list, a string, a number, a boolean, null), text that is
  not JSON (truncated, single-quoted, trailing garbage, empty), the special numbers JSON
  has no notation for (``NaN``, ``Infinity``), a list and a map sent as themselves, JSON
  text nested past rttool's nesting limit (what it becomes is not judged: decoded, no
  harness can report it, and the case is untested), parameters the schema does not
  declare or declares without a type; a ``string`` parameter another tool of the batch,
  called first, declares ``array`` under the same name; the text a lenient parser reads
  as something else (``"true"``, ``"false"``, ``"null"``, ``"None"``, ``"0"``, ``"[]"``)
  for ``string`` parameters and undeclared ones.  Turning such text into a boolean, null,
  a number or a list is a decoding, which ¶3 forbids ("never decoded", "passed through
  unmodified"); ¶5's "text ... returned unchanged" speaks of what reference decoding
  leaves alone, and is judged on text that stays text.  A call that gets no result
  because its run failed fails the clause its case judges: reconciling never fails a run.
* ¶4 (every string leaf decoded until stable): a doubly escaped value, named, decimal and
  hexadecimal references (astral characters among them), leaves nested in maps and lists
  twenty levels deep and inside a decoded JSON array, non-ASCII text around references,
  and values escaped at and around the number of passes the handshake declares
  (``limits.normalize_passes``).  Every argument is declared with the type it is sent as
  (a runtime whose tools take only what they declare receives them all); an argument
  dropped all the same is ¶5's ("Keys are never modified"), and a JSON text a leaf sits
  in left undecoded ¶2's: the cases observe through both.
* ¶5 (keys never modified; text without references unchanged): keys holding
  references, in nested maps and in maps inside lists, keys in an unusual order; text
  with a bare ampersand, ``&;``, ``&#;``, unknown names, whitespace, control characters,
  50 KB of text; numbers, booleans and null.

Accepted either way, because the text allows both (docs/interpretations.md): which
repair comes first (repair-order: an escaped JSON text may stay a string or be decoded),
references without a semicolon (references-without-semicolon), the number of passes
beyond the declared bound (decoding-pass-bound), a parameter whose union type names
``string`` beside ``array`` (union-with-string) or ``null`` beside it (union-types), a
number too large for a double (out-of-range-numbers).  Left unjudged: schemas that
declare a type through ``anyOf``, ``oneOf`` or ``$ref``, and strings nested below the
top-level parameters, which ¶2 does not call arguments.

Whose words a wrong reconciliation breaks is read argument by argument (``_observed``),
and each check observes through the other clauses' parts of it (``_channels``): the body
handed the reconciliation its result reports (¶1), the JSON decoding (¶2), the pass-through
that never fails a run (¶3), the reference decoding (¶4), the keys and plain text kept
(¶5).  A case whose trace breaks one of them is blocked by that clause.

The checks are in ``checks.py``, the example vectors in ``vectors.py``, the hunt's
invariants in ``invariants.py``, the situations the clauses name (which a passing case
must reach for a clause to conform) in ``situations.py``.
"""
