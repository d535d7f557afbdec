"""The protocol's codec and schemas, for code outside ``adapters``.

* :func:`to_json` and :func:`from_json` turn the protocol's frozen dataclasses (a
  :class:`~adapters.scenario.Scenario`, a :class:`~adapters.trace.Trace`, a handshake)
  into JSON values and back; :class:`CodecError` names the JSON pointer of a value that
  does not fit.  :data:`Json` marks a leaf that crosses the codec untouched.
* :func:`validator`, :func:`schema`, :func:`check_inbound` and :func:`check_outbound`
  hold a JSON value to the published schemas (``adapters/schemas/``): what an
  implementation sent (a violation is its fault) and what the suite is about to send
  (a violation is the suite's own).
"""

from adapters._codec import CodecError, Json, from_json, to_json
from adapters._schemas import SCHEMA_FILES, check_inbound, check_outbound, schema, validator

__all__ = [
    "SCHEMA_FILES",
    "CodecError",
    "Json",
    "check_inbound",
    "check_outbound",
    "from_json",
    "schema",
    "to_json",
    "validator",
]
