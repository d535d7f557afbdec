"""``python -m reference_impl.harness [--mutant NAME | --variant NAME | --shape NAME]``: the
harness over stdio (JSON lines)."""

from __future__ import annotations

import argparse
import json
import sys

from adapters.errors import RttoolError
from reference_impl.harness import create


def main() -> int:
    """Read one request per line on stdin, answer one reply per line on stdout."""
    parser = argparse.ArgumentParser(prog="python -m reference_impl.harness")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--mutant", default=None, help="run a named mutant instead")
    chosen.add_argument("--variant", default=None, help="run a named legal variant instead")
    chosen.add_argument("--shape", default=None, help="run a named runtime shape instead")
    args = parser.parse_args()
    try:
        harness = create(args.mutant, args.variant, args.shape)
    except RttoolError as err:  # an unknown mutant, variant or shape: one line, no traceback
        parser.error(str(err))
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as err:
            reply: object = {"error": {"message": f"request is not JSON: {err}"}}
        else:
            reply = (
                harness.request(message)
                if isinstance(message, dict)
                else {"error": {"message": "request is not a JSON object"}}
            )
        sys.stdout.write(json.dumps(reply, ensure_ascii=False, allow_nan=False) + "\n")
        sys.stdout.flush()
        if isinstance(message, dict) and message.get("cmd") == "bye":
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
