"""RT-TOOL-6's hand-written checks.  What they vary, and what is left unjudged, is in the
rule's overview (:mod:`conformance.checks.rt_tool_6`).

The checks live by clause in private modules (¶1, ¶2 in ``_kept``; ¶3, ¶4 in ``_drops``;
¶5, ¶6 in ``_plain``); importing them here sets their order.
"""

from conformance.checks.rt_tool_6._drops import (
    check_drop_is_per_artifact,
    check_drop_warns_and_leaves_no_placeholder,
)
from conformance.checks.rt_tool_6._kept import (
    check_floors_accepted,
    check_nothing_downstream_rechecks,
    check_run_collection_is_bounded,
)
from conformance.checks.rt_tool_6._plain import (
    check_empty_type_refused,
    check_payload_is_plain_text,
)

__all__ = [
    "check_drop_is_per_artifact",
    "check_drop_warns_and_leaves_no_placeholder",
    "check_empty_type_refused",
    "check_floors_accepted",
    "check_nothing_downstream_rechecks",
    "check_payload_is_plain_text",
    "check_run_collection_is_bounded",
]

#: The checks of this rule, in the order they run and are reported.
CHECKS = (
    check_drop_is_per_artifact,
    check_drop_warns_and_leaves_no_placeholder,
    check_floors_accepted,
    check_nothing_downstream_rechecks,
    check_run_collection_is_bounded,
    check_empty_type_refused,
    check_payload_is_plain_text,
)
