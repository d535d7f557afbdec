"""The toolkit a rule package (``conformance/checks/<rule>/``) is written with: every name
here is one some rule package uses, and each is documented, with an example per group, in
``docs/toolkit.md``.  What runs the suite (the engine's and the hunt's types) is the
toolkit's other face, :mod:`conformance.toolkit.machinery`; a rule's own notions live in
private modules of its package.

Checks:
    :func:`check` binds a function taking a :class:`CheckContext` to clause ids (and
    variants); the context runs scenarios and records expectations
    (:meth:`~CheckContext.expect`, :meth:`~CheckContext.need`; :data:`NOT_COMPARED` where
    an expectation has no single value to show), and a case that needs what another
    clause provides states it with :meth:`~CheckContext.prerequisite`.
    :class:`Untested` ends a check that cannot run; :func:`collects` ends one as not
    applicable to an implementation that collects no artifacts;
    :func:`expect_withheld_from_the_model` expects a text kept from the model.
Scenarios:
    :func:`scenario`, :func:`tool`, :func:`output`, :func:`failure`, :func:`artifact`,
    :func:`link`, :func:`canary`, :func:`calls`, :func:`call`, :func:`say`,
    :func:`ask`; :func:`one_turn` runs one from a check.  The durable-resume checks'
    tools, calls and cuts: :func:`tools`, :func:`send`, :func:`ticket`, :func:`cut`,
    :func:`resume`, :func:`resumes_by_itself`, :func:`nudge`, and a pause inside a
    resumed chunk (:class:`ChunkPause`, :data:`CHUNK_PAUSES`).
Trace queries:
    Untrusted JSON read safely (:func:`mapping`, :func:`array`, :func:`entries`,
    :func:`string_values`, :func:`strings`, :func:`contains`, :func:`same_json`,
    :func:`kept_entry`, :func:`projection`); runs, passes, results and side effects with
    their pointers (:func:`located_runs`, :func:`located_passes`,
    :func:`located_results`, :func:`located_side_effects`,
    :func:`located_continuations`, :func:`ran`, :func:`runs_of`,
    :func:`located_warnings`); a pass's ports (:func:`ports`, :func:`port`); a turn on
    the wire (:func:`turn`, :func:`turn_pointer`, :func:`wire_at`, :func:`wire_pointer`,
    :func:`delivered`, :func:`delivered_at`, :func:`assistant_rows`,
    :func:`count_on_wire`); where a value is (:func:`pointers`, :func:`locate`,
    :func:`escape_token`, :func:`in_model_inputs`, :func:`in_tool_messages`); a turn's
    state as the handshake declares it (:func:`state_of`, :func:`in_state`,
    :func:`stopped_with_continue`); what a model was told (:func:`text_of`,
    :func:`resume_prompt`, :class:`ResumePrompt`, :func:`names_call`, :func:`shows`,
    :func:`leaves`).
Messages:
    :func:`show`, :func:`listing`, :func:`whereabouts`, :func:`misplaced`,
    :func:`shown_key`, :func:`describe`, :func:`unnamed`, :func:`warnings_text`,
    :func:`canary_phrase`, :func:`plural`, :func:`citation`: how a failure message shows
    what it found.
Vectors:
    :class:`Binding` runs a rule's examples of one shape (:class:`VectorRun`); each
    verdict names its :data:`Stage`.
Situations:
    :func:`situation` declares a situation a clause's text names (a
    :class:`ClauseSituation`, in a rule package's ``situations`` module), reached where
    its test (a :data:`Situation`) holds of a trace; a clause conforms only when passing
    cases reached each.  What the tests read: the wire as the implementation's own
    (:func:`read_from_the_implementation`), the steps that delivered artifacts
    (:func:`delivered_steps`), what a call's node did (:func:`node_outputs`,
    :class:`NodeOutput`), and how runs resume their turns (:data:`RESUMING`,
    :func:`cut_by`, :func:`runs_by_turn`, :func:`dispatched`, :class:`Dispatched`,
    :func:`writes`), and the stretch of its turn a run belongs to, over which a call's
    identifier is guarded (:func:`stretches`).
Invariants:
    :func:`invariant` declares what the hunt holds every generated trace to (an
    :class:`Invariant`; a verdict that is a :class:`Breach` names the clauses its
    counterexample breaks).  The walkers it judges with: what was produced and
    delivered, traced by canary (:func:`produced`, :class:`Produced`,
    :func:`produced_counts`, :func:`canary_of`, :func:`canaries_in`,
    :func:`wire_canaries`, :func:`message_canaries`, :func:`wires`,
    :func:`scripted_entries`, :func:`emitting_tools`, :func:`no_loss`,
    :func:`produced_then_completed`); a pass's calls as the guard sees them
    (:func:`seen_passes`, :class:`Seen`, :func:`paired`, :func:`well_formed`,
    :func:`identifier`, :func:`doubtful_ids`, :func:`guarded_results`); and what a
    resumed run is owed (:func:`completed_calls`, :func:`interrupted_calls`,
    :func:`unreported_calls`, :func:`call_signature`).
Channels:
    What a check, a vector or an invariant observes through (a :class:`Channel`),
    declared with ``through=``:
    a failure seen where the channel is broken is its clause's, and the case is blocked
    there.  The artifacts on their way: :data:`RESULTS_SHAPED`, :data:`DATA_AS_PRODUCED`
    (RT-TOOL-1 ¶1), :data:`ARTIFACTS_LISTED` (RT-TOOL-1 ¶2), :data:`DATA_DISJOINT`
    (RT-TOOL-1 ¶3), :data:`ARTIFACTS_ATTACHED`
    and :data:`ANY_ARTIFACT_ATTACHED` (RT-TOOL-2 ¶3), :data:`RESERVED_KEY_REMOVED` (RT-TOOL-2 ¶4),
    :data:`TOOL_ARTIFACTS_PORT` (RT-TOOL-3 ¶1), :data:`ARTIFACTS_ON_MESSAGES` (RT-TOOL-4
    ¶1), :data:`TOOL_ARTIFACTS_FIELD` (RT-TOOL-4 ¶3), :data:`COLLECTION_STAYS_OPEN`
    (RT-TOOL-5 ¶3), :data:`HELD_ACROSS_A_PAUSE` (RT-TOOL-7 ¶1),
    :data:`HELD_TAKEN_BY_THEIR_TURN` (¶2), :data:`HELD_PUT_BACK` (¶4); :data:`DELIVERY`,
    what a check reading delivery on the messages goes through; and :data:`CONTINUES_ON_ITS_OWN`
    (DR-5 ¶1), what a durable-resume case waiting for a turn to continue goes through,
    and :data:`LEDGER_RECORDS_RETURNS` (DR-1 ¶1), what a case reading a call's journaled
    result goes through; :data:`NOTE_AFTER_THE_NUDGE` (DR-2 ¶1) and
    :data:`NOTE_NAMES_COMPLETED` (DR-2 ¶2), what a case reading a continuation's note goes
    through, :data:`HARD_BLOCK_ANSWERS` (DR-3 ¶2), what a case counting re-dispatched
    writes goes through, and :data:`CONTINUE_ACCEPTED` (DR-5 ¶5), what a case choosing
    Continue goes through.
    The tool-call rules': :data:`GUARD_HOLDS` (RT-TOOL-9 ¶1, read by :func:`ran_again`),
    :func:`ran_unidentified`,
    :data:`RECORDED_ONCE_RETURNED` (RT-TOOL-9 ¶4, read by :func:`skipped_unrecorded`),
    :data:`UNIDENTIFIED_CALLS_RUN` (RT-TOOL-9 ¶5), :data:`UNWIRED_CALLS_ANSWERED`
    (RT-TOOL-10 ¶2), :data:`UNIDENTIFIED_CALLS_ANSWERED` (RT-TOOL-10 ¶4),
    :data:`WORK_PORTS` (RT-TOOL-10 ¶1) and :data:`BODY_GETS_THE_RECONCILIATION`
    (RT-TOOL-8 ¶1).
"""

from conformance.toolkit._bounds import (
    collects,
    count_on_wire,
    located_warnings,
    warnings_text,
    wire_pointer,
)
from conformance.toolkit._channels import Channel
from conformance.toolkit._context import NOT_COMPARED, CheckContext
from conformance.toolkit._durable import (
    CHUNK_PAUSES,
    ChunkPause,
    cut,
    located_continuations,
    nudge,
    plural,
    ran,
    resume,
    resumes_by_itself,
    runs_of,
    send,
    ticket,
    tools,
)
from conformance.toolkit._invariant import Breach, Invariant, Situation, invariant
from conformance.toolkit._json import array, mapping, string_values
from conformance.toolkit._node_outputs import NodeOutput, node_outputs
from conformance.toolkit._outcomes import Untested, citation
from conformance.toolkit._passes import (
    Seen,
    doubtful_ids,
    guarded_results,
    identifier,
    paired,
    seen_passes,
    well_formed,
)
from conformance.toolkit._produced import (
    Produced,
    canaries_in,
    canary_of,
    canary_phrase,
    emitting_tools,
    message_canaries,
    no_loss,
    produced,
    produced_counts,
    produced_then_completed,
    scripted_entries,
    wire_canaries,
    wires,
)
from conformance.toolkit._registry import check
from conformance.toolkit._results import (
    delivered_at,
    entries,
    expect_withheld_from_the_model,
    in_model_inputs,
    in_tool_messages,
    kept_entry,
    projection,
    same_json,
    shown_key,
    wire_at,
)
from conformance.toolkit._resumed import (
    call_signature,
    completed_calls,
    interrupted_calls,
    unreported_calls,
)
from conformance.toolkit._resuming import (
    RESUMING,
    Dispatched,
    cut_by,
    dispatched,
    runs_by_turn,
    writes,
)
from conformance.toolkit._running import one_turn, port, ports
from conformance.toolkit._scenarios import (
    artifact,
    ask,
    call,
    calls,
    canary,
    failure,
    link,
    output,
    say,
    scenario,
    tool,
)
from conformance.toolkit._shown import listing, misplaced, show, whereabouts
from conformance.toolkit._situations import (
    ClauseSituation,
    delivered_steps,
    read_from_the_implementation,
    situation,
    stretches,
)
from conformance.toolkit._states import describe, in_state, state_of, stopped_with_continue
from conformance.toolkit._through import RESERVED_KEY_REMOVED, RESULTS_SHAPED, WORK_PORTS
from conformance.toolkit._through_artifacts import (
    ANY_ARTIFACT_ATTACHED,
    ARTIFACTS_ATTACHED,
    ARTIFACTS_LISTED,
    ARTIFACTS_ON_MESSAGES,
    DATA_AS_PRODUCED,
    DATA_DISJOINT,
    TOOL_ARTIFACTS_FIELD,
    TOOL_ARTIFACTS_PORT,
)
from conformance.toolkit._through_calls import (
    BODY_GETS_THE_RECONCILIATION,
    GUARD_HOLDS,
    RECORDED_ONCE_RETURNED,
    UNIDENTIFIED_CALLS_ANSWERED,
    UNIDENTIFIED_CALLS_RUN,
    UNWIRED_CALLS_ANSWERED,
    ran_again,
    ran_unidentified,
    skipped_unrecorded,
)
from conformance.toolkit._through_durable import CONTINUES_ON_ITS_OWN, LEDGER_RECORDS_RETURNS
from conformance.toolkit._through_held import (
    COLLECTION_STAYS_OPEN,
    DELIVERY,
    HELD_ACROSS_A_PAUSE,
    HELD_PUT_BACK,
    HELD_TAKEN_BY_THEIR_TURN,
)
from conformance.toolkit._through_resumed import (
    CONTINUE_ACCEPTED,
    HARD_BLOCK_ANSWERS,
    NOTE_AFTER_THE_NUDGE,
    NOTE_NAMES_COMPLETED,
)
from conformance.toolkit._told import (
    ResumePrompt,
    leaves,
    names_call,
    resume_prompt,
    shows,
    text_of,
    unnamed,
)
from conformance.toolkit._traces import (
    assistant_rows,
    contains,
    delivered,
    escape_token,
    locate,
    located_passes,
    located_results,
    located_runs,
    located_side_effects,
    pointers,
    strings,
    turn,
    turn_pointer,
)
from conformance.toolkit._vectors import Binding, Stage, VectorRun

__all__ = [
    "ANY_ARTIFACT_ATTACHED",
    "ARTIFACTS_ATTACHED",
    "ARTIFACTS_LISTED",
    "ARTIFACTS_ON_MESSAGES",
    "BODY_GETS_THE_RECONCILIATION",
    "CHUNK_PAUSES",
    "COLLECTION_STAYS_OPEN",
    "CONTINUES_ON_ITS_OWN",
    "CONTINUE_ACCEPTED",
    "DATA_AS_PRODUCED",
    "DATA_DISJOINT",
    "DELIVERY",
    "GUARD_HOLDS",
    "HARD_BLOCK_ANSWERS",
    "HELD_ACROSS_A_PAUSE",
    "HELD_PUT_BACK",
    "HELD_TAKEN_BY_THEIR_TURN",
    "LEDGER_RECORDS_RETURNS",
    "NOTE_AFTER_THE_NUDGE",
    "NOTE_NAMES_COMPLETED",
    "NOT_COMPARED",
    "RECORDED_ONCE_RETURNED",
    "RESERVED_KEY_REMOVED",
    "RESULTS_SHAPED",
    "RESUMING",
    "TOOL_ARTIFACTS_FIELD",
    "TOOL_ARTIFACTS_PORT",
    "UNIDENTIFIED_CALLS_ANSWERED",
    "UNIDENTIFIED_CALLS_RUN",
    "UNWIRED_CALLS_ANSWERED",
    "WORK_PORTS",
    "Binding",
    "Breach",
    "Channel",
    "CheckContext",
    "ChunkPause",
    "ClauseSituation",
    "Dispatched",
    "Invariant",
    "NodeOutput",
    "Produced",
    "ResumePrompt",
    "Seen",
    "Situation",
    "Stage",
    "Untested",
    "VectorRun",
    "array",
    "artifact",
    "ask",
    "assistant_rows",
    "call",
    "call_signature",
    "calls",
    "canaries_in",
    "canary",
    "canary_of",
    "canary_phrase",
    "check",
    "citation",
    "collects",
    "completed_calls",
    "contains",
    "count_on_wire",
    "cut",
    "cut_by",
    "delivered",
    "delivered_at",
    "delivered_steps",
    "describe",
    "dispatched",
    "doubtful_ids",
    "emitting_tools",
    "entries",
    "escape_token",
    "expect_withheld_from_the_model",
    "failure",
    "guarded_results",
    "identifier",
    "in_model_inputs",
    "in_state",
    "in_tool_messages",
    "interrupted_calls",
    "invariant",
    "kept_entry",
    "leaves",
    "link",
    "listing",
    "locate",
    "located_continuations",
    "located_passes",
    "located_results",
    "located_runs",
    "located_side_effects",
    "located_warnings",
    "mapping",
    "message_canaries",
    "misplaced",
    "names_call",
    "no_loss",
    "node_outputs",
    "nudge",
    "one_turn",
    "output",
    "paired",
    "plural",
    "pointers",
    "port",
    "ports",
    "produced",
    "produced_counts",
    "produced_then_completed",
    "projection",
    "ran",
    "ran_again",
    "ran_unidentified",
    "read_from_the_implementation",
    "resume",
    "resume_prompt",
    "resumes_by_itself",
    "runs_by_turn",
    "runs_of",
    "same_json",
    "say",
    "scenario",
    "scripted_entries",
    "seen_passes",
    "send",
    "show",
    "shown_key",
    "shows",
    "situation",
    "skipped_unrecorded",
    "state_of",
    "stopped_with_continue",
    "stretches",
    "string_values",
    "strings",
    "text_of",
    "ticket",
    "tool",
    "tools",
    "turn",
    "turn_pointer",
    "unnamed",
    "unreported_calls",
    "warnings_text",
    "well_formed",
    "whereabouts",
    "wire_at",
    "wire_canaries",
    "wire_pointer",
    "wires",
    "writes",
]
